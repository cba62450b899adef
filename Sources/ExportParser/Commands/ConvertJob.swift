import Foundation

/// The `convert` command: every input streamed through its reader into a day book (and the
/// store, when one is asked for), then the finished days written as payloads and CSV.
///
/// Nothing in `--out` or the store is touched until every input has been read without a fatal
/// error: the store's imports are one transaction committed just before the files are put in
/// place, each replaced atomically; a run that fails removes the folders it created.
public final class ConvertJob {
    let request: ConvertRequest
    let options: DayOptions
    let fromDay: Int?
    let toDay: Int?
    /// Called about every 16 MB on the parsing thread.
    public var progress: ((ConvertProgress) -> Void)?

    public init(_ request: ConvertRequest) throws {
        try request.validate()
        self.request = request
        options = try DayOptions(timeZoneName: request.timeZoneName, sourcePriority: request.sourcePriority)
        fromDay = try request.from.map { try Self.day($0, option: "--from") }
        toDay = try request.to.map { try Self.day($0, option: "--to") }
    }

    static func day(_ text: String, option: String) throws -> Int {
        guard let d = CivilDate.parseISODate(text) else {
            throw UsageError(option, "\(option) \"\(text)\" is not a date in the form YYYY-MM-DD")
        }
        return d
    }

    public func run() throws -> ConvertOutcome {
        if request.received { return try runOnReceived() }
        // A store to import into is a SQLite file; a PostgreSQL store holds received data only.
        _ = try request.storePath.map { try StoreAccess.importStore($0, for: "convert") }
        let started = Date()
        var outcome = ConvertOutcome()
        outcome.outDir = request.outDir
        outcome.storePath = request.storePath
        outcome.sourcePriority = request.sourcePriority
        // The folders this run would create (for --out and the store): a failed run removes them.
        var createdOut =
            OutputFiles.missingDirectories(request.outDir)
            + (request.storePath.map { OutputFiles.missingDirectories(URL(fileURLWithPath: $0).deletingLastPathComponent().path) } ?? [])
        createdOut.sort { $0.count > $1.count }  // the deepest first
        let store: HealthStore?
        do {
            store = try openStore()
            // One transaction for the whole run: nothing is stored until every input was read.
            try store?.beginRun()
        } catch {
            OutputFiles.removeIfEmpty(createdOut)
            throw error
        }
        var perInput: [[FinishedDay]] = []
        // An input's store import completes (a savepoint of the run) on its own thread; the next
        // import (one at a time on a store) or the end of the run waits for it. The last one
        // overlaps writing the payloads; the run commits once they are written.
        var storing: (input: Int, commit: BackgroundValue<StoreCommit>)?
        func finishStoring() throws {
            guard let (i, commit) = storing else { return }
            storing = nil
            let done = try commit.value()
            outcome.inputs[i].alreadyImported = done.alreadyImported
            outcome.inputs[i].replacedImport = done.replaced
            outcome.storeRowsAdded.merge(done.rowsAdded, uniquingKeysWith: +)
        }
        var days: [FinishedDay] = []
        do {
            let plan = try ConvertSource.planned(request.inputs)
            outcome.skippedFiles = plan.skipped
            for source in plan.sources {
                try finishStoring()
                let (input, days, commit) = try read(source, store: store)
                // The input's day book is gone: what it and its finish held goes back to the
                // kernel before the store's commit and the writing allocate (issue 24: at the end
                // of the 3 GB export the heap had 14 MB in use in 81 MB of arenas).
                FreedMemory.giveBack()
                outcome.inputs.append(input)
                perInput.append(days)
                if let commit { storing = (outcome.inputs.count - 1, commit) }
            }
            days = DayMerge.merge(zip(perInput, outcome.inputs).map { ($0, $1.format == .hae) })
            days = inWindow(days)
            // The outputs are put in place only once the store has committed: a run that fails
            // leaves --out as it was.
            try write(days, checks: outcome.inputs) { dates, payload in
                try finishStoring()
                // The store keeps the very payloads this run writes, for `push --store`.
                try store?.savePayloads(person: request.person, dates: dates, json: payload)
                try store?.commitRun()
            }
        } catch {
            // A commit under way still ends (committed or not) before the run reports the error,
            // and a new store that got no import is removed now, not whenever its last reference
            // goes (the process may exit first).
            try? finishStoring()
            store?.rollbackRun()
            store?.discardIfUnpublished()
            OutputFiles.removeIfEmpty(createdOut)
            throw error
        }
        outcome.daysWritten = days.count
        outcome.partialDates = days.compactMap { d in
            PartialDate.isPartial(date: d.date, deviceSyncTimestamp: d.deviceSyncTimestamp)
                ? ConvertOutcome.PartialDay(date: d.date, moment: d.deviceSyncTimestamp) : nil
        }
        outcome.firstDate = days.first?.date
        outcome.lastDate = days.last?.date
        outcome.elapsed = Date().timeIntervalSince(started)
        return outcome
    }

