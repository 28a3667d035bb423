public import struct Foundation.Date

/// One CIBA request as sent to one device (SPEC §7.2): the device fetches the consent and answers with the
/// transaction token `txtkn` (stored as its SHA-256), signing the challenge `c`.
public struct DeviceTransaction: Sendable, Equatable {
    /// SHA-256 (hex) of `txtkn`.
    public var tokenHash: String
    /// The ``BackchannelRequest/id`` it belongs to.
    public var requestID: String
    /// The device account it was sent to.
    public var enrollmentID: String
    /// The random challenge `c` the device signs (SPEC §7.4 `sub`).
    public var challenge: String
    public var createdAt: Date
    /// The request's expiry.
    public var expiresAt: Date

    public init(
        tokenHash: String, requestID: String, enrollmentID: String, challenge: String, createdAt: Date,
        expiresAt: Date
    ) {
        self.tokenHash = tokenHash
        self.requestID = requestID
        self.enrollmentID = enrollmentID
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
