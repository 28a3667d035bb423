public import WardenWire

/// A public JSON Web Key as published in Warden's JWKS (RFC 7517 §4). jwt-kit's JWK has no `use`,
/// so the document is our own type (ARCHITECTURE.md).
public struct JWK: Codable, Sendable, Equatable {
    public var kty: String
    public var kid: String?
    public var use: String?
    public var alg: String?
    public var n: String?
    public var e: String?
    public var crv: String?
    public var x: String?
    public var y: String?

    public init(
        kty: String, kid: String? = nil, use: String? = nil, alg: String? = nil, n: String? = nil,
        e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil
    ) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }

    /// The JSON members in the conventional order.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["kty": .string(kty)]
        for (key, value) in [
            ("kid", kid), ("use", use), ("alg", alg), ("n", n), ("e", e), ("crv", crv), ("x", x), ("y", y),
        ] {
            if let value { object[key] = .string(value) }
        }
        return .object(object)
    }
}

/// The JWKS document `{"keys": [...]}` (RFC 7517 §5).
public struct JWKSet: Codable, Sendable, Equatable {
    public var keys: [JWK]
    public init(keys: [JWK]) { self.keys = keys }
}
