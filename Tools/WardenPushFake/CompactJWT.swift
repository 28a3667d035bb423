import Foundation

/// A JWS compact serialization (RFC 7515 §7.1) taken apart, its signature not yet checked.
struct CompactJWT {
    var header: [String: Any]
    var claims: [String: Any]
    /// `BASE64URL(header) . BASE64URL(payload)`, the bytes the signature covers.
    var signingInput: Data
    var signature: Data

    /// Fails with a reason when `token` is not three base64url parts with JSON objects in the first two.
    init(parsing token: String) throws(FakeCheckFailure) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URLDecode(parts[0]),
            let payloadData = Self.base64URLDecode(parts[1]), let signature = Self.base64URLDecode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
        else {
            throw FakeCheckFailure("not a compact JWS with JSON header and claims")
        }
        self.header = header
        self.claims = claims
        self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
        self.signature = signature
    }

    /// A NumericDate claim (RFC 7519 §2).
    func date(_ claim: String) -> Date? {
        (claims[claim] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        guard !text.contains("=") else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Why a request failed a check, for the rejected list and the answer.
struct FakeCheckFailure: Error {
    var detail: String
    init(_ detail: String) { self.detail = detail }
}
