import Foundation

/// The end of a push run: counts, the failed days with their reasons, and whether the run was
/// stopped. Nothing in it holds the API key or a health value.
public struct PushOutcome: Sendable {
    public struct Failure: Sendable, Equatable {
        public var date: String
        public var reason: String
    }

    /// A day a dry run would send, and its body's size.
    public struct Planned: Sendable, Equatable {
        public var date: String
        public var bytes: Int
        /// Pushed before, but not accepted or with another body.
        public var changed: Bool
    }

    public var endpoint: String
    public var dryRun: Bool
    /// The backend's `last_healthkit_sync` (`never` for null), or why it could not be read.
    public var lastSync: String?
    public var statusProblem: String?
    /// Days with at least one request made, accepted ones, and those skipped because the store
    /// says they were accepted with the same body.
    public var sent = 0
    public var accepted = 0
    public var skipped = 0
    public var failures: [Failure] = []
    /// Days not finished because the run stopped (sent again by the next run), and how many of
    /// them had a request made that got no acceptance (a 401, or cancelled in flight).
    public var notSent = 0
    public var notSentButTried = 0
    /// Every day of the run: each is accepted, skipped, failed or not sent, once.
    public var days: Int { accepted + skipped + failures.count + notSent }
    /// Why the run stopped before the end (401/403, an untrusted certificate), as one sentence.
    public var stopReason: String?
    public var planned: [Planned] = []
    /// A date left out as partial (its input's export moment falls on it), and that moment.
    public struct PartialDay: Sendable, Equatable {
        public var date: String
        public var moment: String
    }
    /// The partial dates left out (without `--include-partial`), in date order. Not among `days`.
    public var partialLeftOut: [PartialDay] = []
    public var elapsed: Double = 0

    init(endpoint: String, dryRun: Bool) {
        self.endpoint = endpoint
        self.dryRun = dryRun
    }

    /// 0: every day accepted or already sent; 1: a day failed or the run stopped.
    public var exitStatus: Int32 { failures.isEmpty && stopReason == nil ? 0 : 1 }

    /// One line a partial date left out: what was not sent and why. Part of the summary; with
    /// `--quiet` printed on stderr alone, so a quiet run never leaves a date out unsaid.
    public var partialLines: [String] {
        partialLeftOut.map {
            "Left out \($0.date): partial, its input's export moment falls on it (device_sync_timestamp \($0.moment)), so it holds the day only until \(PartialDate.timeOfDay($0.moment)) and would replace the whole day the app synced; give --include-partial to send it"
        }
    }

    public func summaryLines() -> [String] {
        let n: (Int) -> String = CountText.count
        func days(_ k: Int) -> String { "\(n(k)) day\(k == 1 ? "" : "s")" }
        if dryRun {
            var lines = planned.map {
                "\($0.date)  \(n($0.bytes)) bytes" + ($0.changed ? "  (sent before: not accepted or changed since)" : "")
            }
            let bytes = planned.reduce(0) { $0 + $1.bytes }
            lines += partialLines
            lines.append(
                "Dry run: would send \(days(planned.count)) (\(n(bytes)) bytes) to \(endpoint)/sync/healthkit; \(n(skipped)) skipped as already sent. Nothing was sent."
            )
            return lines
        }
        var lines: [String] = []
        if let lastSync { lines.append("Backend's last HealthKit sync: \(lastSync)") }
        if let statusProblem { lines.append("Backend's sync status unavailable (\(statusProblem))") }
        // Four counts that add up to the days: a day the run stopped on is "not sent" (it goes
        // again next time), whether or not a request for it had left.
        let tried = notSentButTried > 0 ? "; \(n(notSentButTried)) of them got no answer before the stop" : ""
        lines.append(
            "Pushed to \(endpoint)/sync/healthkit: \(days(self.days)): \(n(accepted)) accepted, \(n(skipped)) skipped as already sent, \(n(failures.count)) failed"
                + (notSent > 0 ? ", \(n(notSent)) not sent (the run stopped\(tried))" : "")
                + String(format: " (%.1f s)", elapsed))
        for f in failures { lines.append("  \(f.date): \(f.reason)") }
        lines += partialLines
        return lines
    }
}
