import Foundation
import Synchronization

/// `compare --store FILE --everyone`: every person of the store with received bodies or imports,
/// each through exactly the single-person check (`FleetCheck`, one `CompareJob` a person, its
/// report in `--out/PERSON/`), side by side on the machine's cores; then the fleet report
/// (`fleet.json`, `fleet.csv`, `fleet.html` in `--out`). One person's unreadable data makes that
/// person not ready with the reason; only a usage error or a store that cannot be opened ends
/// the run.
public final class FleetJob {
    let request: CompareRequest

    public init(_ request: CompareRequest) throws {
        try request.validate()
        guard request.everyone, request.storePath != nil else {
            throw UsageError("--everyone", "--everyone compares every person of a store: give --store FILE")
        }
        // What would fail every person alike fails the run instead, before anyone is read.
        _ = try request.tolerancesPath.map(Tolerances.load)
        self.request = request
    }

    /// `progress` gets (people done, people in all) after each person, from any thread.
    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> FleetOutcome {
        let path = request.storePath!
        let everyone = try StoreAccess.open(path).everyone()
        guard !everyone.isEmpty else {
            throw StoreError(path: path, message: "holds no person with received bodies or imports: nothing to compare")
        }
        let template = request
        let outDir = request.outDir
        let state = Mutex<(results: [FleetPerson?], done: Int)>((Array(repeating: nil, count: everyone.count), 0))
        // One person an iteration, as many at once as there are cores; each person's compare is
        // the single-person one and shares nothing with the others but the store file (each
        // opens its own read connection).
        DispatchQueue.concurrentPerform(iterations: everyone.count) { i in
            let (person, sides) = everyone[i]
            let result = FleetCheck.person(person, sides: sides, template: template, outDir: outDir)
            let done = state.withLock { s in
                s.results[i] = result
                s.done += 1
                return s.done
            }
            progress?(done, everyone.count)
        }
        let people = state.withLock { $0.results.map { $0! } }
        let until = request.monitor == nil ? nil : request.until ?? "today in each person's zone"
        let report = FleetReport(
            people: people, mode: request.monitor == nil ? .validate : .monitor, days: request.days, monitor: request.monitor,
            until: until)
        try FleetFiles.write(report, to: outDir)
        return FleetOutcome(report: report, outDir: outDir)
    }
}

/// The end of a fleet run: exit 0 when every person is ready, 1 when anyone is not.
public struct FleetOutcome: Sendable {
    public let report: FleetReport
    public let outDir: String
    public var exitStatus: Int32 { report.allReady ? 0 : 1 }
    public func terminalText(color: Bool) -> String { FleetTerminal.render(report, outDir: outDir, color: color) }
}
