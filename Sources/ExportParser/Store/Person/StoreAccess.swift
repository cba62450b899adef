import Foundation

/// The one place that reads a `--store` text and opens the store it names: a SQLite file, or a
/// PostgreSQL database (`postgres://…`, `PostgresLocation`). Every command opens its store
/// here and gets it behind the protocols (`PersonStore`, `ReceivedBodyKeeping`), so no other
/// folder knows which store is in use. Every failure is a `StoreError` or `UsageError`: one
/// sentence naming the store, exit status 1.
public enum StoreAccess {
    /// An existing store for `people`, `gdpr-export`, `erase`, `compare --store` and
    /// `explain --store`, which must never create a SQLite file (HealthStore creates a store
    /// where there is none). A PostgreSQL store gets its tables on first use.
    static func open(_ text: String) throws -> any PersonStore {
        if PostgresLocation.isPostgres(text) { return try PostgresStore(location: PostgresLocation(text)) }
        return try existingSQLite(text)
    }

    private static func existingSQLite(_ text: String) throws -> HealthStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory) else {
            throw StoreError(path: text, message: "no store here (convert writes one)")
        }
        guard !isDirectory.boolValue else { throw StoreError(path: text, message: "is a folder, not a store; give the store's file") }
        return try HealthStore(path: text)
    }

    /// Whether the store is there to be read (a PostgreSQL database is asked when opened).
    static func exists(_ text: String) -> Bool {
        PostgresLocation.isPostgres(text) || FileManager.default.fileExists(atPath: text)
    }

    /// `receive`'s store: a SQLite file (created when missing; one writer) or a PostgreSQL
    /// database, with up to `receiverConnections` connections, one a commit in flight.
    public static func keeper(_ text: String) throws -> any ReceivedBodyKeeping {
        if PostgresLocation.isPostgres(text) {
            return try PostgresStore(location: PostgresLocation(text), connections: receiverConnections)
        }
        return try ReceivedBodyStore(path: text)
    }

    /// How many commits `receive` runs at once on a PostgreSQL store (its connections).
    public static var receiverConnections: Int { PostgresStore.receiverConnections }

    /// `compare --everyone`'s one opening of its store: the people and their sides, and where
    /// their verdicts are stored and `--report` reads them (`FleetVerdicts`). One connection and
    /// one schema check on PostgreSQL; one SQLite connection for both.
    static func fleet(_ text: String) throws -> (people: any PersonStore, verdicts: any FleetVerdicts) {
        if PostgresLocation.isPostgres(text) {
            let store = try PostgresStore(location: PostgresLocation(text))
            return (store, store)
        }
        let store = try existingSQLite(text)
        return (store, FleetVerdictTable(store))
    }

    /// Where the scratch copies of a store's bodies go: beside a SQLite file (not /tmp, which
    /// is memory on many systems), the system's temporary folder for a PostgreSQL store.
    public static func scratchFolder(_ text: String) -> String {
        guard !PostgresLocation.isPostgres(text) else {
            let temporary = NSTemporaryDirectory()
            return temporary.hasSuffix("/") && temporary.count > 1 ? String(temporary.dropLast()) : temporary
        }
        return URL(fileURLWithPath: text).deletingLastPathComponent().path
    }

    /// The SQLite file of a command that imports into the store or reads its imports back
    /// (`convert --store`, `push --store`); a PostgreSQL store is refused in plain words.
    static func importStore(_ text: String, for command: String) throws -> String {
        guard !PostgresLocation.isPostgres(text) else {
            throw UsageError(
                "--store",
                "\(command) --store needs a SQLite store file: a PostgreSQL store holds received data only (the bodies receive "
                    + "took), not imports, daily values or the push log")
        }
        return text
    }

    /// The sentence for a person the store does not hold.
    static func missing(_ person: String, in path: String) -> StoreError {
        StoreError(
            path: path, message: "holds no data of the person \"\(person)\" (health-import people --store \(path) lists who it holds)")
    }
}
