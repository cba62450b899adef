/// A cohort's verdict (docs/compare.md, "Fleet"): every person worst first, and per field how
/// many people it holds and fails for, and the causes most people share. The per-field counts
/// tell one person's phone from a defect of the app's sync: a field failing for one person of
/// thirty is that person's; failing for twenty, it is the app's.
public struct FleetReport: Sendable {
    /// How many people a field holds and fails for, and who fails.
    public struct FieldTally: Sendable, Equatable {
        public var field: String
        public var holds = 0
        public var fails: [String] = []
    }

    public var people: [FleetPerson]
    public var fields: [FieldTally]
    /// Each cause with the people it applies to, most people first.
    public var causes: [(cause: String, people: [String])]
    var mode: CompareReport.Mode
    public var days: Int
    /// `--monitor N`, and how its last date was chosen.
    public var monitor: Int?
    public var until: String?
    /// Whom the report covers: complete unless it was built from stored verdicts
    /// (`--report`) and someone's is missing or stale.
    public var coverage = FleetCoverage()

    init(people unsorted: [FleetPerson], mode: CompareReport.Mode, days: Int, monitor: Int?, until: String?) {
        people = unsorted.sorted { ($0.status.rank, $0.person) < ($1.status.rank, $1.person) }
        self.mode = mode
        self.days = days
        self.monitor = monitor
        self.until = until
        var tallies: [String: FieldTally] = [:]
        for p in people {
            for f in p.holding { tallies[f, default: FieldTally(field: f)].holds += 1 }
            for f in p.failing { tallies[f.field, default: FieldTally(field: f.field)].fails.append(p.person) }
        }
        // Field-table order, then the workouts and the whole-date gaps.
        let order = Dictionary(
            OutputFields.all.enumerated().compactMap { i, f in f.payloadPath.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
        fields = tallies.values.sorted { (order[$0.field] ?? Int.max, $0.field) < (order[$1.field] ?? Int.max, $1.field) }
        var byCause: [String: [String]] = [:]
        for p in people { for c in p.causes { byCause[c, default: []].append(p.person) } }
        causes = byCause.map { ($0.key, $0.value) }.sorted { ($1.1.count, $0.0) < ($0.1.count, $1.0) }
    }

    /// How many people have each status, in status order.
    public var counts: [(status: FleetStatus, people: Int)] {
        FleetStatus.allCases.map { s in (s, people.filter { $0.status == s }.count) }
    }

    /// Everyone of the store is covered and ready.
    public var allReady: Bool { people.allSatisfy(\.ready) && coverage.isComplete }
}
