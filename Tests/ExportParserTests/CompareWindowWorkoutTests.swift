import Foundation
import XCTest

@testable import ExportParser

/// compare's window read walks a workout outside the window from its bytes instead of handing it
/// to libxml2 (`ExportWindow.walkWorkout`): its type, source, dates and own `HKTimeZone` entry,
/// played to the day book in its place in file order (docs/export-xml.md, "The census"). The
/// scan is shown to walk what it may and to read the rest; compare's outputs through the window
/// are a full read's byte for byte.
final class CompareWindowWorkoutTests: ParseThreadsTestCase {
    typealias Census = CompareWindowCensusTests

    /// A workout as Apple writes it: its start tag, then `children` (its nested lines), or closed
    /// in place when there are none.
    static func workout(
        _ type: String = "HKWorkoutActivityTypeRunning", source: String? = "Ann’s Watch", address: String = "0x2", start: String,
        end: String, children: String = ""
    ) -> String {
        let device = "&lt;&lt;HKDevice: \(address)&gt;, name:Apple Watch, model:Watch, hardware:Watch6,1&gt;"
        let tag =
            " <Workout workoutActivityType=\"\(type)\" duration=\"60\" durationUnit=\"min\""
            + (source.map { " sourceName=\"\($0)\"" } ?? "") + " sourceVersion=\"10.1\" device=\"\(device)\" "
            + "creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\""
        return children.isEmpty ? tag + "/>\n" : tag + ">\n" + children + " </Workout>\n"
    }

    /// Apple's nested lines of a run: its own zone entry, an activity whose metadata names
    /// another zone (the activity's, not the workout's), statistics and a route.
    static func runChildren(zone: String, activityZone: String, start: String, end: String) -> String {
        "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n" + Census.zone(zone)
            + "  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(start)\" duration=\"30\" durationUnit=\"min\"/>\n"
            + "  <WorkoutActivity uuid=\"A\" startDate=\"\(start)\" endDate=\"\(end)\" duration=\"60\" durationUnit=\"min\">\n"
            + "   <MetadataEntry key=\"HKTimeZone\" value=\"\(activityZone)\"/>\n"
            + "   <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"\(start)\" endDate=\"\(end)\" "
            + "average=\"150\" minimum=\"100\" maximum=\"170\" unit=\"count/min\"/>\n"
            + "  </WorkoutActivity>\n"
            + "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" startDate=\"\(start)\" endDate=\"\(end)\" "
            + "sum=\"10\" unit=\"km\"/>\n"
            + "  <WorkoutRoute sourceName=\"Ann’s Watch\" sourceVersion=\"10.1\" creationDate=\"\(end)\" startDate=\"\(start)\" "
            + "endDate=\"\(end)\">\n"
            + "   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n"
            + "   <FileReference path=\"/workout-routes/route.gpx\"/>\n"
            + "  </WorkoutRoute>\n"
    }

