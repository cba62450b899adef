/// The kinds of data a `gdpr-export` writes, in the order they are written, each a query over
/// the store's tables for one person (docs/store.md has the tables). Children are folded into
/// their parent's row as JSON where the issue asks for "X with its Y" (a sample's metadata, a
/// workout's statistics); HRV beats, which can be hundreds a record, are a kind of their own.
enum ExportKinds {
    static func all() -> [ExportKind] {
        [
            imports, sources, devices, samples, hrvBeats, correlations, workouts, activitySummaries, me, extraItems, sleepSummaries,
            dayValues, daily(), importDayValues, dayPayloads, pushes, receivedBodies, fleetVerdicts,
        ]
    }

    /// Stored JSON text as a column of its own: the text itself when it is JSON, else as a JSON
    /// string (the tool only stores JSON there; this keeps a line valid if something else did not).
    static func storedJSON(_ column: String) -> String {
        "CASE WHEN json_valid(\(column)) THEN \(column) ELSE json_quote(\(column)) END"
    }

    /// Stored JSON text on one line, for a JSON Lines file: a raw line end can stand in JSON only
    /// between tokens (inside a string it must be escaped), so each one becomes a space and the
    /// value is the same JSON, byte for byte but for that white space; text that is not JSON
    /// becomes a JSON string, whose line ends `json_quote` escapes. Cheaper than `json()`, which
    /// would build a tree of a body of up to `--max-body`.
    static func storedJSONOneLine(_ column: String) -> String {
        "CASE WHEN json_valid(\(column)) THEN replace(replace(\(column), char(13), ' '), char(10), ' ') ELSE json_quote(\(column)) END"
    }

    /// Stored JSON text inside a `json_object`: embedded as JSON, or as a string when it is not JSON.
    static func nestedJSON(_ column: String) -> String {
        "CASE WHEN json_valid(\(column)) THEN json(\(column)) ELSE \(column) END"
    }

    /// A JSON object of key/value rows of `table` matched by `condition`, in `order`; `{}` for none.
    static func metadataObject(_ table: String, _ condition: String, order: String) -> String {
        "(SELECT json_group_object(key, value) FROM (SELECT key, value FROM \(table) WHERE \(condition) ORDER BY \(order)))"
    }

    static let imports = ExportKind(
        name: "imports",
        about: "Every file imported for you: what it was, when, what the tool read from it and what it skipped.",
        columns: [
            .id(
                "import_id", .imports, "i.id",
                "The import's number in this export (1, 2, …); other files point to it."),
            .value("file_name", "i.file_name", "The imported file's name."),
            .value("file_sha256", "i.file_sha256", "sha256 of the file's bytes (lowercase hex): the same file is imported once."),
            .value("format", "i.format", "apple-xml (export.xml), apple-zip (export.zip) or hae (Health Auto Export JSON)."),
            .value("tool_version", "i.tool_version", "The health-import version that imported it."),
            .value("started_at", "i.started_at", "When the import started (ISO 8601, UTC)."),
            .value("finished_at", "i.finished_at", "When it finished (ISO 8601, UTC)."),
            .value("export_date", "i.export_date", "The date the export itself gives (export.xml's ExportDate)."),
            .value("bytes_read", "i.bytes_read", "Bytes of the file read."),
            .value("records_read", "i.records_read", "Records read."),
            .value("workouts_read", "i.workouts_read", "Workouts read."),
            .value("correlations_read", "i.correlations_read", "Correlations (blood pressure, food) read."),
            .value("activity_summaries_read", "i.activity_summaries_read", "Activity summaries (Apple's daily rings) read."),
            .value(
                "control_characters_dropped", "i.control_characters_dropped",
                "Invalid control characters removed from the file while reading."),
            .json(
                "record_counts",
                """
                (SELECT json_group_array(json_object('record_type', record_type, 'records_read', records_read, 'records_added', records_added)) \
                FROM (SELECT * FROM import_record_counts c WHERE c.import_id = i.id ORDER BY record_type))
                """, "JSON array, one entry per record type: record_type, records_read (in the file), records_added (new to the store)."),
            .json(
                "skips",
                """
                (SELECT json_group_array(json_object('reason', reason, 'skipped', skipped, 'first_locations', first_locations)) \
                FROM (SELECT * FROM import_skips k WHERE k.import_id = i.id ORDER BY reason))
                """,
                "JSON array, one entry per reason items were skipped: reason, skipped (how many), first_locations (where the first ones are in the file)."
            ),
        ],
        from: "FROM imports i WHERE i.person = ?1 ORDER BY i.id")

