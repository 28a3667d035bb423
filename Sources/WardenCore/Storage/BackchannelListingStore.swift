public import struct Foundation.Date

/// The CIBA requests waiting for an answer, for the admin console (SPEC §14 "pending CIBA requests").
public protocol BackchannelListingStore: Sendable {
    /// A page of the requests still pending and not expired at `now`, newest first.
    func pendingBackchannelRequests(at now: Date, page: PageRequest) async throws -> PageResult<BackchannelRequest>
}
