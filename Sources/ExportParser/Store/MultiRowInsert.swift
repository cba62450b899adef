import CSQLite

/// One `INSERT … VALUES (…), (…), …` statement for many rows, prepared once per row count.
///
/// Why: SQLite closes a statement's cursors when it is reset, so a one-row insert searches the
/// table and every unique index from the root each time. Within one multi-row statement the
/// cursors stay open, and a row that sorts after the previous one (records come grouped by type
/// and in time order) is placed without a search. For the natural-key index of the bulk tables
/// that is most of the insert's cost: 2.3 M samples, one row a statement, took about 5 s of CPU
/// more than without the index; 64 rows a statement cut that to under 1 s.
///
/// Parameters `?1 … ?shared` are the same for every row (person, import) and bound once; each
/// row's own parameters follow, `perRow` of them, in the order of `rowTemplate`'s `?` marks.
final class MultiRowInsert {
    /// Rows one full statement carries.
    let rowsPerStatement: Int
    let perRow: Int
    private let db: SQLiteConnection
    private let head: String
    /// One row's value list with `#` where a per-row parameter goes and `?1`, `?2` for shared ones.
    private let rowTemplate: String
    private let sharedCount: Int
    private let bindShared: (Statement) -> Void
    private var statements: [Int: Statement] = [:]

    init(
        db: SQLiteConnection, head: String, rowTemplate: String, rowsPerStatement: Int = 64,
        bindShared: @escaping (Statement) -> Void = { _ in }
    ) {
        self.db = db
        self.head = head
        self.rowTemplate = rowTemplate
        let perRow = rowTemplate.filter { $0 == "#" }.count
        let shared = Self.highestNumberedParameter(rowTemplate)
        // SQLite before 3.32 allows 999 parameters a statement, later ones 32,766 by default.
        let parameters = Int(sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        self.rowsPerStatement = Swift.max(1, Swift.min(rowsPerStatement, (parameters - shared) / Swift.max(1, perRow)))
        self.perRow = perRow
        self.sharedCount = shared
        self.bindShared = bindShared
    }

    /// The highest `?N` the template names (its shared parameters).
    private static func highestNumberedParameter(_ template: String) -> Int {
        var highest = 0
        var digits = ""
        var inMark = false
        for c in template + " " {
            if inMark, let d = c.wholeNumberValue {
                digits.append(String(d))
                continue
            }
            if inMark, let n = Int(digits) { highest = max(highest, n) }
            inMark = c == "?"
            digits = ""
        }
        return highest
    }

    /// The statement for `rows` rows, prepared on first use with the shared parameters bound.
    func statement(rows: Int) throws -> Statement {
        if let s = statements[rows] { return s }
        var sql = head
        sql.reserveCapacity(head.count + rows * (rowTemplate.count + 16))
        var next = sharedCount + 1
        for r in 0..<rows {
            if r > 0 { sql += ", " }
            for c in rowTemplate {
                if c == "#" {
                    sql += "?\(next)"
                    next += 1
                } else {
                    sql.append(c)
                }
            }
        }
        let s = try db.prepare(sql)
        // Its rows are bound again for every statement's worth, many values as they were the
        // time before (`Statement.remembersBinds`).
        s.remembersBinds()
        bindShared(s)
        statements[rows] = s
        return s
    }

    /// The index of row `row`'s first own parameter (1-based, as SQLite counts).
    @inline(__always) func base(row: Int) -> Int32 {
        Int32(sharedCount + row * perRow + 1)
    }

    /// Binds `rows` rows with `bind(statement, row, firstParameter)` (row counts from 0) and
    /// runs the statement, `rowsPerStatement` rows at a time. Returns the rows SQLite inserted
    /// (an OR IGNORE insert leaves duplicates out).
    @discardableResult
    func insert(rows: Int, bind: (Statement, Int, Int32) -> Void) throws -> Int {
        var inserted = 0
        var start = 0
        while start < rows {
            let end = min(start + rowsPerStatement, rows)
            let s = try statement(rows: end - start)
            for row in start..<end { bind(s, row, base(row: row - start)) }
            try s.run()
            inserted += db.changes
            start = end
        }
        return inserted
    }
}
