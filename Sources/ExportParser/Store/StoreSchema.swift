import CSQLite

/// The store's schema as numbered migrations, applied in order and recorded in
/// `PRAGMA user_version`. A migration is never edited once released: a change is a new entry.
/// docs/store.md documents the tables.
enum StoreSchema {
    /// Migration `i` brings the schema from version `i` to `i + 1`.
    static let migrations: [String] = [v1, v2, v3, v4, v5, v6, v7, v8]

    /// The newest schema version this build knows.
    static var currentVersion: Int { migrations.count }

    /// Version 1: imports, devices, samples and their children, correlations, workouts and their parts,
    /// activity summaries, Me, extra items, sleep summaries and the day values (long form).
    /// Secondary indexes are in `secondaryIndexes`, built after each import's load.
    ///
    /// `samples.device_id` points into `devices`, whose `description` is the HKDevice text as
    /// written with its per-record memory address removed (`<<HKDevice: 0x282a45810>, name:…>`
    /// becomes `<<HKDevice>, name:…>`): stored once, not 150 bytes a row. `value_text` holds
    /// the value of records that have no numeric value (categories); numeric values are in
    /// `value` at full precision.
    ///
    /// Source names and device descriptions are per person (they name people: "Ann’s iPhone");
    /// only `sample_types` (HealthKit identifiers) is shared.
    ///
    /// Samples are the bulk of a store (millions of rows), so their table `sample_records` holds
    /// ids for the type, source and device and each instant as epoch seconds plus the recorded UTC
    /// offset; the view `samples` shows them with names and ISO 8601 text. This keeps a row and
    /// its natural-key index about a third of the size with text columns, which is what decides
    /// the import's speed.
    static let v1 = """
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            file_name TEXT NOT NULL,
            file_sha256 TEXT NOT NULL,
            format TEXT NOT NULL,
            tool_version TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            export_date TEXT,
            bytes_read INTEGER,
            records_read INTEGER,
            workouts_read INTEGER,
            correlations_read INTEGER,
            activity_summaries_read INTEGER,
            control_characters_dropped INTEGER,
            UNIQUE (person, file_sha256)
        );
        CREATE TABLE import_record_counts (
            import_id INTEGER NOT NULL REFERENCES imports(id),
            record_type TEXT NOT NULL,
            records_read INTEGER NOT NULL,
            records_added INTEGER NOT NULL,
            PRIMARY KEY (import_id, record_type)
        ) WITHOUT ROWID;
        CREATE TABLE import_skips (
            import_id INTEGER NOT NULL REFERENCES imports(id),
            reason TEXT NOT NULL,
            skipped INTEGER NOT NULL,
            first_locations TEXT,
            PRIMARY KEY (import_id, reason)
        ) WITHOUT ROWID;

        CREATE TABLE devices (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            description TEXT NOT NULL,
            UNIQUE (person, description)
        );
        CREATE TABLE sample_types (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            payload_unit TEXT
        );
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            name TEXT NOT NULL,
            UNIQUE (person, name)
        );
        CREATE TABLE sample_records (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            type_id INTEGER NOT NULL REFERENCES sample_types(id),
            source_id INTEGER NOT NULL REFERENCES sources(id),
            source_version TEXT,
            device_id INTEGER REFERENCES devices(id),
            unit TEXT,
            value REAL,
            value_text TEXT,
            payload_value REAL,
            created_epoch INTEGER,
            created_offset INTEGER,
            start_epoch INTEGER NOT NULL,
            start_offset INTEGER NOT NULL,
            end_epoch INTEGER NOT NULL,
            end_offset INTEGER NOT NULL,
            time_zone TEXT,
            bucket_minimum REAL,
            bucket_maximum REAL,
            is_bucket INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX sample_records_natural_key ON sample_records (
            person, type_id, start_epoch, end_epoch, source_id, ifnull(value, ''), ifnull(value_text, ''), ifnull(unit, '')
        );
        CREATE VIEW samples AS
        SELECT r.id, r.person, r.import_id, t.name AS type, s.name AS source_name, r.source_version, d.description AS device,
            r.unit, r.value, r.value_text, r.payload_value, CASE WHEN r.payload_value IS NOT NULL THEN t.payload_unit END AS payload_unit,
            \(iso("r.created_epoch", "r.created_offset")) AS created_at, r.created_epoch,
            \(iso("r.start_epoch", "r.start_offset")) AS start_at, r.start_epoch,
            \(iso("r.end_epoch", "r.end_offset")) AS end_at, r.end_epoch,
            r.time_zone, r.bucket_minimum, r.bucket_maximum, r.is_bucket, r.type_id, r.source_id, r.device_id
        FROM sample_records r
        JOIN sample_types t ON t.id = r.type_id
        JOIN sources s ON s.id = r.source_id
        LEFT JOIN devices d ON d.id = r.device_id;
        CREATE TABLE sample_metadata (
            sample_id INTEGER NOT NULL REFERENCES sample_records(id),
            position INTEGER NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (sample_id, position)
        ) WITHOUT ROWID;
        CREATE TABLE hrv_beats (
            sample_id INTEGER NOT NULL REFERENCES sample_records(id),
            position INTEGER NOT NULL,
            bpm REAL,
            time TEXT NOT NULL,
            PRIMARY KEY (sample_id, position)
        ) WITHOUT ROWID;

        CREATE TABLE correlations (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            type TEXT NOT NULL,
            source_name TEXT NOT NULL,
            source_version TEXT,
            device_id INTEGER REFERENCES devices(id),
            created_at TEXT,
            created_epoch INTEGER,
            start_at TEXT NOT NULL,
            start_epoch INTEGER NOT NULL,
            end_at TEXT NOT NULL,
            end_epoch INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX correlations_natural_key ON correlations (person, type, start_epoch, end_epoch, source_name);
        CREATE TABLE correlation_metadata (
            correlation_id INTEGER NOT NULL REFERENCES correlations(id),
            key TEXT NOT NULL,
            value TEXT NOT NULL
        );
        CREATE TABLE correlation_members (
            correlation_id INTEGER NOT NULL REFERENCES correlations(id),
            position INTEGER NOT NULL,
            type TEXT NOT NULL,
            source_name TEXT NOT NULL,
            source_version TEXT,
            device_id INTEGER REFERENCES devices(id),
            unit TEXT,
            value REAL,
            value_text TEXT,
            created_at TEXT,
            created_epoch INTEGER,
            start_at TEXT NOT NULL,
            start_epoch INTEGER NOT NULL,
            end_at TEXT NOT NULL,
            end_epoch INTEGER NOT NULL,
            metadata_json TEXT,
            PRIMARY KEY (correlation_id, position)
        ) WITHOUT ROWID;

        CREATE TABLE workouts (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            activity_type TEXT NOT NULL,
            source_name TEXT NOT NULL,
            source_version TEXT,
            device_id INTEGER REFERENCES devices(id),
            created_at TEXT,
            created_epoch INTEGER,
            start_at TEXT NOT NULL,
            start_epoch INTEGER NOT NULL,
            end_at TEXT NOT NULL,
            end_epoch INTEGER NOT NULL,
            duration REAL,
            duration_unit TEXT,
            total_distance REAL,
            total_distance_unit TEXT,
            total_energy_burned REAL,
            total_energy_burned_unit TEXT,
            stated_average_heart_rate REAL,
            stated_maximum_heart_rate REAL,
            time_zone TEXT
        );
        CREATE UNIQUE INDEX workouts_natural_key ON workouts (person, activity_type, start_epoch, end_epoch, source_name);
        CREATE TABLE workout_activities (
            id INTEGER PRIMARY KEY,
            workout_id INTEGER NOT NULL REFERENCES workouts(id),
            position INTEGER NOT NULL,
            uuid TEXT,
            start_at TEXT,
            start_epoch INTEGER,
            end_at TEXT,
            end_epoch INTEGER,
            duration REAL,
            duration_unit TEXT
        );
        CREATE TABLE workout_metadata (
            workout_id INTEGER NOT NULL REFERENCES workouts(id),
            activity_id INTEGER REFERENCES workout_activities(id),
            key TEXT NOT NULL,
            value TEXT NOT NULL
        );
        CREATE TABLE workout_statistics (
            workout_id INTEGER NOT NULL REFERENCES workouts(id),
            activity_id INTEGER REFERENCES workout_activities(id),
            type TEXT NOT NULL,
            start_at TEXT,
            start_epoch INTEGER,
            end_at TEXT,
            end_epoch INTEGER,
            average REAL,
            minimum REAL,
            maximum REAL,
            sum REAL,
            unit TEXT
        );
        CREATE TABLE workout_events (
            workout_id INTEGER NOT NULL REFERENCES workouts(id),
            activity_id INTEGER REFERENCES workout_activities(id),
            type TEXT NOT NULL,
            date_at TEXT,
            date_epoch INTEGER,
            duration REAL,
            duration_unit TEXT,
            metadata_json TEXT
        );
        CREATE TABLE workout_routes (
            id INTEGER PRIMARY KEY,
            workout_id INTEGER NOT NULL REFERENCES workouts(id),
            source_name TEXT,
            start_at TEXT,
            start_epoch INTEGER,
            end_at TEXT,
            end_epoch INTEGER,
            inline_location_count INTEGER NOT NULL
        );
        CREATE TABLE workout_route_files (
            route_id INTEGER NOT NULL REFERENCES workout_routes(id),
            path TEXT NOT NULL
        );

        CREATE TABLE activity_summaries (
            person TEXT NOT NULL,
            date TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            active_energy_burned REAL,
            active_energy_burned_goal REAL,
            active_energy_burned_unit TEXT,
            apple_move_time REAL,
            apple_move_time_goal REAL,
            apple_exercise_time REAL,
            apple_exercise_time_goal REAL,
            apple_stand_hours REAL,
            apple_stand_hours_goal REAL,
            attributes_json TEXT NOT NULL,
            PRIMARY KEY (person, date)
        ) WITHOUT ROWID;

        CREATE TABLE me (
            person TEXT NOT NULL,
            attribute TEXT NOT NULL,
            value TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            PRIMARY KEY (person, attribute)
        ) WITHOUT ROWID;

        CREATE TABLE extra_items (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            kind TEXT NOT NULL,
            json TEXT NOT NULL
        );
        CREATE UNIQUE INDEX extra_items_natural_key ON extra_items (person, kind, json);

        CREATE TABLE sleep_summaries (
            person TEXT NOT NULL,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            source_name TEXT,
            sleep_start_at TEXT,
            sleep_start_epoch INTEGER,
            sleep_end_at TEXT NOT NULL,
            sleep_end_epoch INTEGER NOT NULL,
            total_hours REAL NOT NULL,
            core_hours REAL,
            deep_hours REAL,
            rem_hours REAL,
            awake_hours REAL,
            asleep_hours REAL,
            in_bed_hours REAL,
            in_bed_start_at TEXT,
            in_bed_start_epoch INTEGER,
            in_bed_end_at TEXT,
            in_bed_end_epoch INTEGER
        );
        CREATE UNIQUE INDEX sleep_summaries_natural_key ON sleep_summaries (person, sleep_end_epoch, ifnull(source_name, ''));

        CREATE TABLE day_values (
            person TEXT NOT NULL,
            date TEXT NOT NULL,
            field TEXT NOT NULL,
            value REAL,
            text TEXT,
            unit TEXT,
            import_id INTEGER NOT NULL REFERENCES imports(id),
            PRIMARY KEY (person, date, field)
        ) WITHOUT ROWID;
        """

