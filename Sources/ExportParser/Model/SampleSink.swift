/// What an input file is, as detected from its content.
enum InputFormat: String, Sendable {
    case appleXML = "apple-xml"
    case appleZip = "apple-zip"
    case hae = "hae"
}

/// The input a reader is about to stream.
struct InputDescription: Sendable {
    var path: String
    var format: InputFormat
    /// The entry read inside a zip (`apple_health_export/export.xml`), when there is one.
    var entry: String?
    /// Size in bytes of what is parsed (the XML entry's uncompressed size for a zip).
    var byteCount: Int64?
    init(path: String, format: InputFormat, entry: String? = nil, byteCount: Int64? = nil) {
        self.path = path
        self.format = format
        self.entry = entry
        self.byteCount = byteCount
    }
}

/// Consumes the sample stream. Readers call these in document order; `finish` once at the end of
/// each input. Every method has an empty default, so a sink implements only what it uses.
///
/// The promise the hot path rests on (every `@exclusivity(unchecked)` property of the readers,
/// the day book and the store points here):
/// 1. One thread at a time. A reader calls a sink from one thread (its player thread during a
///    read, `TapePipeline`; the caller's before and after, ordered by the wait for that thread,
///    `takeOver`); a sink that hands work to another thread (the store's writer) gives that
///    thread its own state.
/// 2. No call back. A sink never calls back into the reader that feeds it (the element handler,
///    the HAE walker), and nothing a sink calls reaches the sink again while one of its methods
///    runs (SQLite calls back into no Swift code).
/// So no method of these types is re-entered or run on two threads while it modifies such a
/// property, and Swift's dynamic exclusivity check (a thread-local access-set insert and removal
/// per access: about 15 % of a decoding thread, bench/README.md) can be dropped there. The checks
/// ran in every test and fuzz run before they were dropped and found no overlap.
protocol SampleSink: AnyObject {
    /// Whether readers must decode details nothing aggregates (device, versions, creation dates,
    /// metadata, beat lists, correlations' members). Building them costs time, so readers skip
    /// them unless some sink asks.
    var wantsDetails: Bool { get }
    func begin(_ input: InputDescription)
    /// The export's own timestamp (`ExportDate`, or the HAE file's time).
    func exportDate(_ date: Timestamp)
    func me(_ me: Me)
    /// A top-level sample of any type, catalog or not.
    func sample(_ sample: Sample)
    /// A top-level export.xml record when details are wanted: its metadata comes as the entries'
    /// texts (in order; none for none), which the reader copies from the attribute bytes without
    /// making a String an entry, and `sample.metadata` is empty. The texts are the reader's, lent
    /// for the call: it refills them for its next record. A sink that keeps no metadata need not
    /// implement it: the default passes the sample on to `sample(_:)`.
    func sample(_ sample: Sample, metadata: MetadataEntryTexts)
    func correlation(_ correlation: Correlation)
    func workout(_ workout: Workout)
    /// `compare`'s window read: a workout outside the window that a worker read from its bytes
    /// (`ExportWindow.walkWorkout`): its type, source, dates and zone only, so its identity
    /// (`WorkoutIdentity`), which its children make, is unknown. The default passes it on to
    /// `workout(_:)`, for a sink that keeps no identity.
    func walkedWorkout(_ workout: Workout)
    func activitySummary(_ summary: ActivitySummary)
    func extra(_ item: ExtraItem)
    /// A night an input already summarised (HAE's aggregated `sleep_analysis`).
    func sleepSummary(_ night: SleepSummary)
    /// The input has listed one metric whole (an HAE metric's array of datums ended): a sink may
    /// do the work of the samples so far now, on the reading side's thread, instead of at the
    /// end. Another array (a later body or input) may still bring more of the same metric.
    func metricEnded()
    /// The input's records have given way to what export.xml lists after them (its first
    /// top-level `Workout` or `ActivitySummary`): every metric's stream has moved on, so a sink
    /// may free what waits for later records of dates they have left behind (the day book's sum
    /// pieces, by the same rule as when their budget is reached). Records may still follow.
    func recordsEnded()
    func finish(_ input: InputDescription, report: ReadReport)
    /// The calling thread feeds the sink from now on: a reader that fed it from another thread
    /// says so after waiting for that thread (the wait orders the two threads' accesses).
    func takeOver()
}

extension SampleSink {
    var wantsDetails: Bool { false }
    func begin(_ input: InputDescription) {}
    func exportDate(_ date: Timestamp) {}
    func me(_ me: Me) {}
    func sample(_ sample: Sample) {}
    func sample(_ sample: Sample, metadata: MetadataEntryTexts) { self.sample(sample) }
    func correlation(_ correlation: Correlation) {}
    func workout(_ workout: Workout) {}
    func walkedWorkout(_ workout: Workout) { self.workout(workout) }
    func activitySummary(_ summary: ActivitySummary) {}
    func extra(_ item: ExtraItem) {}
    func sleepSummary(_ night: SleepSummary) {}
    func metricEnded() {}
    func recordsEnded() {}
    func finish(_ input: InputDescription, report: ReadReport) {}
    func takeOver() {}
}

/// Fans one stream out to several sinks (day book, store, …).
final class SinkFanout: SampleSink {
    let sinks: [SampleSink]
    let wantsDetails: Bool
    init(_ sinks: [SampleSink]) {
        self.sinks = sinks
        self.wantsDetails = sinks.contains { $0.wantsDetails }
    }
    func begin(_ input: InputDescription) { for s in sinks { s.begin(input) } }
    func exportDate(_ date: Timestamp) { for s in sinks { s.exportDate(date) } }
    func me(_ me: Me) { for s in sinks { s.me(me) } }
    func sample(_ sample: Sample) { for s in sinks { s.sample(sample) } }
    func sample(_ sample: Sample, metadata: MetadataEntryTexts) {
        for s in sinks { s.sample(sample, metadata: metadata) }
    }
    func correlation(_ c: Correlation) { for s in sinks { s.correlation(c) } }
    func workout(_ w: Workout) { for s in sinks { s.workout(w) } }
    func walkedWorkout(_ w: Workout) { for s in sinks { s.walkedWorkout(w) } }
    func activitySummary(_ a: ActivitySummary) { for s in sinks { s.activitySummary(a) } }
    func extra(_ item: ExtraItem) { for s in sinks { s.extra(item) } }
    func sleepSummary(_ n: SleepSummary) { for s in sinks { s.sleepSummary(n) } }
    func metricEnded() { for s in sinks { s.metricEnded() } }
    func recordsEnded() { for s in sinks { s.recordsEnded() } }
    func finish(_ input: InputDescription, report: ReadReport) { for s in sinks { s.finish(input, report: report) } }
    func takeOver() { for s in sinks { s.takeOver() } }
}
