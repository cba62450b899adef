import Foundation
import XCTest

@testable import ExportParser

/// Paths the tests read from: the repository, and the public samples when they are beside it.
///
/// The public samples (real exports and HAE files other people published) are not part of the
/// repository: they live in `../shared/samples-public` next to a clone, as on CI. Tests that read
/// them call `requirePublicSamples()` first, so a clone on its own skips them with the reason.
enum TestPaths {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shared = repoRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let publicSamples = shared.appendingPathComponent("samples-public")
    static let publicExports = publicSamples.appendingPathComponent("export")
    static let publicHAE = publicSamples.appendingPathComponent("hae")
    static let fixtures = repoRoot.appendingPathComponent("Tests/ExportParserTests/Fixtures")
    static let samples = repoRoot.appendingPathComponent("samples")

    /// The built command-line tool beside the test bundle (`.build/debug/health-import`), which
    /// the tests under `Process/` run as a user does (`swift build` first).
    static var tool: URL {
        // On Linux the bundle URL is either the .xctest itself or the folder that holds it.
        let bundle = Bundle(for: BundleAnchor.self).bundleURL
        let folder = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        return folder.appendingPathComponent("health-import")
    }

    /// A class of the test bundle, for `Bundle(for:)`.
    private final class BundleAnchor {}

    /// A new folder under the temporary directory, removed when the test bundle has run
    /// (`TemporaryFolders`).
    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        return try TemporaryFolders.shared.make("hi-tests-\(safe)-\(UUID().uuidString.prefix(8))")
    }

    /// Skips the calling test, with the reason, when the public samples are not beside the
    /// repository. When they are, a missing file is a failure of the test that reads it.
    static func requirePublicSamples() throws {
        try XCTSkipUnless(
            FileManager.default.fileExists(atPath: publicSamples.path),
            "public samples not found at \(publicSamples.path): clone beside ../shared to run them")
    }

    /// Whether `path` is one of the public samples (not a hand-written fixture of the repository).
    static func isPublicSample(_ path: String) -> Bool { path.hasPrefix(publicSamples.path + "/") }
}

/// Keeps everything a reader sends, for assertions.
final class CollectingSink: SampleSink {
    let wantsDetails: Bool
    var inputs: [InputDescription] = []
    var exportDates: [Timestamp] = []
    var samples: [Sample] = []
    var workouts: [Workout] = []
    var correlations: [Correlation] = []
    var summaries: [ActivitySummary] = []
    var mes: [Me] = []
    var extras: [ExtraItem] = []
    var sleepSummaries: [SleepSummary] = []
    var finished: [ReadReport] = []
    /// How many times the reader said a metric was listed whole.
    var metricsEnded = 0

    init(details: Bool = true) { wantsDetails = details }

    func begin(_ input: InputDescription) { inputs.append(input) }
    func exportDate(_ date: Timestamp) { exportDates.append(date) }
    func me(_ me: Me) { mes.append(me) }
    /// The metadata entries lent with each sample, in order (`sample(_:metadata:)`; nil for
    /// none), or nil for a sample that came without them.
    var metadataEntries: [[MetadataEntry]?] = []
    func sample(_ sample: Sample) {
        samples.append(sample)
        metadataEntries.append(nil)
    }
    func sample(_ sample: Sample, metadata: MetadataEntryTexts) {
        samples.append(sample)
        metadataEntries.append(metadata.isEmpty ? nil : metadata.entries)
    }
    func correlation(_ c: Correlation) { correlations.append(c) }
    func workout(_ w: Workout) { workouts.append(w) }
    func activitySummary(_ a: ActivitySummary) { summaries.append(a) }
    func extra(_ item: ExtraItem) { extras.append(item) }
    func sleepSummary(_ night: SleepSummary) { sleepSummaries.append(night) }
    func metricEnded() { metricsEnded += 1 }
    /// The samples and workouts received by each `recordsEnded`.
    var recordsEndedAfter: [(samples: Int, workouts: Int)] = []
    func recordsEnded() { recordsEndedAfter.append((samples.count, workouts.count)) }
    func finish(_ input: InputDescription, report: ReadReport) { finished.append(report) }

    func samples(ofType type: String) -> [Sample] { samples.filter { $0.type == type } }
    func samples(field: String) -> [Sample] { samples.filter { $0.metric?.field == field } }
}

/// The payloads an export in memory produces, by date, as parsed JSON objects.
struct Converted {
    var days: [FinishedDay]
    let report: ReadReport
    let payloads: [String: [String: Any]]

