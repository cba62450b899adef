import Foundation

/// `FleetVerdicts` on PostgreSQL: the table `fleet_verdicts` (schema version 2, the columns of
/// the SQLite store's), which the workers of a sharded `compare --everyone` write side by side,
/// each verdict its own statement (autocommit: a worker stopped halfway keeps the people it
/// finished), and `--report` reads. The store holds no imports, so a watermark's imports are 0.
extension PostgresStore: FleetVerdicts {
    func write(_ v: FleetVerdict) throws {
        let values: [PostgresValue] = [
            .text(v.person), .text(v.status), .text(FleetVerdictColumns.failingFields(v)),
            .text(v.reason), .text(v.personJSON), .text(v.run.mode), .int(Int64(v.run.days)),
            v.run.monitor.map { .int(Int64($0)) } ?? .text(nil), .text(v.run.until), .text(v.shard), .text(v.run.toolVersion),
            .text(v.checkedAt), .text(v.writtenAt), .text(v.run.from), .text(v.run.timeZone), .text(v.run.tolerancesDigest),
            .text(v.judgedDate), .text(v.judgedZone), .text(v.runID), .int(v.watermark.bodiesMaxID), .int(v.watermark.bodies),
            .int(v.watermark.importsMaxID), .int(v.watermark.imports),
        ]
        try using { db in
            _ = try db.run(
                """
                INSERT INTO fleet_verdicts (person, status, failing_fields, reason, person_json, mode, days, monitor,
                    until_date, shard, tool_version, checked_at, written_at, from_date, time_zone, tolerances_sha256,
                    judged_date, judged_zone, run_id, bodies_max_id, bodies, imports_max_id, imports)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8::integer, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
                ON CONFLICT (person) DO UPDATE SET status = excluded.status, failing_fields = excluded.failing_fields,
                    reason = excluded.reason, person_json = excluded.person_json, mode = excluded.mode, days = excluded.days,
                    monitor = excluded.monitor, until_date = excluded.until_date, shard = excluded.shard,
                    tool_version = excluded.tool_version, checked_at = excluded.checked_at, written_at = excluded.written_at,
                    from_date = excluded.from_date, time_zone = excluded.time_zone, tolerances_sha256 = excluded.tolerances_sha256,
                    judged_date = excluded.judged_date, judged_zone = excluded.judged_zone, run_id = excluded.run_id,
                    bodies_max_id = excluded.bodies_max_id, bodies = excluded.bodies, imports_max_id = excluded.imports_max_id,
                    imports = excluded.imports
                """, values)
        }
    }

    func all() throws -> [FleetVerdict] {
        let r = try using { db in try db.run("SELECT \(FleetVerdictColumns.selected) FROM fleet_verdicts") }
        let out = (0..<r.rows).map { row in
            FleetVerdictColumns.verdict(text: { r.text(row, $0) }, int: { r.int(row, $0) }, isNull: { r.isNull(row, $0) })
        }
        // Sorted here, not by the server's collation, so the order is the SQLite store's.
        return out.sorted { $0.person < $1.person }
    }

    /// The person's received bodies now (committed rows only: the statement's snapshot).
    func watermark(person: String) throws -> FleetWatermark {
        let r = try using { db in
            try db.run("SELECT coalesce(max(id), 0), count(*) FROM received_bodies WHERE person = $1", [.text(person)])
        }
        guard r.rows > 0 else { return FleetWatermark() }
        return FleetWatermark(bodiesMaxID: r.int(0, 0), bodies: r.int(0, 1))
    }

    func changedSinceChecked() throws -> Set<String> {
        // The same aggregates as `watermark`, for every verdict at once: ids and counts the
        // database assigned, never the clock times of machines. A bigserial id is assigned at
        // insert, not at commit, so the count catches a body committed after a higher id.
        let r = try using { db in
            try db.run(
                """
                SELECT v.person FROM fleet_verdicts v
                LEFT JOIN (SELECT person, max(id) AS max_id, count(*) AS n FROM received_bodies GROUP BY person) b
                    ON b.person = v.person
                WHERE coalesce(b.max_id, 0) != v.bodies_max_id OR coalesce(b.n, 0) != v.bodies OR v.imports_max_id != 0
                    OR v.imports != 0
                """)
        }
        return Set((0..<r.rows).compactMap { r.text($0, 0) })
    }
}
