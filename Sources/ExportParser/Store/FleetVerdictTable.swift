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
                        until_date, shard, tool_version, checked_at, written_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
                    """)
                s.bind(1, v.person)
                s.bind(2, v.status)
                s.bind(3, JSONValue.array(v.failingFields.map(JSONValue.string)).render(indent: nil))
                s.bind(4, v.reason)
                s.bind(5, v.personJSON)
                s.bind(6, v.run.mode)
                s.bind(7, v.run.days)
                s.bind(8, v.run.monitor)
                s.bind(9, v.run.until)
                s.bind(10, v.shard)
                s.bind(11, ExportParserVersion.current)
                s.bind(12, v.checkedAt)
                s.bind(13, v.writtenAt)
                try s.run()
            }
        }
    }

    func all() throws -> [FleetVerdict] {
        try locked {
            try store.reading {
                let s = try store.db.prepare(
                    """
                    SELECT person, status, failing_fields, reason, person_json, mode, days, monitor, until_date, shard, checked_at, written_at
                    FROM fleet_verdicts ORDER BY person
                    """)
                var out: [FleetVerdict] = []
                while try s.step() {
                    let failing =
                        (try? JSONSerialization.jsonObject(with: Data((s.text(2) ?? "[]").utf8))) as? [String] ?? []
                    let run = FleetVerdict.Run(
                        mode: s.text(5) ?? "", days: Int(s.int(6)), monitor: s.isNull(7) ? nil : Int(s.int(7)), until: s.text(8))
                    out.append(
                        FleetVerdict(
                            person: s.text(0) ?? "", status: s.text(1) ?? "", failingFields: failing, reason: s.text(3) ?? "",
                            personJSON: s.text(4) ?? "", run: run, shard: s.text(9) ?? "", checkedAt: s.text(10) ?? "",
                            writtenAt: s.text(11) ?? ""))
                }
                return out
            }
        }
    }

    func changedSinceChecked() throws -> Set<String> {
        try locked {
            try store.reading {
                // julianday reads both forms of the store's times (`…:SSZ` and `…:SS.sssZ`),
                // which text comparison would not order.
                let s = try store.db.prepare(
                    """
                    SELECT v.person FROM fleet_verdicts v
                    WHERE EXISTS (SELECT 1 FROM received_bodies b WHERE b.person = v.person
                                  AND julianday(b.received_at) > julianday(v.checked_at))
                       OR EXISTS (SELECT 1 FROM imports i WHERE i.person = v.person AND i.finished_at IS NOT NULL
                                  AND julianday(i.finished_at) > julianday(v.checked_at))
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
