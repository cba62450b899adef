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
    static func inputs(_ dir: URL) throws -> (native: String, hae: String) {
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

}
