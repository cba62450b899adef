import ExportParser
import Foundation

/// `hae-bodies/` and `hae-bodies.jsonl` (`--hae-bodies default|since`): the REST bodies Health
/// Auto Export's API automation would have POSTed for the fixture's data, four syncs a day, in
/// the style of `hae.json` (`--hae-style`). docs/fixtures.md, "HAE's REST bodies".
///
/// - Syncs at 06:00, 12:00, 18:00 and 23:00 local of every date, and a last one at 06:00 the
///   morning after the last date (HAE keeps syncing; without it the last evening would be in no
///   body).
/// - `default` (HAE's default period): a body holds the previous day and today so far: the
///   samples that started at or after the previous date's local midnight and had ended by the
///   sync. Windows overlap by design: most samples are in five to eight bodies.
/// - `since` ("Since Last Sync"): a body holds the samples that ended after the previous sync and
///   by this one; each sample is in one body.
/// - Summarize off (`--hae-style samples`): the bodies are `hae.json`'s datums and workouts cut
///   that way, each body laid out as `hae.json` is.
/// - Summarize on (day buckets): a body holds a bucket for each date its window touches (the
///   previous date and today for `default`; the dates from the previous sync's to today's for
///   `since`). **Assumption** (HAE's documentation does not say): a day bucket is the day's value
///   so far, whatever the window's start, as HealthKit's day statistics are. A finished date
///   carries the plan's values; the sync's own date is a partial view: sums in proportion to the
///   part of the day gone by, the other metrics the plan's, the night only once it has ended and
///   the workouts that have ended. The reader takes per date the most complete body's buckets
///   (docs/rules.md, "HAE bodies"), which is always one synced after the date ended.
///
/// Bodies are named `NNNN-YYYY-MM-DDTHH-MM.json` (their number, the sync's local time), so the
/// folder's name order is the sync order; `hae-bodies.jsonl` holds the same bodies one a line,
/// compact, in that order.
struct HAEBodiesWriter {
    enum Window: String, CaseIterable {
        case `default`
        case since
    }

    let window: Window
    let clock: FixtureClock
    let units: FixtureUnits
    let samplesStyle: Bool

    /// Minutes after local midnight of each date's syncs.
    static let syncMinutes = [360, 720, 1_080, 1_380]

    /// Every sync instant, in order.
    func syncs(firstDay: Int, lastDay: Int) -> [Int64] {
        (firstDay...lastDay).flatMap { d in Self.syncMinutes.map { clock.instant(day: d, minute: $0) } }
            + [clock.instant(day: lastDay + 1, minute: Self.syncMinutes[0])]
    }

    /// The bodies' bytes (each as `hae.json` lays a file out) and their file names, in sync order.
    /// `days` are the fixture's dates (records and plans) in date order; `scratch` a file name
    /// the samples writer may use while it lays a body out.
    func bodies(_ days: [FixtureDay], scratch: String) throws -> [(name: String, bytes: [UInt8])] {
        guard let first = days.first?.plan.day, let last = days.last?.plan.day else { return [] }
        var out: [(name: String, bytes: [UInt8])] = []
        var previous: Int64?
        for (i, sync) in syncs(firstDay: first, lastDay: last).enumerated() {
            let local = clock.iso(sync)
            let name = String(format: "%04d-", i + 1) + local.prefix(16).replacingOccurrences(of: ":", with: "-") + ".json"
            let bytes =
                try samplesStyle
                ? samplesBody(days, sync: sync, previous: previous, scratch: scratch) : daysBody(days, sync: sync, previous: previous)
            out.append((name, bytes))
            previous = sync
        }
        return out
    }

    /// Whether a sample (start, end) is in the body synced at `sync`.
    private func holds(start: Int64, end: Int64, sync: Int64, previous: Int64?) -> Bool {
        switch window {
        case .default: return start >= clock.midnight(clock.day(sync) - 1) && end <= sync
        case .since: return end <= sync && previous.map { end > $0 } ?? true
        }
    }

    private func samplesBody(_ days: [FixtureDay], sync: Int64, previous: Int64?, scratch: String) throws -> [UInt8] {
        var writer = try HAESamplesWriter(clock: clock, units: units, place: .memory)
        for var d in days {
            d.records = d.records.filter { holds(start: $0.start, end: $0.end, sync: sync, previous: previous) }
            d.correlations = d.correlations.filter { holds(start: $0.start, end: $0.end, sync: sync, previous: previous) }
            d.plan.workouts = d.plan.workouts.filter { holds(start: $0.start, end: $0.end, sync: sync, previous: previous) }
            try writer.add(d)
        }
        let file = try OutputFiles.Staged(scratch)
        try writer.finish(into: file)
        try file.commit()
        defer { unlink(scratch) }
        guard let bytes = FileManager.default.contents(atPath: scratch) else {
            throw OutputError(file: scratch, message: "cannot be read back")
        }
        return Array(bytes)
    }

    private func daysBody(_ days: [FixtureDay], sync: Int64, previous: Int64?) throws -> [UInt8] {
        let today = clock.day(sync)
        let from: Int
        switch window {
        case .default: from = today - 1
        case .since: from = previous.map { clock.day($0) } ?? Int.min
        }
        var data = FixtureData()
        for d in days where d.plan.day >= from && d.plan.day <= today {
            var p = d.plan
            if p.day == today {
                let dayStart = clock.midnight(p.day), dayEnd = clock.midnight(p.day + 1)
                let share = Double(sync - dayStart) / Double(dayEnd - dayStart)
                for m in Catalog.metrics where m.rule == .sum {
                    p.values[m.index] = p.values[m.index].map { ($0 * share * 1_000).rounded() / 1_000 }
                }
                if let s = p.sleep, s.sleepEnd > sync { p.sleep = nil }
                // A nap still to come is not in the body (the night's main sleep is).
                if let nap = p.sleep?.nap, nap.end > sync { p.sleep?.nap = nil }
                p.workouts = p.workouts.filter { $0.end <= sync }
            }
            data.plans.append(p)
        }
        return HAEFixtureWriter(data: data, clock: clock, units: units).json()
    }

    /// A body on one line: `hae.json`'s layout without its line ends and indentation (no string
    /// the fixtures write holds a line end, so only layout is removed).
    static func compact(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var atLineStart = false
        for b in bytes {
            if b == 0x0A {
                atLineStart = true
                continue
            }
            if atLineStart, b == 0x20 { continue }
            atLineStart = false
            out.append(b)
        }
        return out
    }

    /// Writes `hae-bodies/` (replaced whole) and `hae-bodies.jsonl` under `dir`.
    func write(_ days: [FixtureDay], to dir: String) throws {
        let bodies = try bodies(days, scratch: dir + "/.hae-body.json")
        try OutputFiles.replaceDirectory(dir + "/hae-bodies") { folder in
            for b in bodies { try FixtureFiles.write(b.bytes, to: folder + "/" + b.name) }
        }
        var lines: [UInt8] = []
        for b in bodies { lines += Self.compact(b.bytes) + [0x0A] }
        try FixtureFiles.write(lines, to: dir + "/hae-bodies.jsonl")
    }
}
