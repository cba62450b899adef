/// What each side of `compare --store` has for a person, without reading any of it: the bodies
/// `receive` took by endpoint and the finished imports by format. `compare --everyone` asks it
/// first, so a person whose HAE was never set up is "not enough data" with that reason rather
/// than an error, and so the people compared are those with data of either side.
struct PersonSides: Sendable, Equatable {
    var appBodies = 0
    var haeBodies = 0
    var nativeImports = 0
    var haeImports = 0

    var hasNative: Bool { appBodies + nativeImports > 0 }
    var hasHAE: Bool { haeBodies + haeImports > 0 }

}

/// What `compare --everyone` asks of a store first: the persons with bodies received or finished
/// imports, sorted, each with their sides (one read transaction: one moment of the store).
///
/// `HealthStore` answers it with SQLite, `PostgresStore` with PostgreSQL (bodies only).
protocol EveryonesSides {
    func everyone() throws -> [(person: String, sides: PersonSides)]
}

extension HealthStore: EveryonesSides {
    func everyone() throws -> [(person: String, sides: PersonSides)] {
        let store = self
        return try store.reading {
            var out: [String: PersonSides] = [:]
            let bodies = try store.db.prepare("SELECT person, endpoint, count(*) FROM received_bodies GROUP BY person, endpoint")
            while try bodies.step() {
                guard let person = bodies.text(0), let endpoint = bodies.text(1).flatMap(ReceiveEndpoint.init(rawValue:)) else {
                    continue
                }
                if endpoint == .app { out[person, default: PersonSides()].appBodies += Int(bodies.int(2)) }
                if endpoint == .hae { out[person, default: PersonSides()].haeBodies += Int(bodies.int(2)) }
            }
            let imports = try store.db.prepare(
                "SELECT person, format = 'hae', count(*) FROM imports WHERE finished_at IS NOT NULL GROUP BY person, format = 'hae'")
            while try imports.step() {
                guard let person = imports.text(0) else { continue }
                if imports.int(1) == 1 {
                    out[person, default: PersonSides()].haeImports += Int(imports.int(2))
                } else {
                    out[person, default: PersonSides()].nativeImports += Int(imports.int(2))
                }
            }
            return out.keys.sorted().map { ($0, out[$0]!) }
        }
    }
}
