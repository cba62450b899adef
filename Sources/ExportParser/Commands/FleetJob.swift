import Foundation
import Synchronization

/// `compare --store FILE --everyone`: every person of the store with received bodies or imports
/// (with `--shard K/N`, those of shard K), each through exactly the single-person check
/// (`FleetCheck`, one `CompareJob` a person, its report in `--out/PERSON/`), side by side on the
/// machine's cores, each verdict stored as it is made (`FleetVerdicts`); then the fleet report
/// (`fleet.json`, `fleet.csv`, `fleet.html` in `--out`; `fleet-K-of-N.*` for a shard). With `--report` the report is made
/// from the stored verdicts of every shard instead (`FleetAssembly`). One person's unreadable
/// data makes that person not ready with the reason; only a usage error or a store that cannot
/// be opened ends the run.
public final class FleetJob {
    let request: CompareRequest

    public init(_ request: CompareRequest) throws {
        try request.validate()
        guard request.everyone, request.storePath != nil else {
            throw UsageError("--everyone", "--everyone compares every person of a store: give --store FILE")
        }
        // What would fail every person alike fails the run instead, before anyone is read.
        if !request.reportOnly { _ = try request.tolerancesPath.map(Tolerances.load) }
        self.request = request
    }

    /// `progress` gets (people done, people in all) after each person, from any thread.
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> FleetOutcome {
        let path = request.storePath!
        let (store, verdicts) = try StoreAccess.fleet(path)
        let everyone = try store.everyone()
        if request.reportOnly {
            guard
                let report = FleetAssembly.report(
                    verdicts: try verdicts.all(), everyone: everyone.map(\.person), changed: try verdicts.changedSinceChecked(),
                    runID: request.runID)
            else {
                throw StoreError(
                    path: path, message: "holds no fleet verdicts: run compare --everyone (each --shard K/N) on it before --report")
            }
            try FleetFiles.write(report, to: request.outDir)
            return FleetOutcome(report: report, outDir: request.outDir, assembled: true)
        }
        let shard = request.shard ?? .all
        let mine = shard.select(everyone) { $0.person }
        guard !everyone.isEmpty else {
            throw StoreError(path: path, message: "holds no person with received bodies or imports: nothing to compare")
        }
        let template = request
        let outDir = request.outDir
        let run = FleetVerdict.Run(
            mode: (request.monitor == nil ? CompareReport.Mode.validate : .monitor).rawValue, days: request.days,
            monitor: request.monitor, until: request.until, from: request.from, timeZone: request.timeZoneName,
            tolerancesDigest: try request.tolerancesPath.map { try FileDigest.sha256(path: $0) })
        let runID = request.runID
        let state = Mutex<(results: [FleetPerson?], done: Int, failed: (any Error)?)>((Array(repeating: nil, count: mine.count), 0, nil))
        // One person an iteration, as many at once as there are cores; each person's compare is
        // the single-person one and shares nothing with the others but the store file (each
        // opens its own read connection). Its verdict is stored at once, so a worker stopped
        // halfway keeps the people it finished.
        DispatchQueue.concurrentPerform(iterations: mine.count) { i in
            let (person, sides) = mine[i]
            let checkedAt = Date()
            var failed: (any Error)?
            // Read before the check reads the data: whatever is committed after it changes
            // the watermark, so a verdict is never taken as current over newer data (at worst
            // data committed in between makes it stale when it was not).
            let watermark: FleetWatermark
            do {
                watermark = try verdicts.watermark(person: person)
            } catch {
                failed = error
                watermark = FleetWatermark()
            }
            let result = FleetCheck.person(person, sides: sides, template: template, outDir: outDir)
            if failed == nil {
                do {
                    try verdicts.write(
                        try FleetVerdict(result, run: run, shard: shard, checkedAt: checkedAt, watermark: watermark, runID: runID))
                } catch {
                    failed = error
                }
            }
            let done = state.withLock { s in
                s.results[i] = result
                s.done += 1
                if s.failed == nil { s.failed = failed }
                return s.done
            }
            progress?(done, mine.count)
        }
        // A verdict that could not be stored would be missing from --report: the run fails.
        if let failed = state.withLock({ $0.failed }) { throw failed }
        let people = state.withLock { $0.results.map { $0! } }
        let until = request.monitor == nil ? nil : request.until ?? "today in each person's zone"
        let report = FleetReport(
            people: people, mode: request.monitor == nil ? .validate : .monitor, days: request.days, monitor: request.monitor,
            until: until)
        try FleetFiles.write(report, to: outDir, base: request.shard?.fleetFileBase ?? "fleet")
        return FleetOutcome(report: report, outDir: outDir, shard: request.shard)
    }
}

/// The end of a fleet run: exit 0 when every person is ready (and, for `--report`, everyone's
/// verdict is there and current), 1 otherwise.
public struct FleetOutcome: Sendable {
    public let report: FleetReport
    public let outDir: String
    /// `--shard K/N`: the share this run checked.
    public var shard: FleetShard?
    /// `--report`: made from stored verdicts, whose own reports are where their workers wrote them.
    public var assembled: Bool
    public var exitStatus: Int32 { report.allReady ? 0 : 1 }

    public init(report: FleetReport, outDir: String, shard: FleetShard? = nil, assembled: Bool = false) {
        self.report = report
        self.outDir = outDir
        self.shard = shard
        self.assembled = assembled
    }

    public func terminalText(color: Bool) -> String {
        FleetTerminal.render(report, outDir: outDir, color: color, shard: shard, assembled: assembled)
    }
}
