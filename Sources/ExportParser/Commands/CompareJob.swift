import Foundation

/// The `compare` command: both sides read through the same readers and rules as `convert` (or
/// payload JSON read back), compared date by date and field by field over the window, gaps
/// found, and the report written to the terminal and under `--out` (CSV, JSON, HTML).
public final class CompareJob {
    let request: CompareRequest
    /// Internal and settable so tests can lower the sum rule's piece budget.
    var options: DayOptions
    let tolerances: Tolerances
    let fromDay: Int?
    let untilDay: Int?
    /// Called about every 16 MB on the reading thread while an export or HAE input is read: the
    /// CLI's progress line on a terminal, as convert shows it.
    public var progress: ((ConvertProgress) -> Void)?
    /// With `--from`, read an export through the window (`CompareWindowSide`); false reads it in
    /// full (the tests compare the two).
    var windowRead = true
    /// How many inputs of each side the last run read through the window (the tests check that
    /// the window read stood, rather than fell back to a full read).
    private(set) var windowReads = (native: 0, hae: 0)

    public init(_ request: CompareRequest) throws {
        try request.validate()
        self.request = request
        var options = try DayOptions(timeZoneName: request.timeZoneName)
        tolerances = try request.tolerancesPath.map(Tolerances.load) ?? Tolerances()
        fromDay = try request.from.map { try ConvertJob.day($0, option: "--from") }
        // The window's sums from all their pieces, through the window or in full (docs/rules.md,
        // "Memory").
        if let from = fromDay { options.exactDays = from...(from + request.days - 1) }
        self.options = options
        untilDay = try request.until.map { try ConvertJob.day($0, option: "--until") }
    }

    public func run() throws -> CompareOutcome {
        var native: [String: ComparableDay], hae: [String: ComparableDay]
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = (native: 0, hae: 0)
        var skipped: [String] = []
        // What each side is: made beside the comparison (a pass over every date of both sides),
        // waited for where first needed.
        let summaries: BackgroundValue<[CompareSideSummary]>
        if let store = request.storePath {
            let read = try Self.storeSides(
                store, person: request.person, options: options, haeOptional: request.monitor != nil, ignored: &ignored,
                superseded: &superseded)
            (native, hae, skipped) = (read.native, read.hae, read.skipped)
            let (kinds, sideDays) = ((read.nativeKind, read.haeKind), (native, hae))
            summaries = BackgroundValue(name: "compare sides") {
                [
                    CompareSideSummary(side: .native, kind: kinds.0, files: [store], days: sideDays.0),
                    CompareSideSummary(side: .hae, kind: kinds.1, files: [store], days: sideDays.1),
                ]
            }
        } else {
            try CompareInputCheck.checkFiles(native: request.native, hae: request.hae)
            // `--from` fixes the window before anything is read: an export is read through it.
            let read = windowRead && request.monitor == nil ? fromDay.map { Comparison.Window(from: $0, to: $0 + request.days - 1) } : nil
            // Through the window, both at once (`bothSides`).
            let both = try Self.bothSides(native: request.native, hae: request.hae, options: options, window: read, progress: progress)
            (native, hae) = (both.native.days, both.hae.days)
            ignored = both.native.ignored + both.hae.ignored
            windowReads = (both.native.windowReads, both.hae.windowReads)
            superseded = (both.native.superseded, both.hae.superseded)
            let (files, sideDays) = ((request.native, request.hae), (native, hae))
            summaries = BackgroundValue(name: "compare sides") {
                [
                    CompareSideSummary(side: .native, kind: CompareSideSummary.kind(of: files.0), files: files.0, days: sideDays.0),
                    CompareSideSummary(side: .hae, kind: CompareSideSummary.kind(of: files.1), files: files.1, days: sideDays.1),
                ]
            }
        }
        let monitorEnd = request.monitor.map { _ in
            MonitorEnd.resolve(until: untilDay, timeZone: options.timeZone, native: native)
        }
        guard
            let window = Self.window(
                native: native, hae: hae, from: fromDay, days: request.days, monitor: request.monitor.map { ($0, monitorEnd!.day) })
        else {
            let sides = try summaries.value()
            throw UsageError(
                "--from",
                "no date has data on both sides (native: \(sides[0].range); HAE: \(sides[1].range)); give --from to choose the dates to compare"
            )
        }
        if request.monitor == nil, !window.dates.contains(where: { native[$0] != nil || hae[$0] != nil }) {
            let sides = try summaries.value()
            throw UsageError(
                "--from",
                "no date from \(CivilDate.isoDate(window.from)) to \(CivilDate.isoDate(window.to)) has data on either side (native: \(sides[0].range); HAE: \(sides[1].range)): nothing to compare"
            )
        }
        // Compared in both modes: identical sides are the same data given twice, whatever is asked
        // (only a payload JSON HAE side is judged so: `CompareInputCheck.identicalValues`; a store's
        // sides are never given by hand).
        let c = Comparison(native: native, hae: hae, window: window, tolerances: tolerances)
        if request.storePath == nil,
            let sentence = CompareInputCheck.identicalValues(c, native: native, hae: hae, haeInputs: request.hae)
        {
            throw UsageError(nil, sentence)
        }
        var report: CompareReport
        if let n = request.monitor, let end = monitorEnd {
            let fields = OutputFields.all.compactMap(\.payloadPath)
            report = CompareReport(
                mode: .monitor, window: window, comparison: nil,
                gaps: GapFinder.monitor(native: native, window: window, until: end.day, lastDates: n, fields: fields))
            report.monitored = (CivilDate.isoDate(end.day - n + 1), CivilDate.isoDate(end.day))
            report.monitoredUntil = end.reason
            report.monitorEnd = end
        } else {
            report = CompareReport(mode: .validate, window: window, comparison: c, gaps: c.gaps)
            // A window chosen from the data reaches back --days dates from the last date both
            // sides cover: a person with fewer dates than that has not given the check its dates.
            if fromDay == nil, c.datesWithData < request.days { report.notEnoughDates = (c.datesWithData, request.days) }
            report.series = CompareSeries.build(native: native, hae: hae, window: window, comparison: c)
        }
        let sides = try summaries.value()
        report.sides = sides
        if let warning = CompareInputCheck.sharedSources(sides[0], sides[1]) { report.warnings.append(warning) }
        if let store = request.storePath {
            report.explain = [.native: ExplainShellLine(inputs: [], store: (store, request.person))]
        } else {
            report.explain = [
                .native: .forSide(request.native, timeZoneName: request.timeZoneName),
                .hae: .forSide(request.hae, timeZoneName: request.timeZoneName),
            ]
        }
        report.ignoredKeys = ignored
        report.skippedBodies = skipped
        report.supersededSyncs = superseded
        // The sides' days (thousands of dates, a dictionary each) are freed on a thread of their
        // own while the files are written: here they were a tenth of the end of a window read of
        // the 3 GB export. The box is the last to hold them once these are emptied.
        let sidesDays = Box((native, hae))
        (native, hae) = ([:], [:])
        NamedThread.start("compare free") { sidesDays.value = nil }
        try CompareFiles.write(report, to: request.outDir)
        return CompareOutcome(report: report, outDir: request.outDir)
    }

