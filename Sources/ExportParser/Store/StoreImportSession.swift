import CSQLite
import Foundation

/// One import into the store, inside one transaction (a savepoint, when it is part of a
/// `convert` run: `HealthStore.beginRun`). The reader feeds it as a `SampleSink`
/// on its decoding thread; the sink only appends already-decoded values to a small batch and
/// hands full batches to a writer thread through a bounded queue, so SQLite's work overlaps the
/// parsing and memory stays flat. `complete` writes the day values and the import's counts and
/// commits; `abandon` (or an error) rolls everything back.
// @unchecked Sendable: the parsing thread fills batches, the writer thread owns the connection; they meet only in the queue.
final class StoreImportSession: SampleSink, @unchecked Sendable {
    let importID: Int64
    let meta: ImportMetadata
    var wantsDetails: Bool { true }

    /// The weight (`weight(of:)`, about the rows it becomes) a batch holds before it is handed
    /// over, and batches the queue holds before the parser waits.
    static let batchSize = 2048
    static let queueCapacity = 8

    /// SQLite's page cache while an import loads and commits (KiB; the connection's own is
    /// `HealthStore.cacheKiB`, given back when the import ends). The bulk tables are written where
    /// their B-trees end or, for the natural-key index, at one place a record type (records come
    /// grouped by type and in time order), so a few pages a tree are all the load touches again;
    /// a bigger cache only held pages already written. Measured on the 1 GB export (issue 24): a
    /// 16 MiB cache read back 195 pages, this one 1,551 (16 KiB each, from the OS's file cache:
    /// about 0.05 s), for 16-20 MB less peak RSS; the writes were the same (24.5 k pages).
    static let loadCacheKiB = 1024

    private let store: HealthStore
    private let writer: StoreWriter
    private let queue = BoundedBatchQueue<StoreItem>(capacity: StoreImportSession.queueCapacity)
    // `@exclusivity(unchecked)`: the state every sample the session takes touches, used by the
    // thread that feeds the sink alone (its writer thread has its own); why that is safe is the
    // promise written on `SampleSink`. The checks were 2 % of the decoding thread's instructions
    // (callgrind, 40 MB export: 167 k `swift_beginAccess`/`endAccess` pairs for 83,578 samples).
    @exclusivity(unchecked) private var batch: [StoreItem] = []
    @exclusivity(unchecked) private var batchWeight = 0
    /// Names of the samples handed over, by id (parsing thread; see `StoreSample`).
    @exclusivity(unchecked) private var names = StoreSample.Names()
    private let done = DispatchSemaphore(value: 0)
    private let status = WriterStatus()

    /// What the writer thread reports: its first error (later items are then discarded) and its
    /// time. Written by that thread before it signals `done`, read after waiting on it. The thread holds this, the queue and the writer, never the session,
    /// so a session dropped without `complete` is deinitialised and rolls back.
    // @unchecked Sendable: written by the writer thread before `done.signal()`, read after `done.wait()`.
    private final class WriterStatus: @unchecked Sendable {
        var error: Error?
        var nanoseconds: UInt64 = 0
        var cpuNanoseconds: UInt64 = 0
    }
    private var state: State = .open
    private enum State { case open, completed, abandoned }

    init(store: HealthStore, importID: Int64, meta: ImportMetadata) throws {
        self.store = store
        self.importID = importID
        self.meta = meta
        self.writer = try StoreWriter(db: store.db, person: meta.person, importID: importID)
        batch.reserveCapacity(Self.batchSize)
        try store.db.execute("PRAGMA cache_size = -\(Self.loadCacheKiB)")
        // The thread lets go of the writer before it signals `done` (see `runWriter`).
        let (queue, writer, status, done) = (queue, Box(writer), status, done)
        NamedThread.start("store writer") {
            Self.runWriter(queue: queue, writer: writer, status: status, done: done)
        }
    }

    deinit {
        if state == .open { abandon() }
    }

