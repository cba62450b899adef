/// One field's result over the window, the line a person reads before any row:
/// `step_count 7/7 dates within ±2 %`, `resting_hr 6/7 dates within ±1 bpm (2024-03-12 +5 bpm)`.
/// Rows that are `not-comparable` are not in any verdict (the report counts them in one line).
struct FieldVerdict: Sendable {
    enum Status: String, Sendable {
        /// Every date within tolerance.
        case pass
        /// A value out of tolerance, or a workout on one side only.
        case fail
        /// No value out of tolerance, but dates where only one side has the field.
        case oneSided = "one-sided"
    }
    /// A date that is not within tolerance: `2024-03-12 +5 bpm`, `2024-03-06 only native`.
    struct Exception: Sendable {
        var date: String
        var status: CompareRow.Status
        var text: String
    }

    /// The payload path (`metrics.step_count`), a workout figure (`workouts.energy_kcal`), or
    /// `workouts` for the pairing of the workouts themselves.
    var field: String
    /// Dates (workouts, for `workouts`) with a value on either side.
    var compared: Int
    var within: Int
    var tolerance: Tolerance?
    var exceptions: [Exception]
    var status: Status

    /// Shown in a line: the first three exceptions.
    static let shownExceptions = 3

    var sentence: String {
        let name = GapFinder.name(field)
        let unit = field.hasPrefix("workouts") ? (compared == 1 ? "workout" : "workouts") : (compared == 1 ? "date" : "dates")
        let how = field == "workouts" ? "paired" : tolerance.map { "within \($0)" } ?? "the same"
        var text = field == "workouts" ? "\(name) \(within)/\(compared) \(how)" : "\(name) \(within)/\(compared) \(unit) \(how)"
        if !exceptions.isEmpty {
            var shown = exceptions.prefix(Self.shownExceptions).map { "\($0.date) \($0.text)" }
            if exceptions.count > Self.shownExceptions { shown.append("\(exceptions.count - Self.shownExceptions) more") }
            text += " (" + shown.joined(separator: ", ") + ")"
        }
        return text
    }

    /// The verdicts of a comparison's rows: failing fields first, then those with dates on one
    /// side only, then those that pass; within each, in field-table order (workouts last).
    static func verdicts(_ rows: [CompareRow]) -> [FieldVerdict] {
        var byField: [String: [CompareRow]] = [:]
        for r in rows where r.status != .notComparable { byField[r.field, default: []].append(r) }
        let order = Dictionary(
            OutputFields.all.enumerated().compactMap { i, f in f.payloadPath.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
        var out: [FieldVerdict] = []
        for (field, rows) in byField where field != "workouts" {
            var v = FieldVerdict(
                field: field, compared: rows.count, within: 0, tolerance: rows.first?.tolerance, exceptions: [], status: .pass)
            for r in rows {
                if r.status == .match {
                    v.within += 1
                    continue
                }
                let label = r.workout.map { $0 + " " } ?? ""
                v.exceptions.append(Exception(date: r.date, status: r.status, text: label + exceptionText(r)))
            }
            v.status =
                v.exceptions.contains { $0.status == .mismatch } ? .fail : v.exceptions.isEmpty ? .pass : .oneSided
            out.append(v)
        }
        // Workouts: the pairs (each matched workout once) against those on one side only.
        let unpaired = byField["workouts"] ?? []
        let paired = Set(rows.filter { $0.field.hasPrefix("workouts.") }.map { $0.date + " " + ($0.workout ?? "") }).count
        if !unpaired.isEmpty || paired > 0 {
            out.append(
                FieldVerdict(
                    field: "workouts", compared: paired + unpaired.count, within: paired, tolerance: nil,
                    exceptions: unpaired.map {
                        Exception(date: $0.date, status: $0.status, text: ($0.workout ?? "") + " " + side($0.status))
                    },
                    status: unpaired.isEmpty ? .pass : .fail))
        }
        let rank: [Status: Int] = [.fail: 0, .oneSided: 1, .pass: 2]
        func position(_ f: String) -> Int {
            if let i = order[f] { return i }
            return f == "workouts" ? Int.max : Int.max - 1
        }
        return out.sorted { (rank[$0.status]!, position($0.field), $0.field) < (rank[$1.status]!, position($1.field), $1.field) }
    }

    /// `only native`, `only HAE`.
    static func side(_ s: CompareRow.Status) -> String { s == .onlyNative ? "only native" : s == .onlyHAE ? "only HAE" : s.rawValue }

    /// The difference as a person weighs it against the tolerance: `+5 bpm`, `+500 (+5.0 %)`,
    /// `+12 min`; `only native` where one side has no value.
    static func exceptionText(_ r: CompareRow) -> String {
        guard r.status == .mismatch, let d = r.difference else { return side(r.status) }
        let sign = d >= 0 ? "+" : "−"
        switch r.tolerance?.measure {
        case .minutes?:
            // Sleep durations are hours; in-bed times are already minutes apart.
            let minutes = r.unit == "min" ? d : d * 60
            return sign + JSONValue.format(abs(minutes), decimals: 0) + " min"
        case .absolute?:
            let unit = r.unit.map { $0 == "count/min" ? " bpm" : $0 == "count" ? "" : " " + $0 } ?? ""
            return sign + JSONValue.format(abs(d), decimals: max(r.decimals, 0)) + unit
        default:
            var text = sign + JSONValue.format(abs(d), decimals: r.decimals)
            if case .number(let h)? = r.hae, h != 0 { text += " (" + sign + JSONValue.format(abs(d) / abs(h) * 100, decimals: 1) + " %)" }
            return text
        }
    }
}

extension FieldVerdict {
    /// The one line for the rows that are `not-comparable` (a count HAE cannot state, a sleep
    /// source spelt two ways): `8 values not comparable, not judged: heart_rate_samples.count (7), sleep.source (1)`;
    /// nil when there is none.
    static func notComparableLine(_ rows: [CompareRow]) -> String? {
        var counts: [String: Int] = [:]
        for r in rows where r.status == .notComparable { counts[r.field, default: 0] += 1 }
        guard !counts.isEmpty else { return nil }
        let total = counts.values.reduce(0, +)
        let listed = counts.sorted { $0.key < $1.key }.map { "\(GapFinder.name($0.key)) (\($0.value))" }.joined(separator: ", ")
        return "\(total) \(total == 1 ? "value" : "values") not comparable, not judged: \(listed)"
    }
}
