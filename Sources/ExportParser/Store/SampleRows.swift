import CSQLite
import Foundation

/// The sample tables of one import: `sample_records` (with each sample's metadata object in
/// `metadata_json`) and `hrv_beats`, in multi-row inserts with writer-given ids (`MultiRowInsert`).
final class SampleRows {
    private let rows: StoreRows
    private let names: StoreNames
    // `@exclusivity(unchecked)`: the state the store writer touches on every sample, used by the
    // writer thread alone; why that is safe is the promise written on `SampleSink`.
    @exclusivity(unchecked) private(set) var samplesRead = 0
    @exclusivity(unchecked) private(set) var samplesAdded = 0

    /// Samples and their beats go in as multi-row inserts (see `MultiRowInsert`): they are held
    /// here until a statement's worth is ready.
    private let insertSamples: MultiRowInsert
    private let insertBeats: MultiRowInsert
    @exclusivity(unchecked) private var pendingSamples: [PendingSample] = []
    @exclusivity(unchecked) private var pendingBeats: [(sampleID: Int64, position: Int, beat: InstantaneousBeat)] = []
    /// The id the next sample gets. Ids are given here rather than by SQLite so that the ids of
    /// a multi-row insert are known without a query; the import's transaction holds the write
    /// lock, so nobody else takes one meanwhile. A duplicate the insert ignores leaves its id unused.
    @exclusivity(unchecked) private var nextSampleID: Int64
    /// One more than the highest id `sample_records` holds (it only grows: every id this import
    /// gives is above the ones before it).
    @exclusivity(unchecked) private var tableNextID: Int64
    /// Statements still to bind the writer's ids after one that left them to SQLite left a
    /// duplicate out, and how many the next such miss buys (doubling, back to 1 after a
    /// statement appended whole): a re-import of an overlapping export, where most statements
    /// hold duplicates, tries the cheap statement a few times per run of duplicates, not every time.
    @exclusivity(unchecked) private var explicitStatementsLeft = 0
    @exclusivity(unchecked) private var explicitBackoff = 1
    private let insertedSampleIDs: Statement
    private let removeSamplesFrom: Statement

    private struct PendingSample {
        let id: Int64
        let typeID: Int64
        let sourceID: Int64
        let deviceID: Int64?
        let sample: StoreSample
    }

    init(rows: StoreRows, names: StoreNames) throws {
        self.rows = rows
        self.names = names
        let db = rows.db
        let (person, importID) = (rows.person, rows.importID)
        insertSamples = MultiRowInsert(
            db: db,
            head: """
                INSERT OR IGNORE INTO sample_records (id, person, import_id, type_id, source_id, source_version, device_id, unit,
                  value, value_text, payload_value, created_epoch, created_offset, start_epoch, start_offset, end_epoch, end_offset,
                  time_zone, bucket_minimum, bucket_maximum, is_bucket, metadata_digest, metadata_json, key_digest) VALUES
                """,
            rowTemplate: "(#, ?1, ?2, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #)"
        ) { s in
            s.bind(1, person)
            s.bind(2, importID)
        }
        insertBeats = MultiRowInsert(
            db: db, head: "INSERT INTO hrv_beats (sample_id, position, bpm, time) VALUES ", rowTemplate: "(#, #, #, #)")
        nextSampleID = (try db.scalarInt("SELECT ifnull(max(id), 0) + 1 FROM sample_records")) ?? 1
        tableNextID = nextSampleID
        insertedSampleIDs = try db.prepare("SELECT id FROM sample_records WHERE id BETWEEN ?1 AND ?2")
        removeSamplesFrom = try db.prepare("DELETE FROM sample_records WHERE id >= ?1")
    }

    func write(_ s: consuming StoreSample) throws {
        samplesRead += 1
        let typeID = try names.typeID(s)
        pendingSamples.append(
            PendingSample(
                id: nextSampleID, typeID: typeID, sourceID: try names.sourceID(local: s.source),
                deviceID: try names.deviceID(local: s.device), sample: s))
        nextSampleID += 1
        if pendingSamples.count >= insertSamples.rowsPerStatement { try flushSamples() }
    }

    /// Writes every row still held back. The writer thread calls it after the last item.
    func flush() throws {
        try flushSamples()
        try flushBeats(whole: false)
    }

