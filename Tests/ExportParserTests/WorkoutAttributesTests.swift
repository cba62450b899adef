import Foundation
import XCTest

@testable import ExportParser

/// A workout's start tags read in place by name (`AttributeList.index`, `text`, `number`,
/// `timestamp`), in any order, entities decoded; its details (version, creation date, metadata
/// but the zone) only for a sink that wants them.
final class WorkoutAttributesTests: XCTestCase {
    /// One run: attributes out of Apple's order, a source with `&amp;`, a device with `&lt;`,
    /// a zone and one more metadata entry on the workout, an activity, an event and a route, each
    /// with metadata. Then a workout with a negative duration, one without an end date, and a
    /// correlation.
    private let xml = export(
        """
         <Workout endDate="2024-01-02 10:30:00 +0100" duration="30" sourceName="Ann &amp; Bob’s Watch" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" creationDate="2024-01-02 10:31:00 +0100" startDate="2024-01-02 10:00:00 +0100" workoutActivityType="HKWorkoutActivityTypeRunning">
          <MetadataEntry key="HKTimeZone" value="Europe/Amsterdam"/>
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutActivity uuid="U1" startDate="2024-01-02 10:00:00 +0100" endDate="2024-01-02 10:30:00 +0100" duration="30" durationUnit="min">
           <MetadataEntry key="HKIndoorWorkout" value="0"/>
          </WorkoutActivity>
          <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-01-02 10:10:00 +0100" duration="10" durationUnit="min">
           <MetadataEntry key="HKLapLength" value="1 km"/>
          </WorkoutEvent>
          <WorkoutRoute sourceName="Ann &amp; Bob’s Watch" startDate="2024-01-02 10:00:00 +0100" endDate="2024-01-02 10:30:00 +0100">
           <FileReference path="/workout-routes/route_1.gpx"/>
          </WorkoutRoute>
         </Workout>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="W" duration="-5" durationUnit="min" startDate="2024-01-03 10:00:00 +0100" endDate="2024-01-03 10:30:00 +0100"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="W" startDate="2024-01-04 10:00:00 +0100"/>
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Ann &amp; Bob’s Phone" sourceVersion="17.2" creationDate="2024-01-02 12:05:00 +0100" startDate="2024-01-02 12:00:00 +0100" endDate="2024-01-02 12:00:00 +0100"/>
        """)

    private func read(details: Bool) throws -> (CollectingSink, ReadReport) {
        let sink = CollectingSink(details: details)
        let report = try AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: sink)
        return (sink, report)
    }

    func testWithDetailsEveryAttributeIsRead() throws {
        let (sink, report) = try read(details: true)
        XCTAssertEqual(sink.workouts.count, 2)
        let w = sink.workouts[0]
        // 2024-01-02 10:00 +01:00 = 09:00Z; 19,724 days from 1970-01-01: 19724 × 86400 + 9 × 3600.
        let start: Int64 = 19724 * 86400 + 9 * 3600
        XCTAssertEqual(w.activityType, "HKWorkoutActivityTypeRunning")
        XCTAssertEqual(w.source, "Ann & Bob’s Watch")
        XCTAssertEqual(w.start, Timestamp(seconds: start, offset: 3600))
        XCTAssertEqual(w.end, Timestamp(seconds: start + 1800, offset: 3600))
        XCTAssertEqual(w.duration, 30)
        XCTAssertEqual(w.durationUnit, "min")
        XCTAssertEqual(w.totalDistance, 5.2)
        XCTAssertEqual(w.totalDistanceUnit, "km")
        XCTAssertEqual(w.totalEnergyBurned, 300)
        XCTAssertEqual(w.totalEnergyBurnedUnit, "kcal")
        XCTAssertEqual(w.sourceVersion, "10.1")
        XCTAssertEqual(w.device, "<<HKDevice: 0x1>, name:Apple Watch>")
        XCTAssertEqual(w.created, Timestamp(seconds: start + 31 * 60, offset: 3600))
        XCTAssertEqual(w.timeZoneName, "Europe/Amsterdam")
        XCTAssertEqual(w.metadata.map(\.key), ["HKTimeZone", "HKIndoorWorkout"])
        XCTAssertEqual(w.activities.first?.uuid, "U1")
        XCTAssertEqual(w.activities.first?.duration, 30)
        XCTAssertEqual(w.activities.first?.end?.seconds, start + 1800)
        XCTAssertEqual(w.activities.first?.metadata.count, 1)
        XCTAssertEqual(w.events.first?.type, "HKWorkoutEventTypeLap")
        XCTAssertEqual(w.events.first?.date?.seconds, start + 600)
        XCTAssertEqual(w.events.first?.duration, 10)
        XCTAssertEqual(w.events.first?.metadata, [MetadataEntry(key: "HKLapLength", value: "1 km")])
        XCTAssertEqual(w.routes.first?.source, "Ann & Bob’s Watch")
        XCTAssertEqual(w.routes.first?.filePaths, ["/workout-routes/route_1.gpx"])
        // The second: its negative duration left out and counted; the third skipped, no end.
        XCTAssertNil(sink.workouts[1].duration)
        XCTAssertEqual(report.skips["negative workout duration"], 1)
        XCTAssertEqual(report.skips["workout with a missing or unparseable date"], 1)
        XCTAssertEqual(report.workouts, 2)
        let c = try XCTUnwrap(sink.correlations.first)
        XCTAssertEqual(c.type, "HKCorrelationTypeIdentifierFood")
        XCTAssertEqual(c.source, "Ann & Bob’s Phone")
        XCTAssertEqual(c.sourceVersion, "17.2")
        XCTAssertEqual(c.start.seconds, start + 2 * 3600)
        XCTAssertEqual(c.created?.seconds, start + 2 * 3600 + 300)
    }

    /// The day book's reading: the same figures, zone and device (the identity reads it), no
    /// version, creation date or metadata.
    func testWithoutDetailsTheBookGetsWhatItReads() throws {
        let (sink, report) = try read(details: false)
        XCTAssertEqual(sink.workouts.count, 2)
        let w = sink.workouts[0]
        XCTAssertEqual(w.source, "Ann & Bob’s Watch")
        XCTAssertEqual(w.duration, 30)
        XCTAssertEqual(w.totalDistance, 5.2)
        XCTAssertEqual(w.device, "<<HKDevice: 0x1>, name:Apple Watch>")
        XCTAssertEqual(w.timeZoneName, "Europe/Amsterdam")
        XCTAssertNil(w.sourceVersion)
        XCTAssertNil(w.created)
        XCTAssertTrue(w.metadata.isEmpty)
        XCTAssertEqual(w.activities.first?.metadata.count, 0)
        XCTAssertEqual(w.events.first?.metadata.count, 0)
        XCTAssertEqual(w.events.first?.duration, 10)
        XCTAssertEqual(report.skips["negative workout duration"], 1)
        XCTAssertEqual(report.workouts, 2)
        // Both readings are one workout to the book.
        let (full, _) = try read(details: true)
        XCTAssertEqual(WorkoutIdentity.syncCopyKey(w), WorkoutIdentity.syncCopyKey(full.workouts[0]))
    }
}