    static let sources = ExportKind(
        name: "sources",
        about: "The names of the apps and devices that recorded your data, as they were written (they often name you: \"Ann's iPhone\").",
        columns: [
            .number("source_id", .sources, "id", of: "source"),
            .value("name", "name", "The source name as written."),
        ],
        from: "FROM sources WHERE person = ?1 ORDER BY id")

    static let devices = ExportKind(
        name: "devices",
        about:
            "The devices that recorded your data, as the export describes them (name, manufacturer, model, hardware and software versions).",
        columns: [
            .number("device_id", .devices, "id", of: "device"),
            .value("description", "description", "The device as written, with its per-record memory address removed."),
        ],
        from: "FROM devices WHERE person = ?1 ORDER BY id")

    static let samples = ExportKind(
        name: "samples",
        about: """
            Every record (export.xml Record, Health Auto Export datum): one row each, with its type, source, device, unit, \
            times, value and metadata. Values are in the row's own unit, as recorded.
            """,
        columns: [
            .id(
                "sample_id", .samples, "r.id",
                "The record's number in this export (1, 2, …; hrv_beats.csv points to it)."),
            .importID("r.import_id", "The import that added it (imports.csv)."),
            .value(
                "type", "t.name", "The HealthKit type, e.g. HKQuantityTypeIdentifierStepCount (HAE metrics that have none: hae:<name>)."),
            .value("source_name", "s.name", "The app or device that recorded it."),
            .value("source_version", "r.source_version", "That source's software version."),
            .value("device", "d.description", "The device, as written (devices.csv)."),
            .value("unit", "r.unit", "The unit of value, as recorded (count, count/min, kcal, km, %, degC, ...)."),
            .value("value", "r.value", "The number as recorded, in unit."),
            .value(
                "value_text", "r.value_text",
                "The value of records that have no number (categories such as HKCategoryValueSleepAnalysisAsleepCore)."),
            .value("payload_value", "r.payload_value", "The value converted to payload_unit, for the types the daily payload uses."),
            .value("payload_unit", "CASE WHEN r.payload_value IS NOT NULL THEN t.payload_unit END", "The unit of payload_value."),
            .instant(
                "created_at", epoch: "r.created_epoch", offset: "r.created_offset",
                "When it was saved (ISO 8601 with the recorded UTC offset)."),
            .instant(
                "start_at", epoch: "r.start_epoch", offset: "r.start_offset", "When it starts (ISO 8601 with the recorded UTC offset)."),
            .instant("end_at", epoch: "r.end_epoch", offset: "r.end_offset", "When it ends (ISO 8601 with the recorded UTC offset)."),
            .value("time_zone", "r.time_zone", "The time zone recorded with it (HKTimeZone metadata)."),
            .value(
                "bucket_minimum", "r.bucket_minimum",
                "For Health Auto Export buckets (is_bucket 1): the smallest value in the bucket, in unit."),
            .value("bucket_maximum", "r.bucket_maximum", "For buckets: the largest value, in unit."),
            .value(
                "is_bucket", "r.is_bucket", "1 when the row is a Health Auto Export statistic over a period (minute, hour, day), else 0."),
            // The store keeps the object the column says (`metadata_json`, schema version 5), in
            // the export's JSON encoding: copied as it is.
            .json(
                "metadata", "ifnull(r.metadata_json, '{}')",
                "JSON object of the record's metadata entries (key: value as written, e.g. \"HKMetadataKeyHeartRateMotionContext\": \"1\"); {} for none."
            ),
        ],
        from: """
            FROM sample_records r NOT INDEXED JOIN sample_types t ON t.id = r.type_id JOIN sources s ON s.id = r.source_id \
            LEFT JOIN devices d ON d.id = r.device_id WHERE r.person = ?1 ORDER BY r.id
            """)

    static let hrvBeats = ExportKind(
        name: "hrv_beats",
        about: "The beat-to-beat lists of heart rate variability records: one row a beat.",
        columns: [
            .id("sample_id", .samples, "b.sample_id", "The HRV record it belongs to (samples.csv sample_id)."),
            .value("position", "b.position", "Its place in the record's list, from 0."),
            .value("bpm", "b.bpm", "Instantaneous heart rate, beats per minute."),
            .value("time", "b.time", "Its time as written (the export gives the time of day only)."),
        ],
        // Beats first and the record looked up by id: far fewer beats than records.
        from: "FROM hrv_beats b CROSS JOIN sample_records r ON r.id = b.sample_id WHERE r.person = ?1 ORDER BY b.sample_id, b.position")

