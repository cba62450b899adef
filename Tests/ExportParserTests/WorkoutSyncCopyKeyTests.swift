import XCTest

@testable import ExportParser

/// `WorkoutIdentity.syncCopyKey`, the day book's key, made from bytes and bits: two workouts get
/// the same key exactly when the store's digest of their sync copies (`syncCopy(_:).digest`,
/// made from texts) is the same. Each case changes one thing of a workout that states every
/// part an identity reads.
final class WorkoutSyncCopyKeyTests: XCTestCase {
    private func workout() -> Workout {
        let start = Timestamp(seconds: 1_704_186_000, offset: 3_600)  // 2024-01-02 10:00 +01:00
        var w = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Ann’s Apple Watch", start: start,
            end: Timestamp(seconds: start.seconds + 1_800, offset: 3_600))
        w.sourceVersion = "10.1"
        w.device = "<<HKDevice: 0x1>, name:Apple Watch>"
        w.duration = 30
        w.durationUnit = "min"
        w.totalDistance = 5
        w.totalDistanceUnit = "km"
        w.totalEnergyBurned = 300
        w.statistics = [WorkoutStatistic(type: "HKQuantityTypeIdentifierActiveEnergyBurned", start: start, sum: 300, unit: "kcal")]
        w.activities = [
            WorkoutActivity(
                uuid: "A1", start: start, duration: 30, durationUnit: "min",
                statistics: [WorkoutStatistic(type: "HKQuantityTypeIdentifierHeartRate", average: 150, unit: "count/min")])
        ]
        w.events = [WorkoutEvent(type: "HKWorkoutEventTypeLap", date: start, duration: 1, durationUnit: "min")]
        w.routes = [WorkoutRoute(source: "Ann’s Apple Watch", start: start, filePaths: ["/workout-routes/route_1.gpx"])]
        return w
    }

    /// (what changed, the changed workout, whether it is still the same workout to the book).
    private func cases() -> [(String, Workout, Bool)] {
        var out: [(String, Workout, Bool)] = []
        func change(_ what: String, same: Bool, _ edit: (inout Workout) -> Void) {
            var w = workout()
            edit(&w)
            out.append((what, w, same))
        }
        change("source version", same: true) { $0.sourceVersion = "10.2" }
        change("creation date", same: true) { $0.created = Timestamp(seconds: 1_704_200_000, offset: 0) }
        change("metadata", same: true) { $0.metadata = [MetadataEntry(key: "HKIndoorWorkout", value: "0")] }
        change("device address", same: true) { $0.device = "<<HKDevice: 0x2>, name:Apple Watch>" }
        // `digest` writes an absent text as nothing, as it writes an empty one.
        change("an empty unit for an absent one", same: true) { $0.totalEnergyBurnedUnit = "" }
        // Neither reads an activity's events.
        change("an activity's event", same: true) { $0.activities[0].events = $0.events }
        change("device name", same: false) { $0.device = "<<HKDevice: 0x1>, name:Apple Watch 2>" }
        change("device absent", same: false) { $0.device = nil }
        change("type", same: false) { $0.activityType = "HKWorkoutActivityTypeWalking" }
        change("end", same: false) { $0.end.seconds += 1 }
        change("offset", same: false) { $0.start.offset = 7_200 }
        change("duration absent", same: false) { $0.duration = nil }
        change("distance 5 to 5.000001", same: false) { $0.totalDistance = 5.000_001 }
        change("statistic sum 300 to 0", same: false) { $0.statistics[0].sum = 0 }
        change("statistic added", same: false) { $0.statistics.append($0.statistics[0]) }
        change("activity statistic average", same: false) { $0.activities[0].statistics[0].average = 151 }
        change("activity uuid", same: false) { $0.activities[0].uuid = "A2" }
        change("event moved to the activity", same: false) {
            $0.activities[0].events = $0.events
            $0.events = []
        }
        change("event duration", same: false) { $0.events[0].duration = 2 }
        change("route inline locations", same: false) { $0.routes[0].inlineLocationCount = 1 }
        change("route path", same: false) { $0.routes[0].filePaths = ["/workout-routes/route_2.gpx"] }
        change("stated heart rate", same: false) { $0.statedAverageHeartRate = 150 }
        return out
    }

    func testTheKeyTellsWorkoutsApartAsTheDigestDoes() {
        var zero = workout(), negativeZero = workout()
        zero.statistics[0].sum = 0
        negativeZero.statistics[0].sum = -0.0
        // 0 and -0 are two texts ("0.0", "-0.0") and two bit patterns.
        let pairs = cases().map { ($0.0, workout(), $0.1, $0.2) } + [("sum -0 against 0", zero, negativeZero, false)]
        for (what, a, b, same) in pairs {
            XCTAssertEqual(WorkoutIdentity.syncCopy(a).digest == WorkoutIdentity.syncCopy(b).digest, same, "digest, \(what)")
            XCTAssertEqual(WorkoutIdentity.syncCopyKey(a) == WorkoutIdentity.syncCopyKey(b), same, "key, \(what)")
        }
    }

    /// The book counts by the key: of the workout and its 22 changed copies, the 6 that are the
    /// same workout are duplicates, and 1 + 16 workouts are kept.
    func testTheBookCountsSyncCopiesOnce() {
        var book = WorkoutBook()
        XCTAssertTrue(book.add(workout()))
        var kept = 1
        for (_, w, _) in cases() where book.add(w) { kept += 1 }
        XCTAssertEqual(book.duplicates, 6)
        XCTAssertEqual(kept, 17)
    }

    /// FNV-1a's published value for "a" (0xaf63dc4c8601ec8c), and a word fed as its eight bytes,
    /// low first.
    func testTheDigestsWordsAreTheirBytes() {
        var a = FNV1a()
        a.add(byte: 0x61)
        XCTAssertEqual(a.value, 0xaf63_dc4c_8601_ec8c)
        var word = FNV1a(), bytes = FNV1a()
        word.add(word: 0x0102_0304_0506_0708)
        for b: UInt8 in [8, 7, 6, 5, 4, 3, 2, 1] { bytes.add(byte: b) }
        XCTAssertEqual(word.value, bytes.value)
        var text = FNV1a(), sub = FNV1a()
        text.add("name:Apple Watch>")
        sub.add("<<HKDevice: 0x1>, name:Apple Watch>".dropFirst(18))
        XCTAssertEqual(text.value, sub.value)
    }
}