    /// Version 2: records that differ only in their metadata are different records (two foods
    /// logged at one instant with the same protein), so the samples' natural key gains
    /// `metadata_digest` (`Sample.metadataDigest`, a 64-bit FNV-1a of the metadata entries; 0
    /// for records without metadata and for rows stored before version 2). Workouts likewise:
    /// two workouts with the same type, times and source but other figures are two rows, so their
    /// key gains `identity_digest` (`WorkoutIdentity.digest`: everything but the creation date and
    /// metadata; 0 for rows stored before version 2). Every import keeps its own day values in
    /// `import_day_values` (what that input alone gave, with its workouts as payload JSON), and
    /// `day_values` becomes their merge: per date and field the newest native import's value,
    /// else the newest HAE import's (native wins, HAE fills), its `import_id` saying which. And
    /// the view
    /// `apple_daily_totals` sets Apple's own daily totals (ActivitySummary) beside the tool's
    /// `active_calories` and `exercise_min` (docs/store.md).
    static let v2 = """
        ALTER TABLE sample_records ADD COLUMN metadata_digest INTEGER NOT NULL DEFAULT 0;
        DROP INDEX sample_records_natural_key;
        CREATE UNIQUE INDEX sample_records_natural_key ON sample_records (
            person, type_id, start_epoch, end_epoch, source_id, ifnull(value, ''), ifnull(value_text, ''), ifnull(unit, ''), metadata_digest
        );
        CREATE TABLE import_day_values (
            import_id INTEGER NOT NULL REFERENCES imports(id),
            date TEXT NOT NULL,
            field TEXT NOT NULL,
            value REAL,
            text TEXT,
            unit TEXT,
            PRIMARY KEY (import_id, date, field)
        ) WITHOUT ROWID;
        INSERT INTO import_day_values (import_id, date, field, value, text, unit)
            SELECT import_id, date, field, value, text, unit FROM day_values;
        ALTER TABLE workouts ADD COLUMN identity_digest INTEGER NOT NULL DEFAULT 0;
        DROP INDEX workouts_natural_key;
        CREATE UNIQUE INDEX workouts_natural_key ON workouts (person, activity_type, start_epoch, end_epoch, source_name, identity_digest);
        CREATE VIEW apple_daily_totals AS
        SELECT a.person, a.date,
            (SELECT value FROM day_values v WHERE v.person = a.person AND v.date = a.date AND v.field = 'active_calories') AS active_calories,
            CASE WHEN a.active_energy_burned_unit = 'kJ' THEN a.active_energy_burned / 4.184 ELSE a.active_energy_burned END AS apple_active_calories,
            (SELECT value FROM day_values v WHERE v.person = a.person AND v.date = a.date AND v.field = 'exercise_min') AS exercise_min,
            a.apple_exercise_time AS apple_exercise_min
        FROM activity_summaries a;
        """

