import Foundation

/// `fleet_verdicts` (schema version 8) in the SQLite store: `FleetVerdicts` for
/// `compare --everyone`. Workers in separate processes write to one file, each verdict its own
/// short `BEGIN IMMEDIATE` transaction under a 30 s busy timeout, so they take turns instead
/// of failing; within a process, a lock serialises the one connection.
// @unchecked Sendable: every use of `store.db` is inside `lock`.
final class FleetVerdictTable: FleetVerdicts, @unchecked Sendable {
    private let store: HealthStore
    private let lock = NSLock()

    init(_ store: HealthStore) {
        self.store = store
        store.setBusyTimeout(milliseconds: 30_000)
    }

    func write(_ v: FleetVerdict) throws {
        try locked {
            try store.writing(whenBusy: "another fleet worker kept it locked for 30 s; run this shard again") {
                let s = try store.db.prepare(
                    """
                    INSERT OR REPLACE INTO fleet_verdicts (person, status, failing_fields, reason, person_json, mode, days, monitor,
                        until_date, shard, tool_version, checked_at, written_at, from_date, time_zone, tolerances_sha256,
                        judged_date, judged_zone, run_id, bodies_max_id, bodies, imports_max_id, imports)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)
                    """)
                s.bind(1, v.person)
                s.bind(2, v.status)
                s.bind(3, FleetVerdictColumns.failingFields(v))
                s.bind(4, v.reason)
                s.bind(5, v.personJSON)
                s.bind(6, v.run.mode)
                s.bind(7, v.run.days)
                s.bind(8, v.run.monitor)
                s.bind(9, v.run.until)
                s.bind(10, v.shard)
                s.bind(11, v.run.toolVersion)
                s.bind(12, v.checkedAt)
                s.bind(13, v.writtenAt)
                s.bind(14, v.run.from)
                s.bind(15, v.run.timeZone)
                s.bind(16, v.run.tolerancesDigest)
                s.bind(17, v.judgedDate)
                s.bind(18, v.judgedZone)
                s.bind(19, v.runID)
                s.bind(20, v.watermark.bodiesMaxID)
                s.bind(21, v.watermark.bodies)
                s.bind(22, v.watermark.importsMaxID)
                s.bind(23, v.watermark.imports)
                try s.run()
            }
        }
    }

    func all() throws -> [FleetVerdict] {
        try locked {
            try store.reading {
                let s = try store.db.prepare("SELECT \(FleetVerdictColumns.selected) FROM fleet_verdicts ORDER BY person")
                var out: [FleetVerdict] = []
                while try s.step() { out.append(FleetVerdictColumns.verdict(text: s.text, int: s.int, isNull: s.isNull)) }
                return out
            }
        }
    }

    /// The person's received bodies and finished imports now. Only committed rows are seen (a
    /// read transaction), so an import still running counts once it has committed.
    func watermark(person: String) throws -> FleetWatermark {
        try locked {
            try store.reading {
                let s = try store.db.prepare(
                    """
                    SELECT (SELECT coalesce(max(id), 0) FROM received_bodies WHERE person = ?1),
                           (SELECT count(*) FROM received_bodies WHERE person = ?1),
                           (SELECT coalesce(max(id), 0) FROM imports WHERE person = ?1 AND finished_at IS NOT NULL),
                           (SELECT count(*) FROM imports WHERE person = ?1 AND finished_at IS NOT NULL)
                    """)
                s.bind(1, person)
                guard try s.step() else { return FleetWatermark() }
                return FleetWatermark(bodiesMaxID: s.int(0), bodies: s.int(1), importsMaxID: s.int(2), imports: s.int(3))
            }
        }
    }

    func changedSinceChecked() throws -> Set<String> {
        try locked {
            try store.reading {
                // The same aggregates as `watermark`, for every verdict at once: ids and counts
                // the store assigned, never the clock times of machines.
                let s = try store.db.prepare(
                    """
                    SELECT v.person FROM fleet_verdicts v
                    WHERE (SELECT coalesce(max(id), 0) FROM received_bodies b WHERE b.person = v.person) != v.bodies_max_id
                       OR (SELECT count(*) FROM received_bodies b WHERE b.person = v.person) != v.bodies
                       OR (SELECT coalesce(max(id), 0) FROM imports i WHERE i.person = v.person AND i.finished_at IS NOT NULL)
                          != v.imports_max_id
                       OR (SELECT count(*) FROM imports i WHERE i.person = v.person AND i.finished_at IS NOT NULL) != v.imports
                    """)
                var out = Set<String>()
                while try s.step() { if let p = s.text(0) { out.insert(p) } }
                return out
            }
        }
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            store.db.confinement.claim()
            return try body()
        }
    }
}
