import CSQLite

/// What the table groups of one import's writer share: the connection, the person and import
/// every row is keyed by, and the rows added per table (the summary's counts).
final class StoreRows {
    let db: SQLiteConnection
    let person: String
    let importID: Int64
    private(set) var added: [String: Int] = [:]

    init(db: SQLiteConnection, person: String, importID: Int64) {
        self.db = db
        self.person = person
        self.importID = importID
    }

    @inline(__always) func added(_ table: String, _ n: Int = 1) {
        if n > 0 { added[table, default: 0] += n }
    }

    /// Steps an insert; true when it added a row (false for a duplicate an OR IGNORE skipped).
    @inline(__always) func insert(_ s: Statement) throws -> Bool {
        let rc = sqlite3_step(s.stmt)
        sqlite3_reset(s.stmt)
        guard rc == SQLITE_DONE else { throw db.error("cannot write to the store", rc) }
        return sqlite3_changes(db.handle) > 0
    }
}