    static let correlations = ExportKind(
        name: "correlations",
        about:
            "Records that belong together (a blood pressure reading, a meal), with their member records. The members are in samples.csv too.",
        columns: [
            .number("correlation_id", .correlations, "c.id", of: "correlation"),
            .importID("c.import_id", "The import that added it."),
            .value("type", "c.type", "The HealthKit type, e.g. HKCorrelationTypeIdentifierBloodPressure."),
            .value("source_name", "c.source_name", "The app or device that recorded it."),
            .value("source_version", "c.source_version", "That source's software version."),
            .value("device", "d.description", "The device, as written."),
            .value("created_at", "c.created_at", "When it was saved (ISO 8601 with the recorded UTC offset)."),
            .value("start_at", "c.start_at", "When it starts."),
            .value("end_at", "c.end_at", "When it ends."),
            .json(
                "metadata", metadataObject("correlation_metadata", "correlation_id = c.id", order: "rowid"),
                "JSON object of its metadata entries; {} for none."),
            .json(
                "members",
                """
                (SELECT json_group_array(json_object('position', position, 'type', type, 'source_name', source_name, 'source_version', source_version, \
                'device', (SELECT description FROM devices WHERE id = m.device_id), 'unit', unit, 'value', \(ExportNumberFunction.json("value")), 'value_text', value_text, \
                'created_at', created_at, 'start_at', start_at, 'end_at', end_at, 'metadata', \(nestedJSON("m.metadata_json")))) \
                FROM (SELECT * FROM correlation_members m WHERE m.correlation_id = c.id ORDER BY position) m)
                """,
                "JSON array of its member records, each with position, type, source_name, source_version, device, unit, value (in unit), value_text, created_at, start_at, end_at and metadata."
            ),
        ],
        from: "FROM correlations c LEFT JOIN devices d ON d.id = c.device_id WHERE c.person = ?1 ORDER BY c.id")

