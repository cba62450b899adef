import Foundation

/// The `people` command: who a store holds, the starting point of `gdpr-export` and `erase`.
public final class PeopleJob {
    public let request: PeopleRequest

    /// The kinds counted, as `gdpr-export` names its files (samples are the `sample_records` table).
    static let kinds: [(name: String, table: String)] = [
        ("samples", "sample_records"), ("hrv_beats", "hrv_beats"), ("correlations", "correlations"), ("workouts", "workouts"),
        ("activity_summaries", "activity_summaries"), ("me", "me"), ("extra_items", "extra_items"),
        ("sleep_summaries", "sleep_summaries"), ("day_values", "day_values"),
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
                return PersonSummary(person: person, imports: imports, firstDate: first, lastDate: last, rows: rows)
            }
        }
    }

    /// The listing as the terminal shows it: a line a person, then its rows per kind.
    public static func lines(_ people: [PersonSummary], storePath: String) -> [String] {
        guard !people.isEmpty else { return ["\(storePath) holds no person."] }
        var out: [String] = []
        for p in people {
            let span = p.firstDate.map { "\($0) to \(p.lastDate ?? $0)" } ?? "no dates"
            out.append("\(p.person): \(p.imports) import\(p.imports == 1 ? "" : "s"), \(span)")
            out.append("  " + p.rows.map { "\($0.name) \(CountText.count($0.rows))" }.joined(separator: ", "))
        }
        return out
    }
}
