import Foundation
import XCTest

@testable import ExportParser

/// The real `health-import receive` (built beside the tests) on a free loopback port, and a
/// plain HTTP/1.1 client on a socket: each request on its own connection (`Connection: close`),
/// so a test sees exactly the bytes the server answered.
// @unchecked Sendable: `port` is set once in init; `send` only reads it.
final class ReceiveProcess: @unchecked Sendable {
    static let key = "rk-7d1e9c0b55a4-secret"

    /// A `--api-key-file` in `dir` holding `key` alone (mode 0600, as `receive` demands).
    static func keyFile(in dir: URL) throws -> String {
        let file = dir.appendingPathComponent("key").path
        try key.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        return file
    }
    /// Skips the calling test when the tool was built without `receive` (Package.swift,
    /// HEALTH_IMPORT_WITHOUT_RECEIVE: CI's AddressSanitizer build).
    static func requireReceive() throws {
        #if WITHOUT_RECEIVE
            throw XCTSkip("built without `receive` (HEALTH_IMPORT_WITHOUT_RECEIVE, CI's AddressSanitizer build)")
        #endif
    }

    let process = Process()
    let log: URL
    private(set) var port = 0

    /// Starts `health-import receive --listen 127.0.0.1:0 ARGS` and waits for its "listening" line.
    /// `environment`: added to the tool's (a PostgreSQL store's PGPASSWORD).
    init(_ args: [String], log: URL, environment extra: [String: String] = [:]) throws {
        try Self.requireReceive()
        let tool = TestPaths.tool
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw XCTSkip("no built health-import at \(tool.path)") }
        self.log = log
        process.executableURL = tool
        process.arguments = ["receive", "--listen", "127.0.0.1:0"] + args
        var environment = ["PATH": "/usr/bin:/bin"]
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS"] { environment[name] = ProcessInfo.processInfo.environment[name] }
        environment.merge(extra) { $1 }
        process.environment = environment
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        // A restart appends to the same log: only what this run writes is looked at.
        let before = (try? Data(contentsOf: log).count) ?? 0
        let h = try FileHandle(forWritingTo: log)
        h.seekToEndOfFile()
        process.standardOutput = h
        process.standardError = h
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = String(decoding: ((try? Data(contentsOf: log)) ?? Data()).dropFirst(before), as: UTF8.self)
            if let r = text.range(of: "listening on http://127.0.0.1:") {
                let digits = text[r.upperBound...].prefix { $0.isNumber }
                if let p = Int(digits), text[r.upperBound...].dropFirst(digits.count).first == " " {
                    port = p
                    return
                }
            }
            if !process.isRunning { break }
            usleep(50_000)
        }
        if process.isRunning { process.terminate() }
        throw ReceiveDidNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status (nil when it did not exit within 30 s).
    func terminate() -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        return wait(seconds: 30)
    }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        _ = wait(seconds: 30)
    }

    private func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// One request; nil when the connection failed or was closed before an answer.
    func send(
        _ method: String, _ path: String, key: String? = ReceiveProcess.key, body: [UInt8] = [], headers: [String] = []
    ) -> (status: Int, body: String)? {
        RawHTTP.exchange(port: port, RawHTTP.request(method, path, key: key, body: body, headers: headers))
    }
}

/// The server exited or printed no "listening" line within a minute (a failure, not a skip).
struct ReceiveDidNotStart: Error, CustomStringConvertible {
    let log: String
    var description: String { "receive did not start: \(log)" }
}

