/// `compare --everyone --report`: the fleet report made from stored verdicts (`FleetVerdicts`)
/// without comparing anyone again, and what it does not cover (`FleetCoverage`).
enum FleetAssembly {
    /// `everyone`: the store's people with data; `changed`: people with data newer than their
    /// verdict's check. Returns nil when no verdict is stored at all.
    static func report(verdicts: [FleetVerdict], everyone: [String], changed: Set<String>) -> FleetReport? {
        // The newest verdict's options are the report's; a verdict made with others is stale.
        guard let newest = verdicts.max(by: { ($0.writtenAt, $0.person) < ($1.writtenAt, $1.person) }) else { return nil }
        let run = newest.run
        var people: [FleetPerson] = []
        var stale = Set<String>()
        var unreadable: [String] = []
        for v in verdicts {
            guard let p = v.fleetPerson() else {
                unreadable.append(v.person)
                continue
            }
            people.append(p)
            if v.run != run || changed.contains(v.person) { stale.insert(v.person) }
        }
        let have = Set(people.map(\.person))
        let missing = everyone.filter { !have.contains($0) }
        let n = newest.shardCount
        let shards = Set(missing.map { FleetShard.index(of: $0, count: n) }).sorted().map { "\($0)/\(n)" }
        let mode: CompareReport.Mode = run.mode == CompareReport.Mode.monitor.rawValue ? .monitor : .validate
        let until = run.monitor == nil ? nil : run.until ?? "today in each person's zone"
        var report = FleetReport(people: people, mode: mode, days: run.days, monitor: run.monitor, until: until)
        report.coverage = FleetCoverage(
            missingPeople: (missing + unreadable).sorted(), missingShards: shards, stalePeople: stale.sorted())
        return report
    }
}
