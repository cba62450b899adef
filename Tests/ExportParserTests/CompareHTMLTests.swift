import Foundation
import XCTest

@testable import ExportParser

/// `compare.html` rendered in a real headless browser (Debian's `chromium`): it loads with no
/// console message, has one chart per compared field, and is self-contained.
final class CompareHTMLTests: XCTestCase {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    private func browser(_ args: [String]) throws -> (stdout: String, stderr: String) {
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

        let dom = try browser(["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + page])
        XCTAssertEqual(dom.stdout.components(separatedBy: "<figure class=\"chart").count - 1, charted.count, "one chart per field")
        for field in charted { XCTAssertTrue(dom.stdout.contains("aria-label=\"\(field): native against HAE\""), field) }
        XCTAssertTrue(dom.stdout.contains("Not ready to switch HAE off"))
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        XCTAssertEqual(console, [], "console messages")

        let shot = dir.appendingPathComponent("compare.png").path
        _ = try browser(["--screenshot=" + shot, "--window-size=1280,2400", "file://" + page])
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        XCTAssertGreaterThan(png.count, 20_000, "a page with content, not a blank one")
    }
}
