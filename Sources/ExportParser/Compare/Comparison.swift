/// The migration check for one window: every field of every date on both sides as a row, the
/// workouts paired, and the gaps (what a side stopped delivering). Pure: the sides' days in,
/// the report out; reading the inputs is `CompareJob`'s.
struct Comparison: Sendable {
    /// Which dates are compared: `from`…`to`, calendar days.
    struct Window: Sendable, Equatable {
        var from: Int
        var to: Int
        var dates: [String] { (from...to).map(CivilDate.isoDate) }
        var count: Int { to - from + 1 }
    }

    var window: Window
    var rows: [CompareRow] = []
    var gaps: [CompareGap] = []
    /// Dates of the window each side has data for.
    var nativeDates = 0, haeDates = 0
    /// Dates of the window either side has data for: the dates compared (`--days 60` over 14
    /// dates of data compares 14).
    var datesWithData = 0

    /// Chooses the window: `from` and `days` when given; otherwise the last `days` calendar
    /// dates ending on the latest date both sides cover. Nil when no date has both.
    static func window(native: [String: ComparableDay], hae: [String: ComparableDay], from: Int?, days: Int) -> Window? {
        if let from { return Window(from: from, to: from + days - 1) }
        let common = Set(native.keys).intersection(hae.keys).compactMap(CivilDate.parseISODate)
        guard let last = common.max() else { return nil }
        // Not before the first date either side has: a window of dates nobody has is no check.
        let first = (Array(native.keys) + Array(hae.keys)).compactMap(CivilDate.parseISODate).min() ?? last
        return Window(from: max(last - days + 1, first), to: last)
    }

    init(native: [String: ComparableDay], hae: [String: ComparableDay], window: Window, tolerances: Tolerances) {
        self.window = window
        let fields = OutputFields.all.filter { f in
            f.payloadPath.map { !ComparableDay.notCompared.contains($0) && $0 != "workouts" } ?? false
        }
        for date in window.dates {
            let n = native[date], h = hae[date]
            if n != nil { nativeDates += 1 }
            if h != nil { haeDates += 1 }
            if n == nil && h == nil { continue }
            datesWithData += 1
            for f in fields {
                let path = f.payloadPath!
                let a = n?.values[path], b = h?.values[path]
                if a == nil && b == nil { continue }
                rows.append(Self.row(date: date, field: f, native: a, hae: b, tolerance: tolerances.tolerance(for: f)))
            }
            rows += Self.workoutRows(date: date, native: n?.workouts ?? [], hae: h?.workouts ?? [], tolerances: tolerances)
        }
        gaps = GapFinder.gaps(native: native, hae: hae, window: window, fields: fields.map { $0.payloadPath! })
    }

    /// One field of one date.
    static func row(
        date: String, field f: OutputField, native a: OutputField.Scalar?, hae b: OutputField.Scalar?,
        tolerance: Tolerance?
    ) -> CompareRow {
        var r = CompareRow(date: date, field: f.payloadPath!, unit: f.unit, native: a, hae: b, tolerance: tolerance, status: .notComparable)
        r.decimals = f.decimals ?? 0
        switch (a, b) {
        case (.some, nil):
            // HAE buckets do not say how many samples they hold: no count is no gap of HAE's.
            r.status = f.kind == .count ? .notComparable : .onlyNative
            if f.kind == .count { r.tolerance = nil }
        case (nil, .some):
            r.status = .onlyHAE
        case (.number(let x)?, .number(let y)?):
            r.difference = x - y
            r.relativeDifference = y != 0 ? abs(x - y) / abs(y) : nil
            if let t = tolerance { r.status = t.allows(native: x, hae: y) ? .match : .mismatch }
        case (.text(let x)?, .text(let y)?):
            if f.kind == .sleepTime, let t = tolerance, let tx = ISOTimestamp.parse(x), let ty = ISOTimestamp.parse(y) {
                r.difference = Double(tx.seconds - ty.seconds) / 60
                r.unit = "min"
                r.status = t.allows(nativeSeconds: tx.seconds, haeSeconds: ty.seconds) ? .match : .mismatch
            } else {
                // Text such as a sleep source: the same text matches; other text is shown, not
                // judged (the two sides name the same apps differently: "Watch|iPhone").
                r.tolerance = nil
                if x == y { r.status = .match }
            }
        default:
            r.tolerance = nil
        }
        return r
    }

    /// The workouts of one date: pairs compare their figures, the rest stand on their side.
    static func workoutRows(date: String, native: [ComparableWorkout], hae: [ComparableWorkout], tolerances: Tolerances) -> [CompareRow] {
        let (pairs, nativeOnly, haeOnly) = WorkoutMatcher.pair(native: native, hae: hae)
        var rows: [CompareRow] = []
        for (i, j) in pairs {
            let n = native[i], h = hae[j]
            let label = Self.label(n)
            let figures: [(String, String, Double?, Double?)] = [
                ("energy_kcal", "kcal", n.energyKcal, h.energyKcal),
                ("distance_m", "m", n.distanceMetres, h.distanceMetres),
                ("avg_heart_rate", "count/min", n.averageHeartRate, h.averageHeartRate),
                ("max_heart_rate", "count/min", n.maximumHeartRate, h.maximumHeartRate),
            ]
            for (name, unit, a, b) in figures where a != nil || b != nil {
                let t = tolerances.workoutTolerance(name)
                var r = CompareRow(
                    date: date, field: "workouts." + name, workout: label, unit: unit, native: a.map { .number($0) },
                    hae: b.map { .number($0) }, tolerance: t, status: .notComparable)
                r.decimals = 0
                switch (a, b) {
                case (let x?, let y?):
                    r.difference = x - y
                    r.relativeDifference = y != 0 ? abs(x - y) / abs(y) : nil
                    r.status = t.allows(native: x, hae: y) ? .match : .mismatch
                case (.some, nil): r.status = .onlyNative
                default: r.status = .onlyHAE
                }
                rows.append(r)
            }
        }
        for i in nativeOnly {
            rows.append(
                CompareRow(
                    date: date, field: "workouts", workout: label(native[i]), unit: nil, native: .text(native[i].start),
                    hae: nil, tolerance: nil, status: .onlyNative))
        }
        for j in haeOnly {
            rows.append(
                CompareRow(
                    date: date, field: "workouts", workout: label(hae[j]), unit: nil, native: nil,
                    hae: .text(hae[j].start), tolerance: nil, status: .onlyHAE))
        }
        return rows
    }

    /// `Running 07:00:00`: the type and local start time.
    static func label(_ w: ComparableWorkout) -> String {
        let time = w.start.count >= 19 ? String(w.start.dropFirst(11).prefix(8)) : w.start
        return w.type + " " + time
    }

    /// Whether the check failed: a value out of tolerance, a workout on one side only, or a gap.
    var failed: Bool {
        !gaps.isEmpty || rows.contains { $0.status == .mismatch || ($0.field == "workouts" && $0.status != .match) }
    }

    func count(_ status: CompareRow.Status) -> Int { rows.filter { $0.status == status }.count }
    var fieldsCompared: Int { Set(rows.map(\.field)).count }
}
