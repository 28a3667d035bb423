public import WardenWire

/// The `binding_message` of a CIBA request (CIBA Core §7.1, SPEC §6.1): shown on both devices so the user can
/// tell this request from another; 1–64 characters from letters, digits, space and `+-_.,:#`.
public enum BindingMessage {
    public static let maximumLength = 64
    static let punctuation: Set<Character> = [" ", "+", "-", "_", ".", ",", ":", "#"]

    /// `value`, or `invalid_binding_message` saying what is wrong with it.
    public static func validated(_ value: String?) throws(OAuthError) -> String {
        guard let value, !value.isEmpty else {
            throw OAuthError(.invalidBindingMessage, "binding_message is required")
        }
        guard value.count <= maximumLength else {
            throw OAuthError(.invalidBindingMessage, "binding_message must be at most \(maximumLength) characters")
        }
        guard value.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || punctuation.contains($0) }) else {
            throw OAuthError(
                .invalidBindingMessage, "binding_message may contain only letters, digits, space and +-_.,:#")
        }
        return value
    }

    /// A letter (Unicode category L*), possibly with combining marks; not a letter-like number such as "Ⅻ".
    static func isLetter(_ character: Character) -> Bool {
        var scalars = character.unicodeScalars.makeIterator()
        guard let base = scalars.next() else { return false }
        switch base.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: break
        default: return false
        }
        while let mark = scalars.next() {
            guard [.nonspacingMark, .spacingMark].contains(mark.properties.generalCategory) else { return false }
        }
        return true
    }
}
