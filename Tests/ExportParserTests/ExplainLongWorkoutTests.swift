import Foundation
import XCTest

@testable import ExportParser

/// `explain --date D` of what a workout on D gives when it lasts past the read's reach (the date
/// ± 2 days in UTC, `ExportWindow`, `DateWindowRecorder`): the workout's heart rate, taken from
/// the heart-rate samples inside it when it states none, and the running mechanics of a run,
/// the samples inside it. Both need the samples after the reach, which the window read cuts and
/// the replay of a read without `--timezone` does not hold. The explanation must be the full
/// read's (`--threads 1`), and its value the payload's (`convert`'s day).
final class ExplainLongWorkoutTests: ParseThreadsTestCase {
    typealias C = CompareWindowCensusTests

    /// By hand, all at +00:00, D = 2024-03-05; the reach is 03-03 00:00 … 03-08 00:00 UTC. The
    /// samples are the phone's (a watch's first record is kept wherever it is).
    ///
    ///   heart rate     60  03-05 10:30   inside the reach
    ///   heart rate     90  03-08 10:00   past the reach: cut by the window read
    ///   running speed  10  03-05 10:30   inside the reach
    ///   running speed  12  03-08 10:30   past the reach: cut
    ///   a run from 03-05 10:00 to 03-08 12:00, stating no heart rate: D's one workout
    ///
    /// A full read: the run's heart rate avg (60 + 90) / 2 = 75, max 90; D's running speed is the
    /// mean of the samples inside its run, (10 + 12) / 2 = 11 km/h. With only the samples inside
    /// the reach it would be 60, 60 and 10.
    static let export = C.export(
        C.record(C.heart, "60", unit: "count/min", start: "2024-03-05 10:30:00 +0000")
            + C.record(C.heart, "90", unit: "count/min", start: "2024-03-08 10:00:00 +0000")
            + C.record(
                CompareWindowRunningCensusTests.speedType, "10", unit: "km/hr", start: "2024-03-05 10:30:00 +0000")
            + C.record(
                CompareWindowRunningCensusTests.speedType, "12", unit: "km/hr", start: "2024-03-08 10:30:00 +0000")
            + CompareWindowRunningCensusTests.run("2024-03-05 10:00:00 +0000", "2024-03-08 12:00:00 +0000"))

    private func explanation(_ path: String, field: String, zone: String?, window: Bool) throws -> Explanation {
        let job = try ExplainJob(ExplainRequest(inputs: [path], date: "2024-03-05", field: field, timeZoneName: zone))
        job.windowRead = window
        return job.explain(job.field, in: try job.readDate())
    }

    func testAWorkoutPastTheReachIsExplainedAsAFullReadAndThePayloadGiveIt() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        // The window read alone cuts the two samples past the reach (what makes this a test).
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-03-05"))
        let kept = CollectingSink()
        try AppleExportReader.read(
            data: Data(Self.export.utf8), name: "export.xml", into: kept, threads: 2, chunkBytes: 64, window: ExportWindow(days: day...day))
        XCTAssertEqual(kept.samples.map(\.start.seconds).max(), 1_709_634_600)  // 2024-03-05 10:30 UTC: the later ones cut

        for zone in [nil, "UTC"] {
            // convert's day: a full read on one thread, finished.
            ParseThreads.count = 1
            let book = DayBook(options: try DayOptions(timeZoneName: zone))
            _ = try InputReader.read(path.path, format: .appleXML, into: book)
            let payloadDay = try XCTUnwrap(book.finish().first { $0.date == "2024-03-05" })
            let run = try XCTUnwrap(payloadDay.workouts.first)
            XCTAssertEqual(run.averageHeartRate, 75)
            XCTAssertEqual(run.maximumHeartRate, 90)
            XCTAssertEqual(ComparableDay(payloadDay).values[CompareWindowRunningCensusTests.speedField], .number(11))

            for field in ["workouts", CompareWindowRunningCensusTests.speedField] {
                let label = "\(field), --timezone \(zone ?? "none")"
                ParseThreads.count = 1
                let full = try explanation(path.path, field: field, zone: zone, window: false)
                ParseThreads.count = 2
                ParseThreads.chunkBytes = 64
                let windowed = try explanation(path.path, field: field, zone: zone, window: true)
                let want = try XCTUnwrap(ExplainedField.named(field)).read(payloadDay)
                XCTAssertEqual(full.value, want, "\(label): the full read's value is the payload's")
                XCTAssertEqual(windowed.value, want, "\(label): the window read's value is the payload's")
                XCTAssertEqual(ExplanationJSON.render(windowed), ExplanationJSON.render(full), label)
            }
        }
    }
}
