import Foundation

/// The PostgreSQL store (`--store postgres://…`): the bodies `receive` took, in a database
/// several receivers and fleet workers share. It holds received data only: no imports, no day
/// values, no push log (those stay in a SQLite store).
///
/// Its connections are a `PostgresConnectionPool`: one for the commands that read or write
/// from one thread (opened with the store), up to `receiverConnections` for `receive`, so a
/// commit that waits (a 200 MB body being written, a row another transaction holds) does not
/// hold up the other requests' commits. Each process has its own, so several receivers on one
/// database commit side by side. When the server went away (a restart, a failover), the next
/// use connects again.
final class PostgresStore: Sendable {
    /// The `--store` text, as messages name the store (it never holds a password).
    let path: String
    private let connections: PostgresConnectionPool

    /// `receive`'s connections: as many commits at once (docs/receive.md, "Stores under load").
    static let receiverConnections = 4

    /// `connections`: at most this many open at once (the first opened here, the others when
    /// all are in use).
    init(location: PostgresLocation, connections size: Int = 1) throws {
        path = location.shown
        connections = try PostgresConnectionPool(location: location, size: size)
        _ = try connections.with { try PostgresSchema.migrate($0) }
    }

    /// Runs `body` with a connection of its own, connecting again first when the server went away.
    func using<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try connections.with(body)
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
