import Foundation

/// `compare --from D`: an export side read through the window (issue 42, docs/compare.md "The
/// window read"). The window's dates are read as `explain` reads its date (`ExportWindow`, two
/// days of margin); the records cut go into a census (`WindowCensus`) that gives what the report
/// states of the rest of the side: which dates have data, which fields each has (the gaps name
/// the last date a field came) and every source name. The dates outside the window are there
/// for that only: their values are stand-ins (1), never compared (`Comparison`, `CompareSeries`
/// and `GapFinder` read values of the window's dates only).
///
/// Nil when the census cannot stand for a full read (a cut record in the export date's own
/// quarter-hour, which the reader skips when it starts after the date, or after an export date
/// written after the records; a census date inside the window, a cut running sample inside a
/// run of a window date among them; a quarter-hour a midnight falls
/// in, `WindowCensus.dates`; one source name in two normal forms; a workout starting when a walked
/// one did whose zone's note would change the book, `DayBook.walkedWorkoutUnsure`): the caller
/// reads in full.
enum CompareWindowSide {
    static func read(
        _ path: String, format: InputFormat, options: DayOptions, window: Comparison.Window, progress: ((ConvertProgress) -> Void)?
    ) throws -> [String: ComparableDay]? {
        let collector = WindowCensusCollector()
        // A window read's book is small: its nights need not be freed before its days are made.
        var options = options
        options.nightsBesideDays = true
        let book = DayBook(options: options)
        let source = ConvertSource.export(path: path, format: format)
        let scan = ExportWindow(days: window.from...window.to, census: collector)
        // The progress line counts the elements the scan passed: the book takes a sliver of them.
        let started = Date()
        let shown = progress.map { ConvertProgress.reporter($0, started: started) { scan.tally.elements } }
        _ = try source.read(into: book, zone: options.timeZone, window: scan, progress: shown)
        // A walked workout's copy the book is unsure of: the days are not a full read's.
        if book.walkedWorkoutUnsure { return nil }
        FreedMemory.giveBack()
        // The clock the book's finish dates by, before it runs (a trip's second read keeps it).
        let zone = options.timeZone, timeline = zone == nil ? book.timelineSeen : nil
        let ending = ReadEnding(book)
        // The census's dates on a thread of their own while the book finishes (the census is
        // not the book's: nothing is shared). Most of the finish waits for its nights' thread,
        // so the two fill both cores.
        let firstCensus = BackgroundValue(name: "census dates") {
            censusDates(collector.census, ending: ending, path: path, format: format, clock: clock(zone: zone, timeline: timeline))
        }
        var days = book.finish()
        // The book whose days are given and the census of the same read: which records a read
        // cuts depends on its workers' order (each reads the first record of every watch it
        // meets), so a book and a census of two reads could each lack a record.
        var finished = book
        let countedOrNot: Counted?
        if let reread = book.rereadTimeline {
            // A trip: the days again with the timeline given, as `ConvertJob.finishedDays` does,
            // through the same window; that read's book and census are the ones used (the first
            // census's dates are left to their thread).
            var again = options
            again.timeline = reread
            let second = DayBook(options: again)
            let secondCensus = WindowCensusCollector()
            _ = try source.read(
                into: second, zone: options.timeZone, window: ExportWindow(days: window.from...window.to, census: secondCensus))
            days = second.finish()
            finished = second
            countedOrNot = censusDates(
                secondCensus.census, ending: ReadEnding(second), path: path, format: format, clock: clock(zone: zone, timeline: timeline))
        } else {
            countedOrNot = try firstCensus.value()
        }
        // A trip's second read is unsure of its own walked workouts' copies too.
        guard let counted = countedOrNot, !workoutOutreaches(finished, window: window), !finished.walkedWorkoutUnsure else {
            return nil
        }
        let census = counted.census
        if namesOneSourceTwice(finished.sourceNames + census.rawSources.map({ WindowCensus.decode($0.name) })) { return nil }
        let names = Array(Set(finished.sourceNames).union(census.sourceNames))
        let sources = ComparableDay.sourceSet(names)
        var dated = counted.dates
        // Running samples give data to the dates of the runs that hold them (a run of a window
        // date holding one: that date's value is the full read's only with it, so read in full).
        for (day, metrics) in census.runDates(runs: finished.finishedRuns) { dated[day, default: []].formUnion(metrics) }
        // The dates in two parts, before and from the middle day the book made, the later on a
        // thread of its own: thousands of dates, each day's fields read and hashed into a
        // dictionary, and the census's stand-ins hashed in.
        let half = days.count / 2
        let cut = half < days.count ? days[half].dayNumber : Int.max
        var early: [(day: Int, metrics: Set<Int>)] = [], late: [(day: Int, metrics: Set<Int>)] = []
        for (day, metrics) in dated {
            if day >= window.from, day <= window.to { return nil }
            if day < cut { early.append((day, metrics)) } else { late.append((day, metrics)) }
        }
        let laterDays = Array(days[half...]), laterCensus = late, standIns = counted.standIns
        days.removeSubrange(half...)
        let laterPart = BackgroundValue(name: "compare days") { part(laterDays, census: laterCensus, sources: sources, standIns: standIns) }
        var out = part(days, census: early, sources: sources, standIns: standIns)
        days = []
        let later = try laterPart.value()
        out.reserveCapacity(out.count + later.count)
        for (date, d) in later { out[date] = d }
        return out
    }

