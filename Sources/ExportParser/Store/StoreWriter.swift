import CSQLite
import Foundation

/// One thing the reader handed the store, queued for the writer thread.
enum StoreItem: Sendable {
    case sample(Sample)
    indirect case correlation(Correlation)
    indirect case workout(Workout)
    case activitySummary(ActivitySummary)
    case me(Me)
    case extra(ExtraItem)
    indirect case sleepSummary(SleepSummary)
    case exportDate(Timestamp)
}

/// Writes decoded items of one import with prepared statements and raw binds, inside the
/// import's open transaction. Runs on the session's writer thread; owns no transaction itself.
/// Used by one thread at a time (the writer thread, then, after it is done, the caller).
// @unchecked Sendable: used by the writer thread, then by the caller after it ends (its connection's `confinement`).
final class StoreWriter: @unchecked Sendable {
    let db: SQLiteConnection
    let person: String
    let importID: Int64

    var rowsAdded: [String: Int] = [:]
    var samplesRead = 0
    var samplesAdded = 0
    var exportDate: Timestamp?

    /// Samples and their metadata and beats go in as multi-row inserts (see `MultiRowInsert`):
    /// they are held here until a statement's worth is ready.
    private let insertSamples: MultiRowInsert
    private let insertSampleMetadata: MultiRowInsert
    private let insertBeats: MultiRowInsert
    private var pendingSamples: [PendingSample] = []
    private var pendingMetadata: [(sampleID: Int64, position: Int, entry: MetadataEntry)] = []
    private var pendingBeats: [(sampleID: Int64, position: Int, beat: InstantaneousBeat)] = []
    /// The id the next sample gets. Ids are given here rather than by SQLite so that the ids of
    /// a multi-row insert are known without a query; the import's transaction holds the write
    /// lock, so nobody else takes one meanwhile. A duplicate the insert ignores leaves its id unused.
    private var nextSampleID: Int64
    private let insertedSampleIDs: Statement

    private struct PendingSample {
        let id: Int64
        let typeID: Int64
        let sourceID: Int64
        let deviceID: Int64?
        let entry: TypeEntry
        let sample: Sample
    }
    private let insertCorrelation: Statement
    private let insertCorrelationMetadata: Statement
    private let insertCorrelationMember: Statement
    private let insertWorkout: Statement
    private let insertWorkoutActivity: Statement
    private let insertWorkoutMetadata: Statement
    private let insertWorkoutStatistic: Statement
    private let insertWorkoutEvent: Statement
    private let insertWorkoutRoute: Statement
    private let insertWorkoutRouteFile: Statement
    private let upsertActivitySummary: Statement
    private let upsertMe: Statement
    private let insertExtra: Statement
    private let insertSleepSummary: Statement
    private let findType: Statement
    private let insertType: Statement
    private let findSource: Statement
    private let insertSource: Statement
    private var sourceIDs: [String: Int64] = [:]
    /// The last device's text from its first `>` on (the part after the memory address), to
    /// recognise the same device without building a string.
    private var lastDeviceTail: [UInt8] = []
    private var lastDeviceHadAddress = false
    private var lastDeviceID: Int64 = -1
    /// Per-type ids and counters; records come grouped by type, so the last one is kept at hand.
    private final class TypeEntry {
        let id: Int64
        var read = 0
        var added = 0
        init(id: Int64) { self.id = id }
    }
    private var typeEntries: [String: TypeEntry] = [:]
    /// Catalog types by `Metric.index`: no hashing for the common types.
    private var catalogTypeEntries: [TypeEntry?] = Array(repeating: nil, count: Catalog.metrics.count)
    /// The few most recent sources; readers intern names, so comparing them is cheap.
    private var recentSources: [(name: String, id: Int64)] = []
    private var lastTypeName = ""
    private var current = TypeEntry(id: 0)
    private let findDevice: Statement
    private let insertDevice: Statement
    private var deviceIDs: [String: Int64] = [:]

