/// `erase` on PostgreSQL: the person's rows deleted in one transaction, then `VACUUM` on the
/// tables it touched, so that the deleted row versions (dead tuples, still in the table's pages
/// until vacuumed) are removed and their space marked free.
///
/// What PostgreSQL may still keep after that is outside any table, and the receipt and
/// docs/gdpr.md say so: the write-ahead log (WAL) segments that recorded the rows until the
/// server recycles them, any WAL archive, base backups and replicas made before, and the
/// server's logs if they log statements with their parameters.
extension PostgresStore: PersonErasing {
    var erasureMethod: String {
        "The rows were deleted in one PostgreSQL transaction, then VACUUM ran on "
            + PostgresSchema.personTables.joined(separator: ", ")
            + " (the deleted row versions removed from the tables' pages). PostgreSQL may still keep copies outside the tables, "
            + "which erase cannot reach: the write-ahead log (WAL) segments that recorded the rows, until the server recycles them "
            + "after its next checkpoints; any WAL archive; base backups and replicas (a standby applies the deletion, a backup "
            + "does not); and the server's logs, if they log statements with their parameters. Their operator must expire those.\n"
    }

    func unknownTables() throws -> [String] {
        let known = Set(PostgresSchema.personTables + PostgresSchema.sharedTables)
        let r = try using { db in
            try db.run("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name")
        }
        return (0..<r.rows).compactMap { r.text($0, 0) }.filter { !known.contains($0) }
    }

    func holds(person: String) throws -> Bool {
        try using { db in try holds(db, person: person) }
    }

    /// The busy timeout is SQLite's; here a row another transaction holds is waited for as
    /// PostgreSQL waits (`lock_timeout`, the server's setting).
    func eraseRows(of person: String, busyTimeoutMilliseconds: Int32) throws -> [(table: String, rows: Int)]? {
        do {
            return try transaction { db in
                guard try holds(db, person: person) else { return nil }
                return try PostgresSchema.personTables.map { table in
                    (table, try db.run("DELETE FROM \(table) WHERE person = $1", [.text(person)]).changed)
                }
            }
        } catch let e as StoreError {
            throw StoreError(path: path, message: e.message + "; nothing was erased", sqlState: e.sqlState)
        }
    }

    func scrub() -> String? {
        do {
            for table in PostgresSchema.personTables {
                try using { db in _ = try db.run("VACUUM \(table)") }
            }
        } catch {
            return "\(path): the rows are deleted, but VACUUM did not finish (\((error as? StoreError)?.message ?? "\(error)")), "
                + "so their old row versions may remain in the table's pages until it does: run "
                + "psql \"\(path)\" -c 'VACUUM \(PostgresSchema.personTables.joined(separator: ", "))' as the tables' owner"
        }
        return nil
    }
}
