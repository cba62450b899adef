import Foundation

/// The `explain` command: every input read as `convert` reads it, with the book telling a
/// `DayAttribution` where it placed the explained date's samples; the inputs merged as `convert`
/// merges them; the explanation built from the input whose value the payload took. An export is
/// read once, on every core, and only its elements that can reach the date are parsed (the
/// window read, `ExportWindow`); a window read that fails, or finds no data on the date, is done
/// again in full, so errors and the "no data" sentence (which names the input's whole range) are
/// a full read's.
public final class ExplainJob {
    let request: ExplainRequest
    /// Internal and settable so tests can lower the sum rule's piece budget.
    var options: DayOptions
    let dayNumber: Int
    let field: OutputField
    /// Called about every 16 MB on the reading thread while an input is read: the CLI's progress
    /// line on a terminal, as convert shows it.
    public var progress: ((ConvertProgress) -> Void)?
    /// Read exports through the window (`ExportWindow`); false reads them in full (the tests
    /// compare the two).
    var windowRead = true

    public init(_ request: ExplainRequest) throws {
        try request.validate()
        self.request = request
        var options = try DayOptions(timeZoneName: request.timeZoneName, sourcePriority: request.sourcePriority)
        dayNumber = try ConvertJob.day(request.date, option: "--date")
        // The date's sums from all their pieces, through the window or in full (docs/rules.md,
        // "Memory").
        options.exactDays = dayNumber...dayNumber
        self.options = options
        field = try ExplainedField.named(request.field)
    }

    public func run() throws -> ExplainOutcome {
        ExplainOutcome(explanation: explain(field, in: try readDate()))
    }

    /// The inputs read for the date: each input's book with what it heard, payload JSON days,
    /// and the date merged as `convert` merges inputs. Any field of the date can be explained
    /// from it (the tests explain them all from one read).
    struct DateReading {
        var read: [(path: String, isHAE: Bool, attributed: AttributedDay)] = []
        var payloads: [(path: String, day: ComparableDay)] = []
        var merged: FinishedDay?
        /// `--store`: the store's own day values of the date, by store name.
        var storeValues: [String: OutputField.Scalar]?
    }

    func readDate() throws -> DateReading {
        guard windowRead else { return try readDate(window: nil) }
        do {
            return try readDate(window: ExportWindow(days: dayNumber...dayNumber))
        } catch {
            return try readDate(window: nil)
        }
    }

    private func readDate(window: ExportWindow?) throws -> DateReading {
        var r = DateReading()
        var perInput: [(days: [FinishedDay], isHAE: Bool)] = []
        var dates = Set<String>()
        var received: ReceivedInputs?
        defer { received?.remove() }
        var others: [String] = []
        if let storePath = request.storePath {
            let store = try StoreAccess.open(storePath)
            let imports = try store.imports(person: request.person).filter { $0.finishedAt != nil }
            // The bodies `receive` took, as `compare --store` reads them: a side that has any is
            // read from them, not from the imports (docs/explain.md, "--store"); unreadable ones
            // are left out as there.
            let bodies = try ReceivedInputs.materialize(storePath: storePath, person: request.person)
            received = bodies
            guard !imports.isEmpty || !bodies.isEmpty else { throw StoreAccess.missing(request.person, in: storePath) }
            if !bodies.app.isEmpty {
                var syncs = LatestSyncs()
                for file in bodies.app {
                    for d in try Self.naming(bodies, { try PayloadReader.read(file).days }) { syncs.add(d) }
                }
                let label = "\(storePath) (\(request.person)'s payloads received, POST /sync/healthkit)"
                dates.formUnion(syncs.days.map(\.date))
                if let day = syncs.days.first(where: { $0.date == request.date }) { r.payloads.append((label, day)) }
            }
            // Received HAE bodies are the day's samples only where no export and no app body is:
            // the native side wins, as in compare.
            let exportImported = imports.contains { $0.format != InputFormat.hae.rawValue }
            if !bodies.hae.isEmpty, bodies.app.isEmpty, !exportImported { others = bodies.hae }
            for hae in [false, true] where imports.contains(where: { ($0.format == InputFormat.hae.rawValue) == hae }) {
                // A side with received bodies is read from them.
                if hae ? !bodies.hae.isEmpty : !bodies.app.isEmpty { continue }
                let label = "\(storePath) (\(request.person)'s \(hae ? "HAE" : "export") imports)"
                let (book, attribution, days) = try attributedRead { sink, _ in
                    _ = try store.replayRecords(person: request.person, hae: hae, day: dayNumber, into: sink)
                }
                dates.formUnion(days.map(\.date))
                r.read.append((label, hae, attributed(label, book: book, attribution: attribution, days: days)))
                perInput.append((days, hae))
            }
            if !imports.isEmpty { r.storeValues = try store.dayValues(person: request.person, date: request.date) }
        }
        for path in request.inputs {
            if PayloadReader.isPayloadInput(path) {
                let days = try PayloadReader.read(path).days
                dates.formUnion(days.map(\.date))
                if let day = days.first(where: { $0.date == request.date }) { r.payloads.append((path, day)) }
                continue
            }
            others.append(path)
        }
        // Exports one by one, every HAE input as one set, as convert reads them (`ConvertSource`).
        for source in try ConvertSource.plan(others) {
            // The window read's book makes the date's day only (`DayOptions.finishedDays`): a read
            // that finds no data there is done again in full, whose days name the input's range.
            let (book, attribution, days) = try attributedRead(onlyTheDate: window != nil, tally: window?.tally) { sink, progress in
                _ = try Self.naming(received) { try source.read(into: sink, zone: options.timeZone, window: window, progress: progress) }
            }
            dates.formUnion(days.map(\.date))
            let isHAE = source.format == .hae
            var label = source.label
            if let received, source.label.hasPrefix(received.folder + "/") {
                label = "\(request.storePath!) (\(request.person)'s Health Auto Export bodies received, POST /hae)"
            }
            r.read.append((label, isHAE, attributed(label, book: book, attribution: attribution, days: days)))
            perInput.append((days, isHAE))
        }
        r.merged = DayMerge.merge(perInput).first { $0.dayNumber == dayNumber }
        guard r.merged != nil || !r.payloads.isEmpty else {
            let sorted = dates.sorted()
            let range =
                sorted.isEmpty ? "they hold no dates" : "their dates run from \(sorted.first!) to \(sorted.last!) (\(sorted.count) dates)"
            let inputs = request.inputs + (request.storePath.map { ["\($0) (\(request.person))"] } ?? [])
            throw UsageError("--date", "no data on \(request.date) in \(inputs.joined(separator: ", ")); \(range)")
        }
        return r
    }

