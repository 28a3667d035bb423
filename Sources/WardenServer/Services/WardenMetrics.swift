import Metrics
public import Prometheus

/// The process-wide Prometheus registry behind swift-metrics (bootstrapped once per process).
public enum WardenMetrics {
    /// The registry `/metrics` renders.
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Bootstraps the metrics system (idempotent); call before creating any metric.
    public static func bootstrap() {
        _ = registry
    }
}
