import CSQLite
import Foundation

/// What a convert run tells the store about the import it starts.
struct ImportMetadata: Sendable {
    /// The person every row is keyed by (`--person`, default `me`).
    var person: String
    var fileName: String
    /// Lowercase hex sha256 of the input file's bytes (`FileDigest.sha256`).
    var sha256: String
    var format: InputFormat
    var toolVersion: String
    var startedAt: Date
    /// The run's options that change the day values (`DayOptions.identity`): with the digest,
    /// what makes a run the same as an earlier import (docs/store.md, "Rules"). nil: not stated.
    var dayOptions: String?
    init(
        person: String, fileName: String, sha256: String, format: InputFormat, toolVersion: String, startedAt: Date,
        dayOptions: String? = nil
    ) {
        self.dayOptions = dayOptions
        self.person = person
        self.fileName = fileName
        self.sha256 = sha256
        self.format = format
        self.toolVersion = toolVersion
        self.startedAt = startedAt
    }
}

extension ImportMetadata {
    /// `imports.day_options`: the options of a run that change the day values it makes of a
    /// file, as one text (`timezone=Europe/Madrid; source-priority=Apple Watch,iPhone`; `recorded`
    /// and `default` when not given). `--from`, `--to` and `--out` change what is written, not
    /// the days the store keeps, so they are not part of it.
    static func dayOptions(timeZoneName: String?, sourcePriority: [String]?) -> String {
        "timezone=\(timeZoneName ?? "recorded"); source-priority=\(sourcePriority?.joined(separator: ",") ?? "default")"
    }
}

/// One finished import as the store recorded it.
struct StoredImport: Sendable, Equatable {
    var id: Int64
    var person: String
    var fileName: String
    var sha256: String
    var format: String
    var toolVersion: String
    /// ISO 8601, UTC.
    var startedAt: String
    var finishedAt: String?
    /// The options that changed its day values (`ImportMetadata.dayOptions`); nil for an import
    /// of a store before schema version 7.
    var dayOptions: String?
}

/// Rows an import added, by table name (`samples`, `workouts`, `day_values`, …).
struct StoreImportResult: Sendable {
    var importID: Int64
    var rowsAdded: [String: Int]
    /// Day values of earlier imports removed because this import covers their dates.
    var dayValuesReplaced: Int
    /// The earlier import of the same file this one replaced (other options or days), if any.
    var replacedImport: StoredImport? = nil
    /// Top-level samples the input held (the sink saw), and those that were new to the store.
    var samplesRead: Int
    var samplesAdded: Int
    /// Time the writer thread spent writing rows (it overlaps the parsing), and time `complete`
    /// spent after the reader was done (day values, indexes, commit, then the WAL checkpoint or,
    /// for a new store, moving it into place).
    var writerSeconds: Double
    /// CPU time of the writer thread (steadier than wall time on a shared machine).
    var writerCPUSeconds: Double
    var finishSeconds: Double
    var duplicateSamples: Int { samplesRead - samplesAdded }
}

/// The SQLite store: one file per store, rows keyed by person, one transaction per import.
///
/// Opening an existing store switches it to WAL, sets a busy timeout and applies migrations; a
/// new one is built under a temporary name first (see `init`). Files are 0600 (the -wal and -shm
/// files inherit the mode). A file that is not a SQLite database, or whose schema is newer than
/// this build knows, is refused with a `StoreError` before anything in it changes.
// @unchecked Sendable: one import at a time; its connection is handed between threads at checked points (`ThreadConfinement`).
final class HealthStore: @unchecked Sendable {
    let path: String
    private(set) var db: SQLiteConnection
    /// Set while an import's transaction is open; one import at a time.
    var importInProgress = false
    /// Set while a run's transaction is open (`beginRun`): imports and payloads are then
    /// savepoints inside it, and nothing is committed until `commitRun`.
    var runInProgress = false
    /// While a new store is being built: the temporary file that holds it until its first
    /// import commits (see `init`). nil once the store is at `path`.
    private(set) var creatingAt: String?
    /// While a new store is being built: the thread that has the kernel write its file early, so
    /// that the fsync that publishes it has little left to do (`EarlyWriteback`).
    private var writeback: EarlyWriteback?

