import Foundation

/// `fleet_verdicts`' columns as both stores read them back (`FleetVerdictTable` in SQLite,
/// `PostgresStore` in PostgreSQL): one column list for their SELECTs and one reading of a row
/// into a `FleetVerdict`, so the two cannot drift apart column by column.
enum FleetVerdictColumns {
    /// The SELECT list, in the order `verdict(text:int:isNull:)` reads.
    static let selected = """
        person, status, failing_fields, reason, person_json, mode, days, monitor, until_date, shard, checked_at,
            written_at, from_date, time_zone, tolerances_sha256, tool_version, judged_date, judged_zone, run_id,
            bodies_max_id, bodies, imports_max_id, imports
        """

    /// The failing fields as the column `failing_fields` holds them: a JSON array of names.
    static func failingFields(_ v: FleetVerdict) -> String {
        JSONValue.array(v.failingFields.map(JSONValue.string)).render(indent: nil)
    }

    /// One row of `selected`, its cells given by the store's own readers.
    static func verdict(text: (Int32) -> String?, int: (Int32) -> Int64, isNull: (Int32) -> Bool) -> FleetVerdict {
        let failing = (try? JSONSerialization.jsonObject(with: Data((text(2) ?? "[]").utf8))) as? [String] ?? []
        let run = FleetVerdict.Run(
            mode: text(5) ?? "", days: Int(int(6)), monitor: isNull(7) ? nil : Int(int(7)), until: text(8),
            from: text(12), timeZone: text(13), tolerancesDigest: text(14), toolVersion: text(15) ?? "")
        var v = FleetVerdict(
            person: text(0) ?? "", status: text(1) ?? "", failingFields: failing, reason: text(3) ?? "",
            personJSON: text(4) ?? "", run: run, shard: text(9) ?? "", checkedAt: text(10) ?? "",
            writtenAt: text(11) ?? "")
        v.judgedDate = text(16)
        v.judgedZone = text(17)
        v.runID = text(18)
        v.watermark = FleetWatermark(bodiesMaxID: int(19), bodies: int(20), importsMaxID: int(21), imports: int(22))
        return v
    }
}
