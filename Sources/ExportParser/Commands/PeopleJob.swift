import Foundation

/// The `people` command: who a store holds, the starting point of `gdpr-export` and `erase`.
public final class PeopleJob {
    public let request: PeopleRequest

    public init(_ request: PeopleRequest) {
        self.request = request
    }

    public func run() throws -> [PersonSummary] {
        let store = try StoreAccess.open(request.storePath)
        return try store.people()
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
            // A PostgreSQL store holds received bodies only: no rows of the imported kinds to list.
            if !p.rows.isEmpty { out.append("  " + p.rows.map { "\($0.name) \(CountText.count($0.rows))" }.joined(separator: ", ")) }
        }
        return out
    }
}