    static let workouts = ExportKind(
        name: "workouts",
        about: "Every workout, with its statistics, events, parts (activities), metadata and routes.",
        columns: [
            .number("workout_id", .workouts, "w.id", of: "workout"),
            .importID("w.import_id", "The import that added it."),
            .value("activity_type", "w.activity_type", "The HealthKit activity type, e.g. HKWorkoutActivityTypeRunning."),
            .value("source_name", "w.source_name", "The app or device that recorded it."),
            .value("source_version", "w.source_version", "That source's software version."),
            .value("device", "d.description", "The device, as written."),
            .value("created_at", "w.created_at", "When it was saved (ISO 8601 with the recorded UTC offset)."),
            .value("start_at", "w.start_at", "When it started."),
            .value("end_at", "w.end_at", "When it ended."),
            .value("duration", "w.duration", "Its duration, in duration_unit."),
            .value("duration_unit", "w.duration_unit", "Usually min."),
            .value("total_distance", "w.total_distance", "Distance as the workout states it (older exports), in total_distance_unit."),
            .value("total_distance_unit", "w.total_distance_unit", "km, mi, m, ..."),
            .value(
                "total_energy_burned", "w.total_energy_burned",
                "Active energy as the workout states it (older exports), in total_energy_burned_unit."),
            .value("total_energy_burned_unit", "w.total_energy_burned_unit", "kcal or kJ."),
            .value(
                "stated_average_heart_rate", "w.stated_average_heart_rate",
                "Average heart rate the input states (Health Auto Export), beats per minute."),
            .value("stated_maximum_heart_rate", "w.stated_maximum_heart_rate", "Maximum heart rate the input states, beats per minute."),
            .value("time_zone", "w.time_zone", "The time zone recorded with it."),
            .json(
                "metadata", metadataObject("workout_metadata", "workout_id = w.id AND activity_id IS NULL", order: "rowid"),
                "JSON object of the workout's own metadata entries (indoor, weather, elevation, ...); {} for none."),
            .json(
                "activities",
                """
                (SELECT json_group_array(json_object('position', position, 'uuid', uuid, 'start_at', start_at, 'end_at', end_at, \
                'duration', \(ExportNumberFunction.json("duration")), 'duration_unit', duration_unit, 'metadata', \
                \(metadataObject("workout_metadata", "activity_id = a.id", order: "rowid")))) \
                FROM (SELECT * FROM workout_activities a WHERE a.workout_id = w.id ORDER BY position) a)
                """, "JSON array of the parts of a multi-part workout: position, uuid, start_at, end_at, duration, duration_unit, metadata."
            ),
            .json(
                "statistics",
                """
                (SELECT json_group_array(json_object('activity_position', (SELECT position FROM workout_activities WHERE id = s.activity_id), \
                'type', type, 'start_at', start_at, 'end_at', end_at, 'average', \(ExportNumberFunction.json("average")), 'minimum', \(ExportNumberFunction.json("minimum")), \
                'maximum', \(ExportNumberFunction.json("maximum")), 'sum', \(ExportNumberFunction.json("sum")), 'unit', unit)) \
                FROM (SELECT * FROM workout_statistics s WHERE s.workout_id = w.id ORDER BY rowid) s)
                """,
                "JSON array of its statistics (heart rate, energy, distance, ...): activity_position (null: the whole workout; else the part), type, start_at, end_at, average, minimum, maximum, sum, all in unit."
            ),
            .json(
                "events",
                """
                (SELECT json_group_array(json_object('activity_position', (SELECT position FROM workout_activities WHERE id = e.activity_id), \
                'type', type, 'date_at', date_at, 'duration', \(ExportNumberFunction.json("duration")), 'duration_unit', duration_unit, 'metadata', \(nestedJSON("e.metadata_json")))) \
                FROM (SELECT * FROM workout_events e WHERE e.workout_id = w.id ORDER BY rowid) e)
                """,
                "JSON array of its events (pause, resume, lap, segment, ...): activity_position, type, date_at, duration, duration_unit, metadata."
            ),
            .json(
                "routes",
                """
                (SELECT json_group_array(json_object('source_name', source_name, 'start_at', start_at, 'end_at', end_at, \
                'inline_location_count', inline_location_count, 'files', \
                (SELECT json_group_array(path) FROM (SELECT path FROM workout_route_files f WHERE f.route_id = o.id ORDER BY rowid)))) \
                FROM (SELECT * FROM workout_routes o WHERE o.workout_id = w.id ORDER BY id) o)
                """,
                "JSON array of its GPS routes: source_name, start_at, end_at, inline_location_count (points written inside export.xml, counted), files (the route files' paths in the export)."
            ),
        ],
        from: "FROM workouts w LEFT JOIN devices d ON d.id = w.device_id WHERE w.person = ?1 ORDER BY w.id")

    static let activitySummaries = ExportKind(
        name: "activity_summaries",
        about: "Apple's daily activity rings: one row a date.",
        columns: [
            .value("date", "date", "The date (YYYY-MM-DD)."),
            .importID("import_id", "The import that last changed it."),
            .value("active_energy_burned", "active_energy_burned", "Move: active energy, in active_energy_burned_unit."),
            .value("active_energy_burned_goal", "active_energy_burned_goal", "The Move goal, same unit."),
            .value("active_energy_burned_unit", "active_energy_burned_unit", "kcal or kJ."),
            .value("apple_move_time", "apple_move_time", "Move time, minutes (where the Move ring counts minutes)."),
            .value("apple_move_time_goal", "apple_move_time_goal", "Its goal, minutes."),
            .value("apple_exercise_time", "apple_exercise_time", "Exercise, minutes."),
            .value("apple_exercise_time_goal", "apple_exercise_time_goal", "Its goal, minutes."),
            .value("apple_stand_hours", "apple_stand_hours", "Stand, hours."),
            .value("apple_stand_hours_goal", "apple_stand_hours_goal", "Its goal, hours."),
            .json("attributes", storedJSON("attributes_json"), "JSON object of every attribute as the export wrote it."),
        ],
        from: "FROM activity_summaries WHERE person = ?1 ORDER BY date")

    static let me = ExportKind(
        name: "me",
        about: "Your characteristics as the export gives them (date of birth, biological sex, blood type, skin type, ...).",
        columns: [
            .value("attribute", "attribute", "The HealthKit characteristic, e.g. HKCharacteristicTypeIdentifierDateOfBirth."),
            .value("value", "value", "Its value as written."),
            .importID("import_id", "The import it came from."),
        ],
        from: "FROM me WHERE person = ?1 ORDER BY attribute")

