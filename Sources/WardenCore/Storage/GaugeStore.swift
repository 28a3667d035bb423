public import struct Foundation.Date

/// Figures read from storage for the operators' gauges (README "Metrics"): the same for every node of a tenant,
/// so a dashboard takes their `max`, not their sum.
public protocol GaugeStore: Sendable {
    /// CIBA requests nobody answered (SPEC §6.2): `pending` still within their expiry at `now`, `expired` past
    /// it and kept until housekeeping removes them, a day later.
    func undecidedBackchannelRequests(at now: Date) async throws -> (pending: Int, expired: Int)
    /// Delivery jobs stored (waiting for their first attempt or a retry), by kind (SPEC §6.1 "Delivery").
    func deliveryJobCounts() async throws -> [DeliveryJob.Kind: Int]
}
