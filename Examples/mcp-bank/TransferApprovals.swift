import Foundation
import WardenClient
import WardenResourceServer
import WardenWire

/// Asks a user to approve one transfer through CIBA (SPEC §6, §13 "Approval of an agent's action") with this
/// server's own confidential client, waits for the answer, and checks the approved access token.
///
/// The request goes to the token's user (`login_hint` iss_sub with the agent token's `sub`), for this resource
/// (`audience`), with the transfer's `money_transfer` authorization detail and binding message, and a
/// `requested_expiry` of at most 300 seconds, so that it is pushed to the user's devices. The approval counts
/// only when the token Warden issues verifies for this resource, names the same user, grants `transfer:funds`,
/// and carries exactly the requested `authorization_details` (RFC 9396 §9: the resource server enforces them).
actor TransferApprovals {
    /// What came of asking.
    enum Outcome: Sendable {
        /// The user approved; the approved access token.
        case approved(VerifiedAccessToken)
        /// Nothing is to be done, and why, in words for the agent and its user.
        case refused(String)
    }

    let issuer: URL
    let clientID: String
    let clientSecret: String
    let resource: ProtectedResource
    /// Seconds the user has to answer (`requested_expiry`, 10–300).
    let timeout: Int
    private var client: WardenClient?

    init(issuer: URL, clientID: String, clientSecret: String, resource: ProtectedResource, timeout: Int) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.resource = resource
        self.timeout = timeout
    }

    /// Asks `user` to approve `transfer` and waits until they answer or the request expires; `progress` hears
    /// about the wait (the seconds left).
    func approve(
        _ transfer: MoneyTransfer, by user: String, progress: @Sendable (String) async -> Void
    ) async -> Outcome {
        do {
            let warden = try await wardenClient()
            let started = try await warden.backchannelAuthenticate(
                BackchannelAuthenticationRequest(
                    loginHint: .issSub(issuer: warden.configuration.issuer.absoluteString, subject: user),
                    scope: [BankTools.transferScope], bindingMessage: transfer.bindingMessage,
                    authorizationDetails: [transfer.authorizationDetail], audience: resource.configuration.resource,
                    requestedExpiry: timeout))
            say("asked \(user) to approve \"\(transfer.bindingMessage)\" (auth_req_id \(started.authReqID))")
            await progress("Waiting for the user to approve \"\(transfer.bindingMessage)\" on their device")
            for try await event in warden.poll(started) {
                switch event {
                case .pending(let remaining):
                    await progress("Still waiting for approval: \(remaining.components.seconds) s left")
                case .slowDown: continue
                case .approved(let tokens): return try await check(tokens, for: transfer, user: user)
                }
            }
            return .refused("the approval request ended without an answer")
        } catch let error as WardenClientError {
            return .refused(Self.describe(error, timeout: timeout))
        } catch let error as ProtectedResourceError {
            return .refused("the approved token did not verify (\(error.description)); nothing was transferred")
        } catch {
            return .refused("the approval could not be asked for (\(error)); nothing was transferred")
        }
    }

    /// The approved token, verified for this resource, when it approves exactly `transfer` for `user`.
    private func check(_ tokens: TokenResponse, for transfer: MoneyTransfer, user: String) async throws -> Outcome {
        let token = try await resource.validate(tokens.accessToken)
        guard token.subject == user else {
            return .refused("the approval came from another user (\(token.subject ?? "none")); nothing was transferred")
        }
        guard token.scope.contains(BankTools.transferScope) else {
            return .refused("the approved token lacks the scope \(BankTools.transferScope); nothing was transferred")
        }
        guard token.authorizationDetails == [transfer.authorizationDetail] else {
            return .refused(
                "the approved authorization_details differ from the transfer asked for; nothing was transferred")
        }
        return .approved(token)
    }

    /// The client, discovered on first use (so the server starts before Warden does).
    private func wardenClient() async throws -> WardenClient {
        if let client { return client }
        let discovered = try await WardenClient.discover(
            issuer: issuer, clientID: clientID, authentication: .clientSecretBasic(clientSecret))
        client = discovered
        return discovered
    }

    /// The user's answer or Warden's refusal in words (CIBA Core §11).
    static func describe(_ error: WardenClientError, timeout: Int) -> String {
        let detail = error.errorDescription.map { "\(error.error): \($0)" } ?? error.error
        switch error.error {
        // The wire's description ("…denied the authorization request or it has been expired") is not for people.
        case "access_denied": return "the user denied the transfer"
        case "expired_token": return "the user did not answer within \(timeout) seconds; nothing was transferred"
        default: return "Warden refused the approval request (\(detail)); nothing was transferred"
        }
    }
}
