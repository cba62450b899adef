import Foundation
import Logging

/// `receive`'s log through swift-log (`ReceiveLogHandler`): one line per request on standard
/// error with the person, method and path, status, body bytes and milliseconds; and one per
/// failed check, commit or status read. Never a key, a header value or anything of a body
/// (health values): the path is echoed only when it is one of the server's own.
struct ReceiveLog: Sendable {
    let logger: Logger

    init() {
        logger = Logger(label: "health-import.receive") { _ in ReceiveLogHandler() }
    }

    func request(person: String?, method: String, path: String, status: Int, bytes: Int, started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let ms = Int((Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15).rounded())
        logger.info(
            "\(Self.method(method)) \(Self.path(path)) \(status)",
            metadata: ["person": "\(person ?? "-")", "bytes": "\(bytes)", "ms": "\(ms)"])
    }

    func failure(_ sentence: String) { logger.error("receive: \(sentence)") }

    /// The client's path: only the server's own routes are echoed as sent.
    static func path(_ path: String) -> String {
        ["/sync/healthkit", "/hae", "/status", "/metrics", "/healthz"].contains(path) ? path : "(other path)"
    }

    static func method(_ method: String) -> String {
        method.count <= 10 && method.allSatisfy({ $0.isLetter }) ? method : "(other)"
    }
}
