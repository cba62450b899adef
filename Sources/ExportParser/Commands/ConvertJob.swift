import Foundation

/// The `convert` command: every input streamed through its reader into a day book (and the
/// store, when one is asked for), then the finished days written as payloads and CSV.
///
/// Nothing in `--out` is touched until every input has been read without a fatal error, and
/// then every file is replaced atomically.
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
        let started = Date()
        var outcome = ConvertOutcome()
        outcome.outDir = request.outDir
        outcome.storePath = request.storePath
        let store = try openStore()
        var perInput: [[FinishedDay]] = []
        // An input's store import commits on its own thread; the next import (one at a time on a
        // store) or the end of the run waits for it. The last one overlaps writing the payloads.
        var storing: (input: Int, commit: BackgroundValue<StoreCommit>)?
        func finishStoring() throws {
            guard let (i, commit) = storing else { return }
            storing = nil
            let done = try commit.value()
            outcome.inputs[i].alreadyImported = done.alreadyImported
            outcome.storeRowsAdded.merge(done.rowsAdded, uniquingKeysWith: +)
        }
        var days: [FinishedDay] = []
        do {
            for path in request.inputs {
                try finishStoring()
                let (input, days, commit) = try read(path, store: store)
                outcome.inputs.append(input)
                perInput.append(days)
                if let commit { storing = (outcome.inputs.count - 1, commit) }
            }
            days = DayMerge.merge(zip(perInput, outcome.inputs).map { ($0, $1.format == .hae) })
            days = days.filter(isInWindow)
            // The outputs are put in place only once the store has committed: a run that fails
            // leaves --out as it was.
            try write(days, checks: outcome.inputs) { payloads in
                try finishStoring()
                // The store keeps the very payloads this run writes, for `push --store`.
                try store?.savePayloads(person: request.person, payloads)
            }
        } catch {
            // A commit under way still ends (committed or not) before the run reports the error,
            // and a new store that got no import is removed now, not whenever its last reference
            // goes (the process may exit first).
            try? finishStoring()
            store?.discardIfUnpublished()
            throw error
        }
        outcome.daysWritten = days.count
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
        guard !received.hae.isEmpty else {
            throw InputError(
                file: store, message: "holds no Health Auto Export body received for \"\(request.person)\" (POST /hae of receive)")
        }
        var inputs = request
        inputs.inputs = received.hae
        inputs.storePath = nil
        inputs.received = false
        let job = try ConvertJob(inputs)
        job.progress = progress
        return try job.run()
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
    }

    /// Reads one input into its own day book and, when there is a store, into one store import
    /// (one transaction: committed when the input was read whole, rolled back otherwise). A file
    /// the store already holds for this person is still read for the payloads, but not stored again.
    /// The commit is returned running on its own thread.
    private func read(_ path: String, store: HealthStore?) throws -> (ConvertOutcome.Input, [FinishedDay], BackgroundValue<StoreCommit>?) {
        let started = Date()
        let format = try InputDetector.detect(path: path)
        var dayOptions = options
        dayOptions.fallbackExportDate = Self.modificationTime(path)
        let book = DayBook(options: dayOptions)
        var session: StoreImportSession?
        var digest: BackgroundValue<String>?
        if let store {
            // The file's sha256 is computed on another thread while it is parsed (it would cost
            // a serial pass over the file first); `complete` checks it before committing.
            digest = BackgroundValue(name: "health-import sha256") { try FileDigest.sha256(path: path) }
            session = try store.beginImport(
                ImportMetadata(
                    person: request.person, fileName: URL(fileURLWithPath: path).lastPathComponent,
                    sha256: "", format: format, toolVersion: ExportParserVersion.current, startedAt: started))
        }
        let sink: SampleSink = session.map { SinkFanout([book, $0]) } ?? book
        var report = ReadReport()
        let onProgress: (Int64, Int64?) -> Void = { [weak self] done, total in
            self?.progress?(
                ConvertProgress(
                    input: path, bytesDone: done, bytesTotal: total, records: book.samplesSeen,
                    elapsed: Date().timeIntervalSince(started)))
        }
        do {
            report = try Self.read(path, format: format, into: sink, progress: onProgress)
        } catch {
            session?.abandon()
            throw error
        }
        let days = book.finish()
        var commit: BackgroundValue<StoreCommit>?
        if let session, let digest {
            let report = report
            commit = BackgroundValue(name: "health-import store commit") {
                do {
                    let result = try session.complete(days: days, report: report, sha256: try digest.value())
                    return StoreCommit(rowsAdded: result.rowsAdded)
                } catch is AlreadyImported {
                    return StoreCommit(alreadyImported: true)
                }
            }
        }
        var input = ConvertOutcome.Input(path: path, format: format, report: report, elapsed: Date().timeIntervalSince(started))
        input.lateSumPieces = book.lateSumPieces
        input.runningOutsideRuns = book.runningOutsideRuns
        input.duplicateWorkouts = book.duplicateWorkouts
        input.appleTotals = book.appleTotalsCheck(days.filter(isInWindow))
        return (input, days, commit)
    }

    /// Streams one input through the reader its format needs.
    static func read(_ path: String, format: InputFormat, into sink: SampleSink, progress: ((Int64, Int64?) -> Void)? = nil) throws
        -> ReadReport
    {
        switch format {
        case .appleXML, .appleZip:
            var reader = AppleExportReader(path: path)
            reader.progress = progress
            return try reader.read(into: sink)
        case .hae:
            var reader = HAEReader(path: path)
            reader.progress = progress
            return try reader.read(into: sink)
        }
    }

    /// Writes the day files, `payloads.json`, `daily.csv` and the days that disagree with Apple's
    /// daily totals a day at a time into temporary names (memory holds one rendered day, not all
    /// of them), then puts them in place.
    /// `beforePuttingInPlace` gets each date's payload text as `payloads/DATE.json` holds it
    /// (without its final line end).
    private func write(
        _ days: [FinishedDay], checks: [ConvertOutcome.Input],
        beforePuttingInPlace: ([(date: String, json: String)]) throws -> Void
    ) throws {
        let out = request.outDir
        try OutputFiles.makeDirectory(out)
        let batch = try OutputFiles.Staged(out + "/payloads.json")
        let csv = try OutputFiles.Staged(out + "/daily.csv")
        let apple = try OutputFiles.Staged(out + "/" + AppleDailyTotals.fileName)
        try apple.append(AppleDailyTotals.csvHeader)
        for input in checks { if let totals = input.appleTotals { try apple.append(totals.csvRows(input: input.path)) } }
        var texts: [(date: String, json: String)] = []
        texts.reserveCapacity(days.count)
        try OutputFiles.replaceDirectory(out + "/payloads") { dir in
            try batch.append(PayloadsFile.opening(empty: days.isEmpty))
            try csv.append(CSVWriter.header)
            // The day files are created on a second thread; all are written (or the first
            // failure thrown) before the folder is put in place or removed.
            let files = BackgroundFileWriter()
            defer { try? files.finish() }
            for (i, day) in days.enumerated() {
                let text = PayloadEncoder.payload(day).bytes()
                try files.write(PayloadsFile.dayFile(text), to: dir + "/\(day.date).json")
                texts.append((day.date, String(decoding: text, as: UTF8.self)))
                try batch.append(bytes: PayloadsFile.member(text, last: i + 1 == days.count))
                try csv.append(CSVWriter.row(day))
            }
            try files.finish()
            try beforePuttingInPlace(texts)
        }
        try batch.commit()
        try csv.commit()
        try apple.commit()
    }

    static func modificationTime(_ path: String) -> Timestamp? {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        return Timestamp(seconds: Int64(date.timeIntervalSince1970), offset: 0)
    }
}