    /// Writes the held samples as one statement, then the beats of those that went in.
    ///
    /// Whose ids: with the writer's ids bound, SQLite checks each id is free (`OP_NotExists`)
    /// with a search of `sample_records` from its root, as its cursor forgets its place after
    /// every insert: 7.5 % of the writer thread's instructions. With NULL bound for the id, SQLite
    /// takes the next id from the end of the table, where its cursor already is (`OP_NewRowid`),
    /// and the check that follows finds the id past the last row without a search. Both give the
    /// same ids when the first held sample's id is the table's next one and every sample goes in:
    /// SQLite's next id is then one more than the previous row's, as the writer's is. That is
    /// every statement of a new store without duplicates. When a statement with SQLite's ids
    /// leaves a duplicate out, its rows (ids from `first.id` on: nobody else writes meanwhile) are
    /// deleted again and the samples written with the writer's ids, so a duplicate still leaves
    /// its id unused and every id, kept row and child row is what the writer's ids give
    /// (docs/store.md, "Writing speed").
    private func flushSamples() throws {
        guard let first = pendingSamples.first, let last = pendingSamples.last else { return }
        var inserted: Int?
        if explicitStatementsLeft == 0, first.id == tableNextID {
            let appended = try insertPending(writerIDs: false)
            if appended == pendingSamples.count {
                explicitBackoff = 1
                inserted = appended
            } else {
                removeSamplesFrom.bind(1, first.id)
                try removeSamplesFrom.run()
                explicitStatementsLeft = explicitBackoff
                explicitBackoff = min(explicitBackoff * 2, 1024)
            }
        } else if explicitStatementsLeft > 0 {
            explicitStatementsLeft -= 1
        }
        // Which rows went in: all of them when no duplicate was left out; otherwise ask for the
        // ids in range (duplicates were ignored and left their ids unused).
        var kept: Set<Int64>?
        if inserted == nil {
            let n = try insertPending(writerIDs: true)
            inserted = n
            if n < pendingSamples.count {
                var ids = Set<Int64>()
                insertedSampleIDs.bind(1, first.id)
                insertedSampleIDs.bind(2, last.id)
                defer { insertedSampleIDs.reset() }
                while try insertedSampleIDs.step() { ids.insert(insertedSampleIDs.int(0)) }
                kept = ids
            }
        }
        if let kept {
            if let highest = kept.max() { tableNextID = highest + 1 }
        } else {
            tableNextID = last.id + 1
        }
        for k in pendingSamples.indices where kept?.contains(pendingSamples[k].id) ?? true {
            let id = pendingSamples[k].id
            names.countAdded(type: pendingSamples[k].sample.type)
            for (i, b) in pendingSamples[k].sample.beats.enumerated() { pendingBeats.append((id, i, b)) }
        }
        let added = inserted ?? 0
        samplesAdded += added
        rows.added("sample_records", added)
        pendingSamples.removeAll(keepingCapacity: true)
        try flushBeats(whole: true)
    }

    /// Inserts the held samples with the writer's ids or NULL ids (SQLite's next ones); returns
    /// the rows that went in.
    private func insertPending(writerIDs: Bool) throws -> Int {
        // Bound through a pointer into the buffer: safe because `pendingSamples` is not changed
        // while the closure runs (it is this object's, and `insert` calls back synchronously),
        // and `row < pending.count`. An array subscript or a Span copied each row instead
        // (0.35 % of a convert's instructions, measured with callgrind).
        return try pendingSamples.withUnsafeBufferPointer { pending in
            try insertSamples.insert(rows: pending.count) { st, row, i in
                let p = pending.baseAddress! + row
                st.bind(i, writerIDs ? p.pointee.id : nil)
                st.bind(i + 1, p.pointee.typeID)
                st.bind(i + 2, p.pointee.sourceID)
                st.bindStatic(i + 3, names.staticText(p.pointee.sample.sourceVersion))
                st.bind(i + 4, p.pointee.deviceID)
                st.bindStatic(i + 5, names.staticText(p.pointee.sample.unit))
                st.bind(i + 6, p.pointee.sample.value)
                st.bind(i + 7, p.pointee.sample.valueText)
                st.bind(i + 8, p.pointee.sample.canonicalValue)
                st.bindEpochOffset(i + 9, p.pointee.sample.created)
                st.bindEpochOffset(i + 11, p.pointee.sample.start)
                st.bindEpochOffset(i + 13, p.pointee.sample.end)
                st.bindStatic(i + 15, names.staticText(p.pointee.sample.timeZone))
                st.bind(i + 16, p.pointee.sample.bucketMinimum)
                st.bind(i + 17, p.pointee.sample.bucketMaximum)
                st.bind(i + 18, p.pointee.sample.isBucket ? 1 : 0)
                st.bind(i + 19, Int64(bitPattern: p.pointee.sample.metadataDigest))
                if p.pointee.sample.metadata >= 0 {
                    st.bindStatic(i + 20, names.staticText(p.pointee.sample.metadata))
                } else {
                    st.bind(i + 20, p.pointee.sample.metadataJSON)
                }
                st.bind(i + 21, keyDigest(p))
            }
        }
    }

    /// The sample's `key_digest` (`SampleKeyDigest`) from the values bound for it: its source's
    /// id in the store, its unit's hash made once per name. Read in place through `p`: a copy of
    /// the sample counted the references it holds.
    @inline(__always) private func keyDigest(_ p: UnsafePointer<PendingSample>) -> Int64 {
        SampleKeyDigest.digest(
            endEpoch: p.pointee.sample.end.seconds, sourceID: p.pointee.sourceID, value: p.pointee.sample.value,
            valueTextHash: SampleKeyDigest.textHash(p.pointee.sample.valueText), unitHash: names.textHash(p.pointee.sample.unit),
            metadataDigest: p.pointee.sample.metadataDigest)
    }

    private func flushBeats(whole: Bool) throws {
        try flush(&pendingBeats, with: insertBeats, table: "hrv_beats", wholeStatementsOnly: whole) { st, b, i in
            st.bind(i, b.sampleID)
            st.bind(i + 1, b.position)
            st.bind(i + 2, b.beat.bpm)
            st.bind(i + 3, b.beat.time)
        }
    }

    /// Writes held child rows (beats of samples already written), each bound from the buffer
    /// where it is (the closure borrows the row). With `wholeStatementsOnly`, only full statements'
    /// worth go and the rest waits for the next samples (one statement size, cursors kept open).
    private func flush<Row>(
        _ rows: inout [Row], with insert: MultiRowInsert, table: String, wholeStatementsOnly: Bool,
        bind: (Statement, borrowing Row, Int32) -> Void
    ) throws {
        let n = wholeStatementsOnly ? rows.count - rows.count % insert.rowsPerStatement : rows.count
        guard n > 0 else { return }
        _ = try insert.insert(rows: n) { st, row, i in bind(st, rows[row], i) }
        self.rows.added(table, n)
        rows.removeFirst(n)
    }
}
