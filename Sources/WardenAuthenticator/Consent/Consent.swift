public import Foundation

/// The consent behind a CIBA transaction, fetched with
/// ``Authenticator/fetchConsent(for:enrollment:)`` (SPEC §7.3, `GET {issuer}rich-consents/{cns_id}`).
public struct Consent: Sendable, Hashable, Codable, Identifiable {
    /// The consent id, `cns_…` (the notification's ``AuthenticationNotification/transactionLinkingID``).
    public var id: String
    /// What the client asked for: audience, scopes, binding message, `authorization_details`.
    public var requestedDetails: ConsentRequestedDetails
    /// When the consent was created, as the ISO 8601 string the server sent.
    public var createdAt: String
    /// When the consent expires, as the ISO 8601 string the server sent.
    public var expiresAt: String

    /// Creates a consent, mainly for previews and tests.
    public init(id: String, requestedDetails: ConsentRequestedDetails, createdAt: String, expiresAt: String) {
        self.id = id
        self.requestedDetails = requestedDetails
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case requestedDetails = "requested_details"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    /// Decodes the SPEC §7.3 shape. The times are ISO 8601 strings; a number (seconds since 1970, as in older
    /// reference examples) is accepted and turned into an ISO 8601 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        requestedDetails = try container.decode(ConsentRequestedDetails.self, forKey: .requestedDetails)
        createdAt = try Self.decodeTime(container, .createdAt)
        expiresAt = try Self.decodeTime(container, .expiresAt)
    }

    private static func decodeTime(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
        -> String
    {
        if let string = try? container.decodeIfPresent(String.self, forKey: key) { return string }
        if let seconds = try container.decodeIfPresent(Double.self, forKey: key) {
            return ISO8601.string(from: Date(timeIntervalSince1970: seconds))
        }
        return ""
    }

    /// ``createdAt`` parsed as ISO 8601 (with or without fractional seconds); `nil` when it does not parse.
    public var createdDate: Date? { ISO8601.date(from: createdAt) }

    /// ``expiresAt`` parsed as ISO 8601 (with or without fractional seconds); `nil` when it does not parse.
    public var expiresDate: Date? { ISO8601.date(from: expiresAt) }
}