    /// Version 3: what `push` needs. `day_payloads` keeps, per person and date, the payload JSON
    /// the last `convert` run that wrote the date put in `payloads/DATE.json` (exactly those
    /// bytes, without the final line end), so `push --store` sends what the files hold instead of
    /// rebuilding a payload from `day_values` (which has no `device_sync_timestamp` and merges
    /// workouts differently). `pushes` records, per person, endpoint and date, the last push of
    /// that date: the body's sha256, the HTTP status, the result and when, so a rerun sends only
    /// days not accepted or whose body changed (docs/push.md).
    static let v3 = """
        CREATE TABLE day_payloads (
            person TEXT NOT NULL,
            date TEXT NOT NULL,
            payload_json TEXT NOT NULL,
            tool_version TEXT NOT NULL,
            written_at TEXT NOT NULL,
            PRIMARY KEY (person, date)
        ) WITHOUT ROWID;
        CREATE TABLE pushes (
            person TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            date TEXT NOT NULL,
            body_sha256 TEXT NOT NULL,
            http_status INTEGER,
            result TEXT NOT NULL,
            detail TEXT,
            attempts INTEGER NOT NULL,
            pushed_at TEXT NOT NULL,
            PRIMARY KEY (person, endpoint, date)
        ) WITHOUT ROWID;
        """

