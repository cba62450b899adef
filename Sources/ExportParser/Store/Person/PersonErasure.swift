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
    /// Where the store is, for messages and the receipt.
    var path: String { get }
    /// The store's tables that `PersonRows` does not name (a newer schema's): empty for every
    /// schema this build knows. `erase` refuses a store that has any.
    func unknownTables() throws -> [String]
    /// Whether the store holds any row of the person.
    func holds(person: String) throws -> Bool
    /// Deletes every row of `person` in one transaction and returns the rows deleted per table;
    /// nil when, checked again inside the transaction, the store holds none (another erase ran).
    func eraseRows(of person: String, busyTimeoutMilliseconds: Int32) throws -> [(table: String, rows: Int)]?
    /// Takes the deleted rows' bytes out of the store's files; returns what did not finish
    /// (with what to run by hand), or nil.
    func scrub() -> String?
    /// The receipt's account of how the rows were deleted and what the store may still keep.
    var erasureMethod: String { get }
}

extension HealthStore: PersonErasing {
    var erasureMethod: String {
        "The rows were deleted in one transaction with SQLite's secure_delete on (their bytes overwritten with zeros), "
            + "then the -wal file was checkpointed and truncated and the store vacuumed.\n"
    }

    func eraseRows(of person: String, busyTimeoutMilliseconds: Int32) throws -> [(table: String, rows: Int)]? {
        setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        guard try overwriteDeletedContent() else {
            throw StoreError(path: path, message: "this SQLite library cannot overwrite deleted rows (secure_delete); nothing was erased")
        }
        return try writing(whenBusy: "nothing was erased. Try again when it is done.") { () throws -> [(table: String, rows: Int)]? in
            do {
                // Checked again under the write lock: another erase may have run meanwhile.
                guard try holds(person: person) else { return nil }
                return try deleteRows(of: person)
            } catch let e as StoreError {
                throw StoreError(
                    path: path, message: (e.isBusy ? "is being used by another process" : e.message) + "; nothing was erased", code: e.code)
            }
        }
    }

    /// Checkpoint and truncate the WAL, VACUUM, and truncate again (VACUUM writes through the
    /// WAL). Returns what did not finish, or nil.
    func scrub() -> String? {
        let advice =
            "the rows are deleted, but their old bytes may remain in the file until that is done: run erase's last step again with "
            + "\(lastStepByHand) when nothing else uses the store"
        let kept = "\(path): another process kept reading the store, so its -wal file could not be truncated; " + advice
        do {
            guard try checkpointAndTruncateWAL() else { return kept }
            try vacuum()
            guard try checkpointAndTruncateWAL() else { return kept }
        } catch {
            return "\(path): \((error as? StoreError)?.message ?? "\(error)"); " + advice
        }
        return nil
    }

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