    /// What the scan walks, in the window 2024-02-01 … 02-07 (read from 01-30 00:00 UTC to 02-10
    /// 00:00 UTC with the two days' margin): of nine workouts, the run of 01-10 (Apple's layout;
    /// its own zone Europe/Berlin, its activity's Asia/Tokyo not the workout's) and the walk of
    /// 03-05 (closed in place, no `sourceName`: the reader's empty source). Read: a workout whose
    /// zone key is written with a character reference (the reader's `HKTimeZone`), one with a
    /// comment line, one with an end tag that closes another element than the one open, the
    /// window's own (02-03), and three whose `sourceName` the walk would not read as the reader
    /// does (a tab before `=`, given twice, with a prefix). Places: the root's start tag is 27
    /// bytes, each kept element's segment its string's length (the line feed before it, not the
    /// one after): so 27 + steps for the run, and 27 + steps + the seven kept workouts for the
    /// walk.
    func testTheScanWalksWorkoutsInAppleLayout() throws {
        let run = Self.workout(
            start: "2024-01-10 07:00:00 +0100", end: "2024-01-10 08:00:00 +0100",
            children: Self.runChildren(
                zone: "Europe/Berlin", activityZone: "Asia/Tokyo", start: "2024-01-10 07:00:00 +0100", end: "2024-01-10 08:00:00 +0100"))
        let walk = Self.workout(
            "HKWorkoutActivityTypeWalking", source: nil, start: "2024-03-05 18:00:00 +0100", end: "2024-03-05 18:30:00 +0100")
        let reference = Self.workout(
            start: "2024-01-12 07:00:00 +0100", end: "2024-01-12 08:00:00 +0100",
            children: "  <MetadataEntry key=\"HK&#84;imeZone\" value=\"Asia/Tokyo\"/>\n")
        let comment = Self.workout(
            start: "2024-01-13 07:00:00 +0100", end: "2024-01-13 08:00:00 +0100",
            children: Census.zone("Europe/Berlin") + "  <!-- a note -->\n")
        let crossed = Self.workout(
            start: "2024-01-14 07:00:00 +0100", end: "2024-01-14 08:00:00 +0100",
            children: "  <WorkoutActivity uuid=\"B\">\n  </WorkoutRoute>\n" + Census.zone("Europe/Berlin"))
        let inside = Self.workout(
            start: "2024-02-03 07:00:00 +0100", end: "2024-02-03 08:00:00 +0100", children: Census.zone("Europe/Berlin"))
        // The reader's `sourceName` all three (XML allows white space before `=`; a second
        // `sourceName` or an unbound prefix is an error the reader reports).
        func renamed(_ name: String, day: Int) -> String {
            Self.workout(source: "Bob", start: "2024-01-\(day) 07:00:00 +0100", end: "2024-01-\(day) 08:00:00 +0100")
                .replacingOccurrences(of: " sourceName=", with: name)
        }
        let tab = renamed(" sourceName\t=", day: 15), twice = renamed(" sourceName=\"Ann\" sourceName=", day: 16)
        let prefixed = renamed(" x:sourceName=", day: 17)
        let body = Census.inWindow + run + reference + comment + crossed + inside + tab + twice + prefixed + walk
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        var seen = ExportWindow.Seen()
        // The window 2024-02-01 … 02-07 is days 19754 … 19760 (2024-02-01 = 19,723 + 31).
        ExportWindow(days: 19754...19760, census: WindowCensusCollector()).filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        let kept = [reference, comment, crossed, inside, tab, twice, prefixed]
        XCTAssertEqual(left, "<HealthData locale=\"en_US\">\n" + Census.inWindow + kept.joined() + "</HealthData>\n")
        let steps = Census.inWindow.utf8.count, keptBytes = kept.map(\.utf8.count).reduce(0, +)
        XCTAssertEqual(seen.walked.places, [27 + steps, 27 + steps + keptBytes])
        let walked = seen.walked.elements
        XCTAssertEqual(walked.map(\.kind), [.workout, .workout])
        func text(_ first: Int32, _ count: Int32) -> String? {
            count < 0 ? nil : String(decoding: seen.walked.sources[Int(first)..<Int(first + count)], as: UTF8.self)
        }
        XCTAssertEqual(walked.map { text($0.typeFirst, $0.typeCount) }, ["HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeWalking"])
        XCTAssertEqual(walked.map { text($0.sourceFirst, $0.sourceCount) }, ["Ann’s Watch", ""])
        XCTAssertEqual(walked.map { text($0.zoneFirst, $0.zoneCount) }, ["Europe/Berlin", nil])
        // 2024-01-10 07:00 +0100 = 06:00 UTC on day 19,732 (2024-01-10 = 19,723 + 9).
        XCTAssertEqual(walked[0].start, Timestamp(seconds: 19_732 * 86_400 + 6 * 3_600, offset: 3_600))
        XCTAssertEqual(walked[0].end, Timestamp(seconds: 19_732 * 86_400 + 7 * 3_600, offset: 3_600))
    }