    /// `body()`, its error naming a received body by its id and time, not its temporary file.
    static func naming<T>(_ received: ReceivedInputs?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw received?.naming(error) ?? error
        }
    }

    /// One input read into a day book that attributes the date's samples. Without `--timezone`
    /// an input is dated by its `HKTimeZone` timeline, known only at its end, and near-midnight
    /// samples wait until then unheard; so what the read kept around the date
    /// (`DateWindowRecorder`) is played again into a book given the timeline (or, with none, the
    /// recorded offsets), every sample then placed on arrival (docs/explain.md). The input is
    /// read once; the explained date's day is the replay's, as convert's second pass of a trip
    /// gives it.
    private func attributedRead(
        onlyTheDate: Bool = false, tally: WindowScanTally? = nil,
        _ read: (SampleSink, _ progress: ((String, Int64, Int64?) -> Void)?) throws -> Void
    ) throws -> (DayBook, DayAttribution, [FinishedDay]) {
        var options = self.options
        if onlyTheDate { options.finishedDays = dayNumber...dayNumber }
        var book = DayBook(options: options)
        var attribution = DayAttribution(day: dayNumber)
        book.attribute(to: attribution)
        let window = DateWindowRecorder(day: dayNumber)
        let started = Date()
        // A window read's line counts the elements its scan passed (the book takes a sliver), from
        // this input's first (one window serves every input of the run); an input the scan does
        // not read (HAE) counts the book's samples.
        let passed = tally?.elements ?? 0
        let onProgress = progress.map { [book] show in
            ConvertProgress.reporter(show, started: started) { max(book.samplesSeen, (tally?.elements ?? 0) - passed) }
        }
        try read(SinkFanout([book, window]), onProgress)
        var days = book.finish()
        // A workout of the date that takes samples from past the reach: a window read cut them
        // (`readDate` reads in full instead), and the replay does not hold them (the input is
        // read again instead, with the timeline).
        let outreaches = workoutOutreaches(book)
        if onlyTheDate, outreaches { throw ReadInFull() }
        if book.datedAtTheEnd {
            var again = options
            if let timeline = book.timelineSeen { again.timeline = timeline } else { again.recordedOffsetsOnly = true }
            book = DayBook(options: again)
            attribution = DayAttribution(day: dayNumber)
            book.attribute(to: attribution)
            if outreaches { try read(book, nil) } else { window.replay(into: book) }
            let replayed = book.finish().filter { $0.dayNumber == dayNumber }
            days = (days.filter { $0.dayNumber != dayNumber } + replayed).sorted { $0.dayNumber < $1.dayNumber }
        }
        return (book, attribution, days)
    }

    /// A window read that cannot stand for a full read (`workoutOutreaches`).
    private struct ReadInFull: Error {}

    /// Whether a workout of the date (starting within a day of it in UTC: on the date at any
    /// offset) ends at or past the read's reach (the date ± 2 days in UTC: `ExportWindow`,
    /// `DateWindowRecorder`) and takes samples from there: its heart rate from the heart-rate
    /// samples (it states none), or, a run, the running mechanics inside it. A window read cut
    /// those samples, and the replay does not hold them.
    func workoutOutreaches(_ book: DayBook) -> Bool {
        let reach = ExportWindow(days: dayNumber...dayNumber)
        let midnight = Int64(dayNumber) * 86_400
        let starts = (midnight - 86_400)...(midnight + 2 * 86_400 - 1)
        return book.workouts.latestEndTakingSamples(startingIn: starts, orRunning: true).map { $0 >= reach.to } ?? false
    }

    private func attributed(_ input: String, book: DayBook, attribution: DayAttribution, days: [FinishedDay]) -> AttributedDay {
        AttributedDay(
            input: input, attribution: attribution, day: days.first { $0.dayNumber == dayNumber }, clock: book.clock,
            sources: book.sourceNames, watches: book.watchSources, priority: book.options.sourcePriority)
    }

    func explain(_ field: OutputField, in r: DateReading) -> Explanation {
        var explanation: Explanation
        if let merged = r.merged {
            let value = field.read(merged)
            // The input the payload took the value from: the last native one that has it (native
            // wins, a later input over an earlier), else the last HAE one (`DayMerge`).
            func gave(_ x: (path: String, isHAE: Bool, attributed: AttributedDay)) -> Bool {
                value != nil && x.attributed.day.flatMap(field.read) == value
            }
            let source =
                r.read.last { !$0.isHAE && gave($0) } ?? r.read.last { $0.isHAE && gave($0) } ?? r.read.last { !$0.isHAE } ?? r.read.last!
            explanation = Explainer.explain(source.attributed, field: field)
            explanation.value = value
            if r.read.count > 1 {
                explanation.from = source.path
                explanation.otherInputs = r.read.filter { $0.path != source.path }.map { ($0.path, $0.attributed.day.flatMap(field.read)) }
            }
        } else {
            let (path, day) = r.payloads.last!
            explanation = Explanation(date: request.date, field: field, value: nil, rule: "payload JSON: the value as the file states it")
            if let p = field.payloadPath, let v = day.values[p] {
                switch v {
                case .number(let n): explanation.value = .number(n)
                case .text(let t): explanation.value = .text(t)
                }
            } else if field.kind == .workoutsCount {
                explanation.value = .number(Double(day.workouts.count))
            }
            explanation.from = path
            explanation.hasSamples = false
        }
        if !r.payloads.isEmpty {
            explanation.notes.append(
                "payload JSON holds day values, not samples: nothing to show from " + r.payloads.map(\.path).joined(separator: ", "))
        }
        if explanation.value == nil { explanation.notes.append("no value on this date: the payload leaves the field out") }
        if let stored = r.storeValues, let name = field.storeName, !Self.sameAsWritten(stored[name], explanation.value?.scalar, field) {
            let text: String
            switch stored[name] {
            case .number(let n): text = JSONValue.format(n, decimals: field.decimals ?? 6)
            case .text(let t): text = t
            case nil: text = "none"
            }
            explanation.notes.append(
                "the store's day value differs: \(text) (made when its imports were read; the replay of its records gives the value above)")
        }
        return explanation
    }

    /// Whether two day values are the same as the payload writes them (rounded to the field's
    /// decimals): a store's day value comes from the one-pass dating of its import, whose
    /// near-midnight sums are added in another order than the replay's, which can move the last
    /// bits of a double and nothing the payload shows.
    static func sameAsWritten(_ a: OutputField.Scalar?, _ b: OutputField.Scalar?, _ field: OutputField) -> Bool {
        switch (a, b) {
        case (.number(let x)?, .number(let y)?):
            let d = field.decimals ?? 6
            return JSONValue.format(x, decimals: d) == JSONValue.format(y, decimals: d)
        default: return a == b
        }
    }
}

/// The end of an explain run: the explanation, as text or JSON.
public struct ExplainOutcome: Sendable {
    let explanation: Explanation

    /// Aligned columns, the rule in one line.
    public var text: String { ExplanationText.render(explanation) }
    /// `date`, `field`, `value` (the payload's), `rule`, `samples` with their `counted` parts.
    public var json: String { ExplanationJSON.render(explanation) }
}