    /// The writer thread's whole life. It holds the writer only while it writes: were the
    /// thread's closure still holding it when `done` is signalled, a process that ends right
    /// after a failed import (convert exits at once) could end before the thread let go, with
    /// the writer's statements unfinalized; SQLite then never really closes the connection and
    /// leaves the `-wal` and `-shm` files beside the store.
    private static func runWriter(
        queue: BoundedBatchQueue<StoreItem>, writer: Box<StoreWriter>, status: WriterStatus, done: DispatchSemaphore
    ) {
        if let w = writer.value {
            writer.value = nil
            write(queue: queue, writer: w, status: status)
        }
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        status.cpuNanoseconds = UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
        done.signal()
    }

    private static func write(queue: BoundedBatchQueue<StoreItem>, writer: StoreWriter, status: WriterStatus) {
        // The writer thread uses the connection (and so the writer) until it signals `done`.
        writer.db.confinement.claim()
        while var items = queue.pop() {
            if status.error != nil { continue }
            let t0 = DispatchTime.now().uptimeNanoseconds
            do {
                // In order, each item moved out of the batch (swapped with an item that holds no
                // reference), so that neither thread copies the strings and arrays it holds.
                // Batches were reversed on the decoding thread instead, for `popLast`: the
                // reversal swapped whole items there, 40 M instructions on a 40 MB export
                // (docs/store.md, store6).
                for i in items.indices {
                    var item = StoreItem.exportDate(Timestamp(seconds: 0, offset: 0))
                    swap(&item, &items[i])
                    try writer.write(consume item)
                }
            } catch {
                status.error = error
            }
            status.nanoseconds &+= DispatchTime.now().uptimeNanoseconds &- t0
        }
        // The rows the writer still holds for its next multi-row insert. (After an abandon the
        // import is rolled back anyway.)
        if status.error == nil {
            let t0 = DispatchTime.now().uptimeNanoseconds
            do { try writer.flush() } catch { status.error = error }
            status.nanoseconds &+= DispatchTime.now().uptimeNanoseconds &- t0
        }
    }

    @inline(__always) private func enqueue(_ item: StoreItem, weight: Int = 1) {
        batch.append(item)
        batchWeight &+= weight
        if batchWeight >= Self.batchSize { flush() }
    }

    private func flush() {
        guard !batch.isEmpty else { return }
        let handed = batch.count
        queue.push(batch)
        batch = []
        batchWeight = 0
        batch.reserveCapacity(Self.reservation(after: handed))
    }

    /// The items a new batch reserves room for: as many as the batch just handed over held
    /// (export.xml lists its elements grouped by kind, so the next batch is most likely the same
    /// kind), at most `batchSize`. A batch is full by weight, not by count: 2,048 samples, but
    /// only a few hundred correlations, workouts or activity summaries, each of which weighs the
    /// rows it becomes. Every batch reserved 2,048 items before (about 200 bytes each, inline),
    /// most of them never used by the correlations waiting in the queue at the read's end, where
    /// memory peaks (issue 24: 4.1 MB of a 6.4 GB export's heap peak). A batch that outgrows its
    /// room grows as any array does.
    static func reservation(after handed: Int) -> Int {
        Swift.min(Swift.max(handed, 1), batchSize)
    }

    /// What an item weighs in a batch: about the rows it becomes. A sample is one (its metadata
    /// is one JSON text by then); a correlation or a workout still holds its members, metadata
    /// and statistics as values, each its own allocations, so a batch of 2,048 of them held
    /// several times a batch of samples' memory (27 MB of the queue at the 3 GB export's peak;
    /// issue 24). The rows written and their order are the same whatever the batches.
    static func weight(of item: StoreItem) -> Int {
        switch item {
        case .correlation(let c):
            return c.members.reduce(1 + c.metadata.count) { $0 + 1 + $1.metadata.count + $1.beats.count }
        case .workout(let w):
            return 1 + w.metadata.count + w.statistics.count + w.events.count + w.routes.count
                + w.activities.reduce(0) { $0 + 1 + $1.statistics.count + $1.events.count + $1.metadata.count }
        case .activitySummary(let a):
            // Its attributes as texts, a dozen or so: a batch of 2,048 held about 2 MB, and the
            // activity summaries come last, when the writer lags furthest behind: the queue held
            // all 12,205 of a 6.4 GB export at the read's peak (14 MB; issue 24).
            return 1 + a.attributes.count
        case .me(let m):
            return 1 + m.attributes.count
        default:
            return 1
        }
    }

    // MARK: SampleSink (parsing thread)

