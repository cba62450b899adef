import Foundation

/// `compare --from D`: an HAE side of one file read through the window (issue 42, docs/compare.md
/// "The window read"), the HAE twin of `CompareWindowSide`. The datums more than two days from the
/// window that `HAEWindowSkipper` may skip never reach yajl; their census (`HAEWindowCensus`) gives
/// what the report states of the rest of the side: which dates have data, which fields each has
/// and the sources a day names. Their values are stand-ins (1), never compared.
///
/// Nil when the census cannot stand for a full read: a census date inside the window, a
/// quarter-hour a midnight falls in (`WindowCensus.dates`), a source name in two normal forms, a
/// timeline to read again by. The caller then reads in full.
enum CompareHAEWindowSide {
    static func read(_ path: String, options: DayOptions, window: Comparison.Window, progress: ((String, Int64, Int64?) -> Void)?)
        throws -> [String: ComparableDay]?
    {
        let book = DayBook(options: options)
        let skipper = HAEWindowSkipper(days: window.from...window.to)
        var reader = HAEReader(path: path)
        reader.window = skipper
        if let progress { reader.progress = { progress(path, $0, $1) } }
        _ = try reader.read(into: book)
        FreedMemory.giveBack()
        let days = book.finish()
        guard book.rereadTimeline == nil, !CompareWindowSide.workoutOutreaches(book, window: window),
            let census = skipper.census.resolved(skipper.heartRateDecisions)
        else { return nil }
        var clock = LocalClock(zone: options.timeZone)
        if options.timeZone == nil, let timeline = book.timelineSeen { clock = LocalClock(timeline: timeline) }
        // The census's names as written, byte for byte: a set of strings would have made two
        // normal forms one.
        if CompareWindowSide.namesOneSourceTwice(book.sourceNames + census.sources.map({ String(decoding: $0, as: UTF8.self) })) {
            return nil
        }
        let sources = ComparableDay.sourceSet(Array(Set(book.sourceNames).union(census.sourceNames)))
        var out: [String: ComparableDay] = [:]
        for d in days { out[d.date] = ComparableDay(d, sourceSet: sources) }
        guard let plain = census.plain.dates(clock: clock), let buckets = census.buckets.dates(clock: clock) else { return nil }
        let heartRate = HeartRateFields()
        var standIns = CompareWindowSide.StandIns()
        for day in Set(plain.keys).union(buckets.keys) {
            if day >= window.from, day <= window.to { return nil }
            let date = CivilDate.isoDate(day)
            guard var d = out[date] else {
                // A date the read made no day for: its stand-ins shared with the dates of the
                // same metrics and bucket.
                let bucketSeen = buckets[day] != nil
                let shared = standIns.shared(plain[day] ?? [], variant: bucketSeen ? 1 : 0) { d in
                    if bucketSeen { heartRate.bucketOnly(&d) }
                }
                out[date] = ComparableDay(date: date, sharing: shared, inputSources: sources)
                continue
            }
            d.inputSources = sources
            let bucketSeen = buckets[day] != nil || heartRate.sawBucket(d)
            for m in plain[day] ?? [] { standIns.fill(&d, metric: m) }
            if bucketSeen { heartRate.bucketOnly(&d) }
            out[date] = d
        }
        return out
    }

    /// The compared fields heart rate gives a date: from readings, and from a bucket, which gives
    /// no count (`countOnly`: what readings give and a bucket does not).
    struct HeartRateFields {
        let bucket: [String]
        let countOnly: [String]

        init() {
            let metric = Catalog.metrics[DayBook.heartRateIndex]
            let reading = CompareWindowSide.fieldsGiven(by: metric), bucket = Self.bucketFields(metric)
            self.bucket = bucket
            countOnly = reading.filter { !bucket.contains($0) }
        }

        /// Whether a day made by the read saw a heart-rate bucket: it has heart rate, but no count.
        func sawBucket(_ d: ComparableDay) -> Bool {
            !countOnly.isEmpty && bucket.contains { d.values[$0] != nil } && !countOnly.contains { d.values[$0] != nil }
        }

        /// A date with a heart-rate bucket: its bucket's fields, and no count (docs/rules.md,
        /// "minmaxavg").
        func bucketOnly(_ d: inout ComparableDay) {
            for path in bucket where d.values[path] == nil { d.values[path] = .number(1) }
            for path in countOnly { d.values[path] = nil }
        }

        /// A day book given one heart-rate bucket of 60 (50–70) at noon UTC: its day's fields.
        private static func bucketFields(_ metric: Metric) -> [String] {
            guard let options = try? DayOptions(timeZoneName: "UTC") else { return [] }
            let book = DayBook(options: options)
            let noon = Timestamp(seconds: 43_200, offset: 0)
            var s = Sample(
                type: metric.healthKitType, metric: metric, source: "s", value: 60, canonicalValue: 60, start: noon, end: noon)
            s.isBucket = true
            s.bucketMinimum = 50
            s.bucketMaximum = 70
            book.sample(s)
            return book.finish().flatMap { ComparableDay($0).values.keys }
        }
    }
}
