import Foundation
import XCTest

@testable import ExportParser

/// Every CSV the tool writes (convert, compare, gdpr-export), made by the built executable from
/// inputs whose source names start a spreadsheet formula (`CSVFormulaTests.inputs`).
final class CSVFormulaCommandTests: XCTestCase {
    func testNoCSVTheToolWritesHoldsAFormula() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (native, hae) = try CSVFormulaTests.inputs(dir)
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
        XCTAssertTrue(nativeDaily.contains("," + CSVFormulaTests.hyperlinkCell), nativeDaily)
        XCTAssertTrue(haeDaily.contains("," + CSVFormulaTests.sumCell), haeDaily)
        // compare.csv: 2024-03-01's sleep source on both sides, and a negative difference stays
        // a number: 03-02's sleep, native 7 h − HAE 7.2 h = -0.2.
        let compareCSV = try text("compare/compare.csv")
        XCTAssertTrue(
            compareCSV.contains("2024-03-01,sleep.source,,\(CSVFormulaTests.hyperlinkCell),\(CSVFormulaTests.sumCell),"), compareCSV)
        XCTAssertTrue(compareCSV.contains("2024-03-02,sleep.total_hours,,7,7.2,-0.2,"), compareCSV)
        // apple-daily-totals.csv: the input's name, then 500 kcal against Apple's 400:
        // 500 − 400 = 100.00; 100 / 400 = 0.2500.
        let totals = try text("native/" + AppleDailyTotals.fileName)
        XCTAssertTrue(totals.contains("\(CSVFormulaTests.sumCell).xml,2024-03-01,active_calories,500.00,400.00,kcal,100.00,0.2500"), totals)
        // gdpr-export: the sources table names both.
        let walker = FileManager.default.enumerator(atPath: dir.appendingPathComponent("gdpr").path)
        let gdprCSVs = ((walker?.allObjects as? [String]) ?? []).filter { $0.hasSuffix(".csv") }
        XCTAssertFalse(gdprCSVs.isEmpty)
        let all = try gdprCSVs.map { try text("gdpr/" + $0) }.joined()
        XCTAssertTrue(all.contains(CSVFormulaTests.hyperlinkCell), all)
        XCTAssertTrue(all.contains(CSVFormulaTests.sumCell), all)

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
