import Foundation

/// The days an earlier import of the same file left in the store, against the days this run
/// makes of it: with the options recorded (`imports.day_options`), what tells a run that is
/// truly the same (already imported) from one that replaces the import (docs/store.md, "Rules").
extension HealthStore {
    /// Whether the days `days` are those `earlier` stored in `import_day_values` (workouts aside:
    /// they do not depend on the day options). An import that stored no day values (none were
    /// made) agrees with anything.
    func sameDays(_ days: [FinishedDay], as earlier: StoredImport) throws -> Bool {
        struct Row: Hashable {
            var date: String
            var field: String
            var value: UInt64?
            var text: String?
            var unit: String?
        }
        let s = try db.prepare(
            "SELECT date, field, value, text, unit FROM import_day_values WHERE import_id = ?1 AND field <> ?2")
        s.bind(1, earlier.id)
        s.bind(2, StoreImportSession.workoutsField)
        var stored = Set<Row>()
        while try s.step() {
            stored.insert(
                Row(date: s.text(0) ?? "", field: s.text(1) ?? "", value: s.double(2)?.bitPattern, text: s.text(3), unit: s.text(4)))
        }
        if stored.isEmpty { return true }
        var made = Set<Row>()
        for day in days {
            for f in day.fields { made.insert(Row(date: day.date, field: f.name, value: f.value?.bitPattern, text: f.text, unit: f.unit)) }
        }
        return made == stored
    }

    /// Whether a run of the file `earlier` imported is that import again: the same options that
    /// change the numbers (an import of a store before version 7 recorded none: its days decide)
    /// and the same days (a newer health-import that makes other days of the file replaces it).
    func isSameImport(_ earlier: StoredImport, dayOptions: String?, days: [FinishedDay]) throws -> Bool {
        if let stated = earlier.dayOptions, stated != dayOptions { return false }
        return try sameDays(days, as: earlier)
    }
}
