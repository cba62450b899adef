/// Combines the days of several inputs read in one run. Each export has its own day book, and
/// all HAE inputs one together (`ConvertSource`): sums from an Apple export and from HAE must
/// not be added together, both count the same steps.
///
/// Native data wins and HAE fills (docs/rules.md, "Several inputs in one run"), whatever the
/// order on the command line: the native inputs are merged first, a later native input winning
/// field by field over an earlier one; then the HAE days fill only the fields native lacks. A `minmaxavg` summary and a night's sleep are
/// one unit each (no night is made of one side's total and the other's stages). Workouts are the
/// union, a workout that matches one already there (type, start within 2 minutes, duration within
/// 5 %, as `compare` pairs them) kept once, the native one. `haeFilled` lists, on a date native
/// inputs cover, the CSV columns whose value came from HAE.
enum DayMerge {
    static func merge(_ perInput: [(days: [FinishedDay], isHAE: Bool)]) -> [FinishedDay] {
        // One input: its days as they are (a day book's come sorted, each date once). Layering
        // them made a dictionary and a sorted list of every date beside the input's own list
        // (about 6 MB at 12,205 dates, issue 24), for the same days in the same order.
        if perInput.count == 1 {
            assert(zip(perInput[0].days, perInput[0].days.dropFirst()).allSatisfy { $0.dayNumber < $1.dayNumber }, "days out of order")
            return perInput[0].days
        }
        let native = layer(perInput.filter { !$0.isHAE }.map(\.days))
        let hae = layer(perInput.filter { $0.isHAE }.map(\.days))
        var byDay = native
        for (n, h) in hae {
            guard var cur = byDay[n] else {
                byDay[n] = h  // a date no native input covers is HAE's whole: nothing was filled
                continue
            }
            let before = cur
            for (i, v) in h.values.enumerated() where cur.values[i] == nil { cur.values[i] = v }
            for (i, m) in h.summaries where cur.summaries[i] == nil { cur.summaries[i] = m }
            if cur.sleep == nil { cur.sleep = h.sleep }
            add(h.workouts, to: &cur)
            cur.haeFilled = filledColumns(native: before, merged: cur)
            byDay[n] = cur
        }
        return byDay.values.sorted { $0.dayNumber < $1.dayNumber }
    }

    /// Inputs of one side merged: a later input wins field by field, except that a partial day
    /// (its input's export moment falls on it: `PartialDate`) never replaces a whole one's values,
    /// only fills what it lacks; and a whole day over a partial one makes the date whole, with
    /// its input's `device_sync_timestamp` (docs/rules.md, "The export moment": an export made at
    /// 17:08 beside a later one that holds that whole day).
    private static func layer(_ inputs: [[FinishedDay]]) -> [Int: FinishedDay] {
        var byDay: [Int: FinishedDay] = [:]
        for days in inputs {
            for d in days {
                guard var cur = byDay[d.dayNumber] else {
                    byDay[d.dayNumber] = d
                    continue
                }
                let date = d.date
                let curPartial = PartialDate.isPartial(date: date, deviceSyncTimestamp: cur.deviceSyncTimestamp)
                if PartialDate.isPartial(date: date, deviceSyncTimestamp: d.deviceSyncTimestamp), !curPartial {
                    for (i, v) in d.values.enumerated() where v != nil && cur.values[i] == nil { cur.values[i] = v }
                    for (i, m) in d.summaries where cur.summaries[i] == nil { cur.summaries[i] = m }
                    if cur.sleep == nil { cur.sleep = d.sleep }
                    add(d.workouts, to: &cur)
                    byDay[d.dayNumber] = cur
                    continue
                }
                if curPartial { cur.deviceSyncTimestamp = d.deviceSyncTimestamp }
                for (i, v) in d.values.enumerated() where v != nil { cur.values[i] = v }
                for (i, m) in d.summaries { cur.summaries[i] = m }
                if let s = d.sleep { cur.sleep = s }
                add(d.workouts, to: &cur)
                cur.timezone = d.timezone
                byDay[d.dayNumber] = cur
            }
        }
        return byDay
    }

    /// Adds the workouts that match none already on the day.
    private static func add(_ workouts: [WorkoutSummary], to day: inout FinishedDay) {
        for w in workouts {
            let candidate = ComparableWorkout(w)
            if !day.workouts.contains(where: { WorkoutMatcher.matches(ComparableWorkout($0), candidate) }) { day.workouts.append(w) }
        }
        day.workouts.sort { $0.startSeconds < $1.startSeconds }
    }

    /// The CSV columns that have a value in `merged` and had none before HAE filled the day.
    private static func filledColumns(native: FinishedDay, merged: FinishedDay) -> [String] {
        OutputFields.columns.compactMap { f in
            guard let column = f.column, f.kind != .date, f.kind != .text || f.payloadPath?.hasPrefix("sleep.") == true else { return nil }
            if f.kind == .workoutsCount {
                return merged.workouts.count > native.workouts.count ? column : nil
            }
            guard f.read(merged) != nil else { return nil }
            return f.read(native) == nil ? column : nil
        }
    }
}
