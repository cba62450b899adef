/// The workout tables of one import: `workouts` (keyed by their identity digest), their
/// activities, metadata, statistics, events, routes and route files.
final class WorkoutRows {
    private let rows: StoreRows
    private let names: StoreNames
    private let insertWorkout: Statement
    private let insertWorkoutActivity: Statement
    private let insertWorkoutMetadata: Statement
    private let insertWorkoutStatistic: Statement
    private let insertWorkoutEvent: Statement
    private let insertWorkoutRoute: Statement
    private let insertWorkoutRouteFile: Statement
    /// Where an event's metadata object is built, reused event after event (as `CorrelationRows`).
    private let json = ExportBytes(capacity: 1024)

    init(rows: StoreRows, names: StoreNames) throws {
        self.rows = rows
        self.names = names
        let db = rows.db
        insertWorkout = try db.prepare(
            """
            INSERT OR IGNORE INTO workouts (person, import_id, activity_type, source_name, source_version, device_id,
              created_at, created_epoch, start_at, start_epoch, end_at, end_epoch, duration, duration_unit,
              total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit,
              stated_average_heart_rate, stated_maximum_heart_rate, time_zone, identity_digest)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)
            """)
        insertWorkoutActivity = try db.prepare(
            """
            INSERT INTO workout_activities (workout_id, position, uuid, start_at, start_epoch, end_at, end_epoch, duration, duration_unit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        insertWorkoutMetadata = try db.prepare("INSERT INTO workout_metadata (workout_id, activity_id, key, value) VALUES (?1, ?2, ?3, ?4)")
        insertWorkoutStatistic = try db.prepare(
            """
            INSERT INTO workout_statistics (workout_id, activity_id, type, start_at, start_epoch, end_at, end_epoch,
              average, minimum, maximum, sum, unit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        insertWorkoutEvent = try db.prepare(
            """
            INSERT INTO workout_events (workout_id, activity_id, type, date_at, date_epoch, duration, duration_unit, metadata_json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        insertWorkoutRoute = try db.prepare(
            """
            INSERT INTO workout_routes (workout_id, source_name, start_at, start_epoch, end_at, end_epoch, inline_location_count)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        insertWorkoutRouteFile = try db.prepare("INSERT INTO workout_route_files (route_id, path) VALUES (?1, ?2)")
        insertWorkout.bind(1, rows.person)
        insertWorkout.bind(2, rows.importID)
    }

    func write(_ w: Workout) throws {
        let st = insertWorkout
        st.bind(3, w.activityType)
        st.bind(4, w.source)
        st.bind(5, w.sourceVersion)
        st.bind(6, try names.deviceID(w.device))
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
        guard try rows.insert(st) else { return }
        rows.added("workouts")
        let id = rows.db.lastInsertRowID
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
            _ = try rows.insert(s)
            rows.added("workout_activities")
            let activityID = rows.db.lastInsertRowID
            try writeParts(workout: id, activity: activityID, metadata: a.metadata, statistics: a.statistics, events: a.events)
        }
        for r in w.routes {
            let s = insertWorkoutRoute
            s.bind(1, id)
            s.bind(2, r.source)
            s.bindInstant(3, r.start)
            s.bindInstant(5, r.end)
            s.bind(7, r.inlineLocationCount)
            _ = try rows.insert(s)
            rows.added("workout_routes")
            let routeID = rows.db.lastInsertRowID
            insertWorkoutRouteFile.bind(1, routeID)
            for p in r.filePaths {
                insertWorkoutRouteFile.bind(2, p)
                _ = try rows.insert(insertWorkoutRouteFile)
            }
            rows.added("workout_route_files", r.filePaths.count)
        }
    }

    private func writeParts(
        workout: Int64, activity: Int64?, metadata: [MetadataEntry], statistics: [WorkoutStatistic], events: [WorkoutEvent]
    ) throws {
        let md = insertWorkoutMetadata
        md.bind(1, workout)
        md.bind(2, activity)
        for m in metadata {
            md.bind(3, m.key)
            md.bind(4, m.value)
            _ = try rows.insert(md)
        }
        rows.added("workout_metadata", metadata.count)
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
            _ = try rows.insert(ss)
        }
        rows.added("workout_statistics", statistics.count)
        let es = insertWorkoutEvent
        es.bind(1, workout)
        es.bind(2, activity)
        for e in events {
            es.bind(3, e.type)
            es.bindInstant(4, e.date)
            es.bind(6, e.duration)
            es.bind(7, e.durationUnit)
            if e.metadata.isEmpty {
                es.bind(8, nil as String?)
            } else {
                JSONText.appendObject(e.metadata, to: json)
                es.bindText(8, json)
            }
            _ = try rows.insert(es)
        }
        rows.added("workout_events", events.count)
    }
}
