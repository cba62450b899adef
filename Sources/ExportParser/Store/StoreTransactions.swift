import CSQLite

/// The store's transactions outside a convert run (`StoreRun` has the run's and its
/// savepoints): a read gets one snapshot, a write the write lock. Every command that reads or
/// writes a store outside an import goes through these, so BEGIN, COMMIT and ROLLBACK, and the
/// rule for a store another process is writing, are written once.
extension HealthStore {
    /// Runs `body` in a read transaction: every query in it sees the same snapshot of the store,
    /// while an import in another process goes on (WAL). Ended when `body` returns or throws.
    func reading<T>(_ body: () throws -> T) throws -> T {
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        return try body()
    }

    /// Runs `body` under the write lock (`beginImmediate`, waiting the busy timeout) and commits
    /// what it did; when it throws, nothing of it stays. `whenBusy` ends the sentence for a store
    /// another process kept writing.
    func writing<T>(whenBusy: String = "try again when it is done", _ body: () throws -> T) throws -> T {
        try beginImmediate(whenBusy: whenBusy)
        do {
            let result = try body()
            try db.execute("COMMIT")
            return result
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}

extension StoreError {
    /// The busy rule: another connection holds the lock SQLite needed, past the busy timeout.
    var isBusy: Bool {
        let rc = (code ?? 0) & 0xFF
        return rc == SQLITE_BUSY || rc == SQLITE_LOCKED
    }
}
