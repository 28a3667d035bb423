import Crypto
import Foundation
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// `/api/v2/keys/signing` (SPEC §2, §9): list, read, rotate and revoke.
///
/// Rotate (201) makes a new current key for every algorithm in use; it answers with the new RS256 key (the
/// vendor SDK expects one key object) and every new key in `keys`. Revoke (200) stops publishing a previous
/// key; the current key of an algorithm cannot be revoked (409).
struct SigningKeysController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("keys/signing") { _, context in
            try context.requireScope("read:signing_keys")
            return Response.json(
                .array(try await runtime.store.signingKeys().map { .object(try Self.members(of: $0)) }))
        }
        group.get("keys/signing/:kid") { _, context in
            try context.requireScope("read:signing_keys")
            return Response.json(.object(try Self.members(of: try await record(context))))
        }
        group.post("keys/signing/rotate") { request, context in
            try await audit.change(
                "Rotate the Application Signing Key", scope: "create:signing_keys", request, context
            ) {
                let made = try await runtime.keys.rotate()
                context.logger.notice(
                    "signing keys rotated",
                    metadata: [
                        "kids": "\(made.map(\.kid).joined(separator: ","))",
                        "client_id": "\(context.managementClientID ?? "")",
                    ])
                guard let primary = made.first(where: { $0.alg == .rs256 }) ?? made.first else {
                    throw ManagementError.serverError(debug: "rotation made no key")
                }
                var members = try Self.members(of: primary)
                members["keys"] = .array(try made.map { .object(try Self.members(of: $0)) })
                return Response.json(.object(members), status: .created)
            }
        }
        group.put("keys/signing/:kid/revoke") { request, context in
            try await audit.change(
                "Revoke an Application Signing Key", scope: "update:signing_keys", request, context
            ) {
                let kid = try ManagementRequest.parameter("kid", of: context)
                try await ManagementRequest.write(
                    "key", conflict: "The signing key \(kid) is current: rotate the keys before revoking it"
                ) {
                    try await runtime.keys.revoke(kid: kid)
                }
                return Response.json(.object(try Self.members(of: try await record(context))))
            }
        }
    }

    private func record(_ context: WardenRequestContext) async throws -> SigningKeyRecord {
        let kid = try ManagementRequest.parameter("kid", of: context)
        guard let record = try await runtime.store.signingKeys().first(where: { $0.kid == kid }) else {
            throw ManagementError.notFound("key", "The key does not exist")
        }
        return record
    }

    /// `{"kid", "alg", "current", "previous", "revoked", "current_since", "revoked_at", "jwk"}` with the public
    /// JWK only, plus what the vendor SDK's model requires: `cert` (here the PEM public key: Warden's keys
    /// have no certificate), and its SHA-1 `fingerprint` and `thumbprint`.
    static func members(of record: SigningKeyRecord) throws -> [String: JSONValue] {
        let jwk = try JWSKey(record: record).publicJWK
        let der = try SubjectPublicKeyInfo.der(of: jwk)
        let digest = Insecure.SHA1.hash(data: der).map { String(format: "%02X", $0) }
        var members: [String: JSONValue] = [
            "kid": .string(record.kid), "alg": .string(record.alg.rawValue), "current": .bool(record.current),
            "previous": .bool(record.isPrevious), "revoked": .bool(record.revokedAt != nil), "jwk": jwk.jsonValue,
            "cert": .string(SubjectPublicKeyInfo.pem(der)),
            "fingerprint": .string(digest.joined(separator: ":")), "thumbprint": .string(digest.joined()),
        ]
        if let since = record.currentSince { members["current_since"] = ManagementResponse.timestamp(since) }
        if let revoked = record.revokedAt { members["revoked_at"] = ManagementResponse.timestamp(revoked) }
        return members
    }
}
