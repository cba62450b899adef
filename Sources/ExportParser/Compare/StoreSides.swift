import Foundation

/// The two sides of `compare --store`: a person's export.xml imports (native) and HAE imports,
/// each side's days as its own imports gave them (`import_day_values`): per date the newest
/// import of the side that covers it, as `day_values` chooses among the imports of one side.
enum StoreSides {
    static func read(_ path: String, person: String) throws -> (native: [String: ComparableDay], hae: [String: ComparableDay]) {
        guard StoreAccess.exists(path) else {
            throw InputError(file: path, message: "no store here (convert writes one)")
        }
        let store = try StoreAccess.open(path)
        guard try !store.imports(person: person).isEmpty else {
            throw InputError(file: path, message: "the store holds no import for the person \"\(person)\" (give --person)")
        }
        return (try side(store, person: person, hae: false, path: path), try side(store, person: person, hae: true, path: path))
    }

    private static func side(_ store: some StoredDays, person: String, hae: Bool, path: String) throws -> [String: ComparableDay] {
        var byStoreName: [String: OutputField] = [:]
        for f in OutputFields.all where f.payloadPath != nil {
            if let name = f.storeName { byStoreName[name] = f }
        }
        var days: [String: ComparableDay] = [:]
        try store.forEachSideDayValue(person: person, hae: hae) { v in
            var day = days[v.date] ?? ComparableDay(date: v.date)
            if v.field == StoreImportSession.workoutsField {
                let list = (v.text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]) ?? []
                day.workouts = list.compactMap(PayloadReader.workout)
            } else if byStoreName[v.field]?.payloadPath == "timezone" {
                day.timezone = v.text
            } else if let f = byStoreName[v.field], let p = f.payloadPath, !ComparableDay.notCompared.contains(p), f.kind != .workoutsCount
            {
                if let n = v.number { day.values[p] = .number(n) } else if let t = v.text { day.values[p] = .text(t) }
            }
            days[v.date] = day
        }
        return days
    }
}