    /// Version 4: the bodies `receive` took, as they came (docs/receive.md). One row a body of a
    /// person and endpoint: a body received again is the same row (the unique index), so a
    /// client that retries after a lost answer changes nothing. `first_date`/`last_date` are the
    /// dates the body's data start on, for `GET /status`.
    static let v4 = """
        CREATE TABLE received_bodies (
            id INTEGER PRIMARY KEY,
            person TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            body_sha256 TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            body BLOB NOT NULL,
            received_at TEXT NOT NULL,
            first_date TEXT,
            last_date TEXT
        );
        CREATE UNIQUE INDEX received_bodies_natural_key ON received_bodies (person, endpoint, body_sha256);
        """

    /// Version 5: a sample's metadata is one JSON object in `sample_records.metadata_json`
    /// (`{"key":"value",…}` in the record's order, keys and values as written; NULL for a record
    /// without metadata) instead of one `sample_metadata` row an entry. Why: on the benchmark's
    /// export 1.97 M entries were 1.97 M rows, each its own B-tree insert with four binds; as a
    /// column of the sample's row they cost one bind and no row (docs/store.md, "Measurements").
    /// The object's bytes are the ones the GDPR export writes (`ExportBytes.appendJSONString`),
    /// so the export copies the column. SQLite's JSON functions read it:
    /// `metadata_json ->> '$.HKMetadataKeyHeartRateMotionContext'`, `json_each(metadata_json)`.
    ///
    /// `sample_metadata` becomes a view with the old table's columns, so queries written for
    /// version 4 still run; `samples` gains the column `metadata` (last). Existing rows are
    /// moved by `moveSampleMetadata`, which runs after this SQL and before the table is dropped
    /// (`v5Finish`).
    static let v5 = """
        ALTER TABLE sample_records ADD COLUMN metadata_json TEXT;
        """

