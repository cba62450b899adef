/// What a `compare` run was asked to do (the CLI's options; `CompareJob` validates them).
public struct CompareRequest: Sendable {
    /// Native HealthKit data: export.zip/export.xml, or payload JSON the app sent.
    public var native: [String]
    /// Health Auto Export data: HAE JSON, or payload JSON built from it.
    public var hae: [String]
    /// Dates compared (`--days`), from `from` or ending on the last date both sides cover.
    public var days: Int
    /// `YYYY-MM-DD`: first date of the window.
    public var from: String?
    public var timeZoneName: String?
    /// A JSON or TOML file of tolerances that replace the defaults.
    public var tolerancesPath: String?
    public var outDir: String
    /// `--monitor N`: check the native side's N dates up to `until` for every field it had in the
    /// window.
    public var monitor: Int?
    /// `--until DATE` (`YYYY-MM-DD`): with `--monitor`, the last date judged; nil: today in the
    /// person's zone (docs/compare.md, "`--monitor N`").
    public var until: String?
    /// `--store FILE`: both sides from a store instead of inputs, for `person`: per side the
    /// bodies `receive` took (native: the app's; HAE: HAE's) when there are any, else the side's
    /// imports (native: export.xml imports; HAE: HAE imports).
    public var storePath: String?
    public var person: String
    /// `--everyone`: every person of the store, each through the single-person rules, with one
    /// fleet report (docs/compare.md, "Fleet").
    public var everyone: Bool
    /// `--shard K/N` (with `--everyone`): only the people of shard K (docs/compare.md, "Shards").
    public var shard: FleetShard?
    /// `--report` (with `--everyone`): the fleet report from the verdicts stored by earlier
    /// `--everyone` runs (every shard's), comparing no one again.
    public var reportOnly = false
    /// `--run-id ID` (with `--everyone`): a worker stores it with its verdicts; `--report`
    /// takes only that run's verdicts as current (docs/deploy.md: the Job's uid).
    public var runID: String?
    /// Whether `--days` was given (not its default): `--report` refuses it.
    public var daysGiven = false

    public init(
        native: [String], hae: [String], days: Int = 7, from: String? = nil, timeZoneName: String? = nil,
        tolerancesPath: String? = nil, outDir: String = "out/compare", monitor: Int? = nil, until: String? = nil, storePath: String? = nil,
        person: String = "me", everyone: Bool = false
    ) {
        self.native = native
        self.hae = hae
        self.days = days
        self.from = from
        self.timeZoneName = timeZoneName
        self.tolerancesPath = tolerancesPath
        self.outDir = outDir
        self.monitor = monitor
        self.until = until
        self.storePath = storePath
        self.person = person
        self.everyone = everyone
    }

    /// Checks the options before anything is read (the command's `validate()` calls it).
    public func validate() throws {
        if storePath != nil {
            guard native.isEmpty, hae.isEmpty else {
                throw UsageError("--store", "--store takes both sides from the store: give no --native or --hae with it")
            }
        } else {
            guard !native.isEmpty else { throw UsageError("--native", "give the native side: --native INPUT… (or --store FILE)") }
            guard !hae.isEmpty || (monitor != nil && (from != nil || until != nil)) else {
                throw UsageError("--hae", "give the HAE side: --hae INPUT… (only --monitor with --until or --from can do without)")
            }
        }
        guard days >= 1 else { throw UsageError("--days", "--days must be at least 1") }
        if let n = monitor, n < 1 { throw UsageError("--monitor", "--monitor must be at least 1") }
        if until != nil, monitor == nil {
            throw UsageError("--until", "--until is the last date --monitor judges: give it with --monitor N")
        }
        _ = try until.map { try ConvertJob.day($0, option: "--until") }
        _ = try DayOptions(timeZoneName: timeZoneName)
        _ = try from.map { try ConvertJob.day($0, option: "--from") }
        if let t = tolerancesPath, t.isEmpty { throw UsageError("--tolerances", "--tolerances needs a file name") }
        if person.isEmpty { throw UsageError("--person", "--person needs a non-empty id") }
        if everyone, storePath == nil {
            throw UsageError("--everyone", "--everyone compares every person of a store: give --store FILE")
        }
        if shard != nil, !everyone { throw UsageError("--shard", "--shard takes a share of --everyone: give it with --everyone") }
        if reportOnly, !everyone {
            throw UsageError("--report", "--report builds the fleet report of --everyone from stored verdicts: give it with --everyone")
        }
        if reportOnly, shard != nil {
            throw UsageError("--report", "--report reads every shard's verdicts: give it without --shard")
        }
        if runID != nil, !everyone { throw UsageError("--run-id", "--run-id names a fleet run: give it with --everyone") }
        if let id = runID, id.isEmpty { throw UsageError("--run-id", "--run-id needs a non-empty id") }
        if reportOnly {
            // The report's options are its verdicts' own: a window or tolerances given here
            // would only look as if they were used.
            let given = [
                ("--days", daysGiven), ("--from", from != nil), ("--monitor", monitor != nil), ("--until", until != nil),
                ("--tolerances", tolerancesPath != nil), ("--timezone", timeZoneName != nil),
            ].filter(\.1).map(\.0)
            if let first = given.first {
                throw UsageError(
                    first,
                    "--report judges nothing again: it takes the options its verdicts were made with; give \(given.joined(separator: ", ")) to the --shard workers instead"
                )
            }
        }
    }
}
