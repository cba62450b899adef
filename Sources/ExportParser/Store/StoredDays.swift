import Foundation

/// One row of a side's day values (`compare --store`): the store name of a field and its value,
/// a number or a text (the workouts field holds the day's workouts as JSON text).
struct StoredDayValue {
    var date: String
    var field: String
    var number: Double?
    var text: String?
}

/// What `explain --store` and `compare --store` ask of a store about a person's imported days:
/// the records around a date played as a reader would, the day values the store keeps, and each
/// side's days as its own imports gave them. A side is the export.xml imports (`hae` false) or
/// the HAE imports (`hae` true), finished ones only.
///
/// A protocol so that another store (the PostgreSQL one of the fleet) answers the same
/// questions; `HealthStore` answers them with SQLite.
protocol StoredDays {
    /// Plays the side's records around `day` (days since 1970-01-01) into `sink`
    /// (`StoreDateReplay`); returns how many samples, nights and workouts it played.
    func replayRecords(person: String, hae: Bool, day: Int, into sink: SampleSink) throws -> Int
    /// The store's own day values of the date (`day_values`), by store name.
    func dayValues(person: String, date: String) throws -> [String: OutputField.Scalar]
    /// Each value of the side's days, dates in order: per date the newest import of the side
    /// that covers it, as `day_values` chooses among the imports of one side.
    func forEachSideDayValue(person: String, hae: Bool, _ body: (StoredDayValue) throws -> Void) throws
}

extension HealthStore: StoredDays {
    func replayRecords(person: String, hae: Bool, day: Int, into sink: SampleSink) throws -> Int {
        try StoreDateReplay.play(self, person: person, hae: hae, day: day, into: sink)
    }

    func dayValues(person: String, date: String) throws -> [String: OutputField.Scalar] {
        let s = try db.prepare("SELECT field, value, text FROM day_values WHERE person = ?1 AND date = ?2")
        s.bind(1, person)
        s.bind(2, date)
        var out: [String: OutputField.Scalar] = [:]
        while try s.step() {
            guard let field = s.text(0) else { continue }
            if let v = s.double(1) { out[field] = .number(v) } else if let t = s.text(2) { out[field] = .text(t) }
        }
        return out
    }

    func forEachSideDayValue(person: String, hae: Bool, _ body: (StoredDayValue) throws -> Void) throws {
        let s = try db.prepare(
            """
            WITH newest AS (
                SELECT v.date, max(v.import_id) AS import_id
                FROM import_day_values v JOIN imports i ON i.id = v.import_id
                WHERE i.person = ?1 AND (i.format = 'hae') = ?2 AND i.finished_at IS NOT NULL
                GROUP BY v.date
            )
            SELECT v.date, v.field, v.value, v.text FROM newest n
            JOIN import_day_values v ON v.import_id = n.import_id AND v.date = n.date
            ORDER BY v.date
            """)
        s.bind(1, person)
        s.bind(2, hae ? 1 : 0)
        while try s.step() {
            guard let date = s.text(0), let field = s.text(1) else { continue }
            try body(StoredDayValue(date: date, field: field, number: s.double(2), text: s.text(3)))
        }
    }
}