    /// One part of a side's dates as compared: the book's `days`, and the census's dates, each
    /// with the metrics its cut records give (a day the book made too gets the stand-ins it
    /// lacks).
    private static func part(
        _ days: [FinishedDay], census: [(day: Int, metrics: Set<Int>)], sources: Set<String>, standIns: StandIns
    ) -> [String: ComparableDay] {
        var standIns = standIns
        var out: [String: ComparableDay] = [:]
        out.reserveCapacity(days.count + census.count)
        // A date both made: the book's values over the census's stand-ins (`ComparableDay.init`).
        var censusOf = [Int: Set<Int>](minimumCapacity: census.count)
        for (day, metrics) in census { censusOf[day] = metrics }
        for d in days {
            let metrics = censusOf.removeValue(forKey: d.dayNumber)
            let date = d.date
            out[date] = ComparableDay(d, sourceSet: sources, standIns: metrics.map { standIns.shared($0) })
        }
        for (day, metrics) in census where censusOf[day] != nil {
            let date = CivilDate.isoDate(day)
            out[date] = ComparableDay(date: date, sharing: standIns.shared(metrics), inputSources: sources)
        }
        return out
    }

    /// What the census's dates need of a read's book once the read is done (its export date),
    /// taken before the book finishes, for another thread.
    struct ReadEnding: Sendable {
        var exportMoment: Int64?
        var exportDates: Int

        init(_ book: DayBook) {
            exportMoment = book.exportDate?.seconds
            exportDates = book.exportDates
        }
    }

    /// The clock a read's days are dated by: the run's zone, else the input's timeline, else
    /// each instant's recorded offset.
    private static func clock(zone: TimeZone?, timeline: ZoneTimeline?) -> LocalClock {
        timeline.map { LocalClock(timeline: $0) } ?? LocalClock(zone: zone)
    }

    /// The census as the reader's records stand (without those after the export date, which
    /// the reader skips) and its local dates by `clock`, each with its metrics; nil when the
    /// census cannot stand for a full read.
    static func censusDates(
        _ census: WindowCensus, ending: ReadEnding, path: String, format: InputFormat, clock: LocalClock
    ) -> Counted? {
        var census = census
        if let moment = ending.exportMoment {
            // The reader skips a record after the export date only once it has read that date
            // (the last read before it, if several): the census may leave such records out only
            // when the export has one date, before its records.
            if census.latestStart > moment, ending.exportDates > 1 || !exportDateComesFirst(path, format: format) { return nil }
            guard let skipped = census.skippingAfter(moment) else { return nil }
            census = skipped
        }
        guard let dates = census.dates(clock: clock) else { return nil }
        // The fields of every metric a date may get from the census, made here rather than
        // where the dates are filled.
        var metrics = Set(census.runningStarts.map(\.metric))
        for m in dates.values { metrics.formUnion(m) }
        return Counted(census: census, dates: dates, standIns: StandIns(metrics: metrics))
    }

    /// A census as the reader's records stand, its local dates with their metrics, and the
    /// stand-ins of those metrics.
    struct Counted: Sendable {
        var census: WindowCensus
        var dates: [Int: Set<Int>]
        var standIns: StandIns
    }

    /// Whether `names` (a side's source names, each as written) hold one name in two Unicode
    /// normal forms: one source to the reader (Swift's strings compare canonically), kept as its
    /// first record in file order wrote it, which a census cannot tell: the side is read in full.
    static func namesOneSourceTwice(_ names: [String]) -> Bool {
        var written: [String: String] = [:]
        for name in names {
            if let other = written[name], !other.utf8.elementsEqual(name.utf8) { return true }
            written[name] = name
        }
        return false
    }

    /// A census date's stand-in values (1, never compared): the fields one record of a metric
    /// gives (`fieldsGiven`), each made once a read, set where the day has none.
    struct StandIns: Sendable {
        /// By metric index (a dictionary's hash of the index, three times a metric of each of
        /// thousands of dates, was a tenth of the dates' making).
        private var fields: [[String]?] = Array(repeating: nil, count: Catalog.metrics.count)
        /// The stand-ins of a census date, by its metrics and `variant` (what else the caller
        /// sets): made once, shared by every such date (`StandInValues`).
        private var made: [SharedKey: StandInValues] = [:]

        private struct SharedKey: Hashable {
            var metrics: Set<Int>
            var variant: Int
        }

        init() {}

        /// The same fields as a set (`ComparableDay.fieldSet`), by metric index.
        private var sets: [ComparedFieldSet?] = Array(repeating: nil, count: Catalog.metrics.count)

        /// The fields of `metrics` made at once (on the census's thread).
        init(metrics: Set<Int>) {
            for m in metrics { make(m) }
        }

