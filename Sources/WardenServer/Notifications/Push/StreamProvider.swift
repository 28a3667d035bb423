import WardenCore

/// The `stream` push service (SPEC §6.3, §7.5): the device keeps a WebSocket open to some node, which sends
/// it each new transaction. The node running the push job tells its own connections of the device at once and
/// announces the transaction to every node (PostgreSQL `NOTIFY`), whose ``CacheRefreshService`` tells theirs.
/// With no connection anywhere the push still succeeds: the device gets its pending transactions when it
/// connects.
struct StreamProvider: PushProvider {
    let name = "stream"
    /// This node's connections.
    let streams: DeviceStreamHub
    /// Reaches the other nodes.
    let changes: any ChangeChannel

    /// Each connection lists what is pending itself, with fresh tokens: `push` only names the device.
    func send(_ push: DevicePush, transactionToken: String) async throws {
        streams.refresh(enrollmentID: push.enrollmentID)
        await changes.announce(.deviceTransactions(enrollmentID: push.enrollmentID))
    }
}