    /// The dates compared. With `--monitor N` ending on `until` and no `--from`: the `days` dates
    /// before the `N` monitored ones (the reference each field's cadence is learnt from), so
    /// that the monitored dates never judge themselves; no HAE date is needed for them.
    static func window(
        native: [String: ComparableDay], hae: [String: ComparableDay], from: Int?, days: Int, monitor: (n: Int, until: Int)?
    ) -> Comparison.Window? {
        if let (n, until) = monitor, from == nil {
            let firstMonitored = until - n + 1
            return Comparison.Window(from: firstMonitored - days, to: firstMonitored - 1)
        }
        return Comparison.window(native: native, hae: hae, from: from, days: days)
    }

    /// `compare --store`: per side, the bodies `receive` took for the person when it took any
    /// (the app's payloads: native; HAE's bodies: hae), else the side's imports (`StoreSides`);
    /// with the kind of each side, for the report, and the sentences naming the received bodies
    /// left out because their reader cannot read them (`ReceivedInputs.skipped`). With
    /// `haeOptional` (`--monitor`, after HAE is switched off) a person with the app's bodies and
    /// no HAE data at all is monitored too.
    static func storeSides(
        _ path: String, person: String, options: DayOptions, haeOptional: Bool = false, ignored: inout [IgnoredPayloadKeys],
        superseded: inout (native: Int, hae: Int)
    ) throws -> (native: [String: ComparableDay], hae: [String: ComparableDay], nativeKind: String, haeKind: String, skipped: [String]) {
        let importedKinds = ("store imports of export.xml", "store imports of HAE JSON")
        let received = try ReceivedInputs.materialize(storePath: path, person: person)
        defer { received.remove() }
        let skipped = received.skipped.map(\.sentence)
        if received.isEmpty {
            // Every body skipped: the imports are read as for a store without received bodies.
            let imported = try StoreSides.read(path, person: person)
            return (imported.native, imported.hae, importedKinds.0, importedKinds.1, skipped)
        }
        // Messages name a body by its id and time received, never the temporary file it was read from.
        var ignoredHere: [IgnoredPayloadKeys] = []
        defer { ignored += ignoredHere.map { IgnoredPayloadKeys(input: received.label($0.input), keys: $0.keys) } }
        let native: [String: ComparableDay]?, hae: [String: ComparableDay]?
        do {
            native =
                received.app.isEmpty ? nil : try side(received.app, options: options, ignored: &ignoredHere, superseded: &superseded.native)
            hae = received.hae.isEmpty ? nil : try side(received.hae, options: options, ignored: &ignoredHere, superseded: &superseded.hae)
        } catch {
            throw received.naming(error)
        }
        let nativeKind = native == nil ? importedKinds.0 : "the app's payloads received (POST /sync/healthkit)"
        let haeKind = hae == nil ? importedKinds.1 : "Health Auto Export bodies received (POST /hae)"
        if let native, let hae { return (native, hae, nativeKind, haeKind, skipped) }
        let store = try StoreAccess.open(path)
        guard try !store.imports(person: person).isEmpty else {
            if let native, haeOptional { return (native, [:], nativeKind, "no HAE data", skipped) }
            let missing = native == nil ? "the app's payloads (POST /sync/healthkit)" : "Health Auto Export's (POST /hae)"
            let left =
                skipped.isEmpty
                ? ""
                : " (\(skipped.count) received \(skipped.count == 1 ? "body was" : "bodies were") skipped: \(skipped.joined(separator: "; ")))"
            throw InputError(
                file: path, message: "holds no bodies of \(missing) received for \"\(person)\" and no import for that side\(left)")
        }
        let imported = try StoreSides.read(path, person: person)
        return (native ?? imported.native, hae ?? imported.hae, nativeKind, haeKind, skipped)
    }

