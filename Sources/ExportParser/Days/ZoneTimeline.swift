import Foundation

/// The person's IANA zone over time, from the `HKTimeZone` entries of one input (docs/rules.md,
/// "Days without --timezone"). Apple writes every export.xml timestamp in the offset of the export
/// moment, so the recorded offsets do not say where midnight fell; these entries do.
///
/// The rule: an entry's zone holds from the quarter-hour it falls in until the first later entry
/// that names another zone; before the first entry, the first entry's zone. Changes are taken at
/// quarter-hours because real offsets and daylight-saving changes are whole quarter-hours, so a
/// UTC quarter-hour never straddles a local midnight (the day book's fringe slots rely on it).
final class ZoneTimeline: @unchecked Sendable {
    /// Constant-zone stretches in time order: each holds from `from` until the next one's `from`.
    let stretches: [(from: Int64, name: String, zone: TimeZone)]

    init?(_ entries: [(at: Int64, name: String)]) {
        var out: [(from: Int64, name: String, zone: TimeZone)] = []
        for e in entries.sorted(by: { $0.at < $1.at }) {
            if out.last?.name == e.name { continue }
            guard let zone = TimeZone(identifier: e.name) else { continue }
            var from = Int64(LocalClock.floorDiv(e.at, 900)) * 900
            if let last = out.last, last.from >= from { out.removeLast() }  // changed again within a quarter-hour
            if out.last?.name == e.name { continue }
            if out.isEmpty { from = Int64.min }
            out.append((from, e.name, zone))
        }
        guard !out.isEmpty else { return nil }
        stretches = out
    }

    /// The index of the stretch holding `seconds`.
    func index(at seconds: Int64) -> Int {
        var lo = 0, hi = stretches.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if stretches[mid].from <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The zone name in force at `seconds`.
    func name(at seconds: Int64) -> String { stretches[index(at: seconds)].name }

    /// The end of the stretch holding `seconds` (the next one's start), or nil for the last.
    func end(ofStretch i: Int) -> Int64? { i + 1 < stretches.count ? stretches[i + 1].from : nil }

    /// The largest difference between an offset of this timeline over `span` and the recorded
    /// offsets `recorded` (their least and greatest): how far a recorded offset's local time can
    /// be from the person's.
    func largestShift(over span: ClosedRange<Int64>, recorded: ClosedRange<Int32>) -> Int64 {
        var largest: Int64 = 0
        for (i, s) in stretches.enumerated() {
            let from = max(s.from, span.lowerBound), to = min(end(ofStretch: i) ?? Int64.max, span.upperBound)
            guard from <= to else { continue }
            var t = from
            while true {
                let off = Int64(s.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))))
                largest = max(largest, abs(off - Int64(recorded.lowerBound)), abs(off - Int64(recorded.upperBound)))
                guard let next = s.zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(t))) else { break }
                let n = Int64(next.timeIntervalSince1970)
                if n <= t || n > to { break }
                t = n
            }
        }
        return largest
    }
}

/// Gathers `HKTimeZone` entries as a stream delivers them, keeping only where a zone starts and
/// ends in each run of entries (the stream is grouped by type, each type in time order), so it
/// stays small on any file.
struct ZoneNotes {
    private var runs: [(first: Int64, last: Int64, name: String)] = []

    var isEmpty: Bool { runs.isEmpty }

    @inline(__always)
    mutating func note(_ name: String, at t: Int64) {
        if let r = runs.last, r.name == name, t >= r.last {
            runs[runs.count - 1].last = t
            return
        }
        runs.append((t, t, name))
    }

    /// Whether `note(name, at: t)` would change nothing: the last run is `name`'s and ends at `t`.
    func isIdle(_ name: String, at t: Int64) -> Bool {
        guard let r = runs.last else { return false }
        return r.name == name && r.last == t
    }

    /// The timeline the entries give, or nil when there were none.
    var timeline: ZoneTimeline? {
        ZoneTimeline(runs.flatMap { [($0.first, $0.name), ($0.last, $0.name)] })
    }
}
