public import WardenWire

/// A CIBA authentication request (CIBA Core §7.1, SPEC §6.1) with Rich Authorization Requests (RFC 9396).
///
/// ```swift
/// let request = BackchannelAuthenticationRequest(
///     loginHint: .issSub(issuer: "https://id.example.com/", subject: userID),
///     scope: ["openid"], bindingMessage: "Pay 2500 USD #A-17",
///     authorizationDetails: [["type": "money_transfer", "instructedAmount": ["amount": 2500, "currency": "USD"]]],
///     audience: "https://api.example.com")
/// ```
public struct BackchannelAuthenticationRequest: Sendable {
    /// The user to ask.
    public var loginHint: LoginHint
    /// The scopes; `openid` is required unless ``audience`` is set.
    public var scope: [String]
    /// The short text shown on the user's device and in the client (1–64 characters of letters, digits, space
    /// and `+-_.,:#`); Warden requires it.
    public var bindingMessage: String?
    /// What exactly the user approves (RFC 9396 §2), each object with a `type` registered on the API.
    public var authorizationDetails: [JSONValue]?
    /// The API the access token is for.
    public var audience: String?
    /// Seconds the request stays open (1–259200; Warden's default is 300). Up to 300 the user's push devices
    /// are asked, above that the user gets an e-mail (SPEC §6.1).
    public var requestedExpiry: Int?

    /// Creates a request.
    public init(
        loginHint: LoginHint, scope: [String], bindingMessage: String? = nil, authorizationDetails: [JSONValue]? = nil,
        audience: String? = nil, requestedExpiry: Int? = nil
    ) {
        self.loginHint = loginHint
        self.scope = scope
        self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails
        self.audience = audience
        self.requestedExpiry = requestedExpiry
    }
}
