import XCTest

@testable import ExportParser

/// `WorkoutBook.add`: a sync's copy of a workout (the same but for its source version or
/// creation date) counts once; anything else that differs makes another workout.
final class WorkoutBookTests: XCTestCase {
    private func run(_ minutes: Int64, version: String?, device: String? = "<<HKDevice: 0x1>, name:Apple Watch>") -> Workout {
        let start = Timestamp(seconds: 1_704_186_000, offset: 3_600)  // 2024-01-02 10:00 +01:00
        var w = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Ann’s Apple Watch", start: start,
            end: Timestamp(seconds: start.seconds + minutes * 60, offset: 3_600))
        w.sourceVersion = version
        w.device = device
        w.duration = Double(minutes)
        w.durationUnit = "min"
        return w
    }

    func testCopiesCountOnceAndOthersAreKept() {
        var book = WorkoutBook()
        XCTAssertTrue(book.add(run(30, version: "10.1")))
        // The same run re-synced by a newer watchOS: a copy.
        XCTAssertFalse(book.add(run(30, version: "10.2")))
        // The same run whose device text names another object address: still a copy (the
        // identity reads the device without its address).
        XCTAssertFalse(book.add(run(30, version: "10.1", device: "<<HKDevice: 0x2>, name:Apple Watch>")))
        // One minute longer: another workout.
        XCTAssertTrue(book.add(run(31, version: "10.1")))
        XCTAssertEqual(book.duplicates, 2)
        // Two kept: their summaries, in start order.
        let clock = LocalClock(zone: TimeZone(identifier: "Europe/Amsterdam"))
        XCTAssertEqual(book.finish(clock: clock).summaries.count, 2)
    }
}
