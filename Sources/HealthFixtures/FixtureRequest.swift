import ExportParser

/// What a `fixtures` run was asked to make (the CLI's options; `validate` checks them).
public struct FixtureRequest: Sendable {
    /// How many local dates the fixture covers (each gets a payload); nil with `scaleMegabytes`.
    public var days: Int?
    /// `YYYY-MM-DD`: the first date.
    public var start: String
    public var seed: UInt64
    /// IANA zone the person lives in (the samples' offsets and `HKTimeZone`).
    public var timeZoneName: String
    /// `runner`, `sedentary`, `shift-worker`, `traveller`.
    public var profile: String
    /// `metric` or `imperial`: the units the export and the HAE file write.
    public var units: String
    public var outDir: String
    /// `ios16-dtd`: the broken DTD iOS 16.0 exports carry; nil: the current one.
    public var variant: String?
    /// `zh_CN`: the files named as that locale's Health app names them (`导出.xml`); nil: English.
    public var locale: String?
    /// `days` (nil: the default): hae.json summarised by day (HAE's Summarize on); `samples`: one
    /// datum a sample (Summarize off).
    public var haeStyle: String?
    /// `default` or `since`: also write the REST bodies HAE would have POSTed, four syncs a day,
    /// with its default period (windows overlap) or "Since Last Sync" (`HAEBodiesWriter`).
    public var haeBodies: String?
    /// `days` or `samples`: the REST bodies' style when it is not `haeStyle`'s (nil: the same).
    /// A manual export with Summarize on beside REST bodies with Summarize off, as a person who
    /// changed the setting has (docs/fixtures.md, "Both styles in one set").
    public var haeBodiesStyle: String?
    /// `--scale MB`: one large file of about this many megabytes (10^6 bytes), for benchmarks,
    /// instead of a fixture of `days` dates.
    public var scaleMegabytes: Int?
    /// With `scaleMegabytes`: `export` (nil: export.xml and export.zip), `xml` (export.xml
    /// alone) or `hae` (hae.json in the samples style).
    public var scaleFile: String?
    /// `export` (the default): every export.xml timestamp in the offset of the export moment, as
    /// the Health app writes them; `sample`: each in the offset of its own instant.
    public var exportOffsets = "export"

    public static let defaultStart = "2026-03-02"
    public static let defaultTimeZone = "Europe/Amsterdam"

    public init(
        days: Int?, start: String = FixtureRequest.defaultStart, seed: UInt64 = 1, timeZoneName: String = FixtureRequest.defaultTimeZone,
        profile: String = "runner", units: String = "metric", outDir: String = "fixtures", variant: String? = nil, locale: String? = nil,
        haeStyle: String? = nil, scaleMegabytes: Int? = nil, scaleFile: String? = nil, haeBodies: String? = nil
    ) {
        self.days = days
        self.start = start
        self.seed = seed
        self.timeZoneName = timeZoneName
        self.profile = profile
        self.units = units
        self.outDir = outDir
        self.variant = variant
        self.locale = locale
        self.haeStyle = haeStyle
        self.haeBodies = haeBodies
        self.scaleMegabytes = scaleMegabytes
        self.scaleFile = scaleFile
    }

    /// Checks the options before anything is made (the command's `validate()` calls it; exit
    /// status 2): each value, and the combinations that cannot work.
    public func validate() throws { _ = try FixtureOptions(self) }

    /// The command line that makes this fixture, for its README and plan (without `--out`, so
    /// the same fixture written to two folders has the same bytes).
    var commandLine: String {
        let size = scaleMegabytes.map { "--scale \($0)" + (scaleFile.map { " --scale-file " + $0 } ?? "") } ?? "--days \(days ?? 0)"
        return
            "health-import fixtures \(size) --start \(start) --seed \(seed) --timezone \(timeZoneName) --profile \(profile) --units \(units)"
            + (variant.map { " --variant " + $0 } ?? "") + (locale.map { " --locale " + $0 } ?? "")
            + (haeStyle == "samples" ? " --hae-style samples" : "") + (haeBodies.map { " --hae-bodies " + $0 } ?? "")
            + (haeBodiesStyle.map { " --hae-bodies-style " + $0 } ?? "")
            + (exportOffsets == "export" ? "" : " --export-offsets " + exportOffsets)
    }

    /// The export's file name without extension: the Health app localises it.
    var exportName: String { locale == "zh_CN" ? "导出" : "export" }

    /// The export's `locale` attribute: the Health app writes the phone's.
    var exportLocale: String { locale ?? (units == "imperial" ? "en_US" : "en_GB") }

    var exportDTD: String { variant == "ios16-dtd" ? ExportDTD.ios16 : ExportDTD.current }
}
