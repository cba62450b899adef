import Foundation

/// The `people` command: who a store holds, the starting point of `gdpr-export` and `erase`.
public final class PeopleJob {
    public let request: PeopleRequest

    /// The kinds counted, as `gdpr-export` names its files (samples are the `sample_records` table).
    static let kinds: [(name: String, table: String)] = [
        ("samples", "sample_records"), ("hrv_beats", "hrv_beats"), ("correlations", "correlations"), ("workouts", "workouts"),
        ("activity_summaries", "activity_summaries"), ("me", "me"), ("extra_items", "extra_items"),
        ("sleep_summaries", "sleep_summaries"), ("day_values", "day_values"), ("day_payloads", "day_payloads"),
        ("pushes", "pushes"),
    ]

    public init(_ request: PeopleRequest) {
        self.request = request
    }

    public func run() throws -> [PersonSummary] {
        let store = try StoreAccess.open(request.storePath)
        let db = store.db
        // One read transaction: the counts of one person are of one moment.
        return try store.reading {
            let tables = Dictionary(uniqueKeysWithValues: PersonRows.tables.map { ($0.name, $0) })
            let dates = try db.prepare("SELECT min(date), max(date) FROM day_values WHERE person = ?1")
            return try PersonRows.persons(db).map { person in
                let imports = try PersonRows.count(db, table: tables["imports"]!, person: person)
                dates.bind(1, person)
                _ = try dates.step()
                let first = dates.text(0), last = dates.text(1)
                dates.reset()
                let rows = try Self.kinds.map { kind in
                    PersonSummary.Kind(name: kind.name, rows: try PersonRows.count(db, table: tables[kind.table]!, person: person))
                }
                // Native (the app's payloads) before HAE, as compare lists its sides.
                let received = try ReceivedBodyStore.status(db, person: person).sorted { ($0.endpoint == .app) && $1.endpoint != .app }
                return PersonSummary(person: person, imports: imports, firstDate: first, lastDate: last, rows: rows, received: received)
            }
        }
    }

    /// The listing as the terminal shows it: a line a person (imports and the dates of their
    /// daily values, then the bodies received per side with their dates), then its rows per kind.
    public static func lines(_ people: [PersonSummary], storePath: String) -> [String] {
        guard !people.isEmpty else { return ["\(storePath) holds no person."] }
        var out: [String] = []
        for p in people {
            let span = p.firstDate.map { "daily values \($0) to \(p.lastDate ?? $0)" } ?? "no daily values"
            var line = "\(p.person): \(p.imports) import\(p.imports == 1 ? "" : "s"), \(span)"
            for side in p.received {
                let dates = side.firstDate.map { ", \($0) to \(side.lastDate ?? $0)" } ?? ", no dates"
                let name = side.endpoint == .app ? "native" : "HAE"
                line += "; \(name) bodies received \(CountText.count(side.bodies))\(dates)"
            }
            out.append(line)
            out.append("  " + p.rows.map { "\($0.name) \(CountText.count($0.rows))" }.joined(separator: ", "))
        }
        return out
    }
}
