public import WardenWire

/// How a CIBA client learns the outcome of its request (OpenID CIBA Core §4 `backchannel_token_delivery_mode`,
/// §5; SPEC §4, §6): an open set of `RawRepresentable` values, encoded as the plain string. Warden supports
/// `poll` and `ping` (the Management API's validation decides what a client may be given).
public struct BackchannelTokenDeliveryMode: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The client polls the token endpoint (CIBA Core §5, §10.1); the default.
    public static let poll: BackchannelTokenDeliveryMode = "poll"
    /// Warden calls the client notification endpoint, then the client polls once (CIBA Core §10.2).
    public static let ping: BackchannelTokenDeliveryMode = "ping"
    /// Warden sends the tokens to the client notification endpoint (CIBA Core §10.3); not supported.
    public static let push: BackchannelTokenDeliveryMode = "push"
}
