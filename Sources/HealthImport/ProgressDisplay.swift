import ExportParser
import Foundation

/// One line of progress on stderr, only when stderr is a terminal: bytes of total and records/s
/// (convert), days of total and days/s (push).
// @unchecked Sendable: it holds one immutable flag; each call writes one short line to stderr.
final class ProgressDisplay: @unchecked Sendable {
    let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func show(_ p: ConvertProgress) {
        guard enabled else { return }
        let mb = Double(p.bytesDone) / 1_000_000
        var line = String(format: "%@: %.0f MB", (p.input as NSString).lastPathComponent, mb)
        if let total = p.bytesTotal, total > 0 {
            line += String(format: " of %.0f MB (%.0f%%)", Double(total) / 1_000_000, 100 * Double(p.bytesDone) / Double(total))
        }
        if p.elapsed > 0 { line += ", " + CountText.count(Int(Double(p.records) / p.elapsed)) + " records/s" }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// "Pushing 412/1,460 days, 38 days/s".
    func show(_ p: PushProgress) {
        guard enabled else { return }
        var line = "Pushing \(CountText.count(p.done))/\(CountText.count(p.total)) days"
        if p.elapsed > 0 { line += String(format: ", %.0f days/s", Double(p.done) / p.elapsed) }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// "Compared 12/30 people".
    func showPeople(_ done: Int, of total: Int) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + "Compared \(done)/\(total) people").utf8))
    }

    /// Runs `body`, then clears the line, whether `body` returned or threw.
    func clearing<T>(after body: () throws -> T) rethrows -> T {
        defer { clear() }
        return try body()
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