/// HTTP/1.1 over a plain socket (no client library between the test and the server's bytes).
enum RawHTTP {
    /// A request on a connection of its own (`Connection: close`), with the key and, for a POST,
    /// the JSON body's type and length.
    static func request(_ method: String, _ path: String, key: String?, body: [UInt8], headers: [String] = []) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let key { head += "x-api-key: \(key)\r\n" }
        if method == "POST" { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        for h in headers { head += h + "\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Sends `request`, reads until the server closes (or 30 s), parses status and body.
    static func exchange(port: Int, _ request: [UInt8], readTimeout: Int = 30) -> (status: Int, body: String)? {
        roundTrip(port: port, request, readTimeout: readTimeout).flatMap(response).map { ($0.status, $0.body) }
    }

    /// A response's status, its headers (names in lower case) and its body.
    static func response(_ bytes: [UInt8]) -> (status: Int, headers: [String: String], body: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)) else { return nil }
        guard let end = text.range(of: "\r\n\r\n") else { return (status, [:], "") }
        var headers: [String: String] = [:]
        for line in text[..<end.lowerBound].split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, String(text[end.upperBound...]))
    }

    static func roundTrip(port: Int, _ request: [UInt8], readTimeout: Int) -> [UInt8]? {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            // The server may answer (413) and stop reading before the whole request is sent.
            if n <= 0 { break }
            sent += n
        }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out.isEmpty ? nil : out
    }
}

/// Bodies shaped like the two streams, cut from a generated fixture (docs/fixtures.md).
enum ReceiveBodies {
    /// The app's three syncs of every date, in the order it sends them: at noon and at 18:00 of
    /// the date with the day's step count and active energy so far (1/2, then 3/4 of the day's),
    /// then the complete payload with its later `device_sync_timestamp` (the one `expected/` has).
    static func appSyncs(_ fixture: URL) throws -> [[UInt8]] {
        let dir = fixture.appendingPathComponent("expected/payloads")
        var bodies: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".json") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let date = String(name.prefix(10))
            for (hour, share) in [("12", 0.5), ("18", 0.75)] {
                var payload = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                payload["device_sync_timestamp"] = "\(date)T\(hour):00:00+01:00"
                var metrics = try XCTUnwrap(payload["metrics"] as? [String: Any])
                for key in ["step_count", "active_calories"] {
                    if let v = metrics[key] as? Double { metrics[key] = (v * share).rounded() }
                }
                payload["metrics"] = metrics
                bodies.append(Array(try JSONSerialization.data(withJSONObject: ["data": [payload]])))
            }
            bodies.append(Array(("{\"data\": [" + text + "]}").utf8))
        }
        return bodies
    }

    /// Health Auto Export's "since last sync" bodies of hae.json: one a sync, each with the
    /// datums, nights and workouts of two dates (the later date again in the next body, as a sync
    /// that runs during a day sends that day again); the first also takes what is dated before
    /// its dates (the wrist temperature of the evening before), the last what is dated after.
    static func haeSyncs(_ fixture: URL, dates: [String]) throws -> [[UInt8]] {
        let data = try Data(contentsOf: fixture.appendingPathComponent("hae.json"))
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let top = try XCTUnwrap(root["data"] as? [String: Any])
        let metrics = try XCTUnwrap(top["metrics"] as? [[String: Any]])
        let workouts = try XCTUnwrap(top["workouts"] as? [[String: Any]])
        var bodies: [[UInt8]] = []
        for k in 0..<(dates.count - 1) {
            func inWindow(_ stamp: Any?) -> Bool {
                guard let s = stamp as? String else { return false }
                let d = String(s.prefix(10))
                if k == 0 && d < dates[0] { return true }
                if k == dates.count - 2 && d > dates[dates.count - 1] { return true }
                return d == dates[k] || d == dates[k + 1]
            }
            var ms: [[String: Any]] = []
            for var m in metrics {
                let datums = (m["data"] as? [[String: Any]] ?? []).filter { inWindow($0["date"]) }
                guard !datums.isEmpty else { continue }
                m["data"] = datums
                ms.append(m)
            }
            let ws = workouts.filter { inWindow($0["start"]) }
            bodies.append(Array(try JSONSerialization.data(withJSONObject: ["data": ["metrics": ms, "workouts": ws]])))
        }
        return bodies
    }

    static func sha256(_ bytes: [UInt8]) -> String { FileDigest.sha256(bytes: bytes) }
}
