/// A JWS algorithm Warden signs with (RFC 7518 §3, RFC 8037 §3.1).
public enum SigningAlgorithm: String, Codable, Sendable, CaseIterable, Comparable {
    case rs256 = "RS256"
    case es256 = "ES256"
    case ps256 = "PS256"
    case edDSA = "EdDSA"

    public static func < (lhs: SigningAlgorithm, rhs: SigningAlgorithm) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
