import Foundation

/// The `received_bodies` table as `receive` writes it: each body committed before the request is
/// answered, one request at a time (a lock serialises the one connection; it is also the point
/// where a request's thread takes the connection over, see `ThreadConfinement`).
///
/// The connection runs `synchronous = FULL` on the store's WAL: every commit is on disk before
/// `keep` returns, so neither SIGKILL nor a power cut loses an acknowledged body. Readers
/// (`compare --store`, `convert --received`) open the store beside it as WAL readers.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `keep` binds the body in
/// place (`Statement.bindBlobInPlace`): the caller's buffer outlives the statement's one step,
/// after which the bind is unused, so a body of up to --max-body is not copied.
///
/// `ReceivedBodyKeeping` is what `receive` asks of a store, so that another store (the
/// PostgreSQL one of the fleet) can keep the bodies; this class keeps them in the SQLite store.
// @unchecked Sendable: every use of `store.db` is inside `lock`.
public final class ReceivedBodyStore: ReceivedBodyKeeping, @unchecked Sendable {
    private let store: HealthStore
    private let lock = NSLock()
    public var path: String { store.path }

    public init(path: String) throws {
        store = try HealthStore(path: path)
        // A new store goes into place now (it has no import to wait for) and opens in WAL.
        try store.publishIfNew()
        try store.db.execute("PRAGMA synchronous = FULL")
        store.setBusyTimeout(milliseconds: 30_000)
    }

    /// What `keep` did with a body.
    public enum Kept: Sendable, Equatable {
        /// Committed as a new row (its id).
        case stored(Int64)
        /// The person already had this exact body on this endpoint: nothing written.
        case alreadyHeld
    }

    /// Commits one body: its bytes, sha256, endpoint, person, the time received and its dates.
    public func keep(
        _ bytes: UnsafeRawBufferPointer, endpoint: ReceiveEndpoint, person: String, check: ReceivedBodyCheck, receivedAt: Date
    ) throws -> Kept {
        let sha = FileDigest.hex(SHA256.hash(data: bytes))
        return try lock.withLock {
            store.db.confinement.claim()
            let s = try store.db.prepare(
                """
                INSERT INTO received_bodies (person, endpoint, body_sha256, bytes, body, received_at, first_date, last_date)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT (person, endpoint, body_sha256) DO NOTHING
                """)
            s.bind(1, person)
            s.bind(2, endpoint.rawValue)
            s.bind(3, sha)
            s.bind(4, bytes.count)
            // SQLite reads the body in place, without a copy of up to --max-body bytes; `bytes`
            // outlives the step below, after which the bind is unused.
            s.bindBlobInPlace(5, bytes)
            s.bind(6, Self.isoUTCMilliseconds(receivedAt))
            s.bind(7, check.firstDate)
            s.bind(8, check.lastDate)
            try s.run()
            return store.db.changes == 1 ? .stored(store.db.lastInsertRowID) : .alreadyHeld
        }
    }

    /// `GET /status` for one person: a row per side that has bodies.
    public func status(person: String) throws -> [ReceiveStatus] {
        try lock.withLock {
            store.db.confinement.claim()
            return try Self.status(store.db, person: person)
        }
    }

    static func status(_ db: SQLiteConnection, person: String) throws -> [ReceiveStatus] {
        let s = try db.prepare(
            """
            SELECT endpoint, count(*), sum(bytes), min(first_date), max(last_date), max(received_at)
            FROM received_bodies WHERE person = ?1 GROUP BY endpoint ORDER BY endpoint
            """)
        s.bind(1, person)
        var out: [ReceiveStatus] = []
        while try s.step() {
            guard let endpoint = s.text(0).flatMap(ReceiveEndpoint.init(rawValue:)) else { continue }
            out.append(
                ReceiveStatus(
                    person: person, endpoint: endpoint, bodies: Int(s.int(1)), bytes: Int(s.int(2)), firstDate: s.text(3),
                    lastDate: s.text(4), lastReceivedAt: s.text(5)))
        }
        return out
    }

    /// `2026-11-26T17:50:01.250Z`: milliseconds, so bodies of one second keep their order.
    public static func isoUTCMilliseconds(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let base = CivilDate.isoTimestamp(seconds: secs, offset: 0).replacingOccurrences(of: "+00:00", with: "")
        let frac = String(ms - secs * 1000)
        return base + "." + String(repeating: "0", count: 3 - frac.count) + frac + "Z"
    }
}

/// What `receive` asks of a store: each body committed before its request is answered (the
/// same body of a person on an endpoint kept once), and a person's bodies per side for
/// `GET /status`. Called from the server's request handlers, several at once.
public protocol ReceivedBodyKeeping: Sendable {
    /// Where the store is, for messages.
    var path: String { get }
    /// Commits one body; returns once it is durable. `bytes` is read only during the call.
    func keep(
        _ bytes: UnsafeRawBufferPointer, endpoint: ReceiveEndpoint, person: String, check: ReceivedBodyCheck, receivedAt: Date
    ) throws -> ReceivedBodyStore.Kept
    /// A row per side that has bodies of the person, in the order of the endpoints' stored names.
    func status(person: String) throws -> [ReceiveStatus]
}

/// One person's bodies of one endpoint, as `GET /status` reports them.
public struct ReceiveStatus: Sendable, Equatable {
    public var person: String
    public var endpoint: ReceiveEndpoint
    public var bodies: Int
    public var bytes: Int
    public var firstDate: String?
    public var lastDate: String?
    public var lastReceivedAt: String?

    /// The JSON object `GET /status` lists (keys sorted, so the answer is stable).
    public var json: [String: Any] {
        [
            "side": endpoint.side, "endpoint": endpoint.path, "bodies": bodies, "bytes": bytes,
            "first_date": firstDate ?? NSNull(), "last_date": lastDate ?? NSNull(), "last_received_at": lastReceivedAt ?? NSNull(),
        ]
    }
}