    static let extraItems = ExportKind(
        name: "extra_items",
        about: """
            Everything else an input held that the tool keeps but does not turn into days: export.xml elements such as \
            ClinicalRecord or Audiogram, and Health Auto Export arrays such as medications, symptoms or stateOfMind.
            """,
        columns: [
            .number("item_id", .extraItems, "id", of: "item"),
            .importID("import_id", "The import it came from."),
            .value("kind", "kind", "The element or array it came from."),
            .json("item", storedJSON("json"), "The item itself, as JSON."),
        ],
        from: "FROM extra_items WHERE person = ?1 ORDER BY id")

    static let sleepSummaries = ExportKind(
        name: "sleep_summaries",
        about: "Nights as Health Auto Export summarised them: one row a night and source. Hours are decimal hours.",
        columns: [
            .importID("import_id", "The import it came from."),
            .value("source_name", "source_name", "The app or device that recorded it."),
            .value("sleep_start_at", "sleep_start_at", "When sleep started (ISO 8601 with the recorded UTC offset)."),
            .value("sleep_end_at", "sleep_end_at", "When it ended; the night is dated by this day."),
            .value("total_hours", "total_hours", "Hours asleep."),
            .value("core_hours", "core_hours", "Hours of core sleep."),
            .value("deep_hours", "deep_hours", "Hours of deep sleep."),
            .value("rem_hours", "rem_hours", "Hours of REM sleep."),
            .value("awake_hours", "awake_hours", "Hours awake during the night."),
            .value("asleep_hours", "asleep_hours", "Hours asleep without a stage."),
            .value("in_bed_hours", "in_bed_hours", "Hours in bed."),
            .value("in_bed_start_at", "in_bed_start_at", "When time in bed started."),
            .value("in_bed_end_at", "in_bed_end_at", "When it ended."),
        ],
        from: "FROM sleep_summaries WHERE person = ?1 ORDER BY sleep_end_epoch, ifnull(source_name, '')")

    static let dayValues = ExportKind(
        name: "day_values",
        about: """
            Your daily values in long form: one row a date and field, the value the store keeps for that date (from the newest \
            export.xml import that covers it, else the newest Health Auto Export import), at full precision.
            """,
        columns: [
            .value("date", "date", "The date (YYYY-MM-DD)."),
            .value("field", "field", "The field: a column name of daily.csv (step_count, resting_hr, sleep_total_hours, ...)."),
            .value("value", "value", "The number, in unit."),
            .value("text", "text", "The value of text fields (sleep_in_bed_start, sleep_source, timezone, ...)."),
            .value("unit", "unit", "The unit of value."),
            .importID("import_id", "The import that gave it."),
        ],
        from: "FROM day_values WHERE person = ?1 ORDER BY date, field")

    static let importDayValues = ExportKind(
        name: "import_day_values",
        about: """
            The daily values each import gave on its own, before imports were merged into day_values: one row an import, date \
            and field. The field workouts holds that day's workouts as the payload's JSON.
            """,
        columns: [
            .importID("v.import_id", "The import."),
            .value("date", "v.date", "The date (YYYY-MM-DD)."),
            .value("field", "v.field", "The field, as in day_values."),
            .value("value", "v.value", "The number, in unit."),
            .value("text", "v.text", "The value of text fields."),
            .value("unit", "v.unit", "The unit of value."),
        ],
        from: "FROM import_day_values v JOIN imports i ON i.id = v.import_id WHERE i.person = ?1 ORDER BY v.import_id, v.date, v.field")

    static let dayPayloads = ExportKind(
        name: "day_payloads",
        about: """
            The payload convert last wrote for each date (the body of POST /sync/healthkit), as JSON, which push sends.
            """,
        columns: [
            .value("date", "date", "The date (YYYY-MM-DD)."),
            .json("payload", "json(payload_json)", "The payload (compact): the date's metrics, sleep, workouts and running mechanics."),
            .value("tool_version", "tool_version", "The health-import version that wrote it."),
            .value("written_at", "written_at", "When it was written (UTC)."),
        ],
        from: "FROM day_payloads WHERE person = ?1 ORDER BY date")

    static let pushes = ExportKind(
        name: "pushes",
        about: """
            What push sent to a backend, one row an endpoint and date: the body's sha256, the answer and when.
            """,
        columns: [
            .value("endpoint", "endpoint", "The backend's sync endpoint."),
            .value("date", "date", "The date (YYYY-MM-DD) whose payload was sent."),
            .value("body_sha256", "body_sha256", "The sha256 of the request body that was sent."),
            .value("http_status", "http_status", "The backend's HTTP status."),
            .value("result", "result", "accepted, rejected or failed."),
            .value("detail", "detail", "Why, when not accepted."),
            .value("attempts", "attempts", "How many requests it took."),
            .value("pushed_at", "pushed_at", "When (UTC)."),
        ],
        from: "FROM pushes WHERE person = ?1 ORDER BY endpoint, date")

