import Foundation
import Metrics
import Prometheus

/// `receive`'s operators' view (docs/receive.md, "Metrics"), through swift-metrics into a
/// Prometheus registry of this server's own (not the process-wide `MetricsSystem`, so servers
/// in one process, as the tests run them, count apart). `GET /metrics` answers with
/// `text()`, Prometheus' text format:
///
/// - `receive_requests_total{endpoint, status}`: every request answered, by route and status;
/// - `receive_bodies_stored_total{endpoint}` and `receive_body_bytes_stored_total{endpoint}`:
///   bodies committed as new rows, and their bytes (a body sent again is not counted);
/// - `receive_check_seconds{endpoint}` and `receive_commit_seconds{endpoint}`: histograms of
///   the time a body's check (the reader over the whole body) and its commit took.
///
/// No label holds a person, a key or a value: only the route and the status.
final class ReceiveMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// From 1 ms (a small body's commit) to a minute (the check of a body near --max-body).
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
        .seconds(60),
    ]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = ["receive_check_seconds": Self.buckets, "receive_commit_seconds": Self.buckets]
        self.factory = factory
    }

    /// The route's label: `sync/healthkit`, `hae`, `status`, `metrics`, `healthz`, or `other`
    /// (a client's unknown path is never a label: that would let clients grow the registry).
    static func endpoint(_ path: String) -> String {
        switch path {
        case "/sync/healthkit", "/hae", "/status", "/metrics", "/healthz": String(path.dropFirst())
        default: "other"
        }
    }

    func request(path: String, status: Int) {
        Counter(
            label: "receive_requests_total", dimensions: [("endpoint", Self.endpoint(path)), ("status", String(status))], factory: factory
        )
        .increment()
    }

    func stored(endpoint: String, bytes: Int) {
        Counter(label: "receive_bodies_stored_total", dimensions: [("endpoint", endpoint)], factory: factory).increment()
        Counter(label: "receive_body_bytes_stored_total", dimensions: [("endpoint", endpoint)], factory: factory).increment(by: bytes)
    }

    func check(endpoint: String, took: Duration) {
        Metrics.Timer(label: "receive_check_seconds", dimensions: [("endpoint", endpoint)], factory: factory).record(duration: took)
    }

    func commit(endpoint: String, took: Duration) {
        Metrics.Timer(label: "receive_commit_seconds", dimensions: [("endpoint", endpoint)], factory: factory).record(duration: took)
    }

    /// Every metric, in Prometheus' text exposition format (version 0.0.4).
    func text() -> String { registry.emitToString() }
}
