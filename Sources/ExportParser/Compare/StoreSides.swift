import Foundation

/// The two sides of `compare --store`: a person's export.xml imports (native) and HAE imports,
/// each side's days as its own imports gave them (`import_day_values`): per date the newest
/// import of the side that covers it, as `day_values` chooses among the imports of one side.
enum StoreSides {
    static func read(_ path: String, person: String) throws -> (native: [String: ComparableDay], hae: [String: ComparableDay]) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(file: path, message: "no store here (convert writes one)")
        }
        let store = try HealthStore(path: path)
        guard try !store.imports(person: person).isEmpty else {
            throw InputError(file: path, message: "the store holds no import for the person \"\(person)\" (give --person)")
        }
        return (try side(store, person: person, hae: false, path: path), try side(store, person: person, hae: true, path: path))
    }

    private static func side(_ store: HealthStore, person: String, hae: Bool, path: String) throws -> [String: ComparableDay] {
        var byStoreName: [String: OutputField] = [:]
        for f in OutputFields.all where f.payloadPath != nil {
            if let name = f.storeName { byStoreName[name] = f }
        }
        let s = try store.db.prepare(
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
        var days: [String: ComparableDay] = [:]
        while try s.step() {
            guard let date = s.text(0), let field = s.text(1) else { continue }
            var day = days[date] ?? ComparableDay(date: date)
            if field == StoreImportSession.workoutsField {
                let list = (s.text(3).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]) ?? []
                day.workouts = list.compactMap(PayloadReader.workout)
            } else if byStoreName[field]?.payloadPath == "timezone" {
                day.timezone = s.text(3)
            } else if let f = byStoreName[field], let p = f.payloadPath, !ComparableDay.notCompared.contains(p), f.kind != .workoutsCount {
                if let n = s.double(2) { day.values[p] = .number(n) } else if let t = s.text(3) { day.values[p] = .text(t) }
            }
            days[date] = day
        }
        return days
    }
}
