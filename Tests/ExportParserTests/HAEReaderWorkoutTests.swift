import XCTest

@testable import ExportParser

/// Workouts v1 and v2 and extra arrays in Fixtures/hae/workouts-v1-v2-extras-array-wrapped.json:
/// a top-level array holding a `{"data": …}` body and a bare body.
final class HAEReaderWorkoutTests: XCTestCase {
    let path = HAEFixtures.path("workouts-v1-v2-extras-array-wrapped.json")

    func testVersion2Workout() throws {
        let (sink, _) = try HAEFixtures.read(path)
        XCTAssertEqual(sink.workouts.count, 4)  // the Yoga workout without a start is skipped
        let run = sink.workouts[0]
        XCTAssertEqual(run.activityType, "HKWorkoutActivityTypeRunning")  // "Outdoor Run"
        // start written "7:00:00<U+202F>AM" (raw narrow no-break space)
        XCTAssertEqual(run.start, ts("2026-02-14 07:00:00 -0800"))
        XCTAssertEqual(run.end, ts("2026-02-14 07:30:00 -0800"))
        XCTAssertEqual(run.duration, 1795.5)  // stated, not end − start (1800)
        XCTAssertEqual(run.durationUnit, "s")
        XCTAssertEqual(run.totalEnergyBurned, 1255.2)  // activeEnergyBurned, unit kept
        XCTAssertEqual(run.totalEnergyBurnedUnit, "kJ")
        XCTAssertEqual(run.totalDistance, 5)
        XCTAssertEqual(run.totalDistanceUnit, "km")
        XCTAssertEqual(run.statedAverageHeartRate, 150.25)  // avgHeartRate wins over heartRateData (Avg 100)
        XCTAssertEqual(run.statedMaximumHeartRate, 171)
        XCTAssertEqual(run.source, "Health Auto Export")  // HAE writes no workout source
        XCTAssertTrue(run.metadata.isEmpty)  // details off
        XCTAssertEqual(run.routes.map(\.inlineLocationCount), [1])  // one route point, counted
    }

    func testVersion2HeartRateObjectAndUnknownName() throws {
        let (sink, _) = try HAEFixtures.read(path)
        let swim = sink.workouts[1]
        XCTAssertEqual(swim.activityType, "HKWorkoutActivityTypeSwimming")  // "Pool Swim"
        XCTAssertEqual(swim.statedAverageHeartRate, 120)  // heartRate.avg.qty
        XCTAssertEqual(swim.statedMaximumHeartRate, 140)  // heartRate.max.qty
        XCTAssertEqual(swim.totalDistance, 1000)
        XCTAssertEqual(swim.totalDistanceUnit, "m")

        let other = sink.workouts[2]
        XCTAssertEqual(other.activityType, "HKWorkoutActivityTypeOther")
        XCTAssertEqual(other.metadata, [MetadataEntry(key: "HAEName", value: "Underwater Basket Weaving")])
        XCTAssertEqual(other.source, "Weaver App")
        XCTAssertEqual(other.duration, 600)
        XCTAssertNil(other.statedAverageHeartRate)
    }

    func testVersion1Workout() throws {
        let (sink, report) = try HAEFixtures.read(path)
        let walk = sink.workouts[3]
        XCTAssertEqual(walk.activityType, "HKWorkoutActivityTypeWalking")
        // no duration in v1: 20:50:43 − 20:38:38 = 12 min 5 s = 725 s
        XCTAssertEqual(walk.duration, 725)
        XCTAssertEqual(walk.totalEnergyBurned, 67.5)  // activeEnergy, not totalEnergy (133.5)
        XCTAssertEqual(walk.totalEnergyBurnedUnit, "kcal")
        XCTAssertEqual(walk.totalDistance, 0.5)
        XCTAssertEqual(walk.totalDistanceUnit, "mi")
        // no avgHeartRate/maxHeartRate: from heartRateData qty 100, 110, 96 → mean 102, max 110
        XCTAssertEqual(walk.statedAverageHeartRate ?? 0, 102, accuracy: 1e-12)
        XCTAssertEqual(walk.statedMaximumHeartRate, 110)
        XCTAssertEqual(report.workouts, 4)
        XCTAssertEqual(report.skips["HAE workout without a parseable start"], 1)
        XCTAssertEqual(report.skipExamples["HAE workout without a parseable start"]?.first?.path, "[0].data.workouts[3].start")
    }

