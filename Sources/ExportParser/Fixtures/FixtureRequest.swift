/// What a `fixtures` run was asked to make (the CLI's options; `FixtureJob` validates them).
public struct FixtureRequest: Sendable {
    /// How many local dates the fixture covers (each gets a payload).
    public var days: Int
    /// `YYYY-MM-DD`: the first date.
    public var start: String
    public var seed: UInt64
    /// IANA zone the person lives in (the samples' offsets and `HKTimeZone`).
    public var timeZoneName: String
    /// `runner`, `sedentary`.
    public var profile: String
    /// `metric` or `imperial`: the units the export and the HAE file write.
    public var units: String
    public var outDir: String

    public static let defaultStart = "2026-03-02"
    public static let defaultTimeZone = "Europe/Amsterdam"

    public init(days: Int, start: String = FixtureRequest.defaultStart, seed: UInt64 = 1, timeZoneName: String = FixtureRequest.defaultTimeZone,
                profile: String = "runner", units: String = "metric", outDir: String = "fixtures") {
        self.days = days
        self.start = start
        self.seed = seed
        self.timeZoneName = timeZoneName
        self.profile = profile
        self.units = units
        self.outDir = outDir
    }

    /// The command line that makes this fixture, for its README and plan (without `--out`, so
    /// the same fixture written to two folders has the same bytes).
    var commandLine: String {
        "health-import fixtures --days \(days) --start \(start) --seed \(seed) --timezone \(timeZoneName) --profile \(profile) --units \(units)"
    }
}
