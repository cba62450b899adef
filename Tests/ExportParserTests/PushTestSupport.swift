import Foundation
import XCTest

@testable import ExportParser

/// A store and payload files to push, made by `convert` from the compare fixtures' export
/// (seven dates, 2024-03-01 … 03-07, person "ann"), and helpers to run `push` against the test
/// server with retry waits recorded instead of slept.
enum PushTestSupport {
    static let key = "test-key-7f3a9c1e5b2d"
    static let dates = CompareFixtures.dates

    struct Fixture {
        var dir: URL
        var store: String
        var payloadsDir: String
        /// `payloads/DATE.json` as convert wrote it, by date.
        func payload(_ date: String) throws -> String {
            try String(contentsOfFile: payloadsDir + "/\(date).json", encoding: .utf8)
        }
    }

    static func fixture() throws -> Fixture {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, _) = try CompareFixtures.write(into: dir)
        let out = dir.appendingPathComponent("out").path
        let store = out + "/health.sqlite"
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: out, timeZoneName: "Australia/Sydney", storePath: store, person: "ann"))
            .run()
        return Fixture(dir: dir, store: store, payloadsDir: out + "/payloads")
    }

    /// A push request to the test server with tiny retry delays, the key in its environment.
    static func request(_ server: PushTestServer, _ f: Fixture, configure: (inout PushRequest) -> Void = { _ in }) -> PushRequest {
        var r = PushRequest(url: server.baseURL, storePath: f.store, person: "ann", concurrency: 2, maxAttempts: 6, timeout: 1)
        r.retryBaseDelay = 0.01
        r.environment = ["HEALTH_IMPORT_API_KEY": key]
        configure(&r)
        return r
    }

    /// The waits a run asked for, in order (recorded, not slept).
    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Double] = []
        func add(_ d: Double) { lock.withLock { list.append(d) } }
        var all: [Double] { lock.withLock { list } }
    }

    static func run(_ r: PushRequest, waits: Waits? = nil, random: Double = 0.5) throws -> PushOutcome {
        let job = try PushJob(r)
        let w = waits ?? Waits()
        job.sleeper = { d, _ in w.add(d) }
        job.random = { random }
        return try job.run()
    }

    /// The store's record of pushes: date → (result, http_status).
    static func recorded(_ store: String) throws -> [String: (result: String, status: String)] {
        var out: [String: (String, String)] = [:]
        // The run's connection may be closing on a worker thread (its last close checkpoints the
        // WAL under a brief exclusive lock): wait for it as the store's busy timeout would.
        var rows: [[String]] = []
        for attempt in 1...100 {
            do {
                rows = try StoreTestSupport.rows(store, "SELECT date, result, ifnull(http_status, 'NULL') FROM pushes WHERE person = 'ann'")
                break
            } catch let e as StoreError where "\(e)".contains("locked") && attempt < 100 {
                usleep(20_000)
            }
        }
        for row in rows {
            out[row[0]] = (row[1], row[2])
        }
        return out
    }

    /// The body `push` must send for a payload file's text: `{"data": [payload]}`.
    static func wrapped(_ fileText: String) -> String {
        "{\"data\": [" + fileText.trimmingCharacters(in: .newlines) + "]}"
    }
}