    /// A walked workout gives the report what a read one does: its date and source, its zone in
    /// the timeline, in file order, and its run the running samples' date. By hand (window
    /// 2024-02-01 … 02-07):
    ///
    ///   z  heart rate 01-05 12:00 +0100, HKTimeZone Europe/Berlin       kept (zone)      01-05
    ///   h  heart rate 01-20 23:30 +0100 (22:30 UTC)                     cut              01-21
    ///      (Tokyo from 09:00 UTC 01-20, the run's entry: 07:30 on 01-21; Berlin's date
    ///      would be 01-20, New York's, the run's activity's entry, 01-20 too)
    ///   r  running speed 01-20 10:20 +0100, the watch's first record    kept             01-20
    ///   s  running speed 01-20 10:30 +0100, inside the run              cut (run)        01-20
    ///      (the run's date: 09:00 UTC is 18:00 in Tokyo on 01-20)
    ///   w  steps 02-02 12:00 +0100 (the window)                          read             02-02
    ///   a  run 01-20 10:00–11:00 +0100, its zone Asia/Tokyo              walked           01-20
    ///   b  a's copy from another sync (same start and zone, next)       walked           01-20
    ///   c  walk 03-10 18:00 +0100 by "Ann’s Phone", closed in place      walked           03-11
    ///      (17:00 UTC, Tokyo's 02:00 on 03-11: a's entry holds on)
    ///
    /// Dates: 01-05, 01-20, 01-21, 02-02, 03-11 (5); sources Ann’s Phone (c's only), Ann’s
    /// Watch, Phone. Tokyo is eight hours from the offsets written: a trip, read twice, the
    /// second time dating by the timeline given (b's zone then a date's second). Each way: the
    /// timeline's (no --timezone) in chunks of 64 and 4,096 bytes, --timezone Europe/Berlin in
    /// chunks of 64.
    func testCompareOfWalkedWorkoutsIsTheFullReads() throws {
        let start = "2024-01-20 10:00:00 +0100", end = "2024-01-20 11:00:00 +0100"
        let children = Self.runChildren(zone: "Asia/Tokyo", activityZone: "America/New_York", start: start, end: end)
        let body =
            Census.record(
                "HKQuantityTypeIdentifierHeartRate", "60", unit: "count/min", start: "2024-01-05 12:00:00 +0100",
                children: Census.zone("Europe/Berlin"))
            + Census.record("HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", start: "2024-01-20 23:30:00 +0100")
            + Census.record(
                "HKQuantityTypeIdentifierRunningSpeed", "12", unit: "km/hr", source: "Ann’s Watch", device: Census.watch,
                start: "2024-01-20 10:20:00 +0100")
            + Census.record(
                "HKQuantityTypeIdentifierRunningSpeed", "11", unit: "km/hr", source: "Ann’s Watch", device: Census.watch,
                start: "2024-01-20 10:30:00 +0100")
            + Census.inWindow
            + Self.workout(start: start, end: end, children: children)
            + Self.workout(address: "0x3", start: start, end: end, children: children)
            + Self.workout(
                "HKWorkoutActivityTypeWalking", source: "Ann’s Phone", start: "2024-03-10 18:00:00 +0100", end: "2024-03-10 18:30:00 +0100")
        let text = Census.export(body)
        // The three workouts are walked.
        var bytes = Array(text.utf8)
        var seen = ExportWindow.Seen()
        ExportWindow(days: 19754...19760, census: WindowCensusCollector()).filter(&bytes, seen: &seen)
        XCTAssertEqual(seen.walked.elements.map(\.kind), [.workout, .workout, .workout])
        let full = try Census.fullSide(text)
        XCTAssertEqual(full.dates, ["2024-01-05", "2024-01-20", "2024-01-21", "2024-02-02", "2024-03-11"])
        XCTAssertEqual(full.sources, ["Ann’s Phone", "Ann’s Watch", "Phone"])
        XCTAssertTrue(try Census.windowReadStands(text))
        XCTAssertTrue(try Census.windowReadStands(text, zone: "Europe/Berlin"))
        XCTAssertEqual(try Census.differences(bytes: Data(text.utf8), chunks: [64, 4096]), [[], []])
        XCTAssertEqual(try Census.differences(text, zone: "Europe/Berlin"), [])
    }