    func exportDate(_ date: Timestamp) { enqueue(.exportDate(date)) }
    func me(_ me: Me) {
        let item = StoreItem.me(me)
        enqueue(item, weight: Self.weight(of: item))
    }
    func sample(_ sample: Sample) {
        let s = names.storeSample(sample)
        if !names.newNames.isEmpty { enqueue(.names(names.takeNewNames())) }
        enqueue(.sample(s))
    }
    func sample(_ sample: Sample, metadata: MetadataEntryTexts) {
        let s = names.storeSample(sample, metadata: metadata)
        if !names.newNames.isEmpty { enqueue(.names(names.takeNewNames())) }
        enqueue(.sample(s))
    }
    func correlation(_ correlation: Correlation) {
        let item = StoreItem.correlation(correlation)
        enqueue(item, weight: Self.weight(of: item))
    }
    func workout(_ workout: Workout) {
        let item = StoreItem.workout(workout)
        enqueue(item, weight: Self.weight(of: item))
    }
    func activitySummary(_ summary: ActivitySummary) {
        let item = StoreItem.activitySummary(summary)
        enqueue(item, weight: Self.weight(of: item))
    }
    func extra(_ item: ExtraItem) { enqueue(.extra(item)) }
    func sleepSummary(_ night: SleepSummary) { enqueue(.sleepSummary(night)) }

    // MARK: Ending the import

    /// Waits for the writer thread to write everything queued; rethrows its error.
    private func drainWriter() throws {
        flush()
        queue.close()
        done.wait()
        store.db.confinement.claim()  // the writer thread has ended: the caller's again
        if let error = status.error { throw error }
    }

