public import Foundation
import WardenCore

/// Where and how to reach the SMTP server: `--smtp-url` / `WARDEN_SMTP_URL` (SPEC §1, §6.4).
///
/// ```
/// smtp://[user[:password]@]host[:port][?starttls=required]    STARTTLS (RFC 3207) when the server offers it,
///                                                             or insisted on; port 25 by default
/// smtps://[user[:password]@]host[:port]                       TLS from the first byte (RFC 8314 §3.3); port 465
/// ```
///
/// The user and password are percent-decoded (RFC 3986 §2.1), so `%40` stands for `@` and `%3A` for `:`.
/// IPv6 hosts go in brackets (`smtp://[::1]:2525`). With a user, ``SMTPMailTransport`` authenticates with
/// SASL PLAIN or LOGIN (RFC 4954). ``description`` (and `dump`) never show the password.
public struct SMTPURL: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How the connection is protected.
    public enum Security: Sendable, Hashable {
        /// `smtp://`: upgrade with STARTTLS when the server's EHLO reply offers it, else go on in plain text.
        case startTLSWhenOffered
        /// `smtp://…?starttls=required`: fail unless the server offers STARTTLS (RFC 3207 §4.1).
        case startTLSRequired
        /// `smtps://`: TLS from the start of the connection (RFC 8314 §3.3).
        case implicitTLS
    }

    /// Why a `--smtp-url` was refused; the text never contains the password.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let security: Security
    /// A host name (lower-cased), an IPv4 address or an IPv6 address (without brackets).
    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?

    public init(security: Security, host: String, port: Int? = nil, username: String? = nil, password: String? = nil) {
        self.security = security
        self.host = host
        self.port = port ?? (security == .implicitTLS ? 465 : 25)
        self.username = username
        self.password = password
    }

    /// Parses `smtp://…` or `smtps://…` (see the type's documentation).
    public init(parsing string: String) throws {
        func fail(_ why: String) -> ParseError {
            ParseError(
                description: "invalid SMTP URL: \(why) (expected smtp://[user:password@]host:port"
                    + "[?starttls=required] or smtps://[user:password@]host:port)")
        }
        guard let schemeEnd = string.range(of: "://") else { throw fail("no scheme") }
        let security: Security
        switch string[..<schemeEnd.lowerBound].lowercased() {
        case "smtp": security = .startTLSWhenOffered
        case "smtps": security = .implicitTLS
        default: throw fail("unsupported scheme '\(string[..<schemeEnd.lowerBound].prefix(20))'")
        }
        var rest = string[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw fail("a fragment ('#…') is not allowed") }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            guard rest[slash...] == "/" else { throw fail("a path is not allowed") }
        }

        var username: String?
        var password: String?
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            let user: Substring
            if let colon = userInfo.firstIndex(of: ":") {
                user = userInfo[..<colon]
                guard
                    let decoded = PercentDecoding.decode(userInfo[userInfo.index(after: colon)...], plusIsSpace: false)
                else {
                    throw fail("the password has a malformed percent-escape")
                }
                password = decoded
            } else {
                user = userInfo
            }
            guard let decoded = PercentDecoding.decode(user, plusIsSpace: false), !decoded.isEmpty else {
                throw fail("the user name is empty or has a malformed percent-escape")
            }
            username = decoded
        }

        let host: Substring
        var portText: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { throw fail("unterminated IPv6 address") }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw fail("malformed IPv6 address")
            }
        } else {
            if let colon = hostAndPort.firstIndex(of: ":") {
                host = hostAndPort[..<colon]
                portText = hostAndPort[hostAndPort.index(after: colon)...]
            } else {
                host = hostAndPort
            }
            guard !host.isEmpty else { throw fail("no host") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
                throw fail("the host '\(host.prefix(64))' is not a host name or an IP address")
            }
        }
        var port: Int?
        if let portText {
            guard let number = Int(portText), portText.allSatisfy(\.isASCIIDigit), (1...65535).contains(number)
            else { throw fail("the port must be a number from 1 to 65535") }
            port = number
        }

        var finalSecurity = security
        for item in query.split(separator: "&") {
            guard item.lowercased() == "starttls=required" else {
                throw fail("unknown query parameter '\(item.prefix(40))' (only starttls=required is supported)")
            }
            guard security == .startTLSWhenOffered else {
                throw fail("starttls=required applies to smtp:// (smtps:// always uses TLS)")
            }
            finalSecurity = .startTLSRequired
        }
        self.init(
            security: finalSecurity, host: host.lowercased(), port: port, username: username, password: password)
    }

    /// Parses the URL's text (the CLI keeps `--smtp-url` as a `URL`).
    public init(_ url: URL) throws {
        try self.init(parsing: url.absoluteString)
    }

    /// The URL with the password replaced by `***`: safe for logs.
    public var description: String {
        var text = security == .implicitTLS ? "smtps://" : "smtp://"
        if let username {
            text += Self.percentEncoded(username) + (password == nil ? "" : ":***") + "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)"
        if security == .startTLSRequired { text += "?starttls=required" }
        return text
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "security": security, "host": host, "port": port, "username": username as Any,
                "password": password == nil ? "nil" : "***",
            ],
            displayStyle: .struct)
    }

    /// The user name as it would appear in a URL (RFC 3986 `unreserved` kept, the rest escaped).
    private static func percentEncoded(_ text: String) -> String {
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
        return text.utf8.map { byte in
            unreserved.contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
