import XCTest

@testable import ExportParser

/// A statement that remembers its binds (`Statement.remembersBinds`, the store's multi-row
/// inserts) skips binding a parameter to the value it holds already. Whatever it skips, every
/// run must see exactly the values bound for it: the same value again, a NULL after a number, a
/// number after a NULL, an integer after a double with the same value, another text at the
/// same length.
final class StatementRemembersBindsTests: XCTestCase {
    /// `quote()` of parameters 1–4 after one step (SQLite's literal: 7, 1.5, 'kg', NULL).
    private func quoted(_ s: Statement) throws -> [String] {
        defer { s.reset() }
        XCTAssertTrue(try s.step())
        return (0..<4).map { s.text($0) ?? "?" }
    }

    func testEveryRunSeesTheValuesBoundForIt() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let s = try db.prepare("SELECT quote(?1), quote(?2), quote(?3), quote(?4)")
        s.remembersBinds()
        let kg = Statement.StaticText("kg")
        let lb = Statement.StaticText("lb")

        // Run 1: nothing held yet, all four go to SQLite.
        s.bind(1, Int64(7))
        s.bind(2, nil as Int64?)
        s.bind(3, 1.5 as Double?)
        s.bindStatic(4, kg)
        XCTAssertEqual(try quoted(s), ["7", "NULL", "1.5", "'kg'"])

        // Run 2: ?1 and ?4 repeat (skipped, still 7 and 'kg'); ?2 goes NULL → 3; ?3 1.5 → 2.25.
        s.bind(1, Int64(7))
        s.bind(2, Int64(3))
        s.bind(3, 2.25 as Double?)
        s.bindStatic(4, kg)
        XCTAssertEqual(try quoted(s), ["7", "3", "2.25", "'kg'"])

        // Run 3: ?1 7 → NULL; ?2 the integer 3 → the double 3.0 (same value, another type:
        // quote gives 3.0); ?3 2.25 → NaN, bound as NULL; ?4 another text of the same length
        // ('lb', another address).
        s.bind(1, nil as Int?)
        s.bind(2, 3.0 as Double?)
        s.bind(3, Double.nan as Double?)
        s.bindStatic(4, lb)
        XCTAssertEqual(try quoted(s), ["NULL", "3.0", "NULL", "'lb'"])

        // Run 4: ?1 NULL → 0 (both held with bits 0, the kinds differ); ?2 3.0 → 3 (an
        // integer again); ?3 NULL → NULL (skipped); ?4 a copied text "lb" where the in-place
        // 'lb' was, then in place again.
        s.bind(1, 0)
        s.bind(2, 3)
        s.bind(3, nil as Double?)
        s.bind(4, "lb" as String?)
        XCTAssertEqual(try quoted(s), ["0", "3", "NULL", "'lb'"])
        s.bindStatic(4, kg)
        XCTAssertEqual(try quoted(s), ["0", "3", "NULL", "'kg'"])
    }

    func testClearingTheBindingsIsRemembered() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let s = try db.prepare("SELECT quote(?1), quote(?2), quote(?3), quote(?4)")
        s.remembersBinds()
        s.bind(1, Int64(1))
        s.bind(2, Int64(2))
        s.bind(3, Int64(3))
        s.bind(4, Int64(4))
        XCTAssertEqual(try quoted(s), ["1", "2", "3", "4"])
        // sqlite3_clear_bindings sets all four to NULL; binding 1 and 2 again must reach SQLite.
        s.clearBindings()
        s.bind(1, Int64(1))
        s.bind(2, Int64(2))
        XCTAssertEqual(try quoted(s), ["1", "2", "NULL", "NULL"])
    }

    /// Two statements' worth through one `MultiRowInsert` of 2 rows a statement: row 0 of the
    /// second run repeats row 0 of the first in every column, row 1 changes every column.
    func testAMultiRowInsertStoresEveryRowAsBound() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (k INTEGER, a INTEGER, b REAL, c TEXT)")
        let insert = MultiRowInsert(db: db, head: "INSERT INTO t (k, a, b, c) VALUES ", rowTemplate: "(?1, #, #, #)", rowsPerStatement: 2) {
            $0.bind(1, Int64(9))
        }
        let unit = Statement.StaticText("m")
        let rows: [(Int64?, Double?, Statement.StaticText?)] = [
            (1, 0.5, unit), (2, nil, nil),  // first statement
            (1, 0.5, unit), (nil, 2.5, unit),  // second: row 0 the same, row 1 all changed
        ]
        let n = try insert.insert(rows: rows.count) { st, row, i in
            st.bind(i, rows[row].0)
            st.bind(i + 1, rows[row].1)
            st.bindStatic(i + 2, rows[row].2)
        }
        XCTAssertEqual(n, 4)
        let q = try db.prepare("SELECT quote(k) || ',' || quote(a) || ',' || quote(b) || ',' || quote(c) FROM t ORDER BY rowid")
        var got: [String] = []
        while try q.step() { got.append(q.text(0) ?? "?") }
        // The shared ?1 is 9 on every row.
        XCTAssertEqual(got, ["9,1,0.5,'m'", "9,2,NULL,NULL", "9,1,0.5,'m'", "9,NULL,2.5,'m'"])
    }
}
