import Foundation

/// The `erase` command: every row of one person out of every table (`PersonRows`) in one
/// transaction, then the deleted bytes out of the file (`PersonErasure` says how and why).
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
        let unknown = try store.unknownTables()
        guard unknown.isEmpty else {
            throw StoreError(
                path: request.storePath,
                message:
                    "has tables this health-import does not know (\(unknown.joined(separator: ", "))), which could hold the person's data; nothing was erased. Use the health-import that wrote the store."
            )
        }
        guard try store.holds(person: request.person) else {
            throw StoreAccess.missing(request.person, in: request.storePath)
        }
    }

    public func run() throws -> EraseReceipt {
        let path = request.storePath
        // The receipt's file is created first: a path that cannot be written fails before anything is erased.
        let receiptFile = try request.receiptPath.map { try OutputFiles.Staged($0) }
        store.setBusyTimeout(milliseconds: request.busyTimeoutMilliseconds)
        guard try store.overwriteDeletedContent() else {
            throw StoreError(path: path, message: "this SQLite library cannot overwrite deleted rows (secure_delete); nothing was erased")
        }
        let deleted = try store.writing(whenBusy: "nothing was erased. Try again when it is done.") {
            () throws -> [(table: String, rows: Int)]? in
            do {
                // Checked again under the write lock: another erase may have run meanwhile.
                guard try store.holds(person: request.person) else { return nil }
                return try store.deleteRows(of: request.person)
            } catch let e as StoreError {
                throw StoreError(
                    path: path, message: (e.isBusy ? "is being used by another process" : e.message) + "; nothing was erased", code: e.code)
            }
        }
        guard let deleted else { throw StoreAccess.missing(request.person, in: path) }
        let removed = deleted.map { EraseReceipt.Table(name: $0.table, rows: $0.rows) }
        let unfinished = scrub()
        let receipt = EraseReceipt(person: request.person, storePath: path, erasedAt: Date(), removed: removed, unfinished: unfinished)
        if let receiptFile {
            try receiptFile.append(receipt.text)
            try receiptFile.commit()
        }
        return receipt
    }

    /// Checkpoint and truncate the WAL, VACUUM, and truncate again (VACUUM writes through the
    /// WAL). Returns what did not finish, or nil.
    private func scrub() -> String? {
        let path = request.storePath
        let advice =
            "the rows are deleted, but their old bytes may remain in the file until that is done: run erase's last step again with "
            + "\(store.lastStepByHand) when nothing else uses the store"
        do {
            guard try store.checkpointAndTruncateWAL() else {
                return "\(path): another process kept reading the store, so its -wal file could not be truncated; " + advice
            }
            try store.vacuum()
            guard try store.checkpointAndTruncateWAL() else {
                return "\(path): another process kept reading the store, so its -wal file could not be truncated; " + advice
            }
        } catch {
            return "\(path): \((error as? StoreError)?.message ?? "\(error)"); " + advice
        }
        return nil
    }
}
