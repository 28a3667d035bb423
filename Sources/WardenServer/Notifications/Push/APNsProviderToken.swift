import Foundation
import Synchronization
import WardenCore
import WardenWire

/// The provider authentication token of a token-based connection to APNs (Apple, "Establishing a token-based
/// connection to APNs"): an ES256 JWT with the header `{alg, kid: key id}` and the claims `{iss: team id, iat}`,
/// signed with the `.p8` key.
///
/// APNs refuses a token older than one hour (`ExpiredProviderToken`) and one refreshed more often than every
/// 20 minutes (`TooManyProviderTokenUpdates`), so one token is reused for ``lifetime`` (50 minutes), and a token
/// APNs rejects is dropped with ``discard(_:)``.
final class APNsProviderToken: Sendable {
    /// How long a token is reused.
    static let lifetime: TimeInterval = 50 * 60

    private let key: JWSKey
    private let teamID: String
    private let cached = Mutex<(token: String, issuedAt: Date)?>(nil)

    /// Reads the `.p8` key (PKCS#8 PEM, P-256) of `settings`.
    init(settings: WardenConfiguration.APNsSettings) throws {
        do {
            let pem = try String(contentsOfFile: settings.keyFile, encoding: .utf8)
            key = try JWSKey(pushServicePEM: pem, kid: settings.keyID, alg: .es256)
        } catch {
            throw PushConfigurationError(
                description: "--apns-key-file \(settings.keyFile): not a readable P-256 private key in PEM (\(error))")
        }
        teamID = settings.teamID
    }

    /// The token to send at `now`: the cached one while it is younger than ``lifetime``, else a new one.
    func current(now: Date = Date()) throws -> String {
        try cached.withLock { cached in
            if let cached, now.timeIntervalSince(cached.issuedAt) < Self.lifetime, cached.issuedAt <= now {
                return cached.token
            }
            let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let claims = JSONValue.serializedObject([
                ("iss", .string(teamID)), ("iat", .number(issuedAt.timeIntervalSince1970)),
            ])
            let token = try key.sign(payload: claims)
            cached = (token, issuedAt)
            return token
        }
    }

    /// Forgets `token` after APNs rejected it (`ExpiredProviderToken`, `InvalidProviderToken`), unless a newer
    /// token has replaced it meanwhile.
    func discard(_ token: String) {
        cached.withLock { cached in
            if cached?.token == token { cached = nil }
        }
    }
}
