import Foundation

/// What a run did, for the summary a person reads at the end. Holds counts, and no health
/// value but the days that differ from Apple's daily totals, which the person is shown.
public struct ConvertOutcome: Sendable {
    struct Input: Sendable {
        var path: String
        var format: InputFormat
        var report: ReadReport?
        /// The store already held this exact file for this person, made with the same options.
        var alreadyImported = false
        /// The store held this file for this person from a run with other options (or a
        /// health-import that made other days of it): this import replaced that one.
        var replacedImport: StoredImport?
        var elapsed: Double = 0
        /// Sum samples that came after their day had been resolved to save memory (see
        /// `DayOptions.sumPieceBudget`); their day's total did not get source resolution.
        var lateSumPieces = 0
        /// Running-mechanics samples and buckets outside every running workout (not in payloads).
        var runningOutsideRuns = 0
        /// Workouts that repeated one already read (a sync's copies), counted once.
        var duplicateWorkouts = 0
        /// What the days were cut by, and whether the input was read a second time to date them
        /// by its `HKTimeZone` timeline (a trip).
        var datedBy: DayDating = .runZone
        var readAgain = false
        /// Apple's daily totals beside the tool's, when the input has ActivitySummary elements.
        var appleTotals: AppleDailyTotals?
        /// For several HAE bodies read as one set: what their overlap repeated.
        var haeSet: HAESetReader.Summary?
        /// The sources of the data the priority ranks (`DayBook.sourceNames`), and the watches.
        var sources: [String] = []
        var watchSources: Set<String> = []
    }
    /// A written date on which its input's export moment falls (`PartialDate`).
    struct PartialDay: Sendable, Equatable {
        var date: String
        /// The day's `device_sync_timestamp`.
        var moment: String
    }
    /// The written dates that are partial, in date order.
    var partialDates: [PartialDay] = []
    /// `--source-priority` as given (nil: the default order).
    var sourcePriority: [String]?
    var inputs: [Input] = []
    var daysWritten = 0
    var firstDate: String?
    var lastDate: String?
    var elapsed: Double = 0
    var outDir = ""
    var storePath: String?
    var storeRowsAdded: [String: Int] = [:]
    /// Files of a folder input that are none of the inputs convert reads, with why (skipped).
    var skippedFiles: [(path: String, reason: String)] = []
    /// `--received`: the bodies left out because the HAE reader cannot read them, a sentence each.
    var skippedBodies: [String] = []

    var bytesRead: Int64 { inputs.reduce(0) { $0 + ($1.report?.bytesRead ?? 0) } }

    /// Sentences for stderr, printed even with `--quiet`: each `--source-priority` entry that
    /// matched no source of any input (the list still replaced the default order, so a typo
    /// changes which source wins), with the sources there are.
    public var warnings: [String] {
        let skipped = skippedBodies.map { "warning: " + $0 }
        guard let list = sourcePriority else { return skipped }
        let sources = Set(inputs.flatMap(\.sources)).sorted()
        let watches = inputs.reduce(into: Set<String>()) { $0.formUnion($1.watchSources) }
        let unmatched = SourcePriority(list).unmatchedEntries(sources: sources, watches: watches)
        let there = sources.isEmpty ? "the inputs have none" : "those sources are: " + sources.joined(separator: ", ")
        return skipped
            + unmatched.map {
                "warning: --source-priority \"\($0)\" matches no source in the input whose data it ranks (sums such as steps, and sleep); \(there)"
            }
    }

