import ExportParser
import Foundation

/// The `fixtures` command: a synthetic export, its HAE twin and the payloads they must give,
/// all from one seeded plan (docs/fixtures.md).
public final class FixtureJob {
    public let request: FixtureRequest
    let options: FixtureOptions

    public init(_ request: FixtureRequest) throws {
        self.request = request
        options = try FixtureOptions(request)
    }

    /// Writes every file into a staging folder inside `--out` and moves them into place only
    /// when all are written: a run that fails leaves `--out` as it was (`OutputFiles.stagedFolder`).
    public func run() throws -> FixtureOutcome {
        var outcome = try OutputFiles.stagedFolder(request.outDir) { stage in
            var staged = request
            staged.outDir = stage
            return try run(staged)
        }
        outcome.outDir = request.outDir
        return outcome
    }

    private func run(_ request: FixtureRequest) throws -> FixtureOutcome {
        if let scale = options.scale {
            return try FixtureScaleRun(request: request, options: options, megabytes: scale.megabytes, file: scale.file).run()
        }
        let planner = options.planner(days: request.days ?? 0, seed: request.seed)
        let clock = planner.clock, units = options.units
        let out = request.outDir
        let name = request.exportName
        var writer = try ExportXMLWriter(
            clock: clock, units: units, seed: request.seed, place: .memory, writtenOffset: options.writtenOffset(planner))
        var samples = try options.samplesStyle ? HAESamplesWriter(clock: clock, units: units, place: .memory) : nil
        var data = FixtureData(exportDate: planner.exportDate)
        // The REST bodies are cut from every date's records (a fixture of --days, so few).
        var bodyDays: [FixtureDay] = []
        for day in planner.days {
            let d = planner.day(day)
            try writer.add(d)
            try samples?.add(d)
            data.plans.append(d.plan)
            if options.haeBodies != nil { bodyDays.append(d) }
        }
        let xml = try OutputFiles.Staged(out + "/\(name).xml")
        try writer.finish(into: xml, locale: request.exportLocale, dtd: request.exportDTD, exportDate: data.exportDate)
        try xml.commit()
        try FixtureZip.write(
            exportName: name, outDir: out, clock: clock, exportDate: data.exportDate,
            routes: data.plans.flatMap { $0.workouts.filter(\.statistics) })
        if var samples {
            let hae = try OutputFiles.Staged(out + "/hae.json")
            try samples.finish(into: hae)
            try hae.commit()
        } else {
            try FixtureFiles.write(HAEFixtureWriter(data: data, clock: clock, units: units).json(), to: out + "/hae.json")
        }
        if let window = options.haeBodies {
            try HAEBodiesWriter(window: window, clock: clock, units: units, samplesStyle: options.bodiesSamplesStyle).write(
                bodyDays, to: out)
        }
        try Self.dateHAEFiles(in: out, at: data.exportDate)
        let days = ExpectedDays.days(data, clock: clock)
        try writeExpected(days, to: out + "/expected")
        try FixtureFiles.write(PlanJSON.json(data, request: request, clock: clock), to: out + "/plan.json")
        try FixtureFiles.write(FixtureReadme.text(request, days: days), to: out + "/README.md")
        return FixtureOutcome(outDir: out, days: days.count, records: writer.recordCount, exportBytes: Int(xml.size))
    }

    /// The HAE files' modification time is the export moment, as HAE's own files' would be: the
    /// reader skips what starts after a file's time (docs/hae.md, "The file's time bounds the
    /// data"), so a fixture of future dates (`--start 2030-01-01`) is read whole, as its
    /// export.xml is (its `ExportDate` is that moment too).
    static func dateHAEFiles(in out: String, at moment: Int64) throws {
        var paths = [out + "/hae.json", out + "/hae-bodies.jsonl"]
        if let names = try? FileManager.default.contentsOfDirectory(atPath: out + "/hae-bodies") {
            paths += names.map { out + "/hae-bodies/" + $0 }
        }
        let date = Date(timeIntervalSince1970: TimeInterval(moment))
        for p in paths where FileManager.default.fileExists(atPath: p) {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: p)
        }
    }

    /// `expected/`: written exactly as `convert` writes its outputs (the same writers and the
    /// same framing of payloads.json), so the files can be compared byte for byte.
    private func writeExpected(_ days: [FinishedDay], to dir: String) throws {
        try OutputFiles.makeDirectory(dir)
        var batch = Array(PayloadsFile.opening(empty: days.isEmpty).utf8)
        try OutputFiles.replaceDirectory(dir + "/payloads") { payloads in
            for (i, day) in days.enumerated() {
                let text = PayloadEncoder.payload(day).bytes()
                try FixtureFiles.write(PayloadsFile.dayFile(text), to: payloads + "/\(day.date).json")
                batch += PayloadsFile.member(text, last: i + 1 == days.count)
            }
        }
        try FixtureFiles.write(batch, to: dir + "/payloads.json")
        try FixtureFiles.write(Array(ExpectedDays.csv(days).utf8), to: dir + "/daily.csv")
    }
}
