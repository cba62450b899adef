/// Where a person's rows are, table by table: the one list `erase` deletes by, `people` counts
/// by and the tests check against. A table is either keyed by `person` itself or reaches it
/// through its parent (a metadata entry through its sample, a day value through its import).
///
/// Every table of the schema must be here or in `shared`: `erase` refuses a store with a table
/// this list does not name (a newer schema), because a table it did not know of is a table it
/// would leave the person's data in.
enum PersonRows {
    struct Table {
        let name: String
        /// A condition on the table's rows that holds for exactly the person's, with the person
        /// bound as `?1`.
        let predicate: String
    }

    private static let ownSamples = "SELECT id FROM sample_records WHERE person = ?1"
    private static let ownCorrelations = "SELECT id FROM correlations WHERE person = ?1"
    private static let ownWorkouts = "SELECT id FROM workouts WHERE person = ?1"
    private static let ownImports = "SELECT id FROM imports WHERE person = ?1"

    /// Children before their parents and `imports` last, the order `erase` deletes in (a
    /// child's condition reads its parent's rows, which must still be there).
    static let tables: [Table] = [
        Table(name: "hrv_beats", predicate: "sample_id IN (\(ownSamples))"),
        Table(name: "sample_records", predicate: "person = ?1"),
        Table(name: "correlation_metadata", predicate: "correlation_id IN (\(ownCorrelations))"),
        Table(name: "correlation_members", predicate: "correlation_id IN (\(ownCorrelations))"),
        Table(name: "correlations", predicate: "person = ?1"),
        Table(name: "workout_route_files", predicate: "route_id IN (SELECT id FROM workout_routes WHERE workout_id IN (\(ownWorkouts)))"),
        Table(name: "workout_routes", predicate: "workout_id IN (\(ownWorkouts))"),
        Table(name: "workout_metadata", predicate: "workout_id IN (\(ownWorkouts))"),
        Table(name: "workout_statistics", predicate: "workout_id IN (\(ownWorkouts))"),
        Table(name: "workout_events", predicate: "workout_id IN (\(ownWorkouts))"),
        Table(name: "workout_activities", predicate: "workout_id IN (\(ownWorkouts))"),
        Table(name: "workouts", predicate: "person = ?1"),
        Table(name: "activity_summaries", predicate: "person = ?1"),
        Table(name: "me", predicate: "person = ?1"),
        Table(name: "extra_items", predicate: "person = ?1"),
        Table(name: "sleep_summaries", predicate: "person = ?1"),
        Table(name: "day_values", predicate: "person = ?1"),
        Table(name: "day_payloads", predicate: "person = ?1"),
        Table(name: "pushes", predicate: "person = ?1"),
        Table(name: "received_bodies", predicate: "person = ?1"),
        Table(name: "fleet_verdicts", predicate: "person = ?1"),
        Table(name: "import_day_values", predicate: "import_id IN (\(ownImports))"),
        Table(name: "import_record_counts", predicate: "import_id IN (\(ownImports))"),
        Table(name: "import_skips", predicate: "import_id IN (\(ownImports))"),
        Table(name: "devices", predicate: "person = ?1"),
        Table(name: "sources", predicate: "person = ?1"),
        Table(name: "imports", predicate: "person = ?1"),
    ]

    /// The kinds `people` counts, in its order, as `gdpr-export` names its files (samples are
    /// the `sample_records` table); each table is one of `tables`.
    static let listed: [(name: String, table: String)] = [
        ("samples", "sample_records"), ("hrv_beats", "hrv_beats"), ("correlations", "correlations"), ("workouts", "workouts"),
        ("activity_summaries", "activity_summaries"), ("me", "me"), ("extra_items", "extra_items"),
        ("sleep_summaries", "sleep_summaries"), ("day_values", "day_values"), ("day_payloads", "day_payloads"),
        ("pushes", "pushes"),
    ]

    /// Tables that hold nobody's data: `sample_types` names HealthKit types ("HKQuantity…
    /// StepCount"), shared by every person of the store.
    static let shared: Set<String> = ["sample_types"]

    /// Tables with a `person` column, each with an index that starts with it.
    static var keyedByPerson: [String] { tables.filter { $0.predicate == "person = ?1" }.map(\.name) }

    /// The store's tables that are neither in `tables` nor `shared`: empty for every schema this
    /// build knows.
    static func unknownTables(_ db: SQLiteConnection) throws -> [String] {
        let known = Set(tables.map(\.name)).union(shared)
        let s = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var out: [String] = []
        while try s.step() {
            if let name = s.text(0), !known.contains(name) { out.append(name) }
        }
        return out
    }

    /// Whether the store holds any row of the person (an index seek per table).
    static func holds(_ db: SQLiteConnection, person: String) throws -> Bool {
        for table in keyedByPerson {
            let s = try db.prepare("SELECT 1 FROM \(table) WHERE person = ?1 LIMIT 1")
            s.bind(1, person)
            if try s.step() { return true }
        }
        return false
    }

    /// Every person with a row in the store, sorted: for each person-keyed table, one index
    /// seek per distinct person (`min(person) WHERE person > last`) rather than a scan of
    /// millions of sample rows.
    static func persons(_ db: SQLiteConnection) throws -> [String] {
        var found = Set<String>()
        for table in keyedByPerson {
            let first = try db.prepare("SELECT min(person) FROM \(table)")
            let after = try db.prepare("SELECT min(person) FROM \(table) WHERE person > ?1")
            var next = try first.step() ? first.text(0) : nil
            while let person = next {
                found.insert(person)
                after.bind(1, person)
                next = try after.step() ? after.text(0) : nil
                after.reset()
            }
        }
        return found.sorted()
    }

    /// Rows of the person in one table.
    static func count(_ db: SQLiteConnection, table: Table, person: String) throws -> Int {
        let s = try db.prepare("SELECT count(*) FROM \(table.name) WHERE \(table.predicate)")
        s.bind(1, person)
        _ = try s.step()
        return Int(s.int(0))
    }
}
