import XCTest

@testable import ExportParser

/// A sample's version, unit and zone are bound from `StoreNames`' own bytes without SQLite
/// copying them (`Statement.bindStatic`); what SQLite stores must be the same text.
final class StatementStaticTextTests: XCTestCase {
    private func row(_ text: Statement.StaticText?) throws -> [String] {
        let db = try SQLiteConnection(path: ":memory:")
        let s = try db.prepare("SELECT typeof(?1), hex(?1), length(?1), ?1")
        s.bindStatic(1, text)
        XCTAssertTrue(try s.step())
        return (0..<4).map { s.isNull($0) ? "NULL" : (s.text($0) ?? "NULL") }
    }

    func testANonASCIITextIsStoredByteForByte() throws {
        // "Ann’s iPhone": A 41, n 6E, n 6E, ’ E2 80 99 (U+2019 in UTF-8), s 73, space 20,
        // i 69, P 50, h 68, o 6F, n 6E, e 65; 12 characters in 14 bytes.
        XCTAssertEqual(try row(Statement.StaticText("Ann’s iPhone")), ["text", "416E6EE2809973206950686F6E65", "12", "Ann’s iPhone"])
    }

    func testAnEmptyTextIsTextAndNoNameIsNull() throws {
        XCTAssertEqual(try row(Statement.StaticText("")), ["text", "", "0", ""])
        XCTAssertEqual(try row(nil), ["null", "", "NULL", "NULL"])
    }
}
