import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Prometheus
import WardenCore

/// `GET /healthz` (the process is up), `GET /readyz` (the database answers within ``readinessDeadline``: a frozen
/// database, accepting connections but answering nothing, is unready too, SPEC §11) and `GET /metrics`
/// (Prometheus text format: requests and latency by route and status, tokens issued by grant).
struct HealthController: Sendable {
    /// The database `/readyz` pings.
    let store: any WardenStore
    /// How long `/readyz` waits for the database.
    static let readinessDeadline: Duration = .seconds(2)

    /// The probes of a node whose database is `store`.
    init(store: any WardenStore) {
        self.store = store
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("healthz") { _, _ in Response.json(#"{"status":"ok"}"#) }
        router.get("readyz") { _, context in
            do {
                try await Deadline.run(within: Self.readinessDeadline) { [store] in
                    try await store.ping()
                }
                return Response.json(#"{"status":"ready"}"#)
            } catch {
                context.logger.warning("readiness check failed", metadata: ["error": "\(error)"])
                return Response.json(#"{"status":"database unavailable"}"#, status: .serviceUnavailable)
            }
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: .init(bytes: WardenMetrics.registry.emitToBuffer())))
        }
    }
}