    /// Two workouts starting at one instant with two zones: whether the second is a copy the full
    /// read counts once (its zone then unnoted) needs their children, so the side is read in
    /// full, and its outputs are the full read's. Without the second zone (the copy states
    /// none) the window read stands. In chunks of 64 bytes the parallel read leaves the second
    /// to the player's own parser, which reads it whole (`ParallelSAXDriver`): a read workout
    /// starting when a walked one did; in chunks of 4,096 (the file padded with 40 records
    /// before the window, cut into the census, so that it is cut into chunks) both are walked.
    func testWorkoutsStartingTogetherWithTwoZonesAreReadInFull() throws {
        let start = "2024-01-20 10:00:00 +0100", end = "2024-01-20 11:00:00 +0100"
        let padding = (10..<50).map {
            Census.record("HKQuantityTypeIdentifierHeartRate", "70", unit: "count/min", start: "2024-01-21 12:\($0):00 +0100")
        }
        func pair(_ second: String) -> String {
            Census.export(
                Census.record(
                    "HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", start: "2024-01-20 23:30:00 +0100",
                    children: Census.zone("Europe/Berlin"))
                    + padding.joined() + Census.inWindow + Self.workout(start: start, end: end, children: Census.zone("Asia/Tokyo"))
                    + Self.workout(address: "0x3", start: start, end: end, children: second))
        }
        let twoZones = pair(Census.zone("Europe/Berlin"))
        XCTAssertGreaterThan(twoZones.utf8.count, 2 * 4096)
        var bytes = Array(twoZones.utf8)
        var seen = ExportWindow.Seen()
        ExportWindow(days: 19754...19760, census: WindowCensusCollector()).filter(&bytes, seen: &seen)
        XCTAssertEqual(seen.walked.elements.map(\.kind), [.workout, .workout])
        for chunk in [64, 4096] { XCTAssertFalse(try Census.windowReadStands(twoZones, chunk: chunk), "\(chunk)") }
        XCTAssertEqual(try Census.differences(bytes: Data(twoZones.utf8), chunks: [64, 4096]), [[], []])
        let noZone = pair("  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n")
        for chunk in [64, 4096] { XCTAssertTrue(try Census.windowReadStands(noZone, chunk: chunk), "\(chunk)") }
        XCTAssertEqual(try Census.differences(bytes: Data(noZone.utf8), chunks: [64, 4096]), [[], []])
    }

    /// The day book's part: a walked workout starting when another did is taken when its zone's
    /// note changes nothing (the last note is the same zone at the same instant), else the book
    /// is unsure. With `--timezone` (no timeline), when the date already has a zone.
    func testTheBookIsUnsureOfWalkedCopies() throws {
        let start = Timestamp(seconds: 1_705_741_200, offset: 3_600), end = Timestamp(seconds: 1_705_744_800, offset: 3_600)
        func run(_ zone: String?, source: String = "Watch", at t: Timestamp = start) -> Workout {
            var w = Workout(activityType: "HKWorkoutActivityTypeRunning", source: source, start: t, end: end)
            w.timeZoneName = zone
            return w
        }
        func unsure(_ workouts: [(Workout, walked: Bool)], timeZone: String? = nil) throws -> Bool {
            let book = DayBook(options: try DayOptions(timeZoneName: timeZone))
            for (w, walked) in workouts {
                if walked { book.walkedWorkout(w) } else { book.workout(w) }
            }
            return book.walkedWorkoutUnsure
        }
        let tokyo = run("Asia/Tokyo"), berlin = run("Europe/Berlin"), none = run(nil)
        // Two walked copies: one zone (idle), two zones, the second without one (nothing noted).
        XCTAssertFalse(try unsure([(tokyo, true), (tokyo, true)]))
        XCTAssertTrue(try unsure([(tokyo, true), (berlin, true)]))
        XCTAssertFalse(try unsure([(tokyo, true), (none, true)]))
        // A later note between (the same zone a minute on): the run ends after the copy's start,
        // whose note would start a run again.
        let later = run("Asia/Tokyo", at: Timestamp(seconds: start.seconds + 60, offset: 3_600))
        XCTAssertTrue(try unsure([(tokyo, true), (later, true), (tokyo, true)]))
        // A read workout and a walked one, either order; two read ones are the identities' to count.
        XCTAssertTrue(try unsure([(tokyo, false), (berlin, true)]))
        XCTAssertTrue(try unsure([(tokyo, true), (berlin, false)]))
        XCTAssertFalse(try unsure([(tokyo, false), (berlin, false)]))
        // Different starts are different workouts.
        XCTAssertFalse(try unsure([(tokyo, true), (run("Europe/Berlin", at: later.start), true)]))
        // --timezone: the date's first zone is kept; a date without one would take the copy's.
        XCTAssertFalse(try unsure([(tokyo, true), (berlin, true)], timeZone: "Europe/Berlin"))
        XCTAssertTrue(try unsure([(none, true), (berlin, true)], timeZone: "Europe/Berlin"))
        XCTAssertFalse(try unsure([(berlin, true), (none, true)], timeZone: "Europe/Berlin"))
    }
}
