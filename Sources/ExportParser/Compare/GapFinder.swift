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
            for field in fields {
                // The heart-rate count of HAE buckets is not something HAE can state.
                if side == .hae, field.hasSuffix(".count") { continue }
                let delivered = own.compactMap { $0.value.values[field] != nil ? $0.key : nil }
                guard let last = delivered.max() else { continue }
                var stoppedFrom: String?
                for date in dates where own[date] != nil && own[date]!.values[field] == nil && other[date]?.values[field] != nil {
                    if date > last {
                        if stoppedFrom == nil { stoppedFrom = date }
                    } else if delivered.contains(where: { $0 < date }) {
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

    /// `--monitor N`: after HAE is switched off, each of the native side's last `n` dates must
    /// carry every field the native side had in the validation window.
    static func monitor(native: [String: ComparableDay], window: Comparison.Window, lastDates n: Int, fields: [String]) -> [CompareGap] {
        let expected = Set(window.dates.flatMap { native[$0]?.values.keys.map { $0 } ?? [] })
        guard let last = native.keys.compactMap(CivilDate.parseISODate).max() else { return [] }
        var out: [CompareGap] = []
        for day in (last - n + 1)...last {
            let date = CivilDate.isoDate(day)
            guard let d = native[date] else {
                out.append(missingDate(.native, date))
                continue
            }
            for field in fields where expected.contains(field) && d.values[field] == nil {
                out.append(
                    CompareGap(
                        kind: .fieldMissing, side: .native, date: date, field: field,
                        sentence: "native \(name(field)) missing on \(date)"))
            }
        }
        return out
    }

    /// The dates `monitor` checks: the native side's last `n` dates, up to its last.
    static func monitoredDates(native: [String: ComparableDay], lastDates n: Int) -> (from: String, to: String)? {
        guard let last = native.keys.compactMap(CivilDate.parseISODate).max() else { return nil }
        return (CivilDate.isoDate(last - n + 1), CivilDate.isoDate(last))
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
