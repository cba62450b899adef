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
    /// `--monitor N`: check the native side's last N dates for every field it had in the window.
    public var monitor: Int?
    /// `--store FILE`: both sides from a store's imports instead of inputs (native: export.xml
    /// imports; HAE: HAE imports) of `person`.
    public var storePath: String?
    public var person: String

    public init(native: [String], hae: [String], days: Int = 7, from: String? = nil, timeZoneName: String? = nil,
                tolerancesPath: String? = nil, outDir: String = "out/compare", monitor: Int? = nil, storePath: String? = nil,
                person: String = "me") {
        self.native = native
        self.hae = hae
        self.days = days
        self.from = from
        self.timeZoneName = timeZoneName
        self.tolerancesPath = tolerancesPath
        self.outDir = outDir
        self.monitor = monitor
        self.storePath = storePath
        self.person = person
    }
}