    init(db: SQLiteConnection, person: String, importID: Int64) throws {
        self.db = db
        self.person = person
        self.importID = importID
        insertSamples = MultiRowInsert(
            db: db,
            head: """
                INSERT OR IGNORE INTO sample_records (id, person, import_id, type_id, source_id, source_version, device_id, unit,
                  value, value_text, payload_value, created_epoch, created_offset, start_epoch, start_offset, end_epoch, end_offset,
                  time_zone, bucket_minimum, bucket_maximum, is_bucket, metadata_digest) VALUES
                """,
            rowTemplate: "(#, ?1, ?2, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #, #)"
        ) { s in
            s.bind(1, person)
            s.bind(2, importID)
        }
        insertSampleMetadata = MultiRowInsert(db: db, head: "INSERT INTO sample_metadata (sample_id, position, key, value) VALUES ", rowTemplate: "(#, #, #, #)")
        insertBeats = MultiRowInsert(db: db, head: "INSERT INTO hrv_beats (sample_id, position, bpm, time) VALUES ", rowTemplate: "(#, #, #, #)")
        nextSampleID = (try db.scalarInt("SELECT ifnull(max(id), 0) + 1 FROM sample_records")) ?? 1
        insertedSampleIDs = try db.prepare("SELECT id FROM sample_records WHERE id BETWEEN ?1 AND ?2")
        insertCorrelation = try db.prepare("""
            INSERT OR IGNORE INTO correlations (person, import_id, type, source_name, source_version, device_id,
              created_at, created_epoch, start_at, start_epoch, end_at, end_epoch)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        insertCorrelationMetadata = try db.prepare("INSERT INTO correlation_metadata (correlation_id, key, value) VALUES (?1, ?2, ?3)")
        insertCorrelationMember = try db.prepare("""
            INSERT INTO correlation_members (correlation_id, position, type, source_name, source_version, device_id, unit, value,
              value_text, created_at, created_epoch, start_at, start_epoch, end_at, end_epoch, metadata_json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """)
        insertWorkout = try db.prepare("""
            INSERT OR IGNORE INTO workouts (person, import_id, activity_type, source_name, source_version, device_id,
              created_at, created_epoch, start_at, start_epoch, end_at, end_epoch, duration, duration_unit,
              total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit,
              stated_average_heart_rate, stated_maximum_heart_rate, time_zone, identity_digest)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)
            """)
        insertWorkoutActivity = try db.prepare("""
            INSERT INTO workout_activities (workout_id, position, uuid, start_at, start_epoch, end_at, end_epoch, duration, duration_unit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        insertWorkoutMetadata = try db.prepare("INSERT INTO workout_metadata (workout_id, activity_id, key, value) VALUES (?1, ?2, ?3, ?4)")
        insertWorkoutStatistic = try db.prepare("""
            INSERT INTO workout_statistics (workout_id, activity_id, type, start_at, start_epoch, end_at, end_epoch,
              average, minimum, maximum, sum, unit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        insertWorkoutEvent = try db.prepare("""
            INSERT INTO workout_events (workout_id, activity_id, type, date_at, date_epoch, duration, duration_unit, metadata_json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        insertWorkoutRoute = try db.prepare("""
            INSERT INTO workout_routes (workout_id, source_name, start_at, start_epoch, end_at, end_epoch, inline_location_count)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        insertWorkoutRouteFile = try db.prepare("INSERT INTO workout_route_files (route_id, path) VALUES (?1, ?2)")
        // Apple's daily summary of a date is replaced by a later export's, but only when it differs,
        // so the import that last changed it stays recorded.
        upsertActivitySummary = try db.prepare("""
            INSERT INTO activity_summaries (person, date, import_id, active_energy_burned, active_energy_burned_goal,
              active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time, apple_exercise_time_goal,
              apple_stand_hours, apple_stand_hours_goal, attributes_json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            ON CONFLICT (person, date) DO UPDATE SET import_id = excluded.import_id,
              active_energy_burned = excluded.active_energy_burned, active_energy_burned_goal = excluded.active_energy_burned_goal,
              active_energy_burned_unit = excluded.active_energy_burned_unit, apple_move_time = excluded.apple_move_time,
              apple_move_time_goal = excluded.apple_move_time_goal, apple_exercise_time = excluded.apple_exercise_time,
              apple_exercise_time_goal = excluded.apple_exercise_time_goal, apple_stand_hours = excluded.apple_stand_hours,
              apple_stand_hours_goal = excluded.apple_stand_hours_goal, attributes_json = excluded.attributes_json
            WHERE attributes_json IS NOT excluded.attributes_json
            """)
        upsertMe = try db.prepare("""
            INSERT INTO me (person, attribute, value, import_id) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (person, attribute) DO UPDATE SET value = excluded.value, import_id = excluded.import_id
            WHERE value IS NOT excluded.value
            """)
        insertExtra = try db.prepare("INSERT OR IGNORE INTO extra_items (person, import_id, kind, json) VALUES (?1, ?2, ?3, ?4)")
        insertSleepSummary = try db.prepare("""
            INSERT OR IGNORE INTO sleep_summaries (person, import_id, source_name, sleep_start_at, sleep_start_epoch,
              sleep_end_at, sleep_end_epoch, total_hours, core_hours, deep_hours, rem_hours, awake_hours, asleep_hours,
              in_bed_hours, in_bed_start_at, in_bed_start_epoch, in_bed_end_at, in_bed_end_epoch)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
            """)
        findType = try db.prepare("SELECT id FROM sample_types WHERE name = ?1")
        insertType = try db.prepare("INSERT INTO sample_types (name, payload_unit) VALUES (?1, ?2)")
        findSource = try db.prepare("SELECT id FROM sources WHERE name = ?1 AND person = ?2")
        insertSource = try db.prepare("INSERT INTO sources (name, person) VALUES (?1, ?2)")
        findDevice = try db.prepare("SELECT id FROM devices WHERE description = ?1 AND person = ?2")
        insertDevice = try db.prepare("INSERT INTO devices (description, person) VALUES (?1, ?2)")
        for s in [findSource, insertSource, findDevice, insertDevice] { s.bind(2, person) }
        // Person and import are the same for every row: bound once (reset keeps bindings).
        for s in [insertCorrelation, insertWorkout, insertExtra, insertSleepSummary] {
            s.bind(1, person)
            s.bind(2, importID)
        }
        upsertActivitySummary.bind(1, person)
        upsertActivitySummary.bind(3, importID)
        upsertMe.bind(1, person)
        upsertMe.bind(4, importID)
    }

    @inline(__always) private func added(_ table: String, _ n: Int = 1) {
        if n > 0 { rowsAdded[table, default: 0] += n }
    }

    /// Steps an insert; true when it added a row (false for a duplicate an OR IGNORE skipped).
    @inline(__always) private func insert(_ s: Statement) throws -> Bool {
        let rc = sqlite3_step(s.stmt)
        sqlite3_reset(s.stmt)
        guard rc == SQLITE_DONE else { throw db.error("cannot write to the store", rc) }
        return sqlite3_changes(db.handle) > 0
    }

    /// The id of a name in a lookup table (`sample_types`, `sources`, `devices`), added when new.
    private func lookup(_ name: String, find: Statement, insert add: Statement, table: String, extra: String? = nil) throws -> Int64 {
        find.bind(1, name)
        defer { find.reset() }
        if try find.step() { return find.int(0) }
        add.bind(1, name)
        if add === insertType { add.bind(2, extra) }
        _ = try insert(add)
        added(table)
        return db.lastInsertRowID
    }

    /// The `sample_types` id of a sample's type; also counts the sample as read for that type.
    @inline(__always) private func typeID(_ s: Sample) throws -> Int64 {
        if let m = s.metric, m.healthKitType == s.type, let e = catalogTypeEntries[m.index] {
            e.read += 1
            current = e
            lastTypeName = s.type
            return e.id
        }
        if s.type != lastTypeName {
            if let e = typeEntries[s.type] {
                current = e
            } else {
                let id = try lookup(s.type, find: findType, insert: insertType, table: "sample_types", extra: s.metric?.unit.rawValue)
                current = TypeEntry(id: id)
                typeEntries[s.type] = current
                if let m = s.metric, m.healthKitType == s.type { catalogTypeEntries[m.index] = current }
            }
            lastTypeName = s.type
        }
        current.read += 1
        return current.id
    }

    @inline(__always) private func sourceID(_ name: String) throws -> Int64 {
        for r in recentSources where r.name == name { return r.id }
        let id: Int64
        if let known = sourceIDs[name] {
            id = known
        } else {
            id = try lookup(name, find: findSource, insert: insertSource, table: "sources")
            sourceIDs[name] = id
        }
        if recentSources.count >= 8 { recentSources.removeFirst() }
        recentSources.append((name, id))
        return id
    }

    /// The `devices` row of an HKDevice description (address removed), added when new.
    @inline(__always) private func deviceID(_ raw: String?) throws -> Int64? {
        guard var raw else { return nil }
        let same: Bool = raw.withUTF8 { buf in
            guard lastDeviceID >= 0, let (hasAddress, tail) = Self.deviceTail(buf) else { return false }
            return hasAddress == lastDeviceHadAddress && tail.count == lastDeviceTail.count
                && lastDeviceTail.withUnsafeBytes { memcmp($0.baseAddress!, tail.baseAddress!, tail.count) == 0 }
        }
        if same { return lastDeviceID }
        let description = Self.deviceDescription(raw)
        let id: Int64
        if let known = deviceIDs[description] {
            id = known
        } else {
            id = try lookup(description, find: findDevice, insert: insertDevice, table: "devices")
            deviceIDs[description] = id
        }
        raw.withUTF8 { buf in
            if let (hasAddress, tail) = Self.deviceTail(buf) {
                lastDeviceHadAddress = hasAddress
                lastDeviceTail = Array(tail)
                lastDeviceID = id
            } else {
                lastDeviceID = -1
            }
        }
        return id
    }

    private static let devicePrefix = Array("<<HKDevice: 0x".utf8)

    /// Whether the text starts with an HKDevice address, and the bytes from its first `>` on
    /// (the whole text when it has no address); nil for an empty text.
    @inline(__always)
    static func deviceTail(_ buf: UnsafeBufferPointer<UInt8>) -> (Bool, UnsafeBufferPointer<UInt8>)? {
        guard let base = buf.baseAddress, buf.count > 0 else { return nil }
        let n = buf.count
        if n > devicePrefix.count, devicePrefix.withUnsafeBytes({ memcmp(base, $0.baseAddress!, $0.count) == 0 }),
           let close = memchr(base, 0x3E, n) {
            let start = UnsafePointer<UInt8>(close.assumingMemoryBound(to: UInt8.self)) - base
            return (true, UnsafeBufferPointer(rebasing: buf[start...]))
        }
        return (false, buf)
    }

    /// Samples read and added by type.
    var countsByType: [String: (read: Int, added: Int)] {
        typeEntries.mapValues { ($0.read, $0.added) }
    }

    /// `<<HKDevice: 0x282a45810>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`: the
    /// memory address differs on every record and means nothing. Other text is kept as written.
    static func deviceDescription(_ raw: String) -> String {
        let u = raw.utf8
        guard u.starts(with: "<<HKDevice: 0x".utf8), let close = u.firstIndex(of: UInt8(ascii: ">")) else { return raw }
        return "<<HKDevice" + raw[close...]
    }

    func write(_ item: consuming StoreItem) throws {
        switch consume item {
        case .sample(let s): try write(s)
        case .correlation(let c): try write(c)
        case .workout(let w): try write(w)
        case .activitySummary(let a): try write(a)
        case .me(let m): try write(m)
        case .extra(let e):
            insertExtra.bind(3, e.kind)
            insertExtra.bind(4, e.json)
            if try insert(insertExtra) { added("extra_items") }
        case .sleepSummary(let n): try write(n)
        case .exportDate(let t): exportDate = t
        }
    }

    func write(_ s: consuming Sample) throws {
        samplesRead += 1
        let typeID = try typeID(s)
        pendingSamples.append(PendingSample(
            id: nextSampleID, typeID: typeID, sourceID: try sourceID(s.source), deviceID: try deviceID(s.device), entry: current, sample: s))
        nextSampleID += 1
        if pendingSamples.count >= insertSamples.rowsPerStatement { try flushSamples() }
    }

    /// Writes every row still held back. The writer thread calls it after the last item.
    func flush() throws {
        try flushSamples()
        try flushMetadata(whole: false)
        try flushBeats(whole: false)
    }

    private func flushSamples() throws {
        guard let first = pendingSamples.first, let last = pendingSamples.last else { return }
        let inserted = try pendingSamples.withUnsafeBufferPointer { pending in
            try insertSamples.insert(rows: pending.count) { st, row, i in
                let p = pending.baseAddress! + row
                st.bind(i, p.pointee.id)
                st.bind(i + 1, p.pointee.typeID)
                st.bind(i + 2, p.pointee.sourceID)
                st.bind(i + 3, p.pointee.sample.sourceVersion)
                st.bind(i + 4, p.pointee.deviceID)
                st.bind(i + 5, p.pointee.sample.unit)
                st.bind(i + 6, p.pointee.sample.value)
                st.bind(i + 7, p.pointee.sample.value == nil ? p.pointee.sample.valueText : nil)
                st.bind(i + 8, p.pointee.sample.canonicalValue)
                st.bindEpochOffset(i + 9, p.pointee.sample.created)
                st.bindEpochOffset(i + 11, p.pointee.sample.start)
                st.bindEpochOffset(i + 13, p.pointee.sample.end)
                st.bind(i + 15, p.pointee.sample.timeZoneName)
                st.bind(i + 16, p.pointee.sample.bucketMinimum)
                st.bind(i + 17, p.pointee.sample.bucketMaximum)
                st.bind(i + 18, p.pointee.sample.isBucket ? 1 : 0)
                st.bind(i + 19, Int64(bitPattern: p.pointee.sample.metadataDigest))
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
            for (i, m) in pendingSamples[k].sample.metadata.enumerated() { pendingMetadata.append((id, i, m)) }
            for (i, b) in pendingSamples[k].sample.beats.enumerated() { pendingBeats.append((id, i, b)) }
        }
        samplesAdded += inserted
        added("sample_records", inserted)
        pendingSamples.removeAll(keepingCapacity: true)
        try flushMetadata(whole: true)
        try flushBeats(whole: true)
    }

    private func flushMetadata(whole: Bool) throws {
        try flush(&pendingMetadata, with: insertSampleMetadata, table: "sample_metadata", wholeStatementsOnly: whole) { st, m, i in
            st.bind(i, m.pointee.sampleID)
            st.bind(i + 1, m.pointee.position)
            st.bind(i + 2, m.pointee.entry.key)
            st.bind(i + 3, m.pointee.entry.value)
        }
    }

    private func flushBeats(whole: Bool) throws {
        try flush(&pendingBeats, with: insertBeats, table: "hrv_beats", wholeStatementsOnly: whole) { st, b, i in
            st.bind(i, b.pointee.sampleID)
            st.bind(i + 1, b.pointee.position)
            st.bind(i + 2, b.pointee.beat.bpm)
            st.bind(i + 3, b.pointee.beat.time)
        }
    }

    /// Writes held child rows (metadata entries or beats of samples already written), bound in
    /// place through pointers into the buffer. With `wholeStatementsOnly`, only full statements'
    /// worth go and the rest waits for the next samples (one statement size, cursors kept open).
    private func flush<Row>(_ rows: inout [Row], with insert: MultiRowInsert, table: String, wholeStatementsOnly: Bool,
                            bind: (Statement, UnsafePointer<Row>, Int32) -> Void) throws {
        let n = wholeStatementsOnly ? rows.count - rows.count % insert.rowsPerStatement : rows.count
        guard n > 0 else { return }
        _ = try rows.withUnsafeBufferPointer { pending in
            try insert.insert(rows: n) { st, row, i in bind(st, pending.baseAddress! + row, i) }
        }
        added(table, n)
        rows.removeFirst(n)
    }

    func write(_ c: Correlation) throws {
        let st = insertCorrelation
        st.bind(3, c.type)
        st.bind(4, c.source)
        st.bind(5, c.sourceVersion)
        st.bind(6, try deviceID(c.device))
        st.bindInstant(7, c.created)
        st.bindInstant(9, c.start)
        st.bindInstant(11, c.end)
        guard try insert(st) else { return }
        added("correlations")
        let id = db.lastInsertRowID
        insertCorrelationMetadata.bind(1, id)
        for m in c.metadata {
            insertCorrelationMetadata.bind(2, m.key)
            insertCorrelationMetadata.bind(3, m.value)
            _ = try insert(insertCorrelationMetadata)
        }
        added("correlation_metadata", c.metadata.count)
        let mt = insertCorrelationMember
        mt.bind(1, id)
        for (i, s) in c.members.enumerated() {
            mt.bind(2, i)
            mt.bind(3, s.type)
            mt.bind(4, s.source)
            mt.bind(5, s.sourceVersion)
            mt.bind(6, try deviceID(s.device))
            mt.bind(7, s.unit)
            mt.bind(8, s.value)
            mt.bind(9, s.value == nil ? s.valueText : nil)
            mt.bindInstant(10, s.created)
            mt.bindInstant(12, s.start)
            mt.bindInstant(14, s.end)
            mt.bind(16, s.metadata.isEmpty ? nil : JSONText.object(s.metadata))
            _ = try insert(mt)
        }
        added("correlation_members", c.members.count)
    }

    func write(_ w: Workout) throws {
        let st = insertWorkout
        st.bind(3, w.activityType)
        st.bind(4, w.source)
        st.bind(5, w.sourceVersion)
        st.bind(6, try deviceID(w.device))
        st.bindInstant(7, w.created)
        st.bindInstant(9, w.start)
        st.bindInstant(11, w.end)
        st.bind(13, w.duration)
        st.bind(14, w.durationUnit)
        st.bind(15, w.totalDistance)
        st.bind(16, w.totalDistanceUnit)
        st.bind(17, w.totalEnergyBurned)
        st.bind(18, w.totalEnergyBurnedUnit)
        st.bind(19, w.statedAverageHeartRate)
        st.bind(20, w.statedMaximumHeartRate)
        st.bind(21, w.timeZoneName)
        st.bind(22, Int64(bitPattern: WorkoutIdentity(w).digest))
        guard try insert(st) else { return }
        added("workouts")
        let id = db.lastInsertRowID
        try writeParts(workout: id, activity: nil, metadata: w.metadata, statistics: w.statistics, events: w.events)
        for (i, a) in w.activities.enumerated() {
            let s = insertWorkoutActivity
            s.bind(1, id)
            s.bind(2, i)
            s.bind(3, a.uuid)
            s.bindInstant(4, a.start)
            s.bindInstant(6, a.end)
            s.bind(8, a.duration)
            s.bind(9, a.durationUnit)
            _ = try insert(s)
            added("workout_activities")
            let activityID = db.lastInsertRowID
            try writeParts(workout: id, activity: activityID, metadata: a.metadata, statistics: a.statistics, events: a.events)
        }
        for r in w.routes {
            let s = insertWorkoutRoute
            s.bind(1, id)
            s.bind(2, r.source)
            s.bindInstant(3, r.start)
            s.bindInstant(5, r.end)
            s.bind(7, r.inlineLocationCount)
            _ = try insert(s)
            added("workout_routes")
            let routeID = db.lastInsertRowID
            insertWorkoutRouteFile.bind(1, routeID)
            for p in r.filePaths {
                insertWorkoutRouteFile.bind(2, p)
                _ = try insert(insertWorkoutRouteFile)
            }
            added("workout_route_files", r.filePaths.count)
        }
    }

    private func writeParts(workout: Int64, activity: Int64?, metadata: [MetadataEntry], statistics: [WorkoutStatistic], events: [WorkoutEvent]) throws {
        let md = insertWorkoutMetadata
        md.bind(1, workout)
        md.bind(2, activity)
        for m in metadata {
            md.bind(3, m.key)
            md.bind(4, m.value)
            _ = try insert(md)
        }
        added("workout_metadata", metadata.count)
        let ss = insertWorkoutStatistic
        ss.bind(1, workout)
        ss.bind(2, activity)
        for s in statistics {
            ss.bind(3, s.type)
            ss.bindInstant(4, s.start)
            ss.bindInstant(6, s.end)
            ss.bind(8, s.average)
            ss.bind(9, s.minimum)
            ss.bind(10, s.maximum)
            ss.bind(11, s.sum)
            ss.bind(12, s.unit)
            _ = try insert(ss)
        }
        added("workout_statistics", statistics.count)
        let es = insertWorkoutEvent
        es.bind(1, workout)
        es.bind(2, activity)
        for e in events {
            es.bind(3, e.type)
            es.bindInstant(4, e.date)
            es.bind(6, e.duration)
            es.bind(7, e.durationUnit)
            es.bind(8, e.metadata.isEmpty ? nil : JSONText.object(e.metadata))
            _ = try insert(es)
        }
        added("workout_events", events.count)
    }

    func write(_ a: ActivitySummary) throws {
        let s = upsertActivitySummary
        var byName: [String: String] = [:]
        for e in a.attributes where byName[e.key] == nil { byName[e.key] = e.value }
        func number(_ k: String) -> Double? { byName[k].flatMap { Double($0) } }
        s.bind(2, a.date)
        s.bind(4, number("activeEnergyBurned"))
        s.bind(5, number("activeEnergyBurnedGoal"))
        s.bind(6, byName["activeEnergyBurnedUnit"])
        s.bind(7, number("appleMoveTime") ?? number("appleMoveMinutes"))
        s.bind(8, number("appleMoveTimeGoal") ?? number("appleMoveMinutesGoal"))
        s.bind(9, number("appleExerciseTime"))
        s.bind(10, number("appleExerciseTimeGoal"))
        s.bind(11, number("appleStandHours"))
        s.bind(12, number("appleStandHoursGoal"))
        s.bind(13, JSONText.object(a.attributes))
        if try insert(s) { added("activity_summaries") }
    }

    func write(_ m: Me) throws {
        for e in m.attributes {
            upsertMe.bind(2, e.key)
            upsertMe.bind(3, e.value)
            if try insert(upsertMe) { added("me") }
        }
    }

    func write(_ n: SleepSummary) throws {
        let s = insertSleepSummary
        s.bind(3, n.source)
        s.bindInstant(4, n.sleepStart)
        s.bindInstant(6, n.sleepEnd)
        s.bind(8, n.totalHours)
        s.bind(9, n.coreHours)
        s.bind(10, n.deepHours)
        s.bind(11, n.remHours)
        s.bind(12, n.awakeHours)
        s.bind(13, n.asleepHours)
        s.bind(14, n.inBedHours)
        s.bindInstant(15, n.inBedStart)
        s.bindInstant(17, n.inBedEnd)
        if try insert(s) { added("sleep_summaries") }
    }
}
