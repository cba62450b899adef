/// `people` and the first question of `compare --everyone` on PostgreSQL: who the store holds
/// and their bodies per side. The store holds received bodies only, so a person has no imports,
/// no daily values and no rows of the imported kinds.
extension PostgresStore: PeopleListing {
    func people() throws -> [PersonSummary] {
        try transaction(readOnly: true) { db in
            let r = try db.run("SELECT DISTINCT person FROM received_bodies")
            // Sorted here, not by the server's collation, so the order is the SQLite store's.
            let persons = (0..<r.rows).compactMap { r.text($0, 0) }.sorted()
            return try persons.map { person in
                // Native (the app's payloads) before HAE, as compare lists its sides.
                let received = try Self.status(db, person: person).sorted { ($0.endpoint == .app) && $1.endpoint != .app }
                return PersonSummary(person: person, imports: 0, firstDate: nil, lastDate: nil, rows: [], received: received)
            }
        }
    }
}

extension PostgresStore: EveryonesSides {
    func everyone() throws -> [(person: String, sides: PersonSides)] {
        let r = try using { db in try db.run("SELECT person, endpoint, count(*) FROM received_bodies GROUP BY person, endpoint") }
        var out: [String: PersonSides] = [:]
        for row in 0..<r.rows {
            guard let person = r.text(row, 0), let endpoint = r.text(row, 1).flatMap(ReceiveEndpoint.init(rawValue:)) else { continue }
            if endpoint == .app { out[person, default: PersonSides()].appBodies += Int(r.int(row, 2)) }
            if endpoint == .hae { out[person, default: PersonSides()].haeBodies += Int(r.int(row, 2)) }
        }
        return out.keys.sorted().map { ($0, out[$0]!) }
    }
}
