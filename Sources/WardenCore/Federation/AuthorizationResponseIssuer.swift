/// The verdict on the `iss` parameter of an upstream's authorization response (RFC 9207 §2.4, SPEC §15
/// "Sign-in"), which defends against mix-up attacks between connections.
public enum AuthorizationResponseIssuer: Sendable, Hashable {
    /// The callback names the connection's issuer, or carries no `iss` from an upstream that does not send it.
    case accepted
    /// The callback's `iss` is not the connection's issuer: refused.
    case mismatched
    /// The upstream's metadata says `authorization_response_iss_parameter_supported` and the callback has no
    /// `iss`: refused.
    case missing

    /// Decides on the callback's `iss` parameter (`parameter`) for a connection whose issuer is `issuer`;
    /// `parameterSupported` is the upstream metadata's `authorization_response_iss_parameter_supported`. The
    /// comparison is of exact strings (RFC 9207 §2.4, RFC 3986 §6.2.1).
    public init(parameter: String?, issuer: String, parameterSupported: Bool) {
        switch parameter {
        case .some(let value): self = value == issuer ? .accepted : .mismatched
        case .none: self = parameterSupported ? .missing : .accepted
        }
    }

    /// Whether the login may go on.
    public var isAccepted: Bool { self == .accepted }
}
