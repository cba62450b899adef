import Foundation

/// Turns instants into local calendar days and local timestamps: in the run's IANA zone when
/// `--timezone` is given, in the zones of a `ZoneTimeline` (the input's `HKTimeZone` entries),
/// else in each instant's own recorded offset (the file's view).
///
/// Zone offsets are looked up through a cache of constant-offset intervals, since Foundation's
/// `TimeZone` calls are far too slow for millions of samples.
package final class LocalClock {
    let zone: TimeZone?
    let timeline: ZoneTimeline?
    /// Neither a zone nor a timeline: each instant's recorded offset (kept as a flag: this is on
    /// every sample's path).
    private let recorded: Bool
    private var intervals: [(start: Int64, end: Int64, offset: Int32)] = []
    private var last = 0

    package init(zone: TimeZone?) {
        self.zone = zone
        timeline = nil
        recorded = zone == nil
    }

    init(timeline: ZoneTimeline) {
        zone = nil
        self.timeline = timeline
        recorded = false
    }

    /// A clock that gives the same answers with a cache of its own, for another thread (the cache
    /// is written on lookups, so one clock is never used by two threads at once).
    func twin() -> LocalClock {
        if let timeline { return LocalClock(timeline: timeline) }
        return LocalClock(zone: zone)
    }

    /// The offset in force at `t` (run zone or timeline) or `t`'s recorded one.
    @inline(__always)
    func offset(_ t: Timestamp) -> Int32 {
        recorded ? t.offset : zoneOffset(t.seconds)
    }

    /// The zone name a date is in: the run's zone, or the timeline's at the date's first instant;
    /// nil when the clock reads recorded offsets.
    func zoneName(day: Int) -> String? {
        if let zone { return zone.identifier }
        guard let timeline else { return nil }
        return timeline.name(at: midnight(day: day, recordedOffset: 0))
    }

    package func zoneOffset(_ seconds: Int64) -> Int32 {
        if last < intervals.count, intervals[last].start <= seconds, seconds < intervals[last].end { return intervals[last].offset }
        for (i, iv) in intervals.enumerated() where iv.start <= seconds && seconds < iv.end {
            last = i
            return iv.offset
        }
        let zone: TimeZone
        var bounds = (Int64.min, Int64.max)
        if let z = self.zone {
            zone = z
        } else if let timeline {
            let i = timeline.index(at: seconds)
            zone = timeline.stretches[i].zone
            bounds = (timeline.stretches[i].from, timeline.end(ofStretch: i) ?? Int64.max)
        } else {
            return 0
        }
        // Compute the constant-offset interval around `seconds` (bounded to a year each way).
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let off = Int32(zone.secondsFromGMT(for: date))
        let year: Int64 = 366 * 86_400
        let next = zone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970) } ?? seconds + year
        var start = seconds - year
        // Find the previous transition by stepping back from `seconds`.
        if let prev = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(seconds - year))) {
            var p = Int64(prev.timeIntervalSince1970)
            while p <= seconds {
                start = p
                guard let n = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(p))) else { break }
                let nn = Int64(n.timeIntervalSince1970)
                if nn <= p { break }
                p = nn
            }
        }
        intervals.append((max(start, bounds.0), min(max(next, seconds + 1), bounds.1), off))
        last = intervals.count - 1
        return off
    }

    /// The offset in force over all of `[from, to)` when one constant-offset interval holds it
    /// (`recorded`: a clock of recorded offsets gives that one), else nil. `WindowCensus.dates`
    /// dates 64 quarter-hours at a time with it.
    func offset(over from: Int64, _ to: Int64, recorded offset: Int32) -> Int32? {
        if recorded { return offset }
        let off = zoneOffset(from)
        guard last < intervals.count else { return nil }
        let iv = intervals[last]
        return iv.start <= from && to <= iv.end ? off : nil
    }

    /// Local day number (days since 1970-01-01) of an instant.
    @inline(__always)
    func day(_ t: Timestamp) -> Int {
        Self.floorDiv(t.seconds + Int64(offset(t)), 86_400)
    }

    /// The instant of local midnight starting `day`, for a sample recorded at `offset` (used
    /// when no zone is set) .
    func midnight(day: Int, recordedOffset: Int32) -> Int64 {
        let local = Int64(day) * 86_400
        guard !recorded else { return local - Int64(recordedOffset) }
        var guess = local - Int64(zoneOffset(local))
        guess = local - Int64(zoneOffset(guess))
        return guess
    }

    /// The night that ends at `t`: the local date of its end, whatever the hour (docs/rules.md,
    /// "Nights"). A sleep session's end dates it (`NightBook.place`), a wrist temperature's its
    /// own; a night that ends at exactly midnight is the new date's, as HAE dates its nights.
    @inline(__always)
    func night(endingAt t: Timestamp) -> Int { day(t) }

    /// ISO 8601 with the local offset.
    func iso(_ t: Timestamp) -> String {
        CivilDate.isoTimestamp(seconds: t.seconds, offset: offset(t))
    }

    @inline(__always)
    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int {
        Int(a >= 0 ? a / b : (a - b + 1) / b)
    }
}
