import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The native passkey API's challenges (SPEC §17 "Native API"): `POST {issuer}passkey/register` `{"client_id",
/// "realm"?, "user_profile": {"email", "name"?}}` and `POST {issuer}passkey/challenge` `{"client_id", "realm"?}`,
/// each answering `{"authn_params_public_key", "auth_session"}`; the answer goes to `/oauth/token` with the webauthn
/// grant (``WebAuthnGrant``). While passkeys are off both are 403 `access_denied`.
struct PasskeyController: Sendable {
    let ceremonies: PasskeyCeremonies
    let accounts: AccountService
    let tenant: TenantCache
    let connections: any ConnectionStore
    let trustedProxies: [CIDR]

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("passkey/register") { request, context in try await register(request, context: context) }
        router.post("passkey/challenge") { request, context in try await challenge(request, context: context) }
    }

    private func register(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let client = try await admitted(parameters)
        guard let profileText = parameters["user_profile"],
            case .object(let profile)? = try? JSONValue(parsing: Array(profileText.utf8)),
            let email = profile["email"]?.stringValue
        else { throw OAuthError.invalidRequest("user_profile.email is required") }
        let caller = AccountService.Caller(
            client: client, request: request, context: context, trustedProxies: trustedProxies)
        let signUp: PasskeyCeremonies.Pending.SignUp
        do {
            signUp = try await accounts.admitPasskeySignUp(
                email: email, name: profile["name"]?.stringValue, caller: caller)
        } catch let refusal as AccountService.SignUpRefusal {
            throw Self.error(refusal)
        }
        let (options, session) = try await ceremonies.startRegistration(signUp, clientID: client.clientID)
        return Self.answer(options, session)
    }

    private func challenge(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let client = try await admitted(try await RequestParameters.read(from: request))
        let (options, session) = try await ceremonies.startAuthentication(clientID: client.clientID)
        return Self.answer(options, session)
    }

    /// The client of a passkey request: known, passkeys on, the realm (default the database connection) the
    /// database connection and enabled for the client.
    private func admitted(_ parameters: RequestParameters) async throws -> Client {
        guard let clientID = parameters["client_id"] else {
            throw OAuthError.invalidRequest("Missing required parameter: client_id")
        }
        guard let client = try await tenant.client(id: clientID)?.client else {
            throw OAuthError(.invalidClient, "Unknown client: \(clientID)")
        }
        guard try await PasskeyPolicy.current(connections).enabled else { throw PasskeyPolicy.disabled }
        try await PasskeyPolicy.checkRealm(parameters["realm"], client: client, connections: connections)
        return client
    }

    /// `{"authn_params_public_key", "auth_session"}` (SPEC §17): the answer of every endpoint that starts a ceremony,
    /// the native API's and the hosted pages' alike.
    static func answer(_ options: JSONValue, _ session: String) -> Response {
        .json(
            JSONValue.serializedObject([("authn_params_public_key", options), ("auth_session", .string(session))]),
            noStore: true)
    }

    /// A sign-up refusal in the Authentication API's shape (SPEC §15.1, §17).
    private static func error(_ refusal: AccountService.SignUpRefusal) -> OAuthError {
        switch refusal {
        case .disabled: OAuthError(.init(rawValue: "signup_disabled"), "Sign-ups are disabled")
        case .tooMany(let retryAfter):
            OAuthError(
                .tooManyRequests, "Too many sign-ups from this address",
                headers: [(name: "Retry-After", value: String(retryAfter))])
        case .invalidEmail: OAuthError.invalidRequest("user_profile.email is not an e-mail address")
        case .invalidPassword, .invalidSignup: OAuthError(.init(rawValue: "invalid_signup"), "Invalid sign up")
        }
    }
}

extension PasskeyPolicy {
    /// The policy the database connection has now.
    static func current(_ connections: any ConnectionStore) async throws -> PasskeyPolicy {
        PasskeyPolicy(options: try await connections.connection(id: Connection.databaseID)?.options ?? [:])
    }

    /// `realm` (SPEC §17: optional, default the database connection) must be the database connection, enabled for
    /// `client`.
    static func checkRealm(_ realm: String?, client: Client, connections: any ConnectionStore) async throws {
        if let realm, realm != Connection.databaseName {
            throw OAuthError.invalidRequest("Passkeys sign in to \(Connection.databaseName), not \(realm)")
        }
        guard try await connections.connections(enabledFor: client.clientID).contains(where: \.isDatabase) else {
            throw OAuthError(
                .unauthorizedClient, "The connection \(Connection.databaseName) is not enabled for the client")
        }
    }
}
