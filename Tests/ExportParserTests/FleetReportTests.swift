import Foundation
import XCTest

@testable import ExportParser

/// The fleet report's own arithmetic, on hand-made people: worst first, per-field tallies, the
/// causes most people share, and the folder a person id becomes.
final class FleetReportTests: XCTestCase {
    private func person(_ name: String, _ status: FleetStatus, holding: [String], failing: [String], causes: [String]) -> FleetPerson {
        var p = FleetPerson(
            person: name, status: status, exitStatus: status == .ready ? 0 : 1, reason: "",
            failing: failing.map { FleetPerson.FailingField(field: $0, dates: ["2026-03-05"], text: "") }, holding: holding)
        p.causes = causes
        return p
    }

    /// Four people: ann and dan ready (steps and sleep hold), bob fails steps, cat's app stopped.
    /// step_count holds for ann and dan (2) and fails for bob (1); sleep holds for ann, bob and
    /// dan (3). Causes: "step_count out of tolerance" 1 (bob), "the app stopped sending" 1 (cat):
    /// tied on one person each, so by name ("step…" < "the…").
    func testTalliesAndOrder() {
        let steps = "metrics.step_count", sleep = "sleep.total_hours"
        let report = FleetReport(
            people: [
                person("dan", .ready, holding: [steps, sleep], failing: [], causes: []),
                person("bob", .notReady, holding: [sleep], failing: [steps], causes: ["step_count out of tolerance"]),
                person("ann", .ready, holding: [steps, sleep], failing: [], causes: []),
                person("cat", .appStopped, holding: [], failing: [], causes: ["the app stopped sending"]),
            ], mode: .validate, days: 7, monitor: nil, until: nil)
        XCTAssertEqual(report.people.map(\.person), ["cat", "bob", "ann", "dan"])
        XCTAssertEqual(
            report.fields, [.init(field: steps, holds: 2, fails: ["bob"]), .init(field: sleep, holds: 3, fails: [])])
        XCTAssertEqual(report.causes.map(\.cause), ["step_count out of tolerance", "the app stopped sending"])
        XCTAssertFalse(report.allReady)
        XCTAssertEqual(report.counts.map(\.people), [1, 1, 0, 2])
        let text = FleetTerminal.render(report, outDir: "out", color: false)
        XCTAssertTrue(text.contains("step_count  holds for 2, fails for 1 (bob)"), text)
        XCTAssertTrue(text.contains("NOT ALL READY: 4 people: 1 app stopped, 1 not ready, 2 ready"), text)
        // CSV: a line a person, in the same order.
        let csv = FleetCSV.render(report).split(separator: "\r\n")
        XCTAssertEqual(csv.count, 5)
        XCTAssertTrue(csv[2].hasPrefix("bob,not-ready,false,1,metrics.step_count (2026-03-05),"), String(csv[2]))
    }

    /// The last lines say what is true. An empty shard compared no one (not "all 0 people"); a
    /// report of 2 ready people with 1 missing and 1 stale is not ready and says both; a
    /// `--report` run does not claim the people's reports are under its own --out; a shard
    /// worker names its own fleet-K-of-N files.
    func testLastLinesAreTrue() throws {
        let empty = FleetReport(people: [], mode: .validate, days: 7, monitor: nil, until: nil)
        let shard = try FleetShard("1/4")
        let none = FleetTerminal.render(empty, outDir: "o", color: false, shard: shard)
        XCTAssertTrue(none.contains("NO ONE TO CHECK: shard 1/4 holds none of the store's people"), none)
        XCTAssertFalse(none.contains("READY: all"), none)
        XCTAssertTrue(none.contains("Report: o/fleet-1-of-4.html (every person in fleet-1-of-4.csv and fleet-1-of-4.json;"), none)
        var partial = FleetReport(
            people: [
                person("ann", .ready, holding: [], failing: [], causes: []), person("bob", .ready, holding: [], failing: [], causes: []),
            ], mode: .validate, days: 7, monitor: nil, until: nil)
        partial.coverage = FleetCoverage(missingPeople: ["cat"], missingShards: ["1/2"], stalePeople: ["bob"])
        let text = FleetTerminal.render(partial, outDir: "rep", color: false, assembled: true)
        XCTAssertTrue(text.contains("NOT ALL READY: 2 people with a verdict: 2 ready; 1 person without a verdict, 1 stale verdict"), text)
        XCTAssertFalse(text.contains("rep/PERSON"), text)
        XCTAssertTrue(text.contains("each one's own PERSON/compare.html under the --out its worker was given"), text)
    }

    /// A person id may hold any non-space character: the folder keeps letters, digits, `_-@`
    /// and inner dots, and writes every other byte as %XX (`/` is 2F, `.` leading is 2E).
    func testPersonFolders() {
        XCTAssertEqual(FleetPerson.folder("ann.b-2@x_y"), "ann.b-2@x_y")
        XCTAssertEqual(FleetPerson.folder("../etc"), "%2E.%2Fetc")
        XCTAssertEqual(FleetPerson.folder("é"), "%C3%A9")
        XCTAssertEqual(FleetHTML.href("%2E.%2Fetc/compare.html"), "%252E.%252Fetc/compare.html")
    }
}
