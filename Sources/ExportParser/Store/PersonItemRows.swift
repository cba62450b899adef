/// The tables of what an input says about the person and their days as a whole: Apple's daily
/// rings (`activity_summaries`), `me`, the items nothing aggregates (`extra_items`) and the nights
/// an input summarised (`sleep_summaries`).
final class PersonItemRows {
    private let rows: StoreRows
    private let upsertActivitySummary: Statement
    private let upsertMe: Statement
    private let insertExtra: Statement
    private let insertSleepSummary: Statement

    init(rows: StoreRows) throws {
        self.rows = rows
        let db = rows.db
        // Apple's daily summary of a date is replaced by a later export's, but only when it differs,
        // so the import that last changed it stays recorded.
        upsertActivitySummary = try db.prepare(
            """
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
        upsertMe = try db.prepare(
            """
            INSERT INTO me (person, attribute, value, import_id) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (person, attribute) DO UPDATE SET value = excluded.value, import_id = excluded.import_id
            WHERE value IS NOT excluded.value
            """)
        insertExtra = try db.prepare("INSERT OR IGNORE INTO extra_items (person, import_id, kind, json) VALUES (?1, ?2, ?3, ?4)")
        insertSleepSummary = try db.prepare(
            """
            INSERT OR IGNORE INTO sleep_summaries (person, import_id, source_name, sleep_start_at, sleep_start_epoch,
              sleep_end_at, sleep_end_epoch, total_hours, core_hours, deep_hours, rem_hours, awake_hours, asleep_hours,
              in_bed_hours, in_bed_start_at, in_bed_start_epoch, in_bed_end_at, in_bed_end_epoch)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
            """)
        for s in [insertExtra, insertSleepSummary] {
            s.bind(1, rows.person)
            s.bind(2, rows.importID)
        }
        upsertActivitySummary.bind(1, rows.person)
        upsertActivitySummary.bind(3, rows.importID)
        upsertMe.bind(1, rows.person)
        upsertMe.bind(4, rows.importID)
    }

    func write(_ e: ExtraItem) throws {
        insertExtra.bind(3, e.kind)
        insertExtra.bind(4, e.json)
        if try rows.insert(insertExtra) { rows.added("extra_items") }
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
        if try rows.insert(s) { rows.added("activity_summaries") }
    }

    func write(_ m: Me) throws {
        for e in m.attributes {
            upsertMe.bind(2, e.key)
            upsertMe.bind(3, e.value)
            if try rows.insert(upsertMe) { rows.added("me") }
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
        if try rows.insert(s) { rows.added("sleep_summaries") }
    }
}
