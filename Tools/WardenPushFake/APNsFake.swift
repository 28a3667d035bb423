import Crypto
import Foundation
import NIOHTTP1

/// A stand-in for APNs that checks what Apple's "Sending notification requests to APNs" requires and answers
/// as "Handling notification responses from APNs" describes (status, `{"reason"}`, `apns-id`).
struct APNsFake: Sendable {
    /// The public half of the `.p8` key, which provider tokens must verify against (ES256).
    var publicKey: P256.Signing.PublicKey
    var keyID: String
    var teamID: String
    var topic: String
    /// Device tokens answered with 410 `Unregistered`.
    var unregistered: Set<String>
    var record: FakeRecord

    /// The largest payload APNs accepts for an alert notification.
    static let maximumPayload = 4096
    /// Apple refuses provider tokens older than one hour.
    static let providerTokenLifetime: TimeInterval = 3600

    /// A refusal: the status, APNs' `reason`, and what exactly was wrong (for the rejected list).
    private struct Refusal: Error {
        var status: Int
        var reason: String
        var detail: String
    }

    func respond(to request: FakeRequest) -> FakeResponse {
        do {
            let token = try check(request)
            let apnsID = request.header("apns-id") ?? UUID().uuidString
            if unregistered.contains(token) {
                record.reject(
                    .init(provider: "apns", path: request.path, status: 410, reason: "Unregistered", detail: token))
                let timestamp = Int(Date().timeIntervalSince1970 * 1000)
                return .json(410, ["reason": "Unregistered", "timestamp": timestamp], headers: [("apns-id", apnsID)])
            }
            record.accept(.init(provider: "apns", token: token, headers: request.headerDictionary, body: request.body))
            return FakeResponse(status: 200, headers: [("apns-id", apnsID)])
        } catch {
            record.reject(
                .init(
                    provider: "apns", path: request.path, status: error.status, reason: error.reason,
                    detail: error.detail))
            return .json(error.status, ["reason": error.reason])
        }
    }

    /// Every check of a notification request; returns the device token.
    private func check(_ request: FakeRequest) throws(Refusal) -> String {
        guard request.method == .POST else {
            throw Refusal(status: 405, reason: "MethodNotAllowed", detail: ":method \(request.method)")
        }
        guard request.path.hasPrefix("/3/device/") else {
            throw Refusal(status: 404, reason: "BadPath", detail: request.path)
        }
        let token = String(request.path.dropFirst("/3/device/".count))
        guard token.count >= 64, token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else {
            throw Refusal(status: 400, reason: "BadDeviceToken", detail: "not a hex device token: \(token)")
        }
        try checkProviderToken(request.header("authorization"))
        guard let requestTopic = request.header("apns-topic") else {
            throw Refusal(status: 400, reason: "MissingTopic", detail: "no apns-topic")
        }
        guard requestTopic == topic else {
            throw Refusal(status: 400, reason: "TopicDisallowed", detail: "apns-topic \(requestTopic), not \(topic)")
        }
        guard request.header("apns-push-type") == "alert" else {
            throw Refusal(
                status: 400, reason: "InvalidPushType",
                detail: "apns-push-type \(request.header("apns-push-type") ?? "")")
        }
        guard request.header("apns-priority") == "10" else {
            throw Refusal(
                status: 400, reason: "BadPriority", detail: "apns-priority \(request.header("apns-priority") ?? "")")
        }
        if let expiration = request.header("apns-expiration"), Int(expiration) == nil {
            throw Refusal(status: 400, reason: "BadExpirationDate", detail: "apns-expiration \(expiration)")
        }
        guard !request.body.isEmpty else {
            throw Refusal(status: 400, reason: "PayloadEmpty", detail: "empty body")
        }
        guard request.body.count <= Self.maximumPayload else {
            throw Refusal(status: 413, reason: "PayloadTooLarge", detail: "\(request.body.count) bytes")
        }
        guard let payload = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
            payload["aps"] is [String: Any]
        else {
            // APNs names no reason for this; the fake's own.
            throw Refusal(status: 400, reason: "BadPayload", detail: "not a JSON object with an aps dictionary")
        }
        return token
    }

    /// `authorization: bearer JWT`: ES256 under the `.p8` key, `kid` the key id, `iss` the team id, `iat` within
    /// the last hour.
    private func checkProviderToken(_ authorization: String?) throws(Refusal) {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            throw Refusal(status: 403, reason: "MissingProviderToken", detail: "no authorization: bearer")
        }
        let token = String(authorization.dropFirst("bearer ".count))
        func invalid(_ detail: String) -> Refusal {
            Refusal(status: 403, reason: "InvalidProviderToken", detail: detail)
        }
        let jwt: CompactJWT
        do {
            jwt = try CompactJWT(parsing: token)
        } catch {
            throw invalid(error.detail)
        }
        guard jwt.header["alg"] as? String == "ES256" else { throw invalid("alg \(jwt.header["alg"] ?? "none")") }
        guard jwt.header["kid"] as? String == keyID else { throw invalid("kid \(jwt.header["kid"] ?? "none")") }
        guard jwt.claims["iss"] as? String == teamID else { throw invalid("iss \(jwt.claims["iss"] ?? "none")") }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
            publicKey.isValidSignature(signature, for: jwt.signingInput)
        else { throw invalid("the signature does not verify with the key of --apns-key-file") }
        guard let issuedAt = jwt.date("iat") else { throw invalid("no iat") }
        let age = Date().timeIntervalSince(issuedAt)
        guard age > -60 else { throw invalid("iat in the future") }
        guard age <= Self.providerTokenLifetime, record.useProviderToken(token) else {
            throw Refusal(status: 403, reason: "ExpiredProviderToken", detail: "iat \(Int(age)) s ago or expired")
        }
    }
}
