import CSQLite
import Foundation

/// One `convert` run as one transaction: every input's import and the payloads of the run are
/// savepoints inside it, and the store changes only when the run commits, after every input
/// was read and checked. A run that fails on its third input leaves the first two unstored,
/// and a new store that never committed is never moved into place (issue 23: a failed run
/// changes nothing).
extension HealthStore {
    /// Opens the run's transaction (waiting up to the busy timeout for another process's write).
    func beginRun() throws {
        precondition(!runInProgress && !importInProgress, "beginRun inside a run or an import")
        db.confinement.claim()
        try beginWrite(savepoint: nil)
        runInProgress = true
    }

    /// Commits everything the run stored, then moves a new store into place, or folds the WAL
    /// back into an existing one.
    func commitRun() throws {
        precondition(runInProgress && !importInProgress, "commitRun outside a run or during an import")
        db.confinement.claim()  // the caller waited for the last import's commit thread
        do {
            try db.execute("COMMIT")
        } catch {
            rollbackRun()
            throw error
        }
        runInProgress = false
        restorePageCache()
        if creatingAt != nil {
            try publishIfNew()
        } else {
            sqlite3_wal_checkpoint_v2(db.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
    }

    /// Rolls the whole run back (it failed). Safe to call more than once, and when no run is open.
    func rollbackRun() {
        guard runInProgress else { return }
        // The caller waited for any import's commit thread: the connection is its again.
        db.confinement.claim()
        if sqlite3_get_autocommit(db.handle) == 0 { try? db.execute("ROLLBACK") }
        runInProgress = false
        restorePageCache()
    }

    /// The connection's own page cache (`cacheKiB`), which an import inside the run left at its
    /// small bulk-load size (`StoreImportSession.loadCacheKiB`).
    func restorePageCache() {
        try? db.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
    }

    /// Starts a write: a savepoint inside an open run, else a transaction of its own.
    func beginWrite(savepoint: String?) throws {
        if runInProgress, let savepoint {
            try db.execute("SAVEPOINT \(savepoint)")
            return
        }
        try beginImmediate()
    }

    /// Ends a write begun by `beginWrite`: the savepoint is folded into the run, or the
    /// transaction committed.
    func endWrite(savepoint: String) throws {
        try db.execute(runInProgress ? "RELEASE \(savepoint)" : "COMMIT")
    }

    /// Undoes a write begun by `beginWrite`, and only that write: inside a run, the run's
    /// earlier savepoints stay.
    func rollbackWrite(savepoint: String) {
        guard sqlite3_get_autocommit(db.handle) == 0 else { return }
        if runInProgress {
            try? db.execute("ROLLBACK TO \(savepoint)")
            try? db.execute("RELEASE \(savepoint)")
        } else {
            try? db.execute("ROLLBACK")
        }
    }
}
