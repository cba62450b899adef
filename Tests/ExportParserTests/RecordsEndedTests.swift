import XCTest

@testable import ExportParser

/// export.xml lists its workouts and activity summaries after every record: the reader says so
/// once (`recordsEnded`), and the day book then resolves and frees the sum pieces of the dates
/// every stream has left two days behind, with the same totals as resolving them at the end.
final class RecordsEndedTests: XCTestCase {
    /// 100 steps at noon on each of 2024-03-01 ... 03-05, then `after` (workouts, summaries).
    private func xml(after: String) -> String {
        var body = ""
        for d in 1...5 {
            body += record("HKQuantityTypeIdentifierStepCount", "100", unit: "count", start: "2024-03-0\(d) 12:00:00 +0100")
        }
        return export(body + after)
    }

    private let workout = """
        <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="Ann’s Apple Watch" \
        startDate="2024-03-02 10:00:00 +0100" endDate="2024-03-02 10:30:00 +0100"/>
        """
    private let summary = "<ActivitySummary dateComponents=\"2024-03-02\" activeEnergyBurned=\"100\"/>"

    func testTheReaderSaysSoOnceAtTheFirstWorkoutOrSummary() throws {
        // Five records, then two workouts and a summary: said once, after the 5 samples and
        // before the first workout.
        let sink = CollectingSink()
        _ = try AppleExportReader.read(data: Data(xml(after: workout + workout + summary).utf8), name: "e.xml", into: sink)
        XCTAssertEqual(sink.recordsEndedAfter.map(\.samples), [5])
        XCTAssertEqual(sink.recordsEndedAfter.map(\.workouts), [0])
        // A summary alone ends them too; records alone never do.
        let second = CollectingSink()
        _ = try AppleExportReader.read(data: Data(xml(after: summary).utf8), name: "e.xml", into: second)
        XCTAssertEqual(second.recordsEndedAfter.map(\.samples), [5])
        let third = CollectingSink()
        _ = try AppleExportReader.read(data: Data(xml(after: "").utf8), name: "e.xml", into: third)
        XCTAssertTrue(third.recordsEndedAfter.isEmpty)
    }

    func testTheDayBookFreesTheDatesLeftBehindWithTheSameTotals() throws {
        // With a workout: the stream's last date is 03-05, so 03-01 ... 03-03 (two days or more
        // behind) are resolved and freed; the pieces of 03-04 and 03-05 wait (2 of 5).
        let freed = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml(after: workout).utf8), name: "e.xml", into: freed)
        XCTAssertEqual(freed.sumPiecesWaiting, 2)
        // Without: all 5 wait for the finish.
        let kept = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml(after: "").utf8), name: "e.xml", into: kept)
        XCTAssertEqual(kept.sumPiecesWaiting, 5)
        // Either way each date has its 100 steps (one sample a date), none counted late.
        for book in [freed, kept] {
            let days = book.finish()
            XCTAssertEqual(days.map(\.date), ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"])
            XCTAssertEqual(days.map { $0.value("step_count") }, [100, 100, 100, 100, 100])
            XCTAssertEqual(book.lateSumPieces, 0)
        }
    }

    func testACopyBeforeTheWorkoutsCountsOnceAndOneAfterThemIsLate() throws {
        // A re-synced copy of 03-01's record (same source, times, value, no metadata) counts once
        // when it comes with the records: 100, not 200, although 03-01 is resolved early, at the
        // workout. The same copy after the workout comes for a date already freed: it is added
        // without resolution (100 + 100 = 200) and counted as late (docs/rules.md, "Memory").
        let copy = record("HKQuantityTypeIdentifierStepCount", "100", unit: "count", start: "2024-03-01 12:00:00 +0100")
        let before = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml(after: copy + workout).utf8), name: "e.xml", into: before)
        let daysBefore = before.finish()
        XCTAssertEqual(daysBefore.first?.value("step_count"), 100)
        XCTAssertEqual(before.lateSumPieces, 0)

        let after = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml(after: workout + copy).utf8), name: "e.xml", into: after)
        let daysAfter = after.finish()
        XCTAssertEqual(daysAfter.first?.value("step_count"), 200)
        XCTAssertEqual(after.lateSumPieces, 1)
        // The other dates are untouched: 100 each.
        XCTAssertEqual(daysAfter.dropFirst().map { $0.value("step_count") }, [100, 100, 100, 100])
    }
}
