import Foundation

/// `compare --everyone --report`: the fleet report made from stored verdicts (`FleetVerdicts`)
/// without comparing anyone again, and what it does not cover (`FleetCoverage`).
enum FleetAssembly {
    /// `everyone`: the store's people with data; `changed`: people whose data changed since
    /// their verdict's check (`FleetVerdicts.changedSinceChecked`); `runID`: `--report
    /// --run-id`, the one run whose verdicts are current; `now`: the report's moment, for
    /// `--monitor`'s today. Returns nil when no verdict is stored at all.
    static func report(
        verdicts: [FleetVerdict], everyone: [String], changed: Set<String>, runID: String? = nil, now: Date = Date()
    ) -> FleetReport? {
        // The newest verdict's options (of the run asked for, when one is) are the report's; a
        // verdict made with others is stale.
        func newer(_ a: FleetVerdict, _ b: FleetVerdict) -> Bool { (a.writtenAt, a.person) < (b.writtenAt, b.person) }
        guard let newest = verdicts.filter({ runID == nil || $0.runID == runID }).max(by: newer) ?? verdicts.max(by: newer)
        else { return nil }
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
            if v.run != run || changed.contains(v.person) || (runID != nil && v.runID != runID) || !judgedToday(v, now: now) {
                stale.insert(v.person)
            }
        }
        // Missing: everyone (and anyone with an unreadable verdict, even if no longer in the
        // store's people) minus the readable verdicts, once each; the shards to run again are
        // computed from that one set, so no missing person is named without a shard.
        let have = Set(people.map(\.person))
        let missing = Set(everyone + unreadable).subtracting(have).sorted()
        let n = newest.shardCount
        let shards = Set(missing.map { FleetShard.index(of: $0, count: n) }).sorted().map { "\($0)/\(n)" }
        let mode: CompareReport.Mode = run.mode == CompareReport.Mode.monitor.rawValue ? .monitor : .validate
        let until = run.monitor == nil ? nil : run.until ?? "today in each person's zone"
        var report = FleetReport(people: people, mode: mode, days: run.days, monitor: run.monitor, until: until)
        report.coverage = FleetCoverage(missingPeople: missing, missingShards: shards, stalePeople: stale.sorted())
        return report
    }

    /// `--monitor` without `--until` judges today in the person's zone: a verdict judged for
    /// another date than today (now, in the zone it was judged in) is stale, so yesterday's
    /// verdicts of a shard that failed today are not taken as today's. Verdicts with `--until`
    /// (the date is in their options) or of validate mode (the window follows the data) are not
    /// judged by the clock.
    static func judgedToday(_ v: FleetVerdict, now: Date) -> Bool {
        guard v.run.monitor != nil, v.run.until == nil, let zoneName = v.judgedZone, let date = v.judgedDate else { return true }
        guard let zone = PayloadTimeZone.zone(zoneName) else { return false }
        return CivilDate.isoDate(MonitorEnd.today(in: zone, now: now)) == date
    }
}