    /// `convert --store FILE --received`: the Health Auto Export bodies `receive` stored for the
    /// person, written out as files and converted as inputs (the store is only read: the bodies
    /// are in it already). The app's bodies are payloads already; `compare --store` reads them.
    private func runOnReceived() throws -> ConvertOutcome {
        let store = request.storePath!
        let received = try ReceivedInputs.materialize(storePath: store, person: request.person)
        defer { received.remove() }
        let skipped = received.skipped.filter { $0.endpoint == .hae }.map(\.sentence)
        guard !received.hae.isEmpty else {
            let left = skipped.isEmpty ? "" : " that can be read (\(skipped.joined(separator: "; ")))"
            throw InputError(
                file: store,
                message: "holds no Health Auto Export body received for \"\(request.person)\" (POST /hae of receive)\(left)")
        }
        var inputs = request
        inputs.inputs = received.hae
        inputs.storePath = nil
        inputs.received = false
        let job = try ConvertJob(inputs)
        job.progress = progress
        var outcome: ConvertOutcome
        do {
            outcome = try job.run()
        } catch {
            // The error names the body (id, time received), not the temporary file it was read from.
            throw received.naming(error)
        }
        // The summary names the bodies as received, not the temporary files they were read from.
        for i in outcome.inputs.indices {
            let path = received.label(outcome.inputs[i].path)
            outcome.inputs[i].path =
                path.hasPrefix(received.folder + "/")
                ? "\(store) (\(request.person)'s \(CountText.count(received.hae.count)) Health Auto Export bodies received)" : path
        }
        outcome.skippedBodies = skipped
        return outcome
    }

    /// The days inside `--from`/`--to`: the list itself when the run has no window. A filtered
    /// copy of a 33-year export's 12,205 days was made beside them at the end of its finish
    /// (issue 24).
    private func inWindow(_ days: [FinishedDay]) -> [FinishedDay] {
        fromDay == nil && toDay == nil ? days : days.filter(isInWindow)
    }

    /// Whether a day is inside `--from`/`--to`.
    private func isInWindow(_ d: FinishedDay) -> Bool {
        (fromDay.map { d.dayNumber >= $0 } ?? true) && (toDay.map { d.dayNumber <= $0 } ?? true)
    }

    private func openStore() throws -> HealthStore? {
        guard let path = request.storePath else { return nil }
        try OutputFiles.makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return try HealthStore(path: path)
    }

    /// What committing one input's store import gave.
    struct StoreCommit {
        var rowsAdded: [String: Int] = [:]
        var alreadyImported = false
        /// The earlier import of the same file (other options) this one replaced.
        var replaced: StoredImport?
    }