    static let fleetVerdicts = ExportKind(
        name: "fleet_verdicts",
        about: """
            Your last verdict in a cohort's migration check (compare --everyone): whether your data were ready and why.
            """,
        columns: [
            .value("status", "status", "app-stopped, not-ready, not-enough-data or ready."),
            .json("failing_fields", storedJSON("failing_fields"), "The fields that failed (payload paths)."),
            .value("reason", "reason", "Why, in one sentence."),
            .json("verdict", storedJSON("person_json"), "The whole verdict: failing fields with their dates, fields that held, causes."),
            .value("mode", "mode", "validate or monitor."),
            .value("days", "days", "Dates compared (--days)."),
            .value("monitor", "monitor", "Dates monitored (--monitor), or empty."),
            .value("until_date", "until_date", "The last date monitored (--until), or empty."),
            .value("shard", "shard", "The worker's share of the cohort, K/N."),
            .value("from_date", "from_date", "The first date compared (--from), or empty."),
            .value("time_zone", "time_zone", "The zone asked for (--timezone), or empty."),
            .value("tolerances_sha256", "tolerances_sha256", "SHA-256 of the tolerances file used (--tolerances), or empty."),
            .value("judged_date", "judged_date", "The last date judged."),
            .value("judged_zone", "judged_zone", "The zone whose today that date was, or empty."),
            .value("run_id", "run_id", "The fleet run's id (--run-id), or empty."),
            .value("tool_version", "tool_version", "The health-import version that made it."),
            .value("checked_at", "checked_at", "When your data were read for it (UTC)."),
            .value("written_at", "written_at", "When it was written (UTC)."),
        ],
        from: "FROM fleet_verdicts WHERE person = ?1")

    static let receivedBodies = ExportKind(
        name: "received_bodies",
        about: """
            Every body `receive` took for you, as it came: the app's daily payloads and Health Auto Export's automation bodies.
            """,
        columns: [
            .value("body_id", "id", "The body's number in the store."),
            .value("endpoint", "endpoint", "Where it was sent: sync/healthkit (the app) or hae (Health Auto Export)."),
            .value("body_sha256", "body_sha256", "sha256 of the body's bytes (lowercase hex): the same body is kept once."),
            .value("bytes", "bytes", "The body's size in bytes."),
            .value("received_at", "received_at", "When it was received (ISO 8601, UTC)."),
            .value("first_date", "first_date", "The first date its data start on (YYYY-MM-DD)."),
            .value("last_date", "last_date", "The last date its data start on."),
            .json(
                "body", storedJSONOneLine("CAST(body AS TEXT)"),
                "The body itself, as received, on one line: its line breaks, which JSON allows only between values, are spaces here."),
        ],
        from: "FROM received_bodies WHERE person = ?1 ORDER BY id")

    /// One row a date with the columns of `daily.csv`, from the store's `daily` view (at full
    /// precision, where daily.csv rounds as the payload does).
    static func daily() -> ExportKind {
        var columns: [ExportColumn] = []
        for f in OutputFields.columns {
            guard let column = f.column else { continue }
            let meaning: String
            switch f.kind {
            case .date: meaning = "The date (YYYY-MM-DD)."
            case .sleepTime: meaning = "Time of the night that ends on the date (ISO 8601 with its UTC offset)."
            case .text where column == "timezone": meaning = "The UTC offset or zone the date was read in."
            case .text where column == "hae_filled":
                meaning = "On a date export.xml covers: the fields whose value came from Health Auto Export, ;-separated."
            case .text: meaning = "Text."
            case .workoutsCount: meaning = "How many workouts the date has."
            default: meaning = f.unit.map { "\(f.kind.rawValue), \($0)." } ?? "\(f.kind.rawValue)."
            }
            columns.append(.value(column, StoreSchema.quoteIdentifier(column), meaning))
        }
        return ExportKind(
            name: "daily",
            about: """
                Your daily values with one row a date and the columns of convert's daily.csv, at full precision. For each column \
                the README gives how the value is made (sum, avg, min, max, latest, ...) and its unit; docs/payload.md in the \
                health-import sources explains each.
                """,
            columns: columns,
            from: "FROM daily WHERE person = ?1 ORDER BY date")
    }
}
