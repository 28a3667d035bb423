import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `GET {issuer}rich-consents/{cns_id}` (SPEC §7.3): the consent details of a transaction, for the device it
/// was sent to. `Authorization: MFA-DPoP {txtkn}` names the transaction; the `MFA-DPoP` header carries a DPoP
/// proof (RFC 9449 §4.2) whose `jwk` must be that device's enrolled key, bound to this URL (`htu`), method
/// (`htm`) and token (`ath`), fresh (`iat`) and used once (`jti`). Refusals log `rich_consents_access_error`.
struct RichConsentsController {
    static let jtiKind = "dpop_jti"

    let runtime: WardenRuntime

    func addRoutes(to router: some RouterMethods<WardenRequestContext>) {
        router.get("rich-consents/:id") { request, context in
            var resolved: DeviceTransactions.Resolved?
            do {
                return try await consent(request, context, resolved: &resolved)
            } catch let error as ManagementError {
                var details: [String: JSONValue] = ["errorCode": .string(error.errorCode)]
                if let resolved { details["enrollment_id"] = .string(resolved.enrollment.id) }
                runtime.eventLog.record(
                    LogEvent(
                        date: runtime.clock.now(), type: .richConsentsAccessError,
                        description: "Consent access refused: \(error.message)", clientID: resolved?.request.clientID,
                        ip: ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies),
                        userAgent: request.headers[.userAgent], userID: resolved?.request.userID, details: details))
                throw error
            }
        }
    }

    /// The consent; `resolved` is set as soon as the transaction is known, for the log of a refusal.
    private func consent(
        _ request: Request, _ context: WardenRequestContext,
        resolved resolvedTransaction: inout DeviceTransactions.Resolved?
    ) async throws -> Response {
        let consentID = try ManagementRequest.parameter("id", of: context)
        let token = DeviceAccountAuthorization.credentials(request, scheme: "MFA-DPoP")
        let resolved = try await runtime.deviceTransactions.resolve(token: token)
        resolvedTransaction = resolved
        guard let token, let proof = request.headers[HTTPField.Name("MFA-DPoP")!] else {
            throw ManagementError.invalidToken("Missing the MFA-DPoP proof")
        }
        try await verify(proof: proof, token: token, consentID: consentID, enrollment: resolved.enrollment)
        // A sign-in push (SPEC §12) has no consent behind it.
        guard case .consent(let record) = resolved.request, record.consentID == consentID else {
            throw ManagementError.consentNotFound
        }
        return Response.json(
            .object([
                "id": .string(record.consentID),
                "requested_details": .object([
                    "audience": .string(record.audience ?? runtime.configuration.userinfoAudience),
                    "scope": .array(record.scope.map(JSONValue.string)),
                    "binding_message": .string(record.bindingMessage),
                    "authorization_details": record.authorizationDetails ?? .array([]),
                ]),
                "created_at": ManagementResponse.timestamp(record.createdAt),
                "expires_at": ManagementResponse.timestamp(record.expiresAt),
            ]), noStore: true)
    }

    /// Checks the DPoP proof; throws 401 `invalid_token` when it does not hold.
    private func verify(proof: String, token: String, consentID: String, enrollment: DeviceEnrollment) async throws {
        let verifier = DeviceJWTVerifier(clock: runtime.clock)
        guard let jws = verifier.signed(proof, by: enrollment), jws.header["typ"]?.stringValue == "dpop+jwt",
            Self.isEnrolledKey(jws.header["jwk"], of: enrollment),
            jws.payload["htm"]?.stringValue == "GET",
            jws.payload["htu"]?.stringValue == runtime.issuer + "rich-consents/" + consentID,
            jws.payload["ath"]?.stringValue == SecretHash.sha256Base64URL(token), verifier.isFresh(jws),
            let jti = jws.payload["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256
        else { throw ManagementError.invalidToken("The MFA-DPoP proof is not valid") }
        let fresh = try await runtime.store.rememberOnce(
            kind: Self.jtiKind, hash: SecretHash.sha256Hex(enrollment.id + ":" + jti),
            expiresAt: runtime.clock.now().addingTimeInterval(2 * DeviceJWTVerifier.clockSkew))
        guard fresh else { throw ManagementError.invalidToken("The MFA-DPoP proof was already used") }
    }

    /// Whether the proof's `jwk` is the RSA key the device enrolled (leading zero bytes ignored).
    private static func isEnrolledKey(_ jwk: JSONValue?, of enrollment: DeviceEnrollment) -> Bool {
        guard jwk?["kty"]?.stringValue == "RSA", let n = jwk?["n"]?.stringValue.flatMap(Base64URL.decode),
            let e = jwk?["e"]?.stringValue.flatMap(Base64URL.decode)
        else { return false }
        return Base64URL.encode(n.drop(while: { $0 == 0 })) == enrollment.publicKeyModulus
            && Base64URL.encode(e.drop(while: { $0 == 0 })) == enrollment.publicKeyExponent
    }
}