    /// The rest of version 5, after `moveSampleMetadata` filled `metadata_json`.
    static let v5Finish = """
        DROP TABLE sample_metadata;
        CREATE VIEW sample_metadata AS
        SELECT r.id AS sample_id, row_number() OVER (PARTITION BY r.id ORDER BY j.id) - 1 AS position, j.key AS key, j.value AS value
        FROM sample_records r, json_each(r.metadata_json) j
        WHERE r.metadata_json IS NOT NULL;
        DROP VIEW samples;
        CREATE VIEW samples AS
        SELECT r.id, r.person, r.import_id, t.name AS type, s.name AS source_name, r.source_version, d.description AS device,
            r.unit, r.value, r.value_text, r.payload_value, CASE WHEN r.payload_value IS NOT NULL THEN t.payload_unit END AS payload_unit,
            \(iso("r.created_epoch", "r.created_offset")) AS created_at, r.created_epoch,
            \(iso("r.start_epoch", "r.start_offset")) AS start_at, r.start_epoch,
            \(iso("r.end_epoch", "r.end_offset")) AS end_at, r.end_epoch,
            r.time_zone, r.bucket_minimum, r.bucket_maximum, r.is_bucket, r.type_id, r.source_id, r.device_id, r.metadata_json AS metadata
        FROM sample_records r
        JOIN sample_types t ON t.id = r.type_id
        JOIN sources s ON s.id = r.source_id
        LEFT JOIN devices d ON d.id = r.device_id;
        """

    /// Version 6: the samples' natural-key index holds `key_digest` (`SampleKeyDigest`: end,
    /// source, value, value text, unit and metadata digest as one 64-bit number) instead of those
    /// six columns: `(person, type_id, start_epoch, key_digest)`. Same equality, about half the
    /// index's bytes, fewer columns to build and compare per insert (docs/store.md, "Schema
    /// versions"). Existing rows get their digest from `fillSampleKeyDigests`, which runs after
    /// this SQL and before the index is built again (`v6Finish`).
    ///
    /// The column is nullable, without a default: a build of version 5 that opened the store
    /// before this one upgraded it writes rows without a digest, and NULLs are distinct in a
    /// unique index, so its samples are kept (at worst as duplicates of existing ones) instead of
    /// all those of one type and start but the first being left out under a default digest.
    /// This build binds a digest for every row.
    static let v6 = """
        ALTER TABLE sample_records ADD COLUMN key_digest INTEGER;
        DROP INDEX sample_records_natural_key;
        """

    /// The rest of version 6, after `fillSampleKeyDigests`.
    static let v6Finish = """
        CREATE UNIQUE INDEX sample_records_natural_key ON sample_records (person, type_id, start_epoch, key_digest);
        """

    /// Version 7: `imports.day_options`, the options of the run that change an import's day
    /// values (`ImportMetadata.dayOptions`: the zone and the source priority), so that a file
    /// imported again with other options replaces its import instead of being "already imported"
    /// (`StoreImportSession.complete`; docs/store.md, "Rules"); NULL for the imports of earlier
    /// versions, whose options were not recorded (their days decide). And the `daily` view shows
    /// a count field's whole values as INTEGER (24504, not 24504.0): dropped here, made again from
    /// `dailyViewSQL` after the migrations, so that an older build (which would make its own
    /// view again) refuses the store instead.
    static let v7 = """
        DROP VIEW IF EXISTS daily;
        """

