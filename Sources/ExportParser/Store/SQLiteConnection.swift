import CSQLite
import Foundation

/// `SQLITE_TRANSIENT` is a C macro Swift cannot import: SQLite copies the bound bytes.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin owner of one `sqlite3*` handle: open, execute, prepare, close. Opened `NOMUTEX` (no
/// lock in SQLite): the store uses it from one thread at a time (the import's writer thread while
/// it runs, the caller's thread otherwise), a rule `confinement` checks.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the connection handle is
/// owned here and closed in `deinit` with `sqlite3_close_v2` (statements still open keep it
/// alive until finalized); `sqliteTransient` is SQLite's `(destructor)-1` sentinel, a C macro
/// Swift cannot import, made with `unsafeBitCast` as SQLite defines it; `sqlite3_exec`'s error
/// text is read and freed before returning.
// @unchecked Sendable: handed between threads at `confinement`'s hand-over points, used by one at a time.
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Which thread may use the connection now (checked in debug builds).
    let confinement = ThreadConfinement()
    /// The store's path as messages name it (a new store is written under a temporary name first).
    let path: String

    /// Process-wide settings, applied once before SQLite is first used (it refuses them after).
    private static let configured: Void = {
        _ = health_import_sqlite3_disable_memory_statistics()
    }()

    init(path file: String, shownAs path: String? = nil, readOnly: Bool = false) throws {
        Self.configured
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(file, &db, flags, nil)
        let path = path ?? file
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw StoreError(path: path, message: "cannot open the store: \(message)", code: rc)
        }
        self.handle = db
        self.path = path
        confinement.claim()
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ what: String, _ rc: Int32) -> StoreError {
        StoreError(path: path, message: "\(what): \(errorMessage)", code: rc)
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        confinement.check("the store's SQLite connection")
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(err)
            throw StoreError(path: path, message: message, code: rc)
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        confinement.check("the store's SQLite connection")
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error("cannot prepare \(sql.prefix(60))", rc) }
        return Statement(stmt, connection: self)
    }

    /// The single integer a query returns (e.g. `PRAGMA user_version`), or nil for no row.
    func scalarInt(_ sql: String) throws -> Int64? {
        let s = try prepare(sql)
        guard try s.step() else { return nil }
        return s.int(0)
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }
}
