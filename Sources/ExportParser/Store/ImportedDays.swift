import Foundation

/// The days an earlier import of the same file left in the store, against the days this run
/// makes of it. The store keeps one set of days per file: converting the same export again with
/// another `--timezone` or `--source-priority` would otherwise report "already imported" while
/// the payloads it writes (and `day_payloads`) held other days than `daily` and `day_values`
/// (issue 23). Such a run is refused instead, with the zones of both.
extension HealthStore {
    /// Throws when the days `days` differ from those `earlier` stored in `import_day_values`
    /// (workouts aside: they do not depend on the day options). An import that stored no day
    /// values (none were made) agrees with anything.
    func checkSameDays(_ days: [FinishedDay], as earlier: StoredImport) throws {
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
        if stored.isEmpty { return }
        var made = Set<Row>()
        for day in days {
            for f in day.fields { made.insert(Row(date: day.date, field: f.name, value: f.value?.bitPattern, text: f.text, unit: f.unit)) }
        }
        if made == stored { return }
        func zones(_ rows: Set<Row>) -> String {
            let names = Set(rows.filter { $0.field == "timezone" }.compactMap(\.text)).sorted()
            return names.isEmpty ? "no zone" : names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        }
        throw StoreError(
            path: path,
            message:
                "\(earlier.fileName) was already imported for \(earlier.person) (import \(earlier.id)), and this run makes other days of it "
                + "(there: \(zones(stored)); this run: \(zones(made))): another --timezone or --source-priority, or another health-import "
                + "version. The store keeps one set of days per file, so nothing was changed or written. Convert it again with the "
                + "options of that import, or erase \(earlier.person) (health-import erase) and convert again.")
    }
}
