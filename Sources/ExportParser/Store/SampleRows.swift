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
    private let insertedSampleIDs: Statement

    private struct PendingSample {
        let id: Int64
        let typeID: Int64
        let sourceID: Int64
        let deviceID: Int64?
        let entry: StoreNames.TypeEntry
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
                  time_zone, bucket_minimum, bucket_maximum, is_bucket, metadata_digest, metadata_json) VALUES
                """,
            rowTemplate: "(#, ?1, ?2, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #)"
        ) { s in
            s.bind(1, person)
            s.bind(2, importID)
        }
        insertBeats = MultiRowInsert(
            db: db, head: "INSERT INTO hrv_beats (sample_id, position, bpm, time) VALUES ", rowTemplate: "(#, #, #, #)")
        nextSampleID = (try db.scalarInt("SELECT ifnull(max(id), 0) + 1 FROM sample_records")) ?? 1
        insertedSampleIDs = try db.prepare("SELECT id FROM sample_records WHERE id BETWEEN ?1 AND ?2")
    }

    func write(_ s: consuming StoreSample) throws {
        samplesRead += 1
        let typeID = try names.typeID(s)
        pendingSamples.append(
            PendingSample(
                id: nextSampleID, typeID: typeID, sourceID: try names.sourceID(local: s.source),
                deviceID: try names.deviceID(local: s.device),
                entry: names.current, sample: s))
        nextSampleID += 1
        if pendingSamples.count >= insertSamples.rowsPerStatement { try flushSamples() }
    }

    /// Writes every row still held back. The writer thread calls it after the last item.
    func flush() throws {
        try flushSamples()
        try flushBeats(whole: false)
    }

    private func flushSamples() throws {
        guard let first = pendingSamples.first, let last = pendingSamples.last else { return }
        // Bound through a pointer into the buffer: safe because `pendingSamples` is not changed
        // while the closure runs (it is this object's, and `insert` calls back synchronously),
        // and `row < pending.count`. An array subscript or a Span copied each row instead
        // (0.35 % of a convert's instructions, measured with callgrind).
        let inserted = try pendingSamples.withUnsafeBufferPointer { pending in
            try insertSamples.insert(rows: pending.count) { st, row, i in
                let p = pending.baseAddress! + row
                st.bind(i, p.pointee.id)
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
                st.bind(i + 20, p.pointee.sample.metadataJSON)
            }
        }
        // Which rows went in: all of them in a first import; otherwise ask for the ids in range
        // (duplicates of earlier imports were ignored and left their ids unused).
        var kept: Set<Int64>?
        if inserted < pendingSamples.count {
            var ids = Set<Int64>()
            insertedSampleIDs.bind(1, first.id)
            insertedSampleIDs.bind(2, last.id)
            defer { insertedSampleIDs.reset() }
            while try insertedSampleIDs.step() { ids.insert(insertedSampleIDs.int(0)) }
            kept = ids
        }
        for k in pendingSamples.indices where kept?.contains(pendingSamples[k].id) ?? true {
            let id = pendingSamples[k].id
            pendingSamples[k].entry.added += 1
            for (i, b) in pendingSamples[k].sample.beats.enumerated() { pendingBeats.append((id, i, b)) }
        }
        samplesAdded += inserted
        rows.added("sample_records", inserted)
        pendingSamples.removeAll(keepingCapacity: true)
        try flushBeats(whole: true)
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
