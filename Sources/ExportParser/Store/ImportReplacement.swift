import Foundation

/// A file imported again with other options (another `--timezone`, `--source-priority`, or a
/// health-import that makes other days of it) replaces its earlier import, inside the import's
/// own savepoint of the run (docs/store.md, "Rules": one transaction, so a failure leaves the
/// earlier import as it was).
///
/// The same file gives the same records: the new import's writer found every one of them in the
/// store already (each table's natural key) and added none, so the earlier import's rows are
/// handed to the new import rather than deleted and written again. Its own bookkeeping (day
/// values, counts, skips, the `imports` row) goes; the person's merged `day_values` of the dates
/// only the earlier import covered are made again from the imports that remain, and their
/// stored payloads, made with the replaced days, are removed (this run writes those of its own
/// dates).
extension HealthStore {
    /// The tables whose rows name the import that added them, all deduplicated by a natural key.
    static let rowTablesByImport = [
        "sample_records", "correlations", "workouts", "activity_summaries", "me", "extra_items", "sleep_summaries",
    ]

    /// The statement that hands one table's rows of import ?2 of person ?3 to import ?1.
    static func handOver(_ table: String) -> String { "UPDATE \(table) SET import_id = ?1 WHERE person = ?3 AND import_id = ?2" }

    /// Moves `earlier`'s rows to `importID`, removes `earlier`, and returns the dates it covered
    /// that `importID` must merge again (`StoreImportSession.writeDays`), with those dates' stored
    /// payloads removed. Call inside the import's savepoint, before the new import's day values
    /// are written.
    func replace(_ earlier: StoredImport, by importID: Int64) throws -> [String] {
        for table in Self.rowTablesByImport {
            // `person` first: every one of these tables has an index that starts with it and
            // none one on `import_id`, so the update seeks the person's rows instead of scanning
            // every person's (EXPLAIN QUERY PLAN: SEARCH … USING INDEX … (person=?)).
            let move = try db.prepare(Self.handOver(table))
            move.bind(1, importID)
            move.bind(2, earlier.id)
            move.bind(3, earlier.person)
            try move.run()
        }
        // What the earlier import added to the store is the new one's now: its counts go on.
        let counts = try db.prepare(
            """
            INSERT INTO import_record_counts (import_id, record_type, records_read, records_added)
            SELECT ?1, record_type, 0, records_added FROM import_record_counts WHERE import_id = ?2
            """)
        counts.bind(1, importID)
        counts.bind(2, earlier.id)
        try counts.run()
        let dates = try db.prepare("SELECT DISTINCT date FROM import_day_values WHERE import_id = ?1 ORDER BY date")
        dates.bind(1, earlier.id)
        var covered: [String] = []
        while try dates.step() { if let d = dates.text(0) { covered.append(d) } }
        for sql in [
            "DELETE FROM day_payloads WHERE person = ?2 AND date IN (SELECT date FROM import_day_values WHERE import_id = ?1)",
            "DELETE FROM day_values WHERE person = ?2 AND date IN (SELECT date FROM import_day_values WHERE import_id = ?1)",
            "DELETE FROM import_day_values WHERE import_id = ?1",
            "DELETE FROM import_record_counts WHERE import_id = ?1",
            "DELETE FROM import_skips WHERE import_id = ?1",
            "DELETE FROM imports WHERE id = ?1 AND person = ?2",
        ] {
            let s = try db.prepare(sql)
            s.bind(1, earlier.id)
            if sql.contains("?2") { s.bind(2, earlier.person) }
            try s.run()
        }
        return covered
    }
}