    /// Reads one input (an export, or the run's HAE set) into its own day book and, when there is
    /// a store, into one store import (one transaction: committed when the input was read whole,
    /// rolled back otherwise). An input the store already holds for this person is still read
    /// for the payloads, but not stored again. The commit is returned running on its own thread.
    private func read(_ source: ConvertSource, store: HealthStore?) throws -> (
        ConvertOutcome.Input, [FinishedDay], BackgroundValue<StoreCommit>?
    ) {
        let started = Date()
        let book = DayBook(options: options)
        var session: StoreImportSession?
        var digest: BackgroundValue<String>?
        if let store {
            // The input's sha256 is computed on another thread while it is parsed (it would cost
            // a serial pass over the file first); `complete` checks it before committing.
            digest = BackgroundValue(name: "sha256") { try source.sha256() }
            session = try store.beginImport(
                ImportMetadata(
                    person: request.person, fileName: source.fileName, sha256: "", format: source.format,
                    toolVersion: ExportParserVersion.current, startedAt: started,
                    dayOptions: ImportMetadata.dayOptions(timeZoneName: request.timeZoneName, sourcePriority: request.sourcePriority)))
        }
        let sink: SampleSink = session.map { SinkFanout([book, $0]) } ?? book
        var report = ReadReport()
        var set: HAESetReader.Summary?
        let onProgress = progress.map { ConvertProgress.reporter($0, book: book, started: started) }
        do {
            (report, set) = try source.read(into: sink, zone: options.timeZone, progress: onProgress)
        } catch {
            session?.abandon()
            throw error
        }
        FreedMemory.giveBack()
        let (days, readAgain) = try Self.finishedDays(book, source: source, options: options)
        var commit: BackgroundValue<StoreCommit>?
        if let session, let digest {
            let report = report
            commit = BackgroundValue(name: "store commit") {
                do {
                    let result = try session.complete(days: days, report: report, sha256: try digest.value())
                    return StoreCommit(rowsAdded: result.rowsAdded, replaced: result.replacedImport)
                } catch is AlreadyImported {
                    return StoreCommit(alreadyImported: true)
                }
            }
        }
        var input = ConvertOutcome.Input(
            path: source.label, format: source.format, report: report, elapsed: Date().timeIntervalSince(started))
        input.haeSet = set
        input.lateSumPieces = book.lateSumPieces
        input.runningOutsideRuns = book.runningOutsideRuns
        input.duplicateWorkouts = book.duplicateWorkouts
        input.datedBy = book.datedBy
        input.readAgain = readAgain
        (input.sources, input.watchSources) = (book.sourceNames, book.watchSources)
        input.appleTotals = book.appleTotalsCheck(inWindow(days))
        return (input, days, commit)
    }

    /// The days of `book`, which has read `source`: read again, into a day book alone (the store
    /// import is not repeated), when one pass could not date them exactly (the `HKTimeZone`
    /// timeline is more than an hour from the recorded offsets somewhere: a trip). Returns
    /// whether it read again.
    static func finishedDays(_ book: DayBook, source: ConvertSource, options: DayOptions) throws -> ([FinishedDay], Bool) {
        let days = book.finish()
        guard let timeline = book.rereadTimeline else { return (days, false) }
        var again = options
        again.timeline = timeline
        let second = DayBook(options: again)
        _ = try source.read(into: second, zone: options.timeZone)
        return (second.finish(), true)
    }

    /// Writes the day files, `payloads.json`, `daily.csv` and the days that disagree with Apple's
    /// daily totals a day at a time into temporary names (memory holds one rendered day, not all
    /// of them), then puts them in place.
    /// `beforePuttingInPlace` gets the dates written and, for the i-th, its payload text as
    /// `payloads/DATE.json` holds it (without its final line end): read back from that staged
    /// file when asked, so that memory holds one payload text, not every date's until the store
    /// commits (docs/store.md, "Memory").
    private func write(
        _ days: [FinishedDay], checks: [ConvertOutcome.Input],
        beforePuttingInPlace: (_ dates: [String], _ payload: (Int) throws -> String) throws -> Void
    ) throws {
        let out = request.outDir
        try OutputFiles.makeDirectory(out)
        let batch = try OutputFiles.Staged(out + "/payloads.json")
        let csv = try OutputFiles.Staged(out + "/daily.csv")
        let apple = try OutputFiles.Staged(out + "/" + AppleDailyTotals.fileName)
        try apple.append(AppleDailyTotals.csvHeader)
        for input in checks { if let totals = input.appleTotals { try apple.append(totals.csvRows(input: input.path)) } }
        try OutputFiles.replaceDirectory(out + "/payloads") { dir in
            try batch.append(PayloadsFile.opening(empty: days.isEmpty))
            try csv.append(CSVWriter.header)
            // The day files are created on a second thread; all are written (or the first
            // failure thrown) before the folder is put in place or removed.
            let files = BackgroundFileWriter()
            defer { try? files.finish() }
            // Rendered a block of days at a time on two threads (`RenderedDay`), written here in order.
            try RenderedDay.inOrder(days) { i, day in
                try files.write(day.file, to: dir + "/\(days[i].date).json")
                try batch.append(bytes: day.member)
                try csv.append(bytes: day.csvRow)
            }
            try files.finish()
            let dates = days.map(\.date)
            try beforePuttingInPlace(dates) { i in
                let file = try Data(contentsOf: URL(fileURLWithPath: dir + "/\(dates[i]).json"))
                return String(decoding: file.dropLast(), as: UTF8.self)  // without the line end `dayFile` adds
            }
        }
        try batch.commit()
        try csv.commit()
        try apple.commit()
    }
}
