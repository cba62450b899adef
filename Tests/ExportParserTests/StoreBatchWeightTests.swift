import XCTest

@testable import ExportParser

/// A store batch is handed to the writer thread by weight (about the rows its items become), so
/// a batch of correlations or workouts, which still hold their members and metadata as values,
/// is not 2,048 of them (issue 24).
final class StoreBatchWeightTests: XCTestCase {
    private let t = Timestamp(seconds: 1_709_280_000, offset: 3_600)

    func testASampleOrAnyPlainItemWeighsOne() {
        XCTAssertEqual(StoreImportSession.weight(of: .exportDate(t)), 1)
    }

    func testACorrelationWeighsItselfItsMetadataAndItsMembers() {
        // Itself 1, its metadata 1, member A 1 + 1 metadata entry, member B 1: 1 + 1 + 2 + 1 = 5.
        var c = Correlation(type: "HKCorrelationTypeIdentifierBloodPressure", source: "Cuff", start: t, end: t)
        c.metadata = [MetadataEntry(key: "HKWasUserEntered", value: "1")]
        c.members = [
            Sample(
                type: "HKQuantityTypeIdentifierBloodPressureSystolic", source: "Cuff", value: 120, start: t, end: t,
                metadata: [MetadataEntry(key: "HKWasUserEntered", value: "1")]),
            Sample(type: "HKQuantityTypeIdentifierBloodPressureDiastolic", source: "Cuff", value: 80, start: t, end: t),
        ]
        XCTAssertEqual(StoreImportSession.weight(of: .correlation(c)), 5)
    }

    func testAWorkoutWeighsItselfAndWhatItHolds() {
        // Itself 1, metadata 1, statistics 2, events 1, routes 0, one activity 1 + its statistic 1:
        // 1 + 1 + 2 + 1 + 0 + 2 = 7.
        var w = Workout(activityType: "HKWorkoutActivityTypeRunning", source: "Watch", start: t, end: t)
        w.metadata = [MetadataEntry(key: "HKIndoorWorkout", value: "0")]
        w.statistics = [
            WorkoutStatistic(type: "HKQuantityTypeIdentifierActiveEnergyBurned", sum: 300),
            WorkoutStatistic(type: "HKQuantityTypeIdentifierHeartRate", average: 150),
        ]
        w.events = [WorkoutEvent(type: "HKWorkoutEventTypePause", date: t)]
        w.activities = [WorkoutActivity(statistics: [WorkoutStatistic(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", sum: 5)])]
        XCTAssertEqual(StoreImportSession.weight(of: .workout(w)), 7)
    }

    func testAnActivitySummaryAndMeWeighThemselvesAndTheirAttributes() {
        // Itself 1 and its 3 attributes (the date is not one): 1 + 3 = 4.
        let a = ActivitySummary(
            date: "2024-03-01",
            attributes: [
                MetadataEntry(key: "activeEnergyBurned", value: "512.3"), MetadataEntry(key: "appleExerciseTime", value: "34"),
                MetadataEntry(key: "appleStandHours", value: "11"),
            ])
        XCTAssertEqual(StoreImportSession.weight(of: .activitySummary(a)), 4)
        // Itself 1 and its 2 characteristics: 1 + 2 = 3.
        let me = Me(attributes: [
            MetadataEntry(key: "HKCharacteristicTypeIdentifierDateOfBirth", value: "1980-01-01"),
            MetadataEntry(key: "HKCharacteristicTypeIdentifierBiologicalSex", value: "HKBiologicalSexFemale"),
        ])
        XCTAssertEqual(StoreImportSession.weight(of: .me(me)), 3)
    }

    func testANewBatchReservesRoomForAsManyItemsAsTheLastOneHeldAtMostABatch() {
        // A batch of samples is full at 2,048 of them (weight 1 each): the next reserves 2,048.
        XCTAssertEqual(StoreImportSession.reservation(after: 2_048), 2_048)
        // Correlations of weight 5 (the test above): 2,048 / 5 = 409.6, so the 410th makes the
        // weight 2,050 >= 2,048 and hands the batch over with 410 items; the next reserves 410.
        XCTAssertEqual(StoreImportSession.reservation(after: 410), 410)
        // A batch that grew past the weight with its last item never asks for more than a batch's
        // 2,048 items, and the batch handed over at the end may hold a single item: room for 1.
        XCTAssertEqual(StoreImportSession.reservation(after: 3_000), 2_048)
        XCTAssertEqual(StoreImportSession.reservation(after: 1), 1)
        XCTAssertEqual(StoreImportSession.reservation(after: 0), 1)
    }
}
