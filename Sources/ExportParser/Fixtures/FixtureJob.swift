/// The `fixtures` command: a synthetic export, its HAE twin and the payloads they must give,
/// all from one seeded plan (docs/fixtures.md).
public final class FixtureJob {
    public let request: FixtureRequest
    let firstDay: Int
    let clock: FixtureClock
    let profile: FixtureProfile
    let units: FixtureUnits
    let samplesStyle: Bool

    public init(_ request: FixtureRequest) throws {
        self.request = request
        let options = try FixtureOptions(request)
        firstDay = options.firstDay
        clock = options.clock
        profile = options.profile
        units = options.units
        samplesStyle = options.samplesStyle
    }

    public func run() throws -> FixtureOutcome {
        let planner = FixturePlanner(
            firstDay: firstDay, days: request.days, seed: request.seed, clock: clock, profile: profile, units: units)
        let out = request.outDir
        try OutputFiles.makeDirectory(out)
        let name = request.exportName
        var writer = try ExportXMLWriter(clock: clock, units: units, seed: request.seed, place: .memory)
        var samples = try samplesStyle ? HAESamplesWriter(clock: clock, units: units, place: .memory) : nil
        var data = FixtureData(exportDate: planner.exportDate)
        for day in planner.days {
            let d = planner.day(day)
            try writer.add(d)
            try samples?.add(d)
            data.plans.append(d.plan)
        }
        let xml = try OutputFiles.Staged(out + "/\(name).xml")
        try writer.finish(into: xml, locale: locale, dtd: dtd, exportDate: data.exportDate)
        try xml.commit()
        try zip(data, routes: true)
        if var samples {
            let hae = try OutputFiles.Staged(out + "/hae.json")
            try samples.finish(into: hae)
            try hae.commit()
        } else {
            try FixtureFiles.write(HAEFixtureWriter(data: data, clock: clock, units: units).json(), to: out + "/hae.json")
        }
        let days = ExpectedDays.days(data, clock: clock)
        try writeExpected(days, to: out + "/expected")
        try FixtureFiles.write(PlanJSON.json(data, request: request, clock: clock), to: out + "/plan.json")
        try FixtureFiles.write(FixtureReadme.text(request, days: days), to: out + "/README.md")
        return FixtureOutcome(outDir: out, days: days.count, records: writer.recordCount, exportBytes: Int(xml.size))
    }

    /// The export's `locale` attribute: the Health app writes the phone's.
    private var locale: String { request.locale ?? (units.name == "imperial" ? "en_US" : "en_GB") }

    private var dtd: String { request.variant == "ios16-dtd" ? ExportDTD.ios16 : ExportDTD.current }

    /// `export.zip` of the `export.xml` just written, with `export_cda.xml` and, when asked, the
    /// workouts' route files.
    private func zip(_ data: FixtureData, routes: Bool) throws {
        let local = clock.iso(data.exportDate)
        func field(_ from: Int, _ length: Int) -> Int { Int(local.dropFirst(from).prefix(length))! }
        let path = request.outDir + "/\(request.exportName).zip"
        do {
            let z = try ZipWriter(
                path: path, year: field(0, 4), month: field(5, 2), day: field(8, 2), hour: field(11, 2), minute: field(14, 2),
                second: field(17, 2))
            try z.add("apple_health_export/\(request.exportName).xml", file: request.outDir + "/\(request.exportName).xml")
            try z.add("apple_health_export/export_cda.xml", ClinicalDocument.xml(exportDate: clock.exportText(data.exportDate)))
            if routes {
                for p in data.plans {
                    for w in p.workouts where w.statistics {
                        try z.add(
                            "apple_health_export/workout-routes/" + ExportXMLElements.routeName(w, clock: clock),
                            RouteGPX.gpx(w, clock: clock))
                    }
                }
            }
            try z.finish()
        } catch let e as ZipWriter.Failure {
            throw InputError(file: path, message: e.description)
        }
    }

    /// `expected/`: written exactly as `convert` writes its outputs (the same writers and the
    /// same framing of payloads.json), so the files can be compared byte for byte.
    private func writeExpected(_ days: [FinishedDay], to dir: String) throws {
        try OutputFiles.makeDirectory(dir)
        var batch = days.isEmpty ? "{\n  \"data\": []\n}\n" : "{\n  \"data\": [\n"
        try OutputFiles.replaceDirectory(dir + "/payloads") { payloads in
            for (i, day) in days.enumerated() {
                let payload = PayloadEncoder.payload(day)
                try FixtureFiles.write(Array((payload.render() + "\n").utf8), to: payloads + "/\(day.date).json")
                batch += "    " + payload.render(level: 2) + (i + 1 < days.count ? ",\n" : "\n  ]\n}\n")
            }
        }
        try FixtureFiles.write(Array(batch.utf8), to: dir + "/payloads.json")
        try FixtureFiles.write(Array(CSVWriter.csv(days).utf8), to: dir + "/daily.csv")
    }
}

/// What a fixtures run wrote.
public struct FixtureOutcome: Sendable {
    public let outDir: String
    public let days: Int
    public let records: Int
    public let exportBytes: Int

    public var summary: String {
        "Wrote a fixture of \(days) days (\(records) records, export.xml \(exportBytes / 1_000) kB) to \(outDir)"
    }
}