    init(xml: String, timezone: String? = nil, priority: [String]? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let options = try DayOptions(timeZoneName: timezone, sourcePriority: priority)
        let book = DayBook(options: options)
        report = try AppleExportReader.read(data: Data(xml.utf8), name: "test.xml", into: book)
        days = book.finish()
        // A second pass when the HKTimeZone timeline is too far from the written offsets (a trip),
        // as `ConvertJob.finishedDays` does.
        if let timeline = book.rereadTimeline {
            var again = options
            again.timeline = timeline
            let second = DayBook(options: again)
            _ = try AppleExportReader.read(data: Data(xml.utf8), name: "test.xml", into: second)
            days = second.finish()
        }
        var p: [String: [String: Any]] = [:]
        for d in days {
            let text = PayloadEncoder.payload(d).render()
            p[d.date] = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
        payloads = p
    }

    func metric(_ date: String, _ field: String) -> Double? {
        (payloads[date]?["metrics"] as? [String: Any])?[field] as? Double
    }
}

/// A minimal export around some body XML. The default export moment lies after the records the
/// tests write without one (a record never starts after it: docs/rules.md, "The export moment").
func export(_ body: String, exportDate: String = "2024-12-31 23:00:00 +0100") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <ExportDate value="\(exportDate)"/>
    \(body)
    </HealthData>
    """
}

func record(
    _ type: String, _ value: String, unit: String? = nil, source: String = "Ann’s Apple Watch", start: String, end: String? = nil,
    children: String = ""
) -> String {
    let u = unit.map { " unit=\"\($0)\"" } ?? ""
    let tail = children.isEmpty ? "/>" : ">\(children)</Record>"
    return
        " <Record type=\"\(type)\" sourceName=\"\(source)\"\(u) startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\"\(tail)\n"
}

/// Two dates of steps and heart rate worked out by hand, at +01:00 (Europe/Paris in March), the
/// watch (`Ann’s Apple Watch`) ranking above the phone (`Ann’s iPhone`):
/// - 03-02: watch 100 over 10:00–10:10; phone 60 over 10:05–10:15, counted only for 10:10–10:15,
///   the part the watch leaves: 60 × 5 / 10 = 30 → 100 + 30 = 130;
/// - 03-02/03: watch 240 over 23:50–00:10, split at midnight by time: 240 × 10 / 20 = 120 on
///   03-02 (130 + 120 = **250**) and 120 on 03-03;
/// - 03-03: phone 50 over 09:00–09:05, alone → 120 + 50 = **170**; heart rate (avg rule) 70 and
///   80 → min 70, max 80, average 75.
func handWorkedStepsAndHeartRate() -> String {
    let watch = "Ann’s Apple Watch", phone = "Ann’s iPhone"
    let steps = "HKQuantityTypeIdentifierStepCount"
    return record(steps, "100", unit: "count", source: watch, start: "2024-03-02 10:00:00 +0100", end: "2024-03-02 10:10:00 +0100")
        + record(steps, "240", unit: "count", source: watch, start: "2024-03-02 23:50:00 +0100", end: "2024-03-03 00:10:00 +0100")
        + record(steps, "60", unit: "count", source: phone, start: "2024-03-02 10:05:00 +0100", end: "2024-03-02 10:15:00 +0100")
        + record(steps, "50", unit: "count", source: phone, start: "2024-03-03 09:00:00 +0100", end: "2024-03-03 09:05:00 +0100")
        + record("HKQuantityTypeIdentifierHeartRate", "70", unit: "count/min", start: "2024-03-03 08:00:00 +0100")
        + record("HKQuantityTypeIdentifierHeartRate", "80", unit: "count/min", start: "2024-03-03 12:00:00 +0100")
}

/// Compares parsed JSON: numbers within 1e-6, strings and nulls exactly, arrays by position,
/// objects by key (a key whose expected value is null may be absent).
func assertSameJSON(_ got: Any?, _ want: Any?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    switch (got, want) {
    case (nil, nil), (nil, is NSNull), (is NSNull, nil), (is NSNull, is NSNull):
        return
    case let (g as NSNumber, w as NSNumber):
        XCTAssertEqual(g.doubleValue, w.doubleValue, accuracy: 1e-6, what, file: file, line: line)
    case let (g as String, w as String):
        XCTAssertEqual(g, w, what, file: file, line: line)
    case let (g as [Any], w as [Any]):
        XCTAssertEqual(g.count, w.count, "\(what): count", file: file, line: line)
        for (i, (a, b)) in zip(g, w).enumerated() { assertSameJSON(a, b, "\(what)[\(i)]", file: file, line: line) }
    case let (g as [String: Any], w as [String: Any]):
        XCTAssertEqual(Set(g.keys), Set(w.keys.filter { !(w[$0] is NSNull) || g[$0] != nil }), "\(what): keys", file: file, line: line)
        for (k, v) in w { assertSameJSON(g[k], v, "\(what).\(k)", file: file, line: line) }
    default:
        XCTFail("\(what): got \(String(describing: got)), want \(String(describing: want))", file: file, line: line)
    }
}
