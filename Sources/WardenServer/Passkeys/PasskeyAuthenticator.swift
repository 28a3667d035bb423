import Foundation
import WardenCore
import WardenWire

/// The hosted login's passkey sign-in (SPEC §17 "Hosted pages"), beside ``PasswordAuthenticator``: the request
/// options for one login transaction, and the check of the credential the page posts back through
/// ``PasskeyCeremonies``. A refusal is logged `f` naming the check (a sign count that did not grow among them) and
/// shown as one sentence; nothing is stored.
struct PasskeyAuthenticator: Sendable {
    let ceremonies: PasskeyCeremonies
    let users: any UserStore
    let connections: any ConnectionStore
    let eventLog: EventLog
    let clock: any WardenClock

    /// What the login page says when a passkey does not sign the person in.
    static let refusedMessage = "That passkey could not sign you in. Try again, or use your password."

    enum Outcome: Sendable {
        case authenticated(User)
        case refused(String)
    }

    /// The request options and `auth_session` of a passkey sign-in for the login `transactionID`; `nil` while
    /// passkeys are off.
    func options(client: Client, transactionID: String) async throws -> (JSONValue, String)? {
        guard try await PasskeyPolicy.current(connections).enabled else { return nil }
        return try await ceremonies.startAuthentication(clientID: client.clientID, transactionID: transactionID)
    }

    /// Checks the credential `response` answering the ceremony `session` of the login `transactionID`.
    func authenticate(
        session: String, response: String, client: Client, transactionID: String, ip: String?, userAgent: String?
    ) async throws -> Outcome {
        do {
            guard try await PasskeyPolicy.current(connections).enabled else { throw PasskeyPolicy.disabled }
            let answer = try PublicKeyCredentialAnswer(json: response)
            let pending = try await ceremonies.consume(session, clientID: client.clientID, transactionID: transactionID)
            let credential = try await ceremonies.authenticate(answer, pending: pending)
            guard let record = try await users.user(id: credential.userID), !record.user.blocked else {
                log("The user is blocked", client: client, userID: credential.userID, ip: ip, userAgent: userAgent)
                return .refused(PasswordAuthenticator.blockedMessage)
            }
            return .authenticated(record.user)
        } catch let error as OAuthError {
            log(error.description, client: client, userID: nil, ip: ip, userAgent: userAgent)
            return .refused(Self.refusedMessage)
        }
    }

    /// The creation options of a passkey sign-up on the sign-up page of the login `transactionID`, for the account
    /// `signUp` (admitted by ``AccountService/admitPasskeySignUp(email:name:caller:)``); `nil` while passkeys are off.
    func registrationOptions(_ signUp: PasskeyCeremonies.Pending.SignUp, client: Client, transactionID: String)
        async throws -> (JSONValue, String)?
    {
        guard try await PasskeyPolicy.current(connections).enabled else { return nil }
        return try await ceremonies.startRegistration(signUp, clientID: client.clientID, transactionID: transactionID)
    }

    /// The new credential `response` answering the sign-up ceremony `session` of the login `transactionID`,
    /// checked: the account to make and its passkey. A refusal is an `OAuthError` naming the check.
    func registration(
        session: String, response: String, client: Client, transactionID: String, userAgent: String?
    ) async throws -> (PasskeyCeremonies.Pending.SignUp, WebAuthnCredential) {
        guard try await PasskeyPolicy.current(connections).enabled else { throw PasskeyPolicy.disabled }
        let answer = try PublicKeyCredentialAnswer(json: response)
        let pending = try await ceremonies.consume(session, clientID: client.clientID, transactionID: transactionID)
        guard pending.ceremony == .registration, let signUp = pending.signUp else {
            throw OAuthError(.invalidGrant, "The auth_session is not a sign-up")
        }
        return (signUp, try ceremonies.register(answer, pending: pending, userID: signUp.userID, userAgent: userAgent))
    }

    private func log(_ description: String, client: Client, userID: String?, ip: String?, userAgent: String?) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: .loginFailure, description: "Passkey: " + description,
                clientID: client.clientID, clientName: client.name, ip: ip, userAgent: userAgent, userID: userID,
                details: ["connection": .string(Connection.databaseName)]))
    }
}
