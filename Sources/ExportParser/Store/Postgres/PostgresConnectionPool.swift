import Foundation

/// The connections of one `PostgresStore`: up to `size`, each used by one thread at a time.
/// The first is opened with the store (it migrates the schema, and a wrong URL or password
/// fails at start); the others only when every open one is in use, so a command that reads
/// with one thread never opens a second. A caller finding all `size` in use waits for one.
///
/// Every connection is prepared alike (`prepare`): a commit returns only once it is on the
/// server's disk. A connection found broken when taken (the server restarted, a failover) is
/// connected again (a commit whose connection breaks under it does so too and tries once more,
/// `PostgresStore.keep`); one still broken when given back is closed, and the next caller opens
/// a new one in its place.
// @unchecked Sendable: `idle` and `opened` are read and changed only under `condition`.
final class PostgresConnectionPool: @unchecked Sendable {
    let size: Int
    private let settings: [PostgresLocation.Setting]
    private let shown: String
    private let condition = NSCondition()
    private var idle: [PostgresConnection]
    /// Connections open now: idle or in use (those being opened counted too).
    private var opened: Int

    init(location: PostgresLocation, size: Int) throws {
        precondition(size >= 1)
        self.size = size
        settings = location.settings
        shown = location.shown
        let first = try PostgresConnection(settings: settings, shownAs: shown)
        try Self.prepare(first)
        idle = [first]
        opened = 1
    }

    /// Every connection's session settings, set when it is opened and again after every
    /// reconnect (`PQreset` starts a new session): a commit returns only once it is on the
    /// server's disk, whatever the server's default is (`receive` answers 200 only then), and
    /// the server's notices (a table that already exists, …) are not the tool's output.
    static func prepare(_ connection: PostgresConnection) throws {
        try connection.run("SET synchronous_commit = on")
        try connection.run("SET client_min_messages = warning")
    }

    /// Connects again after the server went away (a restart, a failover), prepared as a new
    /// connection is: the pool's own way, and a commit's when its connection broke under it.
    static func reconnect(_ connection: PostgresConnection) throws {
        connection.reconnect()
        try prepare(connection)
    }

    /// Runs `body` with a connection no other thread uses meanwhile.
    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        // A connection the server ended while it was idle would fail its next statement: it is
        // connected again first (`heardWhileIdle`).
        if !connection.isUp || connection.heardWhileIdle { try Self.reconnect(connection) }
        return try body(connection)
    }

    private func take() throws -> PostgresConnection {
        condition.lock()
        while idle.isEmpty && opened == size { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        // Counted before it is opened, so no other caller opens one past `size` meanwhile.
        opened += 1
        condition.unlock()
        do {
            let connection = try PostgresConnection(settings: settings, shownAs: shown)
            try Self.prepare(connection)
            return connection
        } catch {
            condition.withLock {
                opened -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        condition.withLock {
            if connection.isUp { idle.append(connection) } else { opened -= 1 }
            condition.signal()
        }
    }
}
