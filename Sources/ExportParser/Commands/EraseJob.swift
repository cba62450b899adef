import CSQLite
import Foundation

/// The `erase` command: every row of one person out of every table (`PersonRows`) in one
/// transaction, then the deleted bytes out of the file.
///
/// SQLite leaves deleted rows' bytes in free space and the write-ahead log keeps old page
/// versions, so a plain DELETE leaves the data readable with a hex editor. Hence
/// `secure_delete` (deleted content overwritten with zeros), a checkpoint that copies the WAL
/// back and truncates it, and VACUUM, which rebuilds the file from the remaining rows.
///
/// `init` opens the store and checks that it holds the person (so a missing one is an error
/// before anyone is asked to confirm); `run` erases.
public final class EraseJob {
    public let request: EraseRequest
    let store: HealthStore

    public init(_ request: EraseRequest) throws {
        guard !request.person.isEmpty else { throw UsageError("--person", "--person needs a non-empty id") }
        // A receipt never replaces a file (an earlier receipt, or anything else by that name).
        var st = stat()
        if let receipt = request.receiptPath, lstat(receipt, &st) == 0 {
            throw OutputError(
                file: receipt, message: "already exists; --receipt writes a new file and never replaces one. Nothing was erased.")
        }
        self.request = request
        store = try StoreAccess.open(request.storePath)
        let db = store.db
        let unknown = try PersonRows.unknownTables(db)
        guard unknown.isEmpty else {
            throw StoreError(
                path: request.storePath,
                message:
                    "has tables this health-import does not know (\(unknown.joined(separator: ", "))), which could hold the person's data; nothing was erased. Use the health-import that wrote the store."
            )
        }
        guard try PersonRows.holds(db, person: request.person) else {
            throw StoreAccess.missing(request.person, in: request.storePath)
        }
    }

    public func run() throws -> EraseReceipt {
        let path = request.storePath
        let db = store.db
        // The receipt's file is created first: a path that cannot be written fails before anything is erased.
        let receiptFile = try request.receiptPath.map { try OutputFiles.Staged($0) }
        store.setBusyTimeout(milliseconds: request.busyTimeoutMilliseconds)
        let secure = try db.scalarInt("PRAGMA secure_delete = ON")
        guard secure == 1 else {
            throw StoreError(path: path, message: "this SQLite library cannot overwrite deleted rows (secure_delete); nothing was erased")
        }
        do {
            try db.execute("BEGIN IMMEDIATE")
        } catch let e as StoreError {
            throw StoreError(
                path: path,
                message: busy(e)
                    ? "is being written by another process (waited \(request.busyTimeoutMilliseconds / 1000) s); nothing was erased. Try again when it is done."
                    : e.message)
        }
        var removed: [EraseReceipt.Table] = []
        do {
            // Checked again under the write lock: another erase may have run meanwhile.
            guard try PersonRows.holds(db, person: request.person) else { throw StoreAccess.missing(request.person, in: path) }
            for table in PersonRows.tables {
                let delete = try db.prepare("DELETE FROM \(table.name) WHERE \(table.predicate)")
                delete.bind(1, request.person)
                try delete.run()
                removed.append(EraseReceipt.Table(name: table.name, rows: db.changes))
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            if let e = error as? StoreError {
                throw StoreError(
                    path: path, message: (busy(e) ? "is being used by another process" : e.message) + "; nothing was erased", code: e.code)
            }
            throw error
        }
        let unfinished = scrub(db)
        let receipt = EraseReceipt(person: request.person, storePath: path, erasedAt: Date(), removed: removed, unfinished: unfinished)
        if let receiptFile {
            try receiptFile.append(receipt.text)
            try receiptFile.commit()
        }
        return receipt
    }

    /// Checkpoint and truncate the WAL, VACUUM, and truncate again (VACUUM writes through the
    /// WAL). Returns what did not finish, or nil.
    private func scrub(_ db: SQLiteConnection) -> String? {
        let path = request.storePath
        let advice =
            "the rows are deleted, but their old bytes may remain in the file until that is done: run erase's last step again with "
            + "sqlite3 \(path) 'PRAGMA wal_checkpoint(TRUNCATE); VACUUM; PRAGMA wal_checkpoint(TRUNCATE);' when nothing else uses the store"
        do {
            guard try checkpoint(db) else {
                return "\(path): another process kept reading the store, so its -wal file could not be truncated; " + advice
            }
            try db.execute("VACUUM")
            guard try checkpoint(db) else {
                return "\(path): another process kept reading the store, so its -wal file could not be truncated; " + advice
            }
        } catch {
            return "\(path): \((error as? StoreError)?.message ?? "\(error)"); " + advice
        }
        return nil
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: true when it completed (its first column is 1 when a
    /// reader or writer kept it from finishing, after the busy timeout).
    private func checkpoint(_ db: SQLiteConnection) throws -> Bool {
        let s = try db.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try s.step() else { return true }
        return s.int(0) == 0
    }

    private func busy(_ e: StoreError) -> Bool {
        let rc = (e.code ?? 0) & 0xFF
        return rc == SQLITE_BUSY || rc == SQLITE_LOCKED
    }
}
