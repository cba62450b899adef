import Foundation
import XCTest

@testable import ExportParser

/// All HAE inputs of a run are one person's HAE data (docs/rules.md, "HAE bodies"): REST bodies
/// whose windows overlap, given as files, as a folder and as a JSON Lines file, give each datum,
/// night and workout once. Bodies are written here, one a line, with the arithmetic beside them;
/// the zone is the offset the datums carry (-0600, no `--timezone`).
final class HAEBodiesTests: XCTestCase {
    /// One `{"data": …}` body on one line.
    static func body(metrics: [String], workouts: [String] = []) -> String {
        "{\"data\": {\"metrics\": [" + metrics.joined(separator: ", ") + "], \"workouts\": [" + workouts.joined(separator: ", ") + "]}}"
    }

    static func metric(_ name: String, _ units: String, _ data: [String]) -> String {
        "{\"name\": \"\(name)\", \"units\": \"\(units)\", \"data\": [" + data.joined(separator: ", ") + "]}"
    }

    static func steps(_ start: String, _ end: String, _ qty: Int) -> String {
        "{\"startDate\": \"2026-03-\(start):00 -0600\", \"endDate\": \"2026-03-\(end):00 -0600\", \"qty\": \(qty), \"source\": \"Watch\"}"
    }

    static func protein(_ time: String) -> String {
        "{\"startDate\": \"2026-03-02 \(time):00 -0600\", \"endDate\": \"2026-03-02 \(time):00 -0600\", \"qty\": 1.3, \"source\": \"Food Log\"}"
    }

    static func segment(_ start: String, _ end: String, _ stage: String) -> String {
        "{\"startDate\": \"2026-03-\(start):00 -0600\", \"endDate\": \"2026-03-\(end):00 -0600\", \"value\": \"\(stage)\", \"source\": \"Watch\"}"
    }

    static func run(kcal: Int) -> String {
        "{\"id\": \"RUN-1\", \"name\": \"Outdoor Run\", \"start\": \"2026-03-02 17:00:00 -0600\", \"end\": \"2026-03-02 17:30:00 -0600\", \"duration\": 1800, \"activeEnergyBurned\": {\"qty\": \(kcal), \"units\": \"kcal\"}}"
    }

    static let s1 = steps("02 08:00", "02 08:10", 100), s2 = steps("02 09:00", "02 09:10", 200)
    static let s3 = steps("02 18:00", "02 18:10", 300), s4 = steps("03 07:00", "03 07:10", 50)
    static let night = [
        segment("02 23:00", "03 03:00", "Core"), segment("03 03:00", "03 04:00", "Deep"), segment("03 04:00", "03 06:00", "REM"),
    ]

    /// Four syncs with HAE's default window (the previous day and today so far):
    /// - A (03-02 12:00): steps s1 100, s2 200; protein at 12:00 twice (two foods, alike).
    /// - B (03-02 20:00): s1, s2 again, s3 300; the 12:00 protein twice again, one at 19:00;
    ///   the run (id RUN-1) with 250 kcal, as far as B knew it.
    /// - C (03-03 08:00): s1, s2, s3, s4 50 (03-03); the 12:00 protein once, the 19:00 once; the
    ///   night's segments (Core 23:00–03:00, Deep 03:00–04:00, REM 04:00–06:00); the run, 300 kcal.
    /// - D (03-03 12:00): s4 again; the same three segments; the run, 300 kcal.
    static let defaultWindows = [
        body(metrics: [metric("step_count", "count", [s1, s2]), metric("protein", "g", [protein("12:00"), protein("12:00")])]),
        body(
            metrics: [
                metric("step_count", "count", [s1, s2, s3]),
                metric("protein", "g", [protein("12:00"), protein("12:00"), protein("19:00")]),
            ], workouts: [run(kcal: 250)]),
        body(
            metrics: [
                metric("step_count", "count", [s1, s2, s3, s4]), metric("protein", "g", [protein("12:00"), protein("19:00")]),
                metric("sleep_analysis", "hr", night),
            ], workouts: [run(kcal: 300)]),
        body(metrics: [metric("step_count", "count", [s4]), metric("sleep_analysis", "hr", night)], workouts: [run(kcal: 300)]),
    ]

