/// A mailbox: an address with an optional display name (RFC 5322 §3.4 `mailbox`, `name-addr`).
///
/// The address is checked when the value is made, so it can go into an SMTP command (RFC 5321 §4.1.2
/// `Mailbox`) and a header field without escaping: an ASCII `local-part@domain` where the local part is a
/// `dot-atom` (RFC 5322 §3.2.3) and the domain a host name or an address literal (`[192.0.2.1]`). Quoted local
/// parts and internationalised addresses (SMTPUTF8, RFC 6531) are refused. The display name may be any text;
/// ``MailMessage`` quotes it, or encodes it as RFC 2047 encoded-words (§5 (3)) when it is not ASCII.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// Why a string is not a usable address.
    public struct InvalidAddress: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `local-part@domain`, as given.
    public let address: String
    /// The phrase shown by mail readers (`"Warden" <no-reply@example.com>`), without quotes.
    public let displayName: String?

    /// Checks `address` (see the type's documentation); an empty display name counts as none.
    public init(_ address: String, displayName: String? = nil) throws {
        try Self.validate(address)
        self.address = address
        let name = displayName?.trimmingWhitespace()
        self.displayName = (name?.isEmpty ?? true) ? nil : name
    }

    /// Reads `address@example.com`, `<address@example.com>` or `Display Name <address@example.com>` (the
    /// display name may be in double quotes, as `--mail-from` would give it).
    public init(parsing text: String) throws {
        let text = text.trimmingWhitespace()
        guard text.hasSuffix(">"), let open = text.lastIndex(of: "<") else {
            try self.init(text)
            return
        }
        let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        var name = String(text[..<open]).trimmingWhitespace()
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            var unquoted = ""
            var escaped = false
            for character in name.dropFirst().dropLast() {
                if escaped || character != "\\" {
                    unquoted.append(character)
                    escaped = false
                } else {
                    escaped = true
                }
            }
            name = unquoted
        }
        try self.init(address, displayName: name)
    }

    /// The domain after the last `@` (for a `Message-ID`, RFC 5322 §3.6.4).
    public var domain: String {
        String(address[address.index(after: address.lastIndex(of: "@")!)...])
    }

    /// The header form (`Name <address>`), for logs; see ``MailMessage/rendered(date:messageID:)`` for the
    /// encoded one.
    public var description: String {
        displayName.map { "\($0) <\(address)>" } ?? address
    }

    /// `atext` of RFC 5322 §3.2.3.
    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")

    private static func validate(_ address: String) throws {
        func invalid(_ why: String) -> InvalidAddress {
            // Addresses are not secrets, but the value is cut short: it may be junk of any size.
            InvalidAddress(description: "invalid e-mail address '\(address.prefix(80))': \(why)")
        }
        guard address.utf8.count <= 254 else { throw invalid("longer than 254 octets (RFC 5321 §4.5.3.1.3)") }
        guard let at = address.lastIndex(of: "@") else { throw invalid("no '@'") }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64 else {
            throw invalid("the local part must have 1 to 64 octets (RFC 5321 §4.5.3.1.1)")
        }
        let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
        guard atoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy(atext.contains) }) else {
            throw invalid("the local part must be a dot-atom of ASCII letters, digits and !#$%&'*+-/=?^_`{|}~")
        }
        if domain.hasPrefix("[") && domain.hasSuffix("]") && domain.count > 2 {
            let literal = domain.dropFirst().dropLast()
            guard literal.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".:".contains($0)) }) else {
                throw invalid("malformed address literal")
            }
            return
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !domain.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { throw invalid("the domain must be an ASCII host name (RFC 5321 §4.1.2 Domain)") }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
