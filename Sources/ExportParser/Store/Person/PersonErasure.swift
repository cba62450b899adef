/// What `erase` asks of the store: the person's rows deleted, and their bytes out of the file.
///
/// SQLite leaves deleted rows' bytes in free space and the write-ahead log keeps old page
/// versions, so a plain DELETE leaves the data readable with a hex editor. Hence
/// `secure_delete` (deleted content overwritten with zeros), a checkpoint that copies the WAL
/// back and truncates it, and VACUUM, which rebuilds the file from the remaining rows.
///
/// A protocol so that another store (the PostgreSQL one of the fleet) answers the same
/// questions; `HealthStore` answers them with SQLite.
protocol PersonErasing {
    /// The store's tables that `PersonRows` does not name (a newer schema's): empty for every
    /// schema this build knows. `erase` refuses a store that has any.
    func unknownTables() throws -> [String]
    /// Whether the store holds any row of the person.
    func holds(person: String) throws -> Bool
    func overwriteDeletedContent() throws -> Bool
    func deleteRows(of person: String) throws -> [(table: String, rows: Int)]
    func checkpointAndTruncateWAL() throws -> Bool
    func vacuum() throws
    /// The command line that does the last step (checkpoint, VACUUM, checkpoint) by hand, for
    /// when another process kept it from finishing.
    var lastStepByHand: String { get }
}

extension HealthStore: PersonErasing {
    func unknownTables() throws -> [String] { try PersonRows.unknownTables(db) }

    func holds(person: String) throws -> Bool { try PersonRows.holds(db, person: person) }

    var lastStepByHand: String {
        "sqlite3 \(path) 'PRAGMA wal_checkpoint(TRUNCATE); VACUUM; PRAGMA wal_checkpoint(TRUNCATE);'"
    }

    /// Turns on `secure_delete` for this connection; false when this SQLite library cannot.
    func overwriteDeletedContent() throws -> Bool {
        try db.scalarInt("PRAGMA secure_delete = ON") == 1
    }

    /// Deletes every row of `person` from every table that holds one (`PersonRows.tables`, in
    /// that order) and returns the rows deleted per table. Runs inside the caller's write
    /// transaction (`writing`).
    func deleteRows(of person: String) throws -> [(table: String, rows: Int)] {
        var removed: [(table: String, rows: Int)] = []
        for table in PersonRows.tables {
            let delete = try db.prepare("DELETE FROM \(table.name) WHERE \(table.predicate)")
            delete.bind(1, person)
            try delete.run()
            removed.append((table.name, db.changes))
        }
        return removed
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: true when it completed (its first column is 1 when a
    /// reader or writer kept it from finishing, after the busy timeout).
    func checkpointAndTruncateWAL() throws -> Bool {
        let s = try db.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try s.step() else { return true }
        return s.int(0) == 0
    }

    /// Rebuilds the file from the remaining rows (VACUUM): free pages, with old bytes, go.
    func vacuum() throws { try db.execute("VACUUM") }
}
