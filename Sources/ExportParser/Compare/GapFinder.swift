/// Finds what a side stopped delivering, apart from values out of tolerance: a date of the
/// window with no data at all from a side; a field a side delivered and then no longer does
/// while the other side still has it ("no step_count from HAE after 2026-03-20"); a field a side
/// lacks on one date but has before and after ("native sleep.total_hours missing on 2026-03-24").
/// A field a side never delivers is no gap: that is what the side can do (its rows say
/// `only-native` or `only-hae`).
enum GapFinder {
    static func gaps(native: [String: ComparableDay], hae: [String: ComparableDay], window: Comparison.Window, fields: [String])
        -> [CompareGap]
    {
        var out: [CompareGap] = []
        let dates = window.dates
        for date in dates {
            if native[date] == nil, hae[date] != nil { out.append(missingDate(.native, date)) }
            if hae[date] == nil, native[date] != nil { out.append(missingDate(.hae, date)) }
        }
        for (side, own, other) in [(CompareSide.native, native, hae), (.hae, hae, native)] {
            let delivered = deliveredDates(own)
            for field in fields {
                // The heart-rate count of HAE buckets is not something HAE can state.
                if side == .hae, field.hasSuffix(".count") { continue }
                guard let (first, last) = delivered[field] else { continue }
                var stoppedFrom: String?
                for date in dates where own[date] != nil && own[date]!.values[field] == nil && other[date]?.values[field] != nil {
                    if date > last {
                        if stoppedFrom == nil { stoppedFrom = date }
                    } else if first < date {
                        out.append(
                            CompareGap(
                                kind: .fieldMissing, side: side, date: date, field: field,
                                sentence: "\(side.name) \(name(field)) missing on \(date)"))
                    }
                }
                if let from = stoppedFrom {
                    out.append(
                        CompareGap(
                            kind: .fieldStopped, side: side, date: from, field: field,
                            sentence: "no \(name(field)) from \(side.name) after \(last)"))
                }
            }
        }
        return out.sorted { ($0.date, $0.side.rawValue, $0.field ?? "") < ($1.date, $1.side.rawValue, $1.field ?? "") }
    }

    /// For each field a side delivered, the first and last date it did: one pass over the side's
    /// days in date order (a pass for each field over the thousands of dates an export holds was
    /// a tenth of `compare`'s single-threaded end on the 3 GB export), the first date a field is
    /// met its first, the last its last. A day that knows its fields as a set
    /// (`ComparableDay.fieldSet`: a book's day or a census's stand-ins) is read by index, and each
    /// field named once at the end, not by a hash of each path of each date.
    static func deliveredDates(_ days: [String: ComparableDay]) -> [String: (first: String, last: String)] {
        var out: [String: (first: String, last: String)] = [:]
        let count = ComparableDay.compared.count
        var first = [String?](repeating: nil, count: count), last = [String?](repeating: nil, count: count)
        for date in days.keys.sorted() {
            let day = days[date]!
            guard let set = day.fieldSet else {
                for field in day.values.keys {
                    if out[field] == nil { out[field] = (date, date) } else { out[field]!.last = date }
                }
                continue
            }
            set.forEach { i in
                if first[i] == nil { first[i] = date }
                last[i] = date
            }
        }
        for (i, entry) in ComparableDay.compared.enumerated() {
            guard let f = first[i], let l = last[i] else { continue }
            let seen = out[entry.path]
            out[entry.path] = (min(seen?.first ?? f, f), max(seen?.last ?? l, l))
        }
        return out
    }

