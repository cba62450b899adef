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
        if let store = request.storePath {
            (native, hae) = try StoreSides.read(store, person: request.person)
        } else {
            native = try Self.side(request.native, options: options)
            hae = try Self.side(request.hae, options: options)
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
        } else {
            let c = Comparison(native: native, hae: hae, window: window, tolerances: tolerances)
            report = CompareReport(mode: .validate, window: window, comparison: c, gaps: c.gaps)
            report.series = CompareSeries.build(native: native, hae: hae, window: window, comparison: c)
        }
        try CompareFiles.write(report, to: request.outDir)
        return CompareOutcome(report: report, outDir: request.outDir)
    }

    /// One side's days by date: every input read into its own days (convert's readers and
    /// rules, or payload JSON read back), later inputs winning field by field.
    static func side(_ inputs: [String], options: DayOptions) throws -> [String: ComparableDay] {
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
                for d in try PayloadReader.read(path).days { overlay(d) }
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