    static let busyTimeoutMilliseconds: Int32 = 10_000
    /// How long this connection's writes wait for another process's (`setBusyTimeout`).
    private(set) var busyTimeout = HealthStore.busyTimeoutMilliseconds

    /// Opens the store at `path`, creating it when there is none.
    ///
    /// A new store is built under a temporary name beside `path` (`.NAME.creating-PID-N-HOST`) with
    /// an in-memory rollback journal and no syncs, and moved into place when its first import
    /// commits (`publishIfNew`). Nothing can be reading a file nobody else knows of, and if the
    /// run fails or is killed there is no store, as before it; so the first, biggest import is
    /// written once instead of into the WAL and then again into the file, which takes about
    /// 1.5 s off the 1 GB benchmark. An existing store is always written through its WAL.
    init(path: String) throws {
        self.path = path
        Self.removeAbandonedCreations(for: path)
        var st = stat()
        if lstat(path, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFLNK, stat(path, &st) != 0 {
                throw StoreError(path: path, message: "is a symbolic link to a file that does not exist; point --store at the store itself")
            }
            db = try Self.open(path, created: false)
            try Self.useWAL(db)
        } else {
            let temporary = Self.creationPath(for: path)
            db = try Self.open(temporary, created: true, reportAs: path)
            creatingAt = temporary
            do {
                try db.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
                writeback = EarlyWriteback(path: temporary)
            } catch {
                discardIfUnpublished()
                throw error
            }
        }
        do {
            try migrate()
        } catch {
            discardIfUnpublished()
            throw error
        }
    }

    deinit { discardIfUnpublished() }

    /// Removes a new store that never got an import committed (the run failed): there is then no
    /// store, as before the run. Called on deinit, and by `convert` before it reports a failure
    /// (the process may exit before the last reference goes).
    func discardIfUnpublished() {
        guard let creatingAt else { return }
        writeback?.finish()
        writeback = nil
        unlink(creatingAt)
        self.creatingAt = nil
    }

    /// Opens one file as a store connection: created 0600 (whatever the umask) when `created`,
    /// checked to be a SQLite database whose schema this build can handle.
    private static func open(_ file: String, created: Bool, reportAs path: String? = nil) throws -> SQLiteConnection {
        let shown = path ?? file
        if created {
            let fd = Foundation.open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if fd < 0 {
                throw StoreError(path: shown, message: "cannot create the store: \(String(cString: strerror(errno)))")
            }
            close(fd)
        }
        do {
            let db = try SQLiteConnection(path: file, shownAs: shown)
            sqlite3_busy_timeout(db.handle, Self.busyTimeoutMilliseconds)
            try Self.checkReadable(db, path: shown)
            // From here on the file is a SQLite database whose schema this build can handle.
            chmod(file, 0o600)
            // A new store gets 16 KiB pages (set before the first write): bulk loads of millions of
            // rows split and rebalance far fewer B-tree pages than with the 4 KiB default.
            if created { try db.execute("PRAGMA page_size = 16384") }
            try db.execute("PRAGMA foreign_keys = OFF; PRAGMA cache_size = -\(Self.cacheKiB); PRAGMA temp_store = FILE")
            return db
        } catch {
            if created { unlink(file) }
            throw error
        }
    }

    /// SQLite's page cache for queries and small writes (`PRAGMA cache_size`, in KiB). An import
    /// works with `StoreImportSession.loadCacheKiB` instead and gives this back when it ends.
    static let cacheKiB = 16384

