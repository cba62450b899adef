import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import XCTest

@testable import ExportParser
@testable import Receiver

/// `receive`'s server started in the test's own process, listening on 127.0.0.1 on a free port:
/// what the in-process tests look into (its store, its metrics) while they talk to it over a
/// real socket (`RawHTTP`), as the app does. Stopped as SIGTERM stops `receive`: a graceful
/// shutdown of its service group (the requests in flight finish).
///
/// Not HummingbirdTesting: its client (AsyncHTTPClient, with SwiftNIO's TLS and HTTP/2 and
/// their BoringSSL) was the largest part of a cold build, built twice in CI (the debug and the
/// AddressSanitizer build), for two test files.
final class InProcessReceiver: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts `server` and returns once it listens; its error when it cannot.
    static func start(_ server: ReceiveServer) async throws -> InProcessReceiver {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let app = server.application(onListening: { listening.yield($0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "in-process-receive")))
        let task = Task {
            // The stream ends when the server does, so a server that never listens is not awaited forever.
            defer { listening.finish() }
            try await group.run()
        }
        for await port in ports { return InProcessReceiver(port: port, group: group, task: task) }
        try await task.value
        throw ReceiveDidNotStart(log: "the in-process server returned without listening")
    }

    /// Stops the server and waits until it has.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// One request on its own connection (`Connection: close`), as `ReceiveProcess.send`.
    func send(_ method: String, _ path: String, key: String? = nil, body: String = "") -> (
        status: Int, headers: [String: String], body: String
    )? {
        RawHTTP.roundTrip(port: port, RawHTTP.request(method, path, key: key, body: Array(body.utf8)), readTimeout: 30)
            .flatMap(RawHTTP.response)
    }

    /// `requests` sent at once, each on a thread of its own (the server sees them side by side);
    /// their statuses, nil where no answer came.
    func sendAtOnce(_ requests: [(path: String, key: String, body: String)]) -> [Int?] {
        let statuses = Statuses(requests.count)
        let done = DispatchGroup()
        for (i, r) in requests.enumerated() {
            done.enter()
            NamedThread.start("request-\(i)") {
                let status = self.send("POST", r.path, key: r.key, body: r.body)?.status
                statuses.all.withLock { $0[i] = status }
                done.leave()
            }
        }
        done.wait()
        return statuses.all.withLock { $0 }
    }

    /// The answers of `sendAtOnce`, written by its threads.
    private final class Statuses: Sendable {
        let all: Mutex<[Int?]>
        init(_ count: Int) { all = Mutex([Int?](repeating: nil, count: count)) }
    }
}
