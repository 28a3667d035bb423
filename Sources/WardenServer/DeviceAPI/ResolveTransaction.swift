import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `POST {issuer}appliance-mfa/api/resolve-transaction` (SPEC §7.4): a device allows or rejects a transaction
/// with a `challenge_response` JWT signed by its key. The first valid answer from any of the user's devices
/// decides the CIBA request — or the sign-in push (SPEC §12); later answers get 404 `login_transaction_not_found`.
struct ResolveTransaction {
    /// SPEC §7.4: `exp` at most 60 s after `iat`.
    static let maximumLifetime: Double = 60

    let runtime: WardenRuntime

    func addRoutes(to api: RouterGroup<WardenRequestContext>) {
        api.post("resolve-transaction") { request, context in
            do {
                return try await resolve(request, context)
            } catch let error as ManagementError {
                log(.deviceAuthFailed, nil, request, context, "Device answer refused: \(error.message)")
                throw error
            }
        }
    }

    private func resolve(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        let resolved = try await runtime.deviceTransactions.resolve(
            token: DeviceAccountAuthorization.credentials(request))
        let body = ManagementBody(try await ManagementRequest.object(request))
        let answer = try body.requiredString("challenge_response")
        guard let accepted = verify(answer, for: resolved) else {
            throw ManagementError.invalidToken("The challenge response is not valid")
        }
        let reason = (try? CompactJWS(parsing: answer))?.payload["auth0_guardian_reason"]?.stringValue
        switch try await decide(resolved.request, approved: accepted) {
        case .decided:
            // SPEC §12: an enrolment's `last_auth` is when it last proved the user.
            if accepted {
                try await runtime.store.markAuthenticatorUsed(id: resolved.enrollment.id, at: runtime.clock.now())
            }
            let description =
                accepted
                ? "Approved on device \(resolved.enrollment.name)"
                : "Rejected on device \(resolved.enrollment.name)" + (reason.map { ": \($0)" } ?? "")
            log(accepted ? .deviceAccepted : .deviceRejected, resolved, request, context, description)
            return Response(status: .noContent)
        case .alreadyDecided: throw ManagementError.loginTransactionNotFound
        case .expired: throw ManagementError.transactionExpired
        }
    }

    /// What deciding a request did, for either kind.
    private enum Outcome {
        case decided, alreadyDecided, expired
    }

    /// Decides the CIBA request through the backchannel service (which notifies its client), or the sign-in push
    /// in one conditional write (its hosted page sees the answer on its next refresh).
    private func decide(_ request: DeviceRequest, approved: Bool) async throws -> Outcome {
        switch request {
        case .consent(let request):
            switch try await runtime.backchannelService.decide(request, approved: approved) {
            case .decided: return .decided
            case .alreadyDecided, .notFound: return .alreadyDecided
            case .expired: return .expired
            }
        case .signIn(let challenge):
            switch try await runtime.store.decideLoginChallenge(
                id: challenge.id, approved: approved, at: runtime.clock.now())
            {
            case .decided: return .decided
            case .alreadyDecided, .notFound: return .alreadyDecided
            case .expired: return .expired
            }
        }
    }

    /// `auth0_guardian_accepted` of a challenge response that verifies for this transaction and device; `nil`
    /// when it does not.
    private func verify(_ token: String, for resolved: DeviceTransactions.Resolved) -> Bool? {
        let verifier = DeviceJWTVerifier(clock: runtime.clock)
        guard let jws = verifier.signed(token, by: resolved.enrollment),
            jws.payload["iss"]?.stringValue == resolved.enrollment.identifier,
            jws.payload["sub"]?.stringValue == resolved.transaction.challenge,
            jws.audiences.contains(runtime.issuer + "appliance-mfa/api/resolve-transaction"),
            verifier.isCurrent(jws, maximumLifetime: Self.maximumLifetime),
            jws.payload["auth0_guardian_method"]?.stringValue == "push",
            case .bool(let accepted)? = jws.payload["auth0_guardian_accepted"]
        else { return nil }
        return accepted
    }

    private func log(
        _ type: LogEventType, _ resolved: DeviceTransactions.Resolved?, _ request: Request,
        _ context: WardenRequestContext, _ description: String
    ) {
        var details: [String: JSONValue] = [:]
        if let resolved { details["enrollment_id"] = .string(resolved.enrollment.id) }
        runtime.eventLog.record(
            LogEvent(
                date: runtime.clock.now(), type: type, description: description,
                clientID: resolved?.request.clientID,
                ip: ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies),
                userAgent: request.headers[.userAgent], userID: resolved?.request.userID,
                audience: resolved?.request.audience, scope: resolved?.request.scope,
                details: details))
    }
}
