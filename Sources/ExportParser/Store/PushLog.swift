import Foundation

/// The store's record of pushes (`pushes`, schema version 3): per person, endpoint and date, the
/// last push's body sha256, HTTP status, result and time. Each day is written in its own
/// transaction the moment its last response came, so a push killed at any moment loses only the
/// days in flight, which the next run sends again.
///
/// `PushRecords` is what `push` asks of the log, so that another store (the PostgreSQL one of
/// the fleet) can keep it; `PushLog` keeps it in the SQLite store.
// @unchecked Sendable: the workers record through `lock`; whoever holds it claims the connection.
final class PushLog: PushRecords, @unchecked Sendable {
    /// How a day ended, as the store records it.
    enum Result: String, Sendable {
        /// A 2xx with `{"status": "accepted"}`.
        case accepted
        /// A 4xx (not 401, 403, 408, 429) or a 2xx without "accepted": sending it again as it is
        /// would not help.
        case rejected
        /// Still failing after `--max-attempts` requests (5xx, 429, time-outs, dropped connections).
        case failed
    }

    struct Entry: Sendable {
        var sha256: String
        var result: String
    }

    private let store: HealthStore
    private let person: String
    private let endpoint: String
    private let lock = NSLock()

    init(store: HealthStore, person: String, endpoint: String) {
        self.store = store
        self.person = person
        self.endpoint = endpoint
    }

    /// The last recorded push of every date to this endpoint.
    func entries() throws -> [String: Entry] {
        try locked {
            let s = try store.db.prepare("SELECT date, body_sha256, result FROM pushes WHERE person = ?1 AND endpoint = ?2")
            s.bind(1, person)
            s.bind(2, endpoint)
            var out: [String: Entry] = [:]
            while try s.step() {
                guard let date = s.text(0), let sha = s.text(1), let result = s.text(2) else { continue }
                out[date] = Entry(sha256: sha, result: result)
            }
            return out
        }
    }

    /// Records how a day ended (replacing its earlier record). `detail` must hold no key and no
    /// health value: the callers pass a status line or a redacted server message.
    func record(_ day: PushDay, status: Int?, result: Result, detail: String?, attempts: Int, at now: Date) throws {
        try locked {
            let s = try store.db.prepare(
                """
                INSERT OR REPLACE INTO pushes (person, endpoint, date, body_sha256, http_status, result, detail, attempts, pushed_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                """)
            s.bind(1, person)
            s.bind(2, endpoint)
            s.bind(3, day.date)
            s.bind(4, day.sha256)
            s.bind(5, status)
            s.bind(6, result.rawValue)
            s.bind(7, detail)
            s.bind(8, attempts)
            s.bind(9, HealthStore.isoUTC(now))
            try s.run()
        }
    }

    func record(_ day: PushDay, status: Int?, result: Result, detail: String?, attempts: Int) throws {
        try record(day, status: status, result: result, detail: detail, attempts: attempts, at: Date())
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        // The lock orders the workers' uses of the connection: the holder takes it over.
        store.db.confinement.claim()
        return try body()
    }
}

/// What `push` asks of a store about earlier pushes: the last one of every date to the endpoint
/// (to skip a day sent unchanged), and how each day of this push ended, recorded the moment it
/// did (from several workers at once).
protocol PushRecords: Sendable {
    func entries() throws -> [String: PushLog.Entry]
    /// Records how a day ended now (replacing its earlier record). `detail` must hold no key
    /// and no health value.
    func record(_ day: PushDay, status: Int?, result: PushLog.Result, detail: String?, attempts: Int) throws
}
