import Foundation
import XCTest

@testable import ExportParser

/// A source may name itself `=HYPERLINK("http://evil.example/","c")` or
/// `@SUM(1+1)*cmd|x`; no CSV the tool writes holds a cell a spreadsheet runs as a formula.
final class CSVFormulaTests: XCTestCase {
    static let hyperlink = #"=HYPERLINK("http://evil.example/","c")"#
    static let sum = "@SUM(1+1)*cmd|x"
    /// The hyperlink name as a CSV cell: `'` first, then quoted because it holds quotes and a
    /// comma, each quote doubled.
    static let hyperlinkCell = #""'=HYPERLINK(""http://evil.example/"",""c"")""#
    /// The sum name as a CSV cell: `'` first; no comma, quote or line end, so not quoted.
    static let sumCell = "'@SUM(1+1)*cmd|x"

    func testTheOneFieldWriter() {
        XCTAssertEqual(CSVWriter.field(Self.hyperlink), Self.hyperlinkCell)
        XCTAssertEqual(CSVWriter.field(Self.sum), Self.sumCell)
        XCTAssertEqual(CSVWriter.field("+1 555"), "'+1 555")
        XCTAssertEqual(CSVWriter.field("-x"), "'-x")
        XCTAssertEqual(CSVWriter.field("\tx"), "'\tx")
        // A carriage return first: `'`, then quoted for the line end.
        XCTAssertEqual(CSVWriter.field("\rx"), "\"'\rx\"")
        // Plain text as before: a name with a comma quoted, others as they are; `'` only first.
        // A sign and only digits, `:` and `.`: a UTC offset or a number kept as text, which a
        // spreadsheet can only read as a time or a number: as it is.
        XCTAssertEqual(CSVWriter.field("+11:00"), "+11:00")
        XCTAssertEqual(CSVWriter.field("-03:30"), "-03:30")
        XCTAssertEqual(CSVWriter.field("-5.25"), "-5.25")
        XCTAssertEqual(CSVWriter.field("+1+1"), "'+1+1")
        XCTAssertEqual(CSVWriter.field("-"), "'-")
        XCTAssertEqual(CSVWriter.field("Ann’s Watch"), "Ann’s Watch")
        XCTAssertEqual(CSVWriter.field("a=b, c"), "\"a=b, c\"")
        XCTAssertEqual(CSVWriter.field(""), "")
    }

    /// The native export of `CompareFixtures` from a source named `hyperlink`, with Apple's
    /// ring total of 2024-03-01 at 400 kcal (the tool counts 500: 25 % off, so that day is a
    /// row of apple-daily-totals.csv); its HAE file from a source named `sum`.
    private func inputs(_ dir: URL) throws -> (native: String, hae: String) {
        let escaped = Self.hyperlink.replacingOccurrences(of: "\"", with: "&quot;")
        let xml = CompareFixtures.exportXML().replacingOccurrences(of: CompareFixtures.watch, with: escaped)
            .replacingOccurrences(
                of: "</HealthData>",
                with: #" <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="400" activeEnergyBurnedUnit="kcal"/>"#
                    + "\n</HealthData>")
        let hae = CompareFixtures.haeJSON().replacingOccurrences(of: CompareFixtures.watch, with: Self.sum)
        // The export's own file name starts a formula too: apple-daily-totals.csv names the input.
        let native = Self.sum + ".xml"
        try Data(xml.utf8).write(to: dir.appendingPathComponent(native))
        try Data(hae.utf8).write(to: dir.appendingPathComponent("hae.json"))
        return (native, "hae.json")
    }

    func testNoCSVTheToolWritesHoldsAFormula() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (native, hae) = try inputs(dir)
        let convert = try ToolRun.run(["convert", native, "--out", "native", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(convert.status, 0, convert.printed)
        let convertHAE = try ToolRun.run(
            ["convert", hae, "--out", "hae", "--timezone", "Australia/Sydney", "--store", "native/health.sqlite"], in: dir)
        XCTAssertEqual(convertHAE.status, 0, convertHAE.printed)
        let compare = try ToolRun.run(
            ["compare", "--native", native, "--hae", hae, "--out", "compare", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(compare.status, 1, "differences planted: \(compare.printed)")
        let gdpr = try ToolRun.run(["gdpr-export", "--store", "native/health.sqlite", "--person", "me", "--out", "gdpr"], in: dir)
        XCTAssertEqual(gdpr.status, 0, gdpr.printed)

        func text(_ path: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8) }
        // daily.csv: the sleep source of every night.
        let nativeDaily = try text("native/daily.csv"), haeDaily = try text("hae/daily.csv")
        XCTAssertTrue(nativeDaily.contains("," + Self.hyperlinkCell), nativeDaily)
        XCTAssertTrue(haeDaily.contains("," + Self.sumCell), haeDaily)
        // compare.csv: 2024-03-01's sleep source on both sides, and a negative difference stays
        // a number: 03-02's sleep, native 7 h − HAE 7.2 h = -0.2.
        let compareCSV = try text("compare/compare.csv")
        XCTAssertTrue(compareCSV.contains("2024-03-01,sleep.source,,\(Self.hyperlinkCell),\(Self.sumCell),"), compareCSV)
        XCTAssertTrue(compareCSV.contains("2024-03-02,sleep.total_hours,,7,7.2,-0.2,"), compareCSV)
        // apple-daily-totals.csv: the input's name, then 500 kcal against Apple's 400:
        // 500 − 400 = 100.00; 100 / 400 = 0.2500.
        let totals = try text("native/" + AppleDailyTotals.fileName)
        XCTAssertTrue(totals.contains("\(Self.sumCell).xml,2024-03-01,active_calories,500.00,400.00,kcal,100.00,0.2500"), totals)
        // gdpr-export: the sources table names both.
        let walker = FileManager.default.enumerator(atPath: dir.appendingPathComponent("gdpr").path)
        let gdprCSVs = ((walker?.allObjects as? [String]) ?? []).filter { $0.hasSuffix(".csv") }
        XCTAssertFalse(gdprCSVs.isEmpty)
        let all = try gdprCSVs.map { try text("gdpr/" + $0) }.joined()
        XCTAssertTrue(all.contains(Self.hyperlinkCell), all)
        XCTAssertTrue(all.contains(Self.sumCell), all)

        // No cell of any of them starts with =, + or @ but a UTC offset (a `-` starts negative
        // numbers).
        var files = ["native/daily.csv", "hae/daily.csv", "compare/compare.csv", "native/" + AppleDailyTotals.fileName]
        files += gdprCSVs.map { "gdpr/" + $0 }
        let formula = try NSRegularExpression(pattern: #"(^|,)"?([=@]|\+(?![0-9]{2}:[0-9]{2}(,|\r?$)))"#, options: [.anchorsMatchLines])
        for file in files {
            let t = try text(file)
            XCTAssertNil(formula.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)), "\(file): \(t)")
        }
    }
}
