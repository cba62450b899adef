import Foundation

/// The PostgreSQL store (`--store postgres://…`): the bodies `receive` took, in a database
/// several receivers and fleet workers share. It holds received data only: no imports, no day
/// values, no push log (those stay in a SQLite store).
///
/// One connection, used under a lock by one thread at a time, as `ReceivedBodyStore` uses its
/// SQLite connection; each process has its own, so several receivers on one database commit side
/// by side. When the server went away (a restart, a failover), the next use connects again.
// @unchecked Sendable: every use of `connection` is inside `lock`.
final class PostgresStore: @unchecked Sendable {
    /// The `--store` text, as messages name the store (it never holds a password).
    let path: String
    private let connection: PostgresConnection
    private let lock = NSLock()

    init(location: PostgresLocation) throws {
        path = location.shown
        connection = try PostgresConnection(settings: location.settings, shownAs: location.shown)
        try PostgresSchema.migrate(connection)
        try Self.prepare(connection)
    }

    /// A commit returns once it is on the server's disk, whatever the server's default is:
    /// `receive` answers 200 only then. A session setting: set again on every new connection.
    private static func prepare(_ connection: PostgresConnection) throws {
        try connection.run("SET synchronous_commit = on")
    }

    /// Runs `body` with the connection, connecting again first when the server went away.
    func using<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try lock.withLock {
            if !connection.isUp { try reconnect(connection) }
            return try body(connection)
        }
    }

    /// Connects again after the server went away (a restart, a failover), as a new connection
    /// is prepared.
    func reconnect(_ connection: PostgresConnection) throws {
        connection.reconnect()
        try Self.prepare(connection)
    }

    /// Runs `body` inside one transaction (committed when it returns, rolled back when it
    /// throws). `readOnly`: a repeatable-read snapshot, one moment of the store for every query.
    func transaction<T>(readOnly: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        try using { db in
            try db.run(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
            do {
                let result = try body(db)
                try db.run("COMMIT")
                return result
            } catch {
                _ = try? db.run("ROLLBACK")
                throw error
            }
        }
    }

    /// `received_at` as the SQLite store writes it: `2026-11-26T17:50:01.250Z`.
    static let receivedAtText = "to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

    /// A date column as `YYYY-MM-DD` whatever the server's DateStyle.
    static func dateText(_ column: String) -> String { "to_char(\(column), 'YYYY-MM-DD')" }

    /// The store's schema version (the manifest of `gdpr-export` states it).
    func schemaVersion(_ db: PostgresConnection) throws -> Int {
        Int(try db.run("SELECT coalesce(max(version), 0) FROM schema_migrations").int(0, 0))
    }

    /// Whether the store holds any row of the person.
    func holds(_ db: PostgresConnection, person: String) throws -> Bool {
        try db.run("SELECT 1 FROM received_bodies WHERE person = $1 LIMIT 1", [.text(person)]).rows > 0
    }
}
