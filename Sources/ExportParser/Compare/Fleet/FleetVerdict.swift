import Foundation

/// One person's verdict as a fleet worker stores it (`FleetVerdicts`), so that
/// `compare --everyone --report` can build the fleet report from every worker's people without
/// computing anything again (docs/compare.md, "Shards").
struct FleetVerdict: Sendable, Equatable {
    /// What the run that made the verdict was asked, every option that can change a verdict:
    /// the fleet report's header. Verdicts made with other options than the newest ones are
    /// stale (`FleetAssembly`).
    struct Run: Sendable, Equatable {
        var mode: String
        var days: Int
        var monitor: Int?
        var until: String?
        /// `--from`.
        var from: String? = nil
        /// `--timezone`, as given.
        var timeZone: String? = nil
        /// SHA-256 (hex) of the `--tolerances` file's bytes: the same name with other content
        /// is another run.
        var tolerancesDigest: String? = nil
        /// The health-import version that judged (`ExportParserVersion.current`).
        var toolVersion: String = ExportParserVersion.current
    }

    var person: String
    var status: String
    /// The failing fields' names, in the person's order (also inside `personJSON`; a column of
    /// their own so a database can be asked who fails on a field).
    var failingFields: [String]
    var reason: String
    /// The whole `FleetPerson`, as JSON: what the report is built from.
    var personJSON: String
    var run: Run
    /// `K/N` of the worker (`0/1` without `--shard`).
    var shard: String
    /// When the person's data was read for the check (ISO 8601, UTC, milliseconds): data
    /// received or imported after it makes the verdict stale.
    var checkedAt: String
    /// When the verdict was written.
    var writtenAt: String
    /// The person's data in the store when the check read them: data committed later makes the
    /// verdict stale.
    var watermark = FleetWatermark()
    /// The last date the verdict judged (`YYYY-MM-DD`; `--monitor`'s last date, `--until` or
    /// today), and the zone whose today it was (nil with `--until` or in validate mode): a
    /// verdict judged for another date than the report's is stale.
    var judgedDate: String?
    var judgedZone: String?
    /// `--run-id` of the worker (a Kubernetes Job's uid): `--report --run-id ID` takes only the
    /// verdicts of that run as current.
    var runID: String?

    init(
        _ p: FleetPerson, run: Run, shard: FleetShard, checkedAt: Date, writtenAt: Date = Date(), watermark: FleetWatermark = .init(),
        runID: String? = nil
    ) throws {
        person = p.person
        status = p.status.rawValue
        failingFields = p.failing.map(\.field)
        reason = p.reason
        personJSON = String(decoding: try Self.encoder.encode(p), as: UTF8.self)
        self.run = run
        self.shard = shard.description
        self.checkedAt = ReceivedBodyStore.isoUTCMilliseconds(checkedAt)
        self.writtenAt = ReceivedBodyStore.isoUTCMilliseconds(writtenAt)
        self.watermark = watermark
        judgedDate = p.judgedDate
        judgedZone = p.judgedZone
        self.runID = runID
    }

    init(
        person: String, status: String, failingFields: [String], reason: String, personJSON: String, run: Run, shard: String,
        checkedAt: String, writtenAt: String
    ) {
        self.person = person
        self.status = status
        self.failingFields = failingFields
        self.reason = reason
        self.personJSON = personJSON
        self.run = run
        self.shard = shard
        self.checkedAt = checkedAt
        self.writtenAt = writtenAt
    }

    /// The person as the worker judged them; nil when the stored JSON is not a person this
    /// build reads (a store written by another version).
    func fleetPerson() -> FleetPerson? {
        try? Self.decoder.decode(FleetPerson.self, from: Data(personJSON.utf8))
    }

    /// The shard count of the worker that wrote it (1 when unreadable).
    var shardCount: Int { shard.split(separator: "/").last.flatMap { Int($0) } ?? 1 }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.keyEncodingStrategy = .convertToSnakeCase
        return e
    }()
    private static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()
}