    /// `--monitor N`: after HAE is switched off, the native side's `n` dates ending on `until`
    /// (`MonitorEnd`: `--until`, or today in the person's zone), each field judged by its own
    /// cadence in the reference dates (the window's dates before the first monitored date that
    /// the side has data for). A field seen on `k` of those `N` dates has the spacing
    /// `s = max(largest step between consecutive dates it was seen, ⌈N / k⌉)` dates: 1 for a
    /// field seen every date, 7 for a weekly weigh-in. It is a gap once more than `s` dates have
    /// passed since it was last seen: the date it was due and one more, because a daily habit or
    /// a weekly weigh-in drifts by a date, where a stop does not (steps gone for 2 dates fail).
    /// A field seen on fewer than 3 reference dates is not judged: one reading has no spacing
    /// (weekly, or monthly?) and two give a single one, which cannot tell a habit from chance (a
    /// VO2 max estimate follows some outdoor runs, on no schedule). A monitored date the side has
    /// nothing for is one line, not one a field; the dates at the end that the side has nothing for
    /// are one line together, "no native data since" its last date (the app stopped syncing),
    /// once more than one date has passed since it; each overdue field is one line naming its missing dates. Native dates after
    /// `until` are not looked at.
    static func monitor(
        native: [String: ComparableDay], window: Comparison.Window, until last: Int, lastDates n: Int, fields: [String]
    ) -> [CompareGap] {
        let first = last - n + 1
        // Dates the side has nothing for teach nothing about a field's cadence: they are gaps of
        // their own (`missingDate`, `stopped`).
        let reference = (window.from <= first - 1 ? Array(window.from...min(window.to, first - 1)) : []).filter {
            native[CivilDate.isoDate($0)] != nil
        }
        var out: [CompareGap] = []
        // The dates at the end the side has nothing for, after its last date up to `until`: a
        // stop once more than one date has passed since that last date. The last date alone is
        // not judged (the app may not have sent it yet: the date of slack a daily field gets).
        let lastHeld = native.keys.compactMap(CivilDate.parseISODate).filter { $0 <= last }.max()
        let stoppedFrom = lastHeld.map { max(first, $0 + 1) } ?? first
        if lastHeld.map({ last - $0 > 1 }) ?? true {
            out.append(stopped(.native, lastHeld: lastHeld, missing: (lastHeld.map { $0 + 1 } ?? first)...last))
        }
        for day in first..<stoppedFrom where native[CivilDate.isoDate(day)] == nil {
            out.append(missingDate(.native, CivilDate.isoDate(day)))
        }
        for field in fields {
            let seen = reference.filter { native[CivilDate.isoDate($0)]?.values[field] != nil }
            guard let spacing = cadence(seen: seen, of: reference.count) else { continue }
            var lastSeen = seen.last!
            var overdueTo: Int?
            var runs: [ClosedRange<Int>] = []
            for day in first...last {
                guard let d = native[CivilDate.isoDate(day)] else { continue }
                if d.values[field] != nil {
                    if let to = overdueTo { runs.append((lastSeen + 1)...to) }
                    lastSeen = day
                    overdueTo = nil
                } else if day - lastSeen > spacing {
                    overdueTo = day
                }
            }
            if let to = overdueTo { runs.append((lastSeen + 1)...to) }
            guard let firstRun = runs.first else { continue }
            let dates = runs.map { r in
                r.count == 1 ? CivilDate.isoDate(r.lowerBound) : "\(CivilDate.isoDate(r.lowerBound)) … \(CivilDate.isoDate(r.upperBound))"
            }
            let usual = spacing == 1 ? "every date" : "every \(spacing) dates"
            out.append(
                CompareGap(
                    kind: .fieldMissing, side: .native, date: CivilDate.isoDate(firstRun.lowerBound), field: field,
                    sentence:
                        "native \(name(field)) missing on \(dates.joined(separator: ", ")) (usually \(usual): seen on \(seen.count) of the \(reference.count) reference dates)"
                ))
        }
        return out  // the stop, the missing dates in date order, then the fields in field-table order
    }

    /// The dates at the end that a side has nothing for, from the day after its last date (which
    /// may be before the monitored ones) to `until`: "no native data since 2026-03-10
    /// (2026-03-11 … 2026-03-13 missing)", dated by the first missing date.
    static func stopped(_ side: CompareSide, lastHeld: Int?, missing: ClosedRange<Int>) -> CompareGap {
        let dates =
            missing.count == 1
            ? CivilDate.isoDate(missing.lowerBound) : "\(CivilDate.isoDate(missing.lowerBound)) … \(CivilDate.isoDate(missing.upperBound))"
        let since =
            lastHeld.map { "no \(side.name) data since \(CivilDate.isoDate($0))" }
            ?? "no \(side.name) data up to \(CivilDate.isoDate(missing.upperBound))"
        return CompareGap(
            kind: .stopped, side: side, date: CivilDate.isoDate(missing.lowerBound), field: nil, sentence: "\(since) (\(dates) missing)")
    }

    /// How many reference dates a field must be seen on to be judged by `monitor`.
    static let judgedFrom = 3

    /// The usual spacing in dates of a field seen on the day numbers `seen` (ascending) out of
    /// `count` reference dates; nil when seen fewer than `judgedFrom` times.
    static func cadence(seen: [Int], of count: Int) -> Int? {
        guard seen.count >= judgedFrom else { return nil }
        let largest = zip(seen, seen.dropFirst()).map { $1 - $0 }.max()!
        return max(largest, (count + seen.count - 1) / seen.count)
    }

    static func missingDate(_ side: CompareSide, _ date: String) -> CompareGap {
        CompareGap(kind: .missingDate, side: side, date: date, field: nil, sentence: "no data from \(side.name) on \(date)")
    }

    /// `step_count`, `heart_rate_samples.min`, `sleep.total_hours`: the payload path less the
    /// section where the section says nothing a reader needs.
    static func name(_ path: String) -> String {
        for prefix in ["metrics.", "running_mechanics."] where path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        return path
    }
}
