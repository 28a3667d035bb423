public import Foundation
public import WardenWire

/// The `otpauth://` URI in the enrollment QR code (SPEC §7.1):
/// `otpauth://totp/{issuer label}:{user email}?secret=…&enrollment_tx_id=…&issuer=…&id=…&base_url=…
/// &algorithm=sha1&digits=6&counter=0&period=30`.
///
/// Pass it to `Authenticator.enroll(uri:identifier:name:pushCredentials:)`.
public struct EnrollmentURI: Sendable, Hashable {
    /// The enrollment ticket (`enrollment_tx_id`), sent as `Authorization: Ticket id="…"`.
    public var ticketID: String
    /// The issuer the device talks to (`base_url`, percent-decoded, always ending in `/`).
    public var baseURL: URL
    /// The enrollment id the server reserved (`id`), when present.
    public var enrollmentID: String?
    /// The issuer label (`issuer`, or the label's prefix before `:`).
    public var issuer: String?
    /// The user's account name (the label after `:`, usually the e-mail address).
    public var accountName: String?
    /// The TOTP secret (`secret`, Base32), when present.
    public var secret: String?
    /// The TOTP algorithm (`algorithm`, default `sha1`).
    public var algorithm: TOTPAlgorithm
    /// The TOTP digits (`digits`, default 6).
    public var digits: Int
    /// The TOTP period in seconds (`period`, default 30).
    public var period: Int
    /// The HOTP counter (`counter`), when present.
    public var counter: Int?

    /// Parses an enrollment URI; `nil` when it is not `otpauth://totp/…` or lacks `enrollment_tx_id` or a valid
    /// `http(s)` `base_url`.
    public init?(_ string: String) {
        guard let components = URLComponents(string: string.trimmingCharacters(in: .whitespacesAndNewlines)),
            components.scheme?.lowercased() == "otpauth", components.host?.lowercased() == "totp"
        else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil {
            query[item.name] = item.value
        }
        guard let ticket = query["enrollment_tx_id"], !ticket.isEmpty,
            let base = query["base_url"].map(Self.decodeFully), let url = Self.normalizedBaseURL(base)
        else { return nil }
        ticketID = ticket
        baseURL = url

        let label = String(components.path.drop(while: { $0 == "/" }))
        let labelParts = label.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        if labelParts.count == 2 {
            accountName = labelParts[1].isEmpty ? nil : labelParts[1]
            issuer = query["issuer"] ?? (labelParts[0].isEmpty ? nil : labelParts[0])
        } else {
            accountName = label.isEmpty ? nil : label
            issuer = query["issuer"]
        }
        enrollmentID = query["id"].flatMap { $0.isEmpty ? nil : $0 }
        secret = query["secret"].flatMap { $0.isEmpty ? nil : $0 }
        algorithm = query["algorithm"].map(TOTPAlgorithm.init) ?? .sha1
        digits = query["digits"].flatMap(Int.init) ?? 6
        period = query["period"].flatMap(Int.init) ?? 30
        counter = query["counter"].flatMap(Int.init)
    }

    /// `base_url` is URL-encoded inside an already URL-encoded query; undo any remaining encoding.
    private static func decodeFully(_ value: String) -> String {
        var current = value
        for _ in 0..<3 {
            guard current.contains("%"), let decoded = current.removingPercentEncoding, decoded != current else {
                break
            }
            current = decoded
        }
        return current
    }

    /// An `http(s)` URL with a host, ending in `/`.
    static func normalizedBaseURL(_ string: String) -> URL? {
        let withSlash = string.hasSuffix("/") ? string : string + "/"
        guard let url = URL(string: withSlash), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return url
    }
}
