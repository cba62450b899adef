import Foundation

/// One line per request on standard error: time, person, method and path, status, body bytes,
/// milliseconds. Never a key, a header value or anything of a body (health values).
struct ReceiveLog: Sendable {
    static func line(person: String?, method: String, path: String, status: Int, bytes: Int, started: Date) -> String {
        let ms = Int((Date().timeIntervalSince(started) * 1000).rounded())
        // The path is the client's: only the two endpoints and /status are echoed as sent.
        let known = ["/sync/healthkit", "/hae", "/status"].contains(path) ? path : "(other path)"
        let safeMethod = method.count <= 10 && method.allSatisfy({ $0.isLetter }) ? method : "(other)"
        return
            "\(ISO8601DateFormatter().string(from: Date())) person=\(person ?? "-") \(safeMethod) \(known) \(status) bytes=\(bytes) ms=\(ms)"
    }

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
