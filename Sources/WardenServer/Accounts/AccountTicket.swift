import Foundation
import WardenCore
import WardenWire

/// A link mailed to a person or made by the Management API (SPEC §15.1): `{issuer}u/email-verification?ticket=…`
/// or `{issuer}u/reset-password?ticket=…`. The ticket is 256 random bits; only its SHA-256 is stored, as a
/// single-use artefact of its ``Kind`` that dies at its expiry, with this payload.
struct AccountTicket: Codable, Sendable {
    /// The artefact kinds, one per purpose, so that a ticket of one purpose never works for the other.
    enum Kind: String, Sendable {
        case emailVerification = "email_verification_ticket"
        case passwordReset = "password_reset_ticket"

        /// The hosted page the link opens, under `{issuer}`.
        var path: String {
            switch self {
            case .emailVerification: "u/email-verification"
            case .passwordReset: "u/reset-password"
            }
        }
    }

    var userID: String
    /// The address the ticket was made for: a verification link verifies only this address, so a link mailed
    /// before the address changed does not verify the new one.
    var email: String?
    /// Where "Continue" leads after success, when it is one of a client's callbacks or the issuer's own pages.
    var resultURL: String?
    /// A reset ticket of the Management API may also mark the address verified (`mark_email_as_verified`).
    var markEmailVerified: Bool?
    /// The application the person came from, for the log.
    var clientID: String?
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email
        case resultURL = "result_url"
        case markEmailVerified = "mark_email_verified"
        case clientID = "client_id"
        case expiresAt = "expires_at"
    }
}