    /// Writes the per-day values of this input, replacing those of the dates it covers for this
    /// person, records counts by type and skips, sets `finished_at`, builds missing secondary
    /// indexes and commits. On any error the whole import is rolled back and the error thrown.
    func complete(days: [FinishedDay], report: ReadReport, sha256: String? = nil) throws -> StoreImportResult {
        precondition(state == .open, "complete called on a finished import session")
        let db = store.db
        do {
            try drainWriter()
            var replaced: StoredImport?
            var remerge: [String] = []
            if let sha256 {
                // The digest was computed while the file was read (begun with an empty one).
                if let earlier = try store.existingImport(person: meta.person, sha256: sha256) {
                    // The same file with the same options and days is stored once; with other
                    // options (or days) it replaces that import (`ImportReplacement`).
                    if try store.isSameImport(earlier, dayOptions: meta.dayOptions, days: days) {
                        throw AlreadyImported(existing: earlier)
                    }
                    remerge = try store.replace(earlier, by: importID)
                    replaced = earlier
                }
                let u = try db.prepare("UPDATE imports SET file_sha256 = ?1 WHERE id = ?2")
                u.bind(1, sha256.lowercased())
                u.bind(2, importID)
                try u.run()
            }
            var rows = writer.rowsAdded
            let finishStarted = DispatchTime.now().uptimeNanoseconds
            let (added, valuesReplaced) = try writeDays(days, alsoMerging: remerge)
            rows["day_values", default: 0] += added
            try writeCounts(report)
            let s = try db.prepare(
                """
                UPDATE imports SET finished_at = ?1, export_date = ?2, bytes_read = ?3, records_read = ?4, workouts_read = ?5,
                  correlations_read = ?6, activity_summaries_read = ?7, control_characters_dropped = ?8
                WHERE id = ?9
                """)
            s.bind(1, HealthStore.isoUTC(Date()))
            s.bind(2, writer.exportDate.map { ISOInstant.string($0) })
            s.bind(3, report.bytesRead)
            s.bind(4, max(report.totalRecords, writer.samplesRead))
            s.bind(5, report.workouts)
            s.bind(6, report.correlations)
            s.bind(7, report.activitySummaries)
            s.bind(8, report.controlCharactersDropped)
            s.bind(9, importID)
            try s.run()
            try db.execute(StoreSchema.secondaryIndexes)
            // Inside a run (`convert`) this only releases the savepoint: the run commits.
            try store.endWrite(savepoint: Self.savepoint)
            state = .completed
            // Inside a run the small cache stays until the run ends (`commitRun` gives the 16 MiB
            // back): what follows is the run's payload texts, written once, and a bigger cache
            // would only hold their pages (issue 24: up to 16 MB of the 3 GB export's peak RSS).
            if !store.runInProgress { store.restorePageCache() }
            store.importInProgress = false
            if store.runInProgress {
                // `commitRun` moves a new store into place or checkpoints the WAL.
            } else if store.creatingAt != nil {
                try store.publishIfNew()
            } else {
                // Fold the WAL back into the file now rather than on some later reader's connection.
                sqlite3_wal_checkpoint_v2(db.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            return StoreImportResult(
                importID: importID, rowsAdded: rows, dayValuesReplaced: valuesReplaced, replacedImport: replaced,
                samplesRead: writer.samplesRead,
                samplesAdded: writer.samplesAdded,
                writerSeconds: Double(status.nanoseconds) / 1e9, writerCPUSeconds: Double(status.cpuNanoseconds) / 1e9,
                finishSeconds: Double(DispatchTime.now().uptimeNanoseconds - finishStarted) / 1e9)
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls the import back (the run failed). Safe to call more than once.
    func abandon() {
        guard state == .open else { return }
        queue.discardAndClose()
        done.wait()
        store.db.confinement.claim()
        rollback()
    }

    private func rollback() {
        if state == .open {
            // Normally the writer has ended by now; if not, it stops at the closed queue.
            queue.discardAndClose()
        }
        store.rollbackWrite(savepoint: Self.savepoint)
        state = .abandoned
        store.restorePageCache()
        store.importInProgress = false
    }

    /// Keeps this input's own day values (`import_day_values`, with the day's workouts as payload
    /// JSON under `workouts_json`), then recomputes the person's merged `day_values` for the dates
    /// it covers. Per date, the newest native import that covers it replaces older native ones
    /// whole (a newer export is the newer truth, deletions included), and so does the newest HAE
    /// import among HAE ones; then, field by field, native wins and HAE fills, whatever the order
    /// of the imports. As in `convert` (`DayMerge`), a night's sleep and a min/max/avg summary are
    /// one unit each: the side that has any of their fields gives all of them. Returns rows
    /// inserted and deleted in `day_values`. `alsoMerging`: dates whose merged values are made
    /// again though this import has none (an import it replaced covered them).
    private func writeDays(_ days: [FinishedDay], alsoMerging extra: [String] = []) throws -> (Int, Int) {
        let db = store.db
        // Multi-row inserts for the tens of thousands of rows (one-row inserts cost three times
        // as much: see `MultiRowInsert`), one statement's worth held at a time: holding every
        // date's rows at once took about 80 bytes a field, 20 MB at 5,648 dates (issue 24).
        let insertOwn = MultiRowInsert(
            db: db, head: "INSERT INTO import_day_values (import_id, date, field, value, text, unit) VALUES ",
            rowTemplate: "(?1, #, #, #, #, #)"
        ) { [importID] s in s.bind(1, importID) }
        var own: [(date: String, field: FinishedDay.Field)] = []
        own.reserveCapacity(insertOwn.rowsPerStatement)
        func insertHeld() throws {
            _ = try insertOwn.insert(rows: own.count) { st, row, i in
                st.bind(i, own[row].date)
                st.bind(i + 1, own[row].field.name)
                st.bind(i + 2, own[row].field.value)
                st.bind(i + 3, own[row].field.text)
                st.bind(i + 4, own[row].field.unit)
            }
            own.removeAll(keepingCapacity: true)
        }
        func keep(_ date: String, _ field: FinishedDay.Field) throws {
            own.append((date, field))
            if own.count == insertOwn.rowsPerStatement { try insertHeld() }
        }
        for day in days {
            for f in day.fields { try keep(day.date, f) }
            if !day.workouts.isEmpty {
                let json = JSONValue.array(day.workouts.map(PayloadEncoder.workout)).render(indent: nil)
                try keep(day.date, FinishedDay.Field(name: Self.workoutsField, text: json))
            }
        }
        try insertHeld()
        let dates = "SELECT DISTINCT date FROM import_day_values WHERE import_id = ?2 UNION SELECT value FROM json_each(?3)"
        let extraDates = JSONValue.array(extra.map { .string($0) }).render(indent: nil)
        let delete = try db.prepare("DELETE FROM day_values WHERE person = ?1 AND date IN (\(dates))")
        delete.bind(1, meta.person)
        delete.bind(2, importID)
        delete.bind(3, extraDates)
        try delete.run()
        let deleted = db.changes
        // The person's first import with day values (the common case, and the biggest import):
        // the merge of one import is that import, so its rows are copied as they are.
        let others = try db.prepare(
            """
            SELECT 1 FROM imports i WHERE i.person = ?1 AND i.id <> ?2
              AND EXISTS (SELECT 1 FROM import_day_values v WHERE v.import_id = i.id) LIMIT 1
            """)
        others.bind(1, meta.person)
        others.bind(2, importID)
        let alone = try !others.step()
        others.reset()
        if alone {
            let copy = try db.prepare(
                """
                INSERT INTO day_values (person, date, field, value, text, unit, import_id)
                SELECT ?1, date, field, value, text, unit, import_id FROM import_day_values
                WHERE import_id = ?2 AND field <> '\(Self.workoutsField)'
                """)
            copy.bind(1, meta.person)
            copy.bind(2, importID)
            try copy.run()
            return (db.changes, deleted)
        }
        let merge = try db.prepare(
            """
            WITH newest AS (
                SELECT v.date, i.format = 'hae' AS is_hae, max(v.import_id) AS import_id
                FROM import_day_values v JOIN imports i ON i.id = v.import_id
                WHERE i.person = ?1 AND v.date IN (\(dates))
                GROUP BY v.date, is_hae
            )
            , candidates AS (
                SELECT v.date, v.field, v.value, v.text, v.unit, v.import_id, n.is_hae,
                    CASE WHEN v.field LIKE 'sleep!_%' ESCAPE '!' THEN 'sleep'
                         WHEN v.field LIKE 'heart!_rate!_%' ESCAPE '!' THEN 'heart_rate'
                         ELSE v.field END AS unit_of
                FROM newest n JOIN import_day_values v ON v.import_id = n.import_id AND v.date = n.date
                WHERE v.field <> '\(Self.workoutsField)'
            )
            , chosen AS (SELECT date, unit_of, min(is_hae) AS is_hae FROM candidates GROUP BY date, unit_of)
            INSERT INTO day_values (person, date, field, value, text, unit, import_id)
            SELECT ?1, c.date, c.field, c.value, c.text, c.unit, c.import_id
            FROM candidates c JOIN chosen s ON s.date = c.date AND s.unit_of = c.unit_of AND s.is_hae = c.is_hae
            """)
        merge.bind(1, meta.person)
        merge.bind(2, importID)
        merge.bind(3, extraDates)
        try merge.run()
        return (db.changes, deleted)
    }

    /// The savepoint an import is inside a run's transaction (`HealthStore.beginRun`).
    static let savepoint = "health_import_input"

    /// The `import_day_values` field that holds a day's workouts as the payload writes them.
    static let workoutsField = "workouts_json"

    private func writeCounts(_ report: ReadReport) throws {
        let db = store.db
        let counts = try db.prepare(
            """
            INSERT INTO import_record_counts (import_id, record_type, records_read, records_added) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (import_id, record_type) DO UPDATE SET records_read = excluded.records_read,
              records_added = records_added + excluded.records_added
            """)
        counts.bind(1, importID)
        let byType = writer.countsByType
        let types = Set(report.recordsByType.keys).union(byType.keys)
        for t in types.sorted() {
            counts.bind(2, t)
            counts.bind(3, max(report.recordsByType[t] ?? 0, byType[t]?.read ?? 0))
            counts.bind(4, byType[t]?.added ?? 0)
            try counts.run()
        }
        let skips = try db.prepare("INSERT INTO import_skips (import_id, reason, skipped, first_locations) VALUES (?1, ?2, ?3, ?4)")
        skips.bind(1, importID)
        for (reason, n) in report.skips.sorted(by: { $0.key < $1.key }) {
            skips.bind(2, reason)
            skips.bind(3, n)
            let locations = report.skipExamples[reason]?.map(\.description).joined(separator: "; ")
            skips.bind(4, locations?.isEmpty == false ? locations : nil)
            try skips.run()
        }
    }
}