    /// One side's days by date (docs/compare.md, "Inputs"): payload JSON read back, the app's
    /// several syncs of a date reduced to the latest (`LatestSyncs`, across all payload inputs of
    /// the side; `superseded` counts the others); exports read through convert's readers and
    /// rules, all HAE inputs as one set (`ConvertSource`); later inputs winning field by field.
    /// Keys of payload JSON that no field has are added to `ignored`, so a payload from another
    /// writer whose names differ is not silently compared as missing.
    static func side(
        _ inputs: [String], options: DayOptions, ignored: inout [IgnoredPayloadKeys], superseded: inout Int,
        window: Comparison.Window? = nil, progress: ((ConvertProgress) -> Void)? = nil
    ) throws -> [String: ComparableDay] {
        var windowReads = 0
        return try side(
            inputs, options: options, ignored: &ignored, superseded: &superseded, windowReads: &windowReads, window: window,
            progress: progress)
    }

    /// `side`, counting in `windowReads` the inputs read through the window (the rest, if any,
    /// were read in full: the window was not asked for, or the window read could not stand).
    static func side(
        _ inputs: [String], options: DayOptions, ignored: inout [IgnoredPayloadKeys], superseded: inout Int, windowReads: inout Int,
        window: Comparison.Window?, progress: ((ConvertProgress) -> Void)?
    ) throws -> [String: ComparableDay] {
        var days: [String: ComparableDay] = [:]
        func overlay(_ d: ComparableDay) {
            guard var cur = days[d.date] else {
                days[d.date] = d
                return
            }
            cur.values.merge(d.values) { _, new in new }
            cur.inputSources.formUnion(d.inputSources)
            for w in d.workouts where !cur.workouts.contains(where: { WorkoutMatcher.matches($0, w) }) { cur.workouts.append(w) }
            days[d.date] = cur
        }
        /// A window read's days, overlaid in date order; the first input's are the side's as they
        /// are (`overlay` of each into none).
        func overlayAll(_ read: [String: ComparableDay]) {
            guard !days.isEmpty else { return days = read }
            for d in read.keys.sorted() { overlay(read[d]!) }
        }
        var syncs = LatestSyncs()
        var others: [String] = []
        for path in inputs {
            guard PayloadReader.isPayloadInput(path) else {
                others.append(path)
                continue
            }
            let read = try PayloadReader.read(path)
            for d in read.days { syncs.add(d) }
            if !read.unknownKeys.isEmpty { ignored.append(IgnoredPayloadKeys(input: path, keys: read.unknownKeys)) }
        }
        for d in syncs.days { overlay(d) }
        superseded += syncs.superseded
        for source in try ConvertSource.plan(others) {
            let book = DayBook(options: options)
            let started = Date()
            let shown = progress.map { ConvertProgress.reporter($0, book: book, started: started) }
            // The window read; anything off (an error, a census it cannot trust) is read in full,
            // whose days and messages are then the ones given.
            if let window, case .export(let path, let format) = source, ParseThreads.count > 1,
                let read = try? CompareWindowSide.read(path, format: format, options: options, window: window, progress: progress)
            {
                FreedMemory.giveBack()
                overlayAll(read)
                windowReads += 1
                continue
            }
            // An HAE file alone, through the window too (`CompareHAEWindowSide`), on the same terms.
            if let window, case .hae(_, let bodies) = source, bodies.count == 1, bodies[0].range == nil, ParseThreads.count > 1,
                let read = try? CompareHAEWindowSide.read(bodies[0].path, options: options, window: window, progress: shown)
            {
                FreedMemory.giveBack()
                overlayAll(read)
                windowReads += 1
                continue
            }
            _ = try source.read(into: book, zone: options.timeZone, progress: shown)
            FreedMemory.giveBack()
            let sources = ComparableDay.sourceSet(book.sourceNames)
            for d in try ConvertJob.finishedDays(book, source: source, options: options).0 {
                overlay(ComparableDay(d, sourceSet: sources))
            }
        }
        return days
    }
}
