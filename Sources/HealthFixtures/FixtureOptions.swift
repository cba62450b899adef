import ExportParser

/// A `FixtureRequest` checked and read: the first date, the zone, the profile, the units, the
/// HAE style, what `--scale` asks for. Every option and every combination is checked here, once,
/// for both the command's `validate()` and `FixtureJob`.
struct FixtureOptions {
    /// What `--scale` makes.
    enum ScaleFile: String, CaseIterable {
        /// export.xml and export.zip holding it.
        case export
        /// export.xml alone.
        case xml
        /// hae.json, one datum a sample.
        case hae
    }

    let firstDay: Int
    /// The home zone's clock (`clock(days:)` adds a traveller's flight).
    let homeClock: FixtureClock
    let profile: FixtureProfile
    let units: FixtureUnits
    let samplesStyle: Bool
    /// `--hae-bodies`: the REST bodies' sync period, when they are asked for.
    let haeBodies: HAEBodiesWriter.Window?
    /// The REST bodies' style: `--hae-bodies-style`, else hae.json's.
    let bodiesSamplesStyle: Bool
    /// `--export-offsets export` (the default): export.xml's timestamps all in the export
    /// moment's offset, as the Health app writes them; false: each in its own (`sample`).
    let exportOffsets: Bool
    /// `--scale MB` and the file it makes; nil for a fixture of `--days` dates.
    let scale: (megabytes: Int, file: ScaleFile)?

    /// The largest `--scale` with export.zip: it is written without ZIP64, whose entries stop at
    /// 4 GiB.
    static let largestZippedScale = 4_000
    /// The largest `--scale` of export.xml or hae.json alone: enough for the 6 GB export that
    /// checks memory stays flat (docs/export-xml.md, "Memory"), and a bound on a typo's disk use.
    static let largestScale = 10_000

    init(_ request: FixtureRequest) throws {
        if request.scaleFile != nil, request.scaleMegabytes == nil {
            throw UsageError("--scale-file", "--scale-file chooses the file --scale makes: give --scale MB with it")
        }
        switch (request.days, request.scaleMegabytes) {
        case (nil, nil): throw UsageError("--days", "give --days N (or --scale MB for one large file)")
        case (_?, _?): throw UsageError("--scale", "--scale decides the number of dates from the size: give --days or --scale, not both")
        case (let days?, nil):
            guard (1...3_660).contains(days) else { throw UsageError("--days", "--days must be between 1 and 3660") }
        case (nil, let mb?):
            guard (1...Self.largestScale).contains(mb) else {
                throw UsageError(
                    "--scale",
                    "--scale must be a whole number of megabytes from 1 to \(Self.largestScale) (\(Self.largestZippedScale) with export.zip)"
                )
            }
        }
        guard let first = CivilDate.parseISODate(request.start) else {
            throw UsageError("--start", "--start \"\(request.start)\" is not a date in the form YYYY-MM-DD")
        }
        guard let clock = FixtureClock(zoneName: request.timeZoneName) else {
            throw UsageError("--timezone", "--timezone \"\(request.timeZoneName)\" is not an IANA time zone (such as Europe/Amsterdam)")
        }
        guard let profile = FixtureProfile.named(request.profile) else {
            throw UsageError(
                "--profile",
                "--profile \"\(request.profile)\" is not a profile: \(FixtureProfile.all.map(\.name).joined(separator: ", "))")
        }
        guard let units = FixtureUnits.named(request.units) else {
            throw UsageError("--units", "--units \"\(request.units)\" is not a unit system: metric, imperial")
        }
        if let v = request.variant, v != "ios16-dtd" {
            throw UsageError("--variant", "--variant \"\(v)\" is not a variant: ios16-dtd")
        }
        if let l = request.locale, l != "zh_CN" {
            throw UsageError("--locale", "--locale \"\(l)\" is not a locale the fixtures know: zh_CN")
        }
        if let s = request.haeStyle, !["days", "samples"].contains(s) {
            throw UsageError("--hae-style", "--hae-style \"\(s)\" is not a style: days, samples")
        }
        if let b = request.haeBodies {
            guard let w = HAEBodiesWriter.Window(rawValue: b) else {
                throw UsageError("--hae-bodies", "--hae-bodies \"\(b)\" is not a sync period: default, since")
            }
            guard request.scaleMegabytes == nil else {
                throw UsageError("--hae-bodies", "--hae-bodies cuts a fixture of --days into REST bodies; --scale writes one large file")
            }
            haeBodies = w
        } else {
            haeBodies = nil
        }
        if let s = request.haeBodiesStyle {
            guard ["days", "samples"].contains(s) else {
                throw UsageError("--hae-bodies-style", "--hae-bodies-style \"\(s)\" is not a style: days, samples")
            }
            guard request.haeBodies != nil else {
                throw UsageError("--hae-bodies-style", "--hae-bodies-style is the style of the REST bodies: give --hae-bodies with it")
            }
        }
        guard ["export", "sample"].contains(request.exportOffsets) else {
            throw UsageError(
                "--export-offsets", "--export-offsets \"\(request.exportOffsets)\" is not a choice: export, sample")
        }
        exportOffsets = request.exportOffsets == "export"
        firstDay = first
        homeClock = clock
        self.profile = profile
        self.units = units
        samplesStyle = request.haeStyle == "samples"
        bodiesSamplesStyle = (request.haeBodiesStyle ?? request.haeStyle) == "samples"
        scale = try request.scaleMegabytes.map { ($0, try Self.scaleFile(request)) }
    }

    private static func scaleFile(_ request: FixtureRequest) throws -> ScaleFile {
        let name = request.scaleFile ?? ScaleFile.export.rawValue
        guard let file = ScaleFile(rawValue: name) else {
            throw UsageError(
                "--scale-file",
                "--scale-file \"\(name)\" is not a file --scale makes: export (export.xml and export.zip), xml (export.xml alone), hae (hae.json)"
            )
        }
        if file == .export, let mb = request.scaleMegabytes, mb > Self.largestZippedScale {
            throw UsageError(
                "--scale",
                "--scale \(mb) is too large for export.zip, written without ZIP64 (whose limit is 4 GiB): at most \(Self.largestZippedScale), or --scale-file xml for export.xml alone"
            )
        }
        switch (file, request.haeStyle) {
        case (.hae, "days"):
            throw UsageError(
                "--hae-style",
                "--scale-file hae writes the samples style: a day-aggregated hae.json has one datum a date for each metric, too few to scale"
            )
        case (.export, _?), (.xml, _?):
            throw UsageError("--hae-style", "--hae-style is about hae.json, which --scale writes only with --scale-file hae")
        default: return file
        }
    }

    /// The clock of a fixture of `days` dates: a traveller flies west on the middle date.
    func clock(days: Int) -> FixtureClock {
        profile.travels ? homeClock.travelling(westOn: firstDay + days / 2) : homeClock
    }

    /// The one offset export.xml's timestamps are written in: the export moment's, or nil for
    /// each instant's own.
    func writtenOffset(_ planner: FixturePlanner) -> Int32? {
        exportOffsets ? planner.clock.offset(planner.exportDate) : nil
    }

    func planner(days: Int, seed: UInt64) -> FixturePlanner {
        FixturePlanner(firstDay: firstDay, days: days, seed: seed, clock: clock(days: days), profile: profile, units: units)
    }
}
