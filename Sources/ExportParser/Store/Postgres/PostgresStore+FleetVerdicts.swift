import Foundation

/// `FleetVerdicts` on PostgreSQL: the table `fleet_verdicts` (schema version 2), which the
/// workers of a sharded `compare --everyone` write side by side, each verdict its own statement
/// (autocommit: a worker stopped halfway keeps the people it finished), and `--report` reads.
extension PostgresStore: FleetVerdicts {
    func write(_ v: FleetVerdict) throws {
        try using { db in
            _ = try db.run(
                """
                INSERT INTO fleet_verdicts (person, status, failing_fields, reason, person_json, mode, days, monitor,
                    until_date, shard, tool_version, checked_at, written_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                ON CONFLICT (person) DO UPDATE SET status = excluded.status, failing_fields = excluded.failing_fields,
                    reason = excluded.reason, person_json = excluded.person_json, mode = excluded.mode, days = excluded.days,
                    monitor = excluded.monitor, until_date = excluded.until_date, shard = excluded.shard,
                    tool_version = excluded.tool_version, checked_at = excluded.checked_at, written_at = excluded.written_at
                """,
                [
                    .text(v.person), .text(v.status), .text(JSONValue.array(v.failingFields.map(JSONValue.string)).render(indent: nil)),
                    .text(v.reason), .text(v.personJSON), .text(v.run.mode), .int(Int64(v.run.days)),
                    v.run.monitor.map { .int(Int64($0)) } ?? .text(nil), .text(v.run.until), .text(v.shard),
                    .text(ExportParserVersion.current), .text(v.checkedAt), .text(v.writtenAt),
                ])
        }
    }

    func all() throws -> [FleetVerdict] {
        let r = try using { db in
            try db.run(
                """
                SELECT person, status, failing_fields, reason, person_json, mode, days, monitor, until_date, shard, checked_at, written_at
                FROM fleet_verdicts
                """)
        }
        var out: [FleetVerdict] = []
        for row in 0..<r.rows {
            let failing = (try? JSONSerialization.jsonObject(with: Data((r.text(row, 2) ?? "[]").utf8))) as? [String] ?? []
            let run = FleetVerdict.Run(
                mode: r.text(row, 5) ?? "", days: Int(r.int(row, 6)), monitor: r.isNull(row, 7) ? nil : Int(r.int(row, 7)),
                until: r.text(row, 8))
            out.append(
                FleetVerdict(
                    person: r.text(row, 0) ?? "", status: r.text(row, 1) ?? "", failingFields: failing, reason: r.text(row, 3) ?? "",
                    personJSON: r.text(row, 4) ?? "", run: run, shard: r.text(row, 9) ?? "", checkedAt: r.text(row, 10) ?? "",
                    writtenAt: r.text(row, 11) ?? ""))
        }
        // Sorted here, not by the server's collation, so the order is the SQLite store's.
        return out.sorted { $0.person < $1.person }
    }

    func changedSinceChecked() throws -> Set<String> {
        let r = try using { db in
            try db.run(
                """
                SELECT v.person FROM fleet_verdicts v
                WHERE EXISTS (SELECT 1 FROM received_bodies b WHERE b.person = v.person AND b.received_at > v.checked_at::timestamptz)
                """)
        }
        return Set((0..<r.rows).compactMap { r.text($0, 0) })
    }
}