    /// WAL, so that readers in other programs neither block an import nor are blocked by it.
    private static func useWAL(_ db: SQLiteConnection) throws {
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: db.path + suffix) { chmod(db.path + suffix, 0o600) }
    }

    static func creationPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let unique = UInt32.random(in: 0...UInt32.max)
        return url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).creating-\(getpid())-\(unique)-\(hostName)"
        ).path
    }

    static let hostName: String = {
        var buf = [UInt8](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count - 1) == 0 else { return "host" }
        let name = String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self).filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        return name.isEmpty ? "host" : name
    }()

    /// Temporary files of earlier runs that were killed while creating this store (or between
    /// moving it into place and removing the temporary name: then only that second name goes).
    /// One is removed when its process is gone: the same host and no such process, or, for a
    /// file another host (or container) may be writing, no change for an hour.
    private static func removeAbandonedCreations(for path: String) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).creating-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 2)
            guard parts.count == 3, let pid = Int32(parts[0]) else { continue }
            let file = dir + "/" + name
            var st = stat()
            guard lstat(file, &st) == 0 else { continue }
            let idle = Double(Int64(time(nil)) - FileTimes.modificationSeconds(st))
            let gone = String(parts[2]) == hostName && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            if gone || idle > 3600 { unlink(file) }
        }
    }

    /// Moves a new store into place once its first import has committed: synced, then linked
    /// to `path` (which fails rather than replace a store another process created meanwhile),
    /// then reopened there in WAL mode. Does nothing for a store that was already at `path`.
    /// An import's `complete` calls it; call it directly to create a store with no import yet.
    func publishIfNew() throws {
        precondition(!importInProgress, "publishIfNew during an import")
        guard let temporary = creatingAt else { return }
        // The store was written without syncs: this is its one durability point (most of its
        // pages are on their way to the disk already: `EarlyWriteback`).
        writeback?.finish()
        writeback = nil
        let fd = Foundation.open(temporary, O_RDONLY)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw StoreError(path: path, message: "cannot be created: syncing it failed: \(reason)")
        }
        close(fd)
        if link(temporary, path) == 0 {
            unlink(temporary)
        } else if errno == EEXIST {
            throw StoreError(
                path: path,
                message: "was created by another process while this import ran; this import was not stored (run it again to add it)")
        } else if [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EINVAL, EXDEV].contains(errno) {
            // No hard links on this file system (exFAT, some network shares): rename, having
            // checked that nothing is at `path` (a store created in the instant between the
            // check and the rename would be replaced; link() closes that gap where it exists).
            var st = stat()
            guard lstat(path, &st) != 0 else {
                throw StoreError(
                    path: path,
                    message: "was created by another process while this import ran; this import was not stored (run it again to add it)")
            }
            guard rename(temporary, path) == 0 else {
                throw StoreError(path: path, message: "cannot be created: \(String(cString: strerror(errno)))")
            }
        } else {
            throw StoreError(path: path, message: "cannot be created: \(String(cString: strerror(errno)))")
        }
        creatingAt = nil
        let dir = Foundation.open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
        // The import is stored from here on. The connection that built it is left to the
        // finished session (it is not used again); this one serves the store at its path. If
        // switching to WAL has to wait for a reader that opened the new file this instant, the
        // next open does it.
        db = try Self.open(path, created: false)
        try? Self.useWAL(db)
    }

    /// Reads the header and the schema version without writing anything.
    static func checkReadable(_ db: SQLiteConnection, path: String) throws {
        let version: Int64
        do {
            version = try db.scalarInt("PRAGMA user_version") ?? 0
            // user_version alone reads only the header; touch the schema too.
            _ = try db.scalarInt("SELECT count(*) FROM sqlite_master")
        } catch let e as StoreError {
            let rc = (e.code ?? 0) & 0xFF
            if rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT {
                throw StoreError(
                    path: path, message: "is not a SQLite database (or is damaged); it was left untouched. Choose another --store file.",
                    code: e.code)
            }
            throw e
        }
        if version > Int64(StoreSchema.currentVersion) {
            throw StoreError(
                path: path,
                message:
                    "was written by a newer health-import (schema version \(version); this build knows up to \(StoreSchema.currentVersion)); it was left untouched. Use a newer health-import."
            )
        }
        if version == 0 {
            // A database with tables but no version is someone else's file.
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") ?? 0
            if tables > 0 {
                throw StoreError(
                    path: path,
                    message:
                        "is a SQLite database but not a health-import store (it has tables and no schema version); it was left untouched.")
            }
        }
    }

    /// Applies every migration above the file's `user_version`, all in one transaction (a
    /// failure leaves the store as it was), then makes sure the `daily` view matches this build's
    /// field table (`OutputFields`).
    func migrate() throws {
        // Most opens find nothing to do: check without taking the write lock, so opening a store
        // another process is importing into does not wait.
        let current = try db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'daily'")
        let viewSQL = try current.step() ? current.text(0) : nil
        current.reset()
        if try db.scalarInt("PRAGMA user_version") == Int64(StoreSchema.currentVersion), viewSQL == StoreSchema.dailyViewSQL { return }
        try writing {
            // Read again inside the write lock: another process may have migrated meanwhile.
            let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            if version > StoreSchema.currentVersion {
                throw StoreError(
                    path: path, message: "was written by a newer health-import (schema version \(version)); it was left untouched.")
            }
            for v in version..<StoreSchema.currentVersion {
                try db.execute(StoreSchema.migrations[v])
                if v + 1 == 5 {
                    // Version 5 moves rows in Swift (the exact JSON bytes), then drops their table.
                    try StoreSchema.moveSampleMetadata(db)
                    try db.execute(StoreSchema.v5Finish)
                }
                if v + 1 == 6 {
                    // Version 6 computes each stored sample's key digest in Swift, then indexes it.
                    try StoreSchema.fillSampleKeyDigests(db)
                    do {
                        try db.execute(StoreSchema.v6Finish)
                    } catch {
                        // Only two samples the version 5 index held apart whose 64-bit digests
                        // are equal can fail the unique index: by chance about never, or a
                        // crafted export. Say so rather than SQLite's bare constraint message.
                        throw StoreError(
                            path: path,
                            message:
                                "cannot be upgraded to schema version 6: two of its samples of one type and start have the same key digest (\(error)); it was left untouched."
                        )
                    }
                }
                // Version 7 adds its column in Swift, only where it is missing.
                if v + 1 == 7 { try StoreSchema.addDayOptions(db) }
                try db.execute("PRAGMA user_version = \(v + 1)")
            }
            let viewSQL = StoreSchema.dailyViewSQL
            let current = try db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'daily'")
            let existing = try current.step() ? current.text(0) : nil
            if existing != viewSQL {
                try db.execute("DROP VIEW IF EXISTS daily")
                try db.execute(viewSQL)
            }
        }
    }

    /// How long a write waits for another process's import to end (default 10 s).
    func setBusyTimeout(milliseconds: Int32) {
        busyTimeout = milliseconds
        sqlite3_busy_timeout(db.handle, milliseconds)
    }

    /// The schema version of the open store.
    /// Takes the write lock (`BEGIN IMMEDIATE`), waiting the busy timeout; a store another
    /// process keeps writing past it is one sentence, not SQLite's "database is locked", ending
    /// with `whenBusy` (what the caller did not do). The one place a write transaction starts (a
    /// run, an import outside one, a migration, an erase: `writing`), so the busy rule
    /// (`StoreError.isBusy`) is applied once.
    func beginImmediate(whenBusy: String = "try again when it is done") throws {
        do {
            try db.execute("BEGIN IMMEDIATE")
        } catch let e as StoreError where e.isBusy {
            throw StoreError(
                path: path, message: "is being written by another process (waited \(busyTimeout / 1000) s); \(whenBusy)", code: e.code)
        }
    }

    func schemaVersion() throws -> Int { Int(try db.scalarInt("PRAGMA user_version") ?? 0) }

    /// The finished import of this exact file for this person, if any.
    func existingImport(person: String, sha256: String) throws -> StoredImport? {
        let s = try db.prepare(
            """
            SELECT id, person, file_name, file_sha256, format, tool_version, started_at, finished_at, day_options
            FROM imports WHERE person = ? AND file_sha256 = ? AND finished_at IS NOT NULL
            """)
        s.bind(1, person)
        s.bind(2, sha256.lowercased())
        guard try s.step() else { return nil }
        return StoredImport(
            id: s.int(0), person: s.text(1) ?? "", fileName: s.text(2) ?? "", sha256: s.text(3) ?? "",
            format: s.text(4) ?? "", toolVersion: s.text(5) ?? "", startedAt: s.text(6) ?? "", finishedAt: s.text(7),
            dayOptions: s.text(8))
    }

    /// Every finished import of a person, oldest first.
    func imports(person: String) throws -> [StoredImport] {
        let s = try db.prepare(
            """
            SELECT id, person, file_name, file_sha256, format, tool_version, started_at, finished_at, day_options
            FROM imports WHERE person = ? ORDER BY id
            """)
        s.bind(1, person)
        var out: [StoredImport] = []
        while try s.step() {
            out.append(
                StoredImport(
                    id: s.int(0), person: s.text(1) ?? "", fileName: s.text(2) ?? "", sha256: s.text(3) ?? "",
                    format: s.text(4) ?? "", toolVersion: s.text(5) ?? "", startedAt: s.text(6) ?? "", finishedAt: s.text(7),
                    dayOptions: s.text(8)))
        }
        return out
    }

    /// Starts one import in one transaction (held until `complete` or `abandon`). Throws when
    /// this file was already imported for this person.
    func beginImport(_ meta: ImportMetadata) throws -> StoreImportSession {
        precondition(!importInProgress, "one import at a time on a HealthStore")
        // No import runs (the previous one was awaited, perhaps on its commit thread): the
        // caller's thread takes the connection.
        db.confinement.claim()
        // An empty digest means "still being computed": a unique placeholder holds the row's
        // place until `complete(days:report:sha256:)` writes the real one, inside the transaction.
        let digest = meta.sha256.isEmpty ? "pending-\(UUID().uuidString)" : meta.sha256.lowercased()
        if !meta.sha256.isEmpty, let done = try existingImport(person: meta.person, sha256: meta.sha256) {
            throw StoreError(
                path: path,
                message:
                    "\(meta.fileName) was already imported for \(meta.person) (import \(done.id), \(done.finishedAt ?? done.startedAt))")
        }
        try beginWrite(savepoint: StoreImportSession.savepoint)
        do {
            let s = try db.prepare(
                """
                INSERT INTO imports (person, file_name, file_sha256, format, tool_version, started_at, day_options)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            s.bind(1, meta.person)
            s.bind(2, meta.fileName)
            s.bind(3, digest)
            s.bind(4, meta.format.rawValue)
            s.bind(5, meta.toolVersion)
            s.bind(6, Self.isoUTC(meta.startedAt))
            s.bind(7, meta.dayOptions)
            try s.run()
            let id = db.lastInsertRowID
            importInProgress = true
            return try StoreImportSession(store: self, importID: id, meta: meta)
        } catch {
            rollbackWrite(savepoint: StoreImportSession.savepoint)
            importInProgress = false
            throw error
        }
    }

    /// `2026-11-23T06:52:04Z`.
    static func isoUTC(_ date: Date) -> String {
        let secs = Int64(date.timeIntervalSince1970.rounded(.down))
        return CivilDate.isoTimestamp(seconds: secs, offset: 0).replacingOccurrences(of: "+00:00", with: "Z")
    }
}