    /// The same data with "Since Last Sync": each body holds what is new.
    static let sinceLastSync = [
        body(metrics: [metric("step_count", "count", [s1, s2]), metric("protein", "g", [protein("12:00"), protein("12:00")])]),
        body(metrics: [metric("step_count", "count", [s3]), metric("protein", "g", [protein("19:00")])], workouts: [run(kcal: 300)]),
        body(metrics: [metric("step_count", "count", [s4]), metric("sleep_analysis", "hr", night)]),
    ]

    private func convert(_ inputs: [String], _ dir: URL) throws -> [String: [String: Any]] {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)")
        _ = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out.path)).run()
        var days: [String: [String: Any]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path + "/payloads") {
            let data = try Data(contentsOf: out.appendingPathComponent("payloads/" + name))
            days[String(name.dropLast(5))] = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return days
    }

    /// The bodies as separate files, as a folder and as one JSON Lines file.
    private func forms(_ bodies: [String], _ dir: URL) throws -> [(String, [String])] {
        let folder = dir.appendingPathComponent("bodies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [String] = []
        for (i, b) in bodies.enumerated() {
            let f = folder.appendingPathComponent(String(format: "body-%02d.json", i))
            try Data((b + "\n").utf8).write(to: f)
            files.append(f.path)
        }
        let lines = dir.appendingPathComponent("bodies-\(UUID().uuidString).jsonl")
        try Data((bodies.joined(separator: "\n") + "\n").utf8).write(to: lines)
        return [("files", files), ("folder", [folder.path]), ("JSON Lines", [lines.path])]
    }

    private func assertThePlan(_ days: [String: [String: Any]], _ label: String) throws {
        let d2 = try XCTUnwrap(days["2026-03-02"], label)
        let m2 = try XCTUnwrap(d2["metrics"] as? [String: Any], label)
        // 100 + 200 + 300 = 600 steps, each datum once whatever body repeats it.
        XCTAssertEqual(m2["step_count"] as? Double, 600, label)
        // 12:00: two alike datums in A and B, one in C: max(2, 2, 1) = 2 samples of 1.3 g;
        // 19:00: at most once in a body: 1 sample. 3 × 1.3 = 3.9 g.
        XCTAssertEqual(try XCTUnwrap(m2["protein_g"] as? Double, label), 3.9, accuracy: 1e-9, label)
        // The run once, the latest body's copy: 300 kcal (B's 250 is an earlier view of it).
        let workouts = try XCTUnwrap(d2["workouts"] as? [[String: Any]], label)
        XCTAssertEqual(workouts.count, 1, label)
        XCTAssertEqual(workouts.first?["energy_kcal"] as? Double, 300, label)
        let d3 = try XCTUnwrap(days["2026-03-03"], label)
        XCTAssertEqual((d3["metrics"] as? [String: Any])?["step_count"] as? Double, 50, label)
        // The night ending 03-03 once: core 4 h + deep 1 h + REM 2 h = 7 h asleep.
        let sleep = try XCTUnwrap(d3["sleep"] as? [String: Any], label)
        XCTAssertEqual(sleep["total_hours"] as? Double, 7, label)
        XCTAssertEqual(sleep["core_hours"] as? Double, 4, label)
        XCTAssertEqual(sleep["deep_hours"] as? Double, 1, label)
        XCTAssertEqual(sleep["rem_hours"] as? Double, 2, label)
        XCTAssertEqual(days.count, 2, label)
    }

    func testOverlappingDefaultWindowsGiveEachDatumOnceInEveryForm() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        for (form, inputs) in try forms(Self.defaultWindows, dir) {
            try assertThePlan(try convert(inputs, dir), "default windows as " + form)
        }
    }

    func testSinceLastSyncBodiesAddUp() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        for (form, inputs) in try forms(Self.sinceLastSync, dir) {
            try assertThePlan(try convert(inputs, dir), "since last sync as " + form)
        }
    }

    /// Alike datums within one body are separate samples even in a single file (no merger):
    /// A alone gives 2 × 1.3 = 2.6 g protein.
    func testAlikeDatumsWithinOneFileAreSeparateSamples() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let file = dir.appendingPathComponent("one.json")
        try Data(Self.defaultWindows[0].utf8).write(to: file)
        let m = try XCTUnwrap(try convert([file.path], dir)["2026-03-02"]?["metrics"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(m["protein_g"] as? Double), 2.6, accuracy: 1e-9)
        XCTAssertEqual(m["step_count"] as? Double, 300)
    }

    static func bucket(_ day: String, _ qty: Int) -> String {
        "{\"date\": \"2026-03-\(day) 00:00:00 -0600\", \"qty\": \(qty), \"source\": \"Watch|iPhone\"}"
    }

    static func aggregatedNight(end: String, core: Double, deep: Double, rem: Double) -> String {
        "{\"date\": \"2026-03-03 00:00:00 -0600\", \"totalSleep\": \(core + deep + rem), \"core\": \(core), \"deep\": \(deep), \"rem\": \(rem), \"awake\": 0, \"asleep\": 0, \"inBed\": 0, \"sleepStart\": \"2026-03-02 23:00:00 -0600\", \"sleepEnd\": \"2026-03-03 \(end):00 -0600\", \"source\": \"Watch\"}"
    }

    /// Summarize on: day buckets are a day's total so far, so per date the most complete body
    /// wins (the one whose data reaches furthest; ties: the later input).
    /// - P (synced 03-02 18:00): 03-01 9,000, 03-02 4,000 so far. Reach: 03-02 00:00.
    /// - S (also synced the evening of 03-02, listed after P): 03-01 9,100, 03-02 4,100. Reach:
    ///   03-02 00:00, as P: the later input wins the tie.
    /// - R (synced 03-03 02:00): 03-02 10,000; the night so far (sleepEnd 02:00, core 2 h). Reach:
    ///   02:00 on 03-03.
    /// - Q (synced 03-03 06:00): 03-02 10,000, 03-03 300; the night (sleepEnd 05:30, core 4 h,
    ///   deep 1 h, REM 1.5 h). Reach: 05:30 on 03-03.
    /// Expected: 03-01 9,100 (S), 03-02 10,000 (Q), 03-03 300 (Q), the night ending 03-03 Q's
    /// 4 + 1 + 1.5 = 6.5 h (R's partial 2 h replaced). Given shuffled: Q, P, R, S.
    func testDayBucketsAndNightsComeFromTheMostCompleteBody() throws {
        let p = Self.body(metrics: [Self.metric("step_count", "count", [Self.bucket("01", 9000), Self.bucket("02", 4000)])])
        let s = Self.body(metrics: [Self.metric("step_count", "count", [Self.bucket("01", 9100), Self.bucket("02", 4100)])])
        let r = Self.body(metrics: [
            Self.metric("step_count", "count", [Self.bucket("02", 10000)]),
            Self.metric("sleep_analysis", "hr", [Self.aggregatedNight(end: "02:00", core: 2, deep: 0, rem: 0)]),
        ])
        let q = Self.body(metrics: [
            Self.metric("step_count", "count", [Self.bucket("02", 10000), Self.bucket("03", 300)]),
            Self.metric("sleep_analysis", "hr", [Self.aggregatedNight(end: "05:30", core: 4, deep: 1, rem: 1.5)]),
        ])
        let dir = try StoreTestSupport.temporaryDirectory()
        for (form, inputs) in try forms([q, p, r, s], dir) {
            let days = try convert(inputs, dir)
            func steps(_ d: String) -> Double? { (days[d]?["metrics"] as? [String: Any])?["step_count"] as? Double }
            XCTAssertEqual(steps("2026-03-01"), 9100, form)
            XCTAssertEqual(steps("2026-03-02"), 10000, form)
            XCTAssertEqual(steps("2026-03-03"), 300, form)
            let sleep = try XCTUnwrap(days["2026-03-03"]?["sleep"] as? [String: Any], form)
            XCTAssertEqual(sleep["total_hours"] as? Double, 6.5, form)
            XCTAssertEqual(sleep["core_hours"] as? Double, 4, form)
        }
    }

    /// The payload's `device_sync_timestamp` comes from the data: the latest instant it reaches
    /// (here the end of s4, 03-03 07:10 -0600), not the files' modification times, so
    /// touching the files changes no byte of the payloads.
    func testSyncTimestampIsTheDataLatestInstantAndIgnoresTouch() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let inputs = try forms(Self.defaultWindows, dir)[0].1
        let out = dir.appendingPathComponent("out").path
        _ = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out)).run()
        let first = try Data(contentsOf: URL(fileURLWithPath: out + "/payloads.json"))
        let day = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/payloads/2026-03-02.json"))) as? [String: Any])
        XCTAssertEqual(day["device_sync_timestamp"] as? String, "2026-03-03T07:10:00-06:00")
        for f in inputs {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 2_000_000_000)], ofItemAtPath: f)
        }
        _ = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out)).run()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/payloads.json")), first)
    }

    /// A bad line of a JSON Lines file is named by its line.
    func testBadJSONLinesBodyNamesItsLine() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let file = dir.appendingPathComponent("bodies.jsonl")
        try Data((Self.defaultWindows[0] + "\n" + "{\"data\": {\"metrics\": [}}\n").utf8).write(to: file)
        XCTAssertThrowsError(try ConvertJob(ConvertRequest(inputs: [file.path], outDir: dir.appendingPathComponent("o").path)).run()) {
            XCTAssertTrue("\($0)".contains("bodies.jsonl: line 2, byte "), "\($0)")
        }
    }

    /// With a store, the set is one import, named after its first input; the same set again is
    /// "already imported" and leaves the store as it was.
    func testTheSetIsOneStoreImport() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (_, inputs) = try forms(Self.defaultWindows, dir)[1]
        let out = dir.appendingPathComponent("stored").path
        let store = out + "/health.sqlite"
        let first = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out, storePath: store)).run()
        XCTAssertEqual(first.inputs.count, 1)
        XCTAssertEqual(first.inputs.first?.haeSet?.bodies, 4)
        XCTAssertFalse(first.inputs.first?.alreadyImported ?? true)
        let again = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out, storePath: store)).run()
        XCTAssertTrue(again.inputs.first?.alreadyImported ?? false)
        XCTAssertTrue(
            again.summaryLines().contains { $0.contains("4 Health Auto Export bodies read as one person's data") },
            "\(again.summaryLines())")
    }

    /// A skipped datum of a set names its body: the file of a folder, the line of JSON Lines.
    func testSkippedDatumNamesItsBody() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let bad = Self.body(metrics: [Self.metric("step_count", "furlongs", [Self.s4])])
        for (form, inputs) in try forms([Self.defaultWindows[0], bad], dir) where form != "files" {
            let outcome = try ConvertJob(ConvertRequest(inputs: inputs, outDir: dir.appendingPathComponent("skip-" + form).path)).run()
            let lines = outcome.summaryLines().joined(separator: "\n")
            XCTAssertTrue(lines.contains(form == "folder" ? "body-01.json, byte " : "line 2, byte "), form + ": " + lines)
        }
    }
}