    func testDetailsKeepScalarExtrasAsMetadata() throws {
        let (sink, _) = try HAEFixtures.read(path, details: true)
        let run = Dictionary(sink.workouts[0].metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(run["id"], "5F6E5EE0-0000-0000-0000-000000000001")
        XCTAssertEqual(run["location"], "Outdoor")
        XCTAssertEqual(run["isIndoor"], "false")
        XCTAssertEqual(run["intensity"], "9.5 kcal/hr\u{00B7}kg")
        XCTAssertEqual(run["temperature"], "17.25 degC")
        XCTAssertEqual(run["humidity"], "54.0 %")
        XCTAssertEqual(run["metadata.indoor"], "false")  // from the workout's metadata object
        let walk = Dictionary(sink.workouts[3].metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(walk["elevationAscent"], "18.8 ft")
        XCTAssertEqual(walk["elevationDescent"], "0 ft")
        XCTAssertEqual(walk["totalEnergy"], "133.5 kcal")
        XCTAssertEqual(walk["HAEExportVersion"], "1")
        XCTAssertEqual(run["HAEExportVersion"], "2")
    }

    func testExtraArraysAreKeptAsCompactJSON() throws {
        let (sink, report) = try HAEFixtures.read(path, details: true)
        XCTAssertEqual(sink.extras.map(\.kind), ["medications", "stateOfMind", "stateOfMind", "stateOfMind"])
        // written compact in the fixture, so the copy is byte for byte the same
        XCTAssertEqual(
            sink.extras[0].json,
            #"{"displayText":"Truvada","codings":[{"system":"rxnorm","code":"1744007"}],"scheduledDosage":1,"isArchived":false,"note":null}"#
        )
        XCTAssertEqual(sink.extras[1].json, #"{"note":"a \"quoted\" word","labels":["Happy","Calm"],"valence":-0.25}"#)
        XCTAssertEqual(sink.extras[2].json, #""loose""#)
        XCTAssertEqual(sink.extras[3].json, "7")
        XCTAssertEqual(report.recordsByType["hae:medications"], 1)
        XCTAssertEqual(report.recordsByType["hae:stateOfMind"], 3)
        XCTAssertNil(report.recordsByType["hae:symptoms"])  // empty array
        XCTAssertTrue(report.skips.keys.allSatisfy { !$0.contains("medications") })
    }

    func testExtraItemsKeepControlEscapesNumbersAndEmptyContainers() throws {
        let (sink, _) = try HAEFixtures.read(HAEFixtures.path("extras-escapes-and-nesting.json"), details: true)
        // control characters come back as escapes; numbers keep their written form (2.50, -3e2)
        XCTAssertEqual(sink.extras.map(\.kind), ["symptoms"])
        XCTAssertEqual(sink.extras.first?.json, #"{"note":"tab\there \u0001 ctl \u001f end","x":[1,2.50,-3e2,true,false,null,{},[]]}"#)
    }

    func testExtraArraysAreNotSerialisedWithoutDetails() throws {
        let (sink, report) = try HAEFixtures.read(path)
        XCTAssertTrue(sink.extras.isEmpty)
        XCTAssertEqual(report.recordsByType["hae:medications"], 1)  // still counted
    }

    func testActivityTypeTable() {
        let cases: [(String, String?)] = [
            ("Outdoor Run", "Running"), ("Indoor Run", "Running"), ("Running", "Running"),
            ("Outdoor Walk", "Walking"), ("Indoor Walk", "Walking"), ("Outdoor Cycle", "Cycling"), ("Indoor Cycle", "Cycling"),
            ("Traditional Strength Training", "TraditionalStrengthTraining"),
            ("Functional Strength Training", "FunctionalStrengthTraining"), ("Hiking", "Hiking"), ("Yoga", "Yoga"),
            ("Pool Swim", "Swimming"), ("Open Water Swim", "Swimming"),
            ("High Intensity Interval Training", "HighIntensityIntervalTraining"), ("Elliptical", "Elliptical"),
            ("Rowing", "Rowing"), ("Core Training", "CoreTraining"), ("Cooldown", "Cooldown"), ("Pilates", "Pilates"),
            ("Dance", "Dance"), ("Other", "Other"), ("Table Tennis", "TableTennis"), ("Basket Weaving", nil),
        ]
        for (display, expected) in cases {
            XCTAssertEqual(HAEWorkoutActivityTypes.healthKitName(forDisplayName: display), expected, display)
        }
    }
}
