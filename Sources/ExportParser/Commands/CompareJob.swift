import Foundation

/// The `compare` command: both sides read through the same readers and rules as `convert` (or
/// payload JSON read back), compared date by date and field by field over the window, gaps
/// found, and the report written to the terminal and under `--out` (CSV, JSON, HTML).
public final class CompareJob {
    let request: CompareRequest
    let options: DayOptions
    let tolerances: Tolerances
    let fromDay: Int?

    public init(_ request: CompareRequest) throws {
        try request.validate()
        self.request = request
        options = try DayOptions(timeZoneName: request.timeZoneName)
        tolerances = try request.tolerancesPath.map(Tolerances.load) ?? Tolerances()
        fromDay = try request.from.map { try ConvertJob.day($0, option: "--from") }
    }

    public func run() throws -> CompareOutcome {
        let native: [String: ComparableDay], hae: [String: ComparableDay]
        var ignored: [IgnoredPayloadKeys] = []
        if let store = request.storePath {
            (native, hae) = try Self.storeSides(store, person: request.person, options: options, ignored: &ignored)
        } else {
            native = try Self.side(request.native, options: options, ignored: &ignored)
            hae = try Self.side(request.hae, options: options, ignored: &ignored)
        }
        guard let window = Comparison.window(native: native, hae: hae, from: fromDay, days: request.days) else {
            throw UsageError("--from", "no date has data on both sides; give --from to choose the dates to compare")
        }
        if request.monitor == nil, !window.dates.contains(where: { native[$0] != nil || hae[$0] != nil }) {
            throw UsageError(
                "--from",
                "no date from \(CivilDate.isoDate(window.from)) to \(CivilDate.isoDate(window.to)) has data on either side: nothing to compare"
            )
        }
        var report: CompareReport
        if let n = request.monitor {
            let fields = OutputFields.all.compactMap(\.payloadPath)
            report = CompareReport(
                mode: .monitor, window: window, comparison: nil,
                gaps: GapFinder.monitor(native: native, window: window, lastDates: n, fields: fields))
            report.monitored = GapFinder.monitoredDates(native: native, lastDates: n)
        } else {
            let c = Comparison(native: native, hae: hae, window: window, tolerances: tolerances)
            report = CompareReport(mode: .validate, window: window, comparison: c, gaps: c.gaps)
            report.series = CompareSeries.build(native: native, hae: hae, window: window, comparison: c)
        }
        report.ignoredKeys = ignored
        try CompareFiles.write(report, to: request.outDir)
        return CompareOutcome(report: report, outDir: request.outDir)
    }

    /// `compare --store`: per side, the bodies `receive` took for the person when it took any
    /// (the app's payloads: native; HAE's bodies: hae), else the side's imports (`StoreSides`).
    static func storeSides(
        _ path: String, person: String, options: DayOptions, ignored: inout [IgnoredPayloadKeys]
    ) throws -> (native: [String: ComparableDay], hae: [String: ComparableDay]) {
        let received = try ReceivedInputs.materialize(storePath: path, person: person)
        defer { received.remove() }
        if received.isEmpty { return try StoreSides.read(path, person: person) }
        let native = received.app.isEmpty ? nil : try side(received.app, options: options, ignored: &ignored)
        let hae = received.hae.isEmpty ? nil : try side(received.hae, options: options, ignored: &ignored)
        if let native, let hae { return (native, hae) }
        let store = try HealthStore(path: path)
        guard try !store.imports(person: person).isEmpty else {
            let missing = native == nil ? "the app's payloads (POST /sync/healthkit)" : "Health Auto Export's (POST /hae)"
            throw InputError(file: path, message: "holds no bodies of \(missing) received for \"\(person)\" and no import for that side")
        }
        let imported = try StoreSides.read(path, person: person)
        return (native ?? imported.native, hae ?? imported.hae)
    }

    /// One side's days by date: every input read into its own days (convert's readers and
    /// rules, or payload JSON read back), later inputs winning field by field. Keys of payload
    /// JSON that no field has are added to `ignored`, so a payload from another writer whose
    /// names differ is not silently compared as missing.
    static func side(_ inputs: [String], options: DayOptions, ignored: inout [IgnoredPayloadKeys]) throws -> [String: ComparableDay] {
        var days: [String: ComparableDay] = [:]
        func overlay(_ d: ComparableDay) {
            guard var cur = days[d.date] else {
                days[d.date] = d
                return
            }
            cur.values.merge(d.values) { _, new in new }
            for w in d.workouts where !cur.workouts.contains(where: { WorkoutMatcher.matches($0, w) }) { cur.workouts.append(w) }
            days[d.date] = cur
        }
        for path in inputs {
            if PayloadReader.isPayloadInput(path) {
                let read = try PayloadReader.read(path)
                for d in read.days { overlay(d) }
                if !read.unknownKeys.isEmpty { ignored.append(IgnoredPayloadKeys(input: path, keys: read.unknownKeys)) }
                continue
            }
            let format = try InputDetector.detect(path: path)
            var dayOptions = options
            dayOptions.fallbackExportDate = ConvertJob.modificationTime(path)
            let book = DayBook(options: dayOptions)
            _ = try ConvertJob.read(path, format: format, into: book)
            for d in book.finish() { overlay(ComparableDay(d)) }
        }
        return days
    }
}

/// What a compare run found, for the terminal, the files and the exit status.
struct CompareReport: Sendable {
    enum Mode: String, Sendable { case validate, monitor }
    var mode: Mode
    var window: Comparison.Window
    var comparison: Comparison?
    var gaps: [CompareGap]
    /// Per field, both sides' values over the window (the HTML charts).
    var series: [CompareSeries] = []
    /// `--monitor`: the native side's dates that were checked.
    var monitored: (from: String, to: String)?
    /// Payload JSON keys no field has, per input.
    var ignoredKeys: [IgnoredPayloadKeys] = []

    var rows: [CompareRow] { comparison?.rows ?? [] }
    var failed: Bool { !gaps.isEmpty || (comparison?.failed ?? false) }
}

/// The end of a compare run: what to print and the exit status (0: everything comparable within
/// tolerance and no gap; 1: something out of tolerance or a gap).
public struct CompareOutcome: Sendable {
    let report: CompareReport
    public let outDir: String
    public var exitStatus: Int32 { report.failed ? 1 : 0 }

    /// The summary and the rows that are not `match`, aligned; ANSI colours when `color`.
    public func terminalText(color: Bool) -> String { CompareTerminal.render(report, outDir: outDir, color: color) }
}

/// Keys of a payload JSON input that no output field has: the input was read without them.
struct IgnoredPayloadKeys: Sendable {
    let input: String
    /// Key path (`metrics.restingHeartRate`) and how many times it was met.
    let keys: [String: Int]

    /// `metrics.restingHeartRate (7), foo (1)`: most frequent first, then by name.
    var listed: String {
        keys.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }
}