        private mutating func make(_ metric: Int) {
            let given = fieldsGiven(by: Catalog.metrics[metric])
            fields[metric] = given
            sets[metric] = ComparableDay.fieldSet(of: given)
        }

        mutating func fill(_ day: inout ComparableDay, metric: Int) {
            if fields[metric] == nil { make(metric) }
            let known = day.fieldSet
            // One hash a field: the default's `modify` puts the stand-in in where the day has none.
            for path in fields[metric]! { Self.keep(&day.values[path, default: .number(1)]) }
            // The day's set of fields, known before, is known after: the metric's fields added.
            if var set = known, let added = sets[metric] {
                set.formUnion(added)
                day.fieldSet = set
            }
        }

        /// The fields of all of `metrics`, with room made for them at once (a day grown a field
        /// at a time was resized and hashed anew several times).
        mutating func fill(_ day: inout ComparableDay, metrics: Set<Int>) {
            var count = day.values.count
            for m in metrics { count += fields[m]?.count ?? 1 }
            let known = day.fieldSet
            day.values.reserveCapacity(count)
            day.fieldSet = known  // room made, nothing changed
            for m in metrics { fill(&day, metric: m) }
        }

        /// The stand-ins of `metrics` alone, then `finish` (the same for one `variant`), made the
        /// first time and shared after.
        mutating func shared(_ metrics: Set<Int>, variant: Int = 0, finish: (inout ComparableDay) -> Void = { _ in }) -> StandInValues {
            let key = SharedKey(metrics: metrics, variant: variant)
            if let values = made[key] { return values }
            var d = ComparableDay(date: "")
            fill(&d, metrics: metrics)
            finish(&d)
            let values = StandInValues(d.values)
            made[key] = values
            return values
        }

        @inline(__always) private static func keep(_: inout OutputField.Scalar) {}
    }

    /// Whether a workout starting within the window read's reach (the window and
    /// `ExportWindow.margin`) takes its heart rate from the samples and ends at or after the
    /// reach's end: the samples from there on were cut (the export's) or skipped (HAE's), so its
    /// heart rate would not be a full read's; the side is then read in full. Workouts are read
    /// whole on both sides.
    static func workoutOutreaches(_ book: DayBook, window: Comparison.Window) -> Bool {
        let reach = ExportWindow(days: window.from...window.to)
        return book.workouts.latestEndTakingSamples(startingIn: reach.from...reach.to).map { $0 >= reach.to } ?? false
    }

    /// Whether the export states its `ExportDate` before its first `Record` (as Apple writes it,
    /// near the top), found in its first MiB (the entry's, inflated, for export.zip).
    static func exportDateComesFirst(_ path: String, format: InputFormat) -> Bool {
        struct Enough: Error {}
        let limit = 1 << 20
        var head: [UInt8] = []
        do {
            switch format {
            case .appleXML:
                head = Array(try InputFile.head(path: path, count: limit))
            case .appleZip:
                let found = try ZipExportLocator.locate(path: path)
                defer { close(found.fd) }
                var stream = ZipEntryStream(fd: found.fd, entry: found.entry, fileSize: found.fileSize)
                stream.chunkSize = 64 << 10
                do {
                    try stream.read(checkCRC: false) { chunk in
                        head.append(contentsOf: chunk)
                        if head.count >= limit { throw Enough() }
                    }
                } catch is Enough {}
            default:
                return false
            }
        } catch {
            return false
        }
        let text = String(decoding: head, as: UTF8.self)
        guard let date = text.range(of: "<ExportDate") else { return false }
        return text.range(of: "<Record").map { date.lowerBound < $0.lowerBound } ?? true
    }

    /// The compared fields one record of `metric` gives its date: a day book given one such
    /// sample, its day as `compare` takes it. A running-mechanics sample gives a date fields
    /// only inside its runs: the fields a run with the sample gives that the run alone does not
    /// (the date of a census's running sample has the run already).
    static func fieldsGiven(by metric: Metric) -> [String] {
        let value = min(max(1, metric.plausible.lowerBound), metric.plausible.upperBound)
        let noon = Timestamp(seconds: 43_200, offset: 0)
        let sample = Sample(
            type: metric.healthKitType, metric: metric, source: "s", value: value, canonicalValue: value, start: noon, end: noon)
        guard metric.rule == .workoutAvg else { return fields(of: [sample], run: false) }
        let alone = Set(fields(of: [], run: true))
        return fields(of: [sample], run: true).filter { !alone.contains($0) }
    }

    /// The compared fields of the day a book makes of `samples`, with a run of an hour from
    /// noon (1970-01-01, UTC) when `run`.
    private static func fields(of samples: [Sample], run: Bool) -> [String] {
        guard let options = try? DayOptions(timeZoneName: "UTC") else { return [] }
        let book = DayBook(options: options)
        for s in samples { book.sample(s) }
        if run {
            book.workout(
                Workout(
                    activityType: "HKWorkoutActivityTypeRunning", source: "s", start: Timestamp(seconds: 43_200, offset: 0),
                    end: Timestamp(seconds: 46_800, offset: 0)))
        }
        return book.finish(parallel: false).flatMap { ComparableDay($0).values.keys }
    }
}
