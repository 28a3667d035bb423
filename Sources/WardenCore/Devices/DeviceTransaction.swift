public import struct Foundation.Date

/// One CIBA request as sent to one device (SPEC §7.2): the device fetches the consent and answers with the
/// transaction token `txtkn`, signing the challenge `c`. The token is a JWT Warden signs naming ``id``, so
/// nothing secret is stored and the device may be handed a fresh token for the same transaction (SPEC §7.5).
public struct DeviceTransaction: Sendable, Equatable {
    /// `dtx_…`, unique; one transaction per (request, device).
    public var id: String
    /// The ``BackchannelRequest/id`` it belongs to.
    public var requestID: BackchannelRequest.ID
    /// The device account it was sent to.
    public var enrollmentID: String
    /// The random challenge `c` the device signs (SPEC §7.4 `sub`).
    public var challenge: String
    public var createdAt: Date
    /// The request's expiry.
    public var expiresAt: Date

    public init(
        id: String, requestID: BackchannelRequest.ID, enrollmentID: String, challenge: String, createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.requestID = requestID
        self.enrollmentID = enrollmentID
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
