/// Whether a string is an e-mail address Warden accepts (SPEC §9 `email`, the OpenAPI `format: email`): a
/// pragmatic subset of the RFC 5322 §3.4.1 `addr-spec`, as RFC 5321 §4.1.2 `Mailbox` narrows it for SMTP.
///
/// - local part: a `dot-atom` (RFC 5322 §3.2.3) of at most 64 characters (RFC 5321 §4.5.3.1.1): `atext`
///   characters in runs separated by single dots; quoted strings and comments are not accepted;
/// - domain: at least two DNS labels (RFC 1035 §2.3.1 as relaxed by RFC 1123 §2.1) of letters, digits and
///   inner hyphens, 1 to 63 characters each, the last not all digits; no domain literals;
/// - at most 254 characters in all (RFC 5321 §4.5.3.1.3 path limit less the angle brackets); ASCII only
///   (internationalized addresses are `format: idn-email`).
public enum EmailAddress {
    public static func isValid(_ address: String) -> Bool {
        guard address.utf8.count <= 254, address.unicodeScalars.allSatisfy(\.isASCII) else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return isDotAtom(parts[0]) && isDomain(parts[1])
    }

    /// RFC 5322 §3.2.3 `atext` besides letters and digits.
    private static let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~")

    private static func isDotAtom(_ local: Substring) -> Bool {
        guard local.count <= 64 else { return false }
        let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
        return atoms.allSatisfy { atom in
            !atom.isEmpty && atom.allSatisfy { $0.isLetter || $0.isNumber || atextSymbols.contains($0) }
        }
    }

    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, !last.allSatisfy(\.isNumber) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