    /// Version 8: the verdicts of `compare --everyone` (docs/compare.md, "Shards"), one row a
    /// person, written by whichever worker checked the person last (`FleetVerdictTable`), so
    /// `compare --everyone --report` builds one fleet report from every shard's people.
    /// `person_json` is the person's whole line of the report; `failing_fields` a JSON array of
    /// field names; `shard` the worker's `K/N`; `checked_at` when the person's data was read;
    /// the run's options that change a verdict (`from_date`, `time_zone`, `tolerances_sha256`,
    /// `tool_version`); `judged_date`/`judged_zone` the last date judged and whose today it was;
    /// `run_id` the worker's `--run-id`; `bodies_max_id`, `bodies`, `imports_max_id`, `imports`
    /// the person's data when the check read it (`FleetWatermark`: data committed later makes
    /// the verdict stale). `IF NOT EXISTS`: a store set back to an older `user_version` by hand
    /// (as the migration tests do) keeps its tables.
    static let v8 = """
        CREATE TABLE IF NOT EXISTS fleet_verdicts (
            person TEXT PRIMARY KEY,
            status TEXT NOT NULL,
            failing_fields TEXT NOT NULL,
            reason TEXT NOT NULL,
            person_json TEXT NOT NULL,
            mode TEXT NOT NULL,
            days INTEGER NOT NULL,
            monitor INTEGER,
            until_date TEXT,
            shard TEXT NOT NULL,
            tool_version TEXT NOT NULL,
            checked_at TEXT NOT NULL,
            written_at TEXT NOT NULL,
            from_date TEXT,
            time_zone TEXT,
            tolerances_sha256 TEXT,
            judged_date TEXT,
            judged_zone TEXT,
            run_id TEXT,
            bodies_max_id INTEGER NOT NULL,
            bodies INTEGER NOT NULL,
            imports_max_id INTEGER NOT NULL,
            imports INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// The rest of version 7: `imports.day_options`, added unless the table has it (a store a
    /// test or a person set back to an older `user_version` by hand keeps its columns; SQLite
    /// has no `ADD COLUMN IF NOT EXISTS`).
    static func addDayOptions(_ db: SQLiteConnection) throws {
        guard try db.scalarInt("SELECT count(*) FROM pragma_table_info('imports') WHERE name = 'day_options'") == 0 else { return }
        try db.execute("ALTER TABLE imports ADD COLUMN day_options TEXT")
    }

    /// Sets `key_digest` of every stored sample from its columns, by `SampleKeyDigest.digest`
    /// (what the writer binds for a new row), 10,000 rows at a time in id order: read a batch,
    /// then update it, so no read runs over rows being updated. Runs inside the migration's
    /// transaction.
    static func fillSampleKeyDigests(_ db: SQLiteConnection) throws {
        let read = try db.prepare(
            "SELECT id, end_epoch, source_id, value, value_text, unit, metadata_digest FROM sample_records WHERE id > ?1 ORDER BY id LIMIT 10000"
        )
        let update = try db.prepare("UPDATE sample_records SET key_digest = ?2 WHERE id = ?1")
        var last: Int64 = Int64.min
        var batch: [(id: Int64, digest: Int64)] = []
        while true {
            batch.removeAll(keepingCapacity: true)
            read.bind(1, last)
            while try read.step() {
                let valueText = read.textBytes(4)
                let unit = read.textBytes(5)
                let digest = SampleKeyDigest.digest(
                    endEpoch: read.int(1), sourceID: read.int(2), value: read.double(3),
                    valueTextHash: SampleKeyDigest.textHash(UnsafeRawBufferPointer(start: valueText.0, count: valueText.1)),
                    unitHash: SampleKeyDigest.textHash(UnsafeRawBufferPointer(start: unit.0, count: unit.1)),
                    metadataDigest: UInt64(bitPattern: read.int(6)))
                batch.append((read.int(0), digest))
            }
            read.reset()
            guard let end = batch.last else { return }
            for row in batch {
                update.bind(1, row.id)
                update.bind(2, row.digest)
                try update.run()
            }
            last = end.id
        }
    }

    /// Fills `metadata_json` from the version 4 `sample_metadata` rows: one object a sample,
    /// entries in `position` order, each key and value written by `ExportBytes.appendJSONString`
    /// (the writer's encoding, `StoreSample.Names`), so a migrated store holds the bytes a fresh
    /// import would. Runs inside the migration's transaction.
    static func moveSampleMetadata(_ db: SQLiteConnection) throws {
        let read = try db.prepare("SELECT sample_id, key, value FROM sample_metadata ORDER BY sample_id, position")
        let update = try db.prepare("UPDATE sample_records SET metadata_json = ?2 WHERE id = ?1")
        let json = ExportBytes(capacity: 1024)
        var owner: Int64?
        func write() throws {
            guard let id = owner else { return }
            json.append(0x7D)
            update.bind(1, id)
            update.bind(2, json.string)
            try update.run()
        }
        while try read.step() {
            let id = read.int(0)
            if id != owner {
                try write()
                owner = id
                json.clear()
                json.append(0x7B)
            } else {
                json.append(0x2C)
            }
            let key = read.textBytes(1)
            json.appendJSONString(key.0, key.1)
            json.append(0x3A)
            let value = read.textBytes(2)
            json.appendJSONString(value.0, value.1)
        }
        try write()
        read.reset()
    }

    /// The samples' natural key (person, type, start, then end, source, value, unit and metadata
    /// digest as `key_digest`) is their unique index, in that column order, so it also serves
    /// range queries by person, type and time.
    /// Non-unique indexes for reading, created (if missing) at the end of every import, after
    /// the load, so bulk inserts do not maintain them row by row on a first import.
    static let secondaryIndexes = """
        CREATE INDEX IF NOT EXISTS correlations_by_person_start ON correlations (person, start_epoch);
        CREATE INDEX IF NOT EXISTS correlation_metadata_by_correlation ON correlation_metadata (correlation_id);
        CREATE INDEX IF NOT EXISTS workouts_by_person_start ON workouts (person, start_epoch);
        CREATE INDEX IF NOT EXISTS workout_activities_by_workout ON workout_activities (workout_id);
        CREATE INDEX IF NOT EXISTS workout_metadata_by_workout ON workout_metadata (workout_id);
        CREATE INDEX IF NOT EXISTS workout_statistics_by_workout ON workout_statistics (workout_id);
        CREATE INDEX IF NOT EXISTS workout_events_by_workout ON workout_events (workout_id);
        CREATE INDEX IF NOT EXISTS workout_routes_by_workout ON workout_routes (workout_id);
        CREATE INDEX IF NOT EXISTS workout_route_files_by_route ON workout_route_files (route_id);
        CREATE INDEX IF NOT EXISTS day_values_by_import ON day_values (import_id);
        """

    /// The `daily` view: one row a date per person, columns `person` then the CSV's columns
    /// (`OutputFields.columns`) in order, pivoted from `day_values`. Generated from the field
    /// table, so a catalog change changes the view (it is re-created when its text differs, see
    /// `HealthStore`).
    static var dailyViewSQL: String {
        var cols = ["d.person AS person"]
        for f in OutputFields.columns {
            if f.column == "hae_filled" {
                // Not a stored value: the provenance of the others. On a date that native imports
                // cover, the fields whose value came from an HAE import, by field name.
                cols.append(
                    "CASE WHEN max(i.format <> 'hae') = 1 THEN group_concat(CASE WHEN i.format = 'hae' THEN d.field END, ';') END AS hae_filled"
                )
                continue
            }
            guard let name = f.storeName, let column = f.column else {
                preconditionFailure("CSV column \(f.name) that the store does not keep")
            }
            if f.kind == .date {
                // The date is the key of every `day_values` row, not one of its fields.
                cols.append("d.\(name) AS \(name)")
                continue
            }
            let literal = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
            let value = "max(CASE WHEN d.field = \(literal) THEN \(f.kind.isText ? "d.text" : "d.value") END)"
            if f.isWholeCount {
                // `day_values.value` is a REAL column (full precision, any field), where SQLite keeps
                // 24504 as 24504.0: a count's whole value is shown as the INTEGER it is, and a
                // fraction (an HAE step total can have one) as it was stored. "Whole" within 1e-9:
                // a sum of HAE's fractional minutes that should be 110 is 110.00000000000001 in
                // binary floating point.
                cols.append(
                    "CASE WHEN abs(\(value) - round(\(value))) < 1e-9 THEN CAST(round(\(value)) AS INTEGER) ELSE \(value) END AS \(quoteIdentifier(column))"
                )
            } else {
                cols.append("\(value) AS \(quoteIdentifier(column))")
            }
        }
        return "CREATE VIEW daily AS SELECT " + cols.joined(separator: ", ")
            + " FROM day_values d LEFT JOIN imports i ON i.id = d.import_id GROUP BY d.person, d.date"
    }

    /// SQL for the ISO 8601 text of an instant stored as epoch seconds and an offset in seconds:
    /// `2024-01-02T07:58:11+01:00`; NULL when the epoch is NULL.
    static func iso(_ epoch: String, _ offset: String) -> String {
        "CASE WHEN \(epoch) IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%S', \(epoch) + \(offset), 'unixepoch') || "
            + "CASE WHEN \(offset) < 0 THEN '-' ELSE '+' END || printf('%02d:%02d', abs(\(offset)) / 3600, abs(\(offset)) / 60 % 60) END"
    }

    static func quoteIdentifier(_ name: String) -> String {
        let plain = name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        return plain ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