    /// The summary: records by type, days written, skips with reasons, time and MB/s.
    public func summaryLines(maxTypes: Int = 12) -> [String] {
        var lines: [String] = []
        var total = ReadReport()
        for f in skippedFiles { lines.append("\(f.path): skipped, \(f.reason)") }
        for i in inputs {
            if i.alreadyImported {
                lines.append("\(i.path): already imported for this person (same sha256 and options); the store is unchanged")
            }
            if let earlier = i.replacedImport {
                let was = earlier.dayOptions.map { "made with \($0)" } ?? "made by an earlier health-import"
                lines.append(
                    "\(i.path): replaced its earlier import in the store (import \(earlier.id), \(was)): its rows, days and payloads are this run's now"
                )
            }
            if let r = i.report { total.merge(r) }
            if i.duplicateWorkouts > 0 {
                lines.append(
                    "\(i.path): \(CountText.count(i.duplicateWorkouts)) workouts repeated an earlier one but for their creation date or app version (a sync's copies) and were counted once"
                )
            }
            if let set = i.haeSet {
                lines.append(
                    "\(i.path): \(CountText.count(set.bodies)) Health Auto Export bodies read as one person's data: \(CountText.count(set.repeatedDatums)) datums another body had already given, \(CountText.count(set.supersededBuckets)) day figures a more complete body replaced and \(CountText.count(set.repeatedWorkouts)) repeated workouts counted once"
                )
                if set.bucketsSetAside > 0 {
                    lines.append(
                        "\(i.path): \(CountText.count(set.bucketsSetAside)) summarized \(set.bucketsSetAside == 1 ? "bucket" : "buckets") (Summarize on) set aside: samples (Summarize off) of the same metric and date were given, and a date's data is counted once"
                    )
                }
            }
            if i.runningOutsideRuns > 0 {
                lines.append(
                    "\(i.path): \(CountText.count(i.runningOutsideRuns)) running-mechanics samples fell outside every running workout and are in no payload"
                )
            }
            if let line = i.appleTotals?.summaryLine {
                lines.append(inputs.count > 1 ? "\(i.path): \(line)" : line)
            }
            if i.datedBy == .recordedOffsets, i.format != .hae {
                lines.append(
                    "Note: \(i.path) has no HKTimeZone entries: its days are cut at the offset each timestamp is written in, which export.xml takes from the export moment (an hour off for half the year where clocks change); give --timezone with the zone you live in"
                )
            }
            if i.readAgain {
                lines.append(
                    "\(i.path): its HKTimeZone entries show time zones more than an hour from the offsets written in it (a trip); it was read a second time to cut every day in the zone of that date"
                )
            }
            if i.lateSumPieces > 0 {
                lines.append(
                    "Note: \(i.path) is not grouped by type and date like Health app exports; \(CountText.count(i.lateSumPieces)) summed samples reached a day already closed and were added without resolving overlapping sources"
                )
            }
        }
        let types = total.recordsByType.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        lines.append(
            "Read \(CountText.count(total.totalRecords, "record")) of \(CountText.count(types.count, "type")), \(CountText.count(total.workouts, "workout")), \(CountText.count(total.correlations, "correlation")), \(CountText.count(total.activitySummaries, "activity summary", plural: "activity summaries"))"
        )
        for (t, n) in types.prefix(maxTypes) { lines.append("  \(CountText.count(n).leftPad(11))  \(Self.shortType(t))") }
        if types.count > maxTypes {
            lines.append(
                "  \(CountText.count(types.dropFirst(maxTypes).reduce(0) { $0 + $1.value }).leftPad(11))  (\(types.count - maxTypes) other types)"
            )
        }
        if daysWritten > 0, let f = firstDate, let l = lastDate {
            lines.append(
                "Wrote \(CountText.count(daysWritten, "day")) (\(f) … \(l)) to \(outDir)/payloads, \(outDir)/payloads.json and \(outDir)/daily.csv"
            )
            for p in partialDates {
                lines.append(
                    "Note: \(p.date) is partial: its input's export moment falls on it (device_sync_timestamp \(p.moment); for Health Auto Export, which states none, the latest instant its data reaches), so its figures stop at \(PartialDate.timeOfDay(p.moment)); push sends it only with --include-partial"
                )
            }
            let disagreeing = inputs.reduce(0) { $0 + ($1.appleTotals?.disagreeing.count ?? 0) }
            if disagreeing > 0 {
                lines.append(
                    "\(CountText.count(disagreeing)) day figures differ from Apple's daily totals by more than 2 %: \(outDir)/\(AppleDailyTotals.fileName)"
                )
            }
        } else {
            lines.append("Wrote no days (nothing in the date window); \(outDir)/payloads.json and daily.csv hold an empty set")
        }
        if let s = storePath {
            let added = storeRowsAdded.values.reduce(0, +)
            lines.append("Store \(s): \(CountText.count(added)) rows added")
        }
        if !total.storeOnly.isEmpty {
            let n = total.storeOnly.values.reduce(0, +)
            let types = total.storeOnly.keys.sorted()
            let listed = types.prefix(5).joined(separator: ", ") + (types.count > 5 ? ", …" : "")
            lines.append(
                (storePath == nil
                    ? "In no payload, as the catalog has no field for them (a store keeps them): "
                    : "Kept in the store only, as the catalog has no field for them: ")
                    + "\(CountText.count(n, "record")) of \(CountText.count(types.count, "type")) (\(listed))")
        }
        if total.totalSkips > 0 {
            lines.append("Skipped \(CountText.count(total.totalSkips, "item")):")
            // Per input, so every line and column is read against the right file.
            for input in inputs {
                guard let r = input.report, r.totalSkips > 0 else { continue }
                lines.append("  in \(input.path):")
                for (reason, n) in r.skips.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                    let at = (r.skipExamples[reason] ?? []).map(\.description).filter { !$0.isEmpty }.prefix(2).joined(separator: "; ")
                    lines.append("  \(CountText.count(n).leftPad(11))  \(reason)" + (at.isEmpty ? "" : " (first at \(at))"))
                }
            }
        } else {
            lines.append("Skipped nothing")
        }
        let mb = Double(bytesRead) / 1_000_000
        lines.append(String(format: "%.1f MB in %.2f s (%.0f MB/s)", mb, elapsed, elapsed > 0 ? mb / elapsed : 0))
        return lines
    }

    static func shortType(_ t: String) -> String { HealthKitTypeName.short(t) }
}
