/// What `people` asks of a store: who it holds, and for each person the imports, the dates of
/// the daily values, the rows per kind and the bodies received per side.
///
/// A protocol so that another store (the PostgreSQL one of the fleet) answers the same
/// question; `HealthStore` answers it with SQLite (`PersonRows`).
protocol PeopleListing {
    /// Every person of the store, sorted, all counted in one read transaction (one moment).
    func people() throws -> [PersonSummary]
}

extension HealthStore: PeopleListing {
    func people() throws -> [PersonSummary] {
        let db = self.db
        return try reading {
            let tables = Dictionary(uniqueKeysWithValues: PersonRows.tables.map { ($0.name, $0) })
            let dates = try db.prepare("SELECT min(date), max(date) FROM day_values WHERE person = ?1")
            return try PersonRows.persons(db).map { person in
                let imports = try PersonRows.count(db, table: tables["imports"]!, person: person)
                dates.bind(1, person)
                _ = try dates.step()
                let first = dates.text(0), last = dates.text(1)
                dates.reset()
                let rows = try PersonRows.listed.map { kind in
                    PersonSummary.Kind(name: kind.name, rows: try PersonRows.count(db, table: tables[kind.table]!, person: person))
                }
                // Native (the app's payloads) before HAE, as compare lists its sides.
                let received = try ReceivedBodyStore.status(db, person: person).sorted { ($0.endpoint == .app) && $1.endpoint != .app }
                return PersonSummary(person: person, imports: imports, firstDate: first, lastDate: last, rows: rows, received: received)
            }
        }
    }
}
