import Foundation
import XCTest

@testable import ExportParser

/// `compare.html` rendered in a real headless browser (Debian's `chromium`): it loads with no
/// console message, has one chart per compared field, and is self-contained.
final class CompareHTMLTests: XCTestCase {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs headless Chromium with `args`; what it printed. Also used by the fleet page's test.
    static func browser(_ args: [String]) throws -> (stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.chromium!)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    func testPageRendersInChromiumWithAChartPerField() throws {
        try XCTSkipUnless(Self.chromium != nil, "chromium is not installed (apt-get install chromium; .ci/run installs it)")
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try CompareFixtures.write(into: dir)
        let out = dir.appendingPathComponent("compare").path
        let outcome = try CompareJob(CompareRequest(native: [native], hae: [hae], timeZoneName: "Australia/Sydney", outDir: out)).run()
        let page = out + "/compare.html"
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertFalse(html.contains("<script"), "no script")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing from the network")

        // The fields compared as numbers or times: resting_hr, step_count, active_calories, sleep
        // total and core hours, in-bed start and end (the sleep source is text: no chart).
        let charted = Set(outcome.report.rows.filter { $0.workout == nil && $0.field != "sleep.source" }.map(\.field))
        XCTAssertEqual(charted.count, 7)

        let dom = try Self.browser(["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + page])
        XCTAssertEqual(dom.stdout.components(separatedBy: "<figure class=\"chart").count - 1, charted.count, "one chart per field")
        for field in charted { XCTAssertTrue(dom.stdout.contains("aria-label=\"\(field): native against HAE\""), field) }
        XCTAssertTrue(dom.stdout.contains("Not ready to switch HAE off"))
        // Each side first, then the per-field verdict before the counts, the rows and the charts.
        let sides = try XCTUnwrap(dom.stdout.range(of: "<table class=\"sides\">"))
        let verdict = try XCTUnwrap(dom.stdout.range(of: "<ul class=\"fields\">"))
        let counts = try XCTUnwrap(dom.stdout.range(of: "<ul class=\"counts\">"))
        let rows = try XCTUnwrap(dom.stdout.range(of: "<h2>Not matching</h2>"))
        let charts = try XCTUnwrap(dom.stdout.range(of: "<h2>Field by field</h2>"))
        XCTAssertTrue(
            sides.lowerBound < verdict.lowerBound && verdict.lowerBound < counts.lowerBound && counts.lowerBound < rows.lowerBound
                && rows.lowerBound < charts.lowerBound)
        XCTAssertTrue(
            dom.stdout.contains(
                "<span class=\"mark\">✗</span> step_count 5/7 dates within ±2 % (2024-03-04 +500 (+5 %), 2024-03-06 only native)"))
        // A chart marks each date a side has no value: HAE has nothing on 03-06 (every field),
        // and no energy on 03-07 either; one mark a date.
        func figure(_ field: String) throws -> String {
            let start = try XCTUnwrap(dom.stdout.range(of: "aria-label=\"\(field): native against HAE\""))
            let end = try XCTUnwrap(dom.stdout.range(of: "</figure>", range: start.upperBound..<dom.stdout.endIndex))
            return String(dom.stdout[start.lowerBound..<end.lowerBound])
        }
        XCTAssertEqual(try figure("metrics.step_count").components(separatedBy: "class=\"missing\"").count - 1, 1)
        XCTAssertTrue(try figure("metrics.step_count").contains("2024-03-06: no HAE value"))
        XCTAssertEqual(try figure("metrics.active_calories").components(separatedBy: "class=\"missing\"").count - 1, 2)
        // The date column never wraps.
        XCTAssertTrue(html.contains("td:first-child,th:first-child{white-space:nowrap}"))
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        XCTAssertEqual(console, [], "console messages")

        let shot = dir.appendingPathComponent("compare.png").path
        _ = try Self.browser(["--screenshot=" + shot, "--window-size=1280,2400", "file://" + page])
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        XCTAssertGreaterThan(png.count, 20_000, "a page with content, not a blank one")
        // Kept for a person to look at when COMPARE_SCREENSHOT names a file.
        if let keep = ProcessInfo.processInfo.environment["COMPARE_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }
}
