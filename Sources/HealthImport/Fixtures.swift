import ArgumentParser
import ExportParser
import Foundation
import HealthFixtures

struct Fixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Make a synthetic export, its Health Auto Export twin and the payloads they must give.",
        discussion: """
            Writes under --out: export.xml and export.zip (shaped like the Health app's), hae.json \
            (Health Auto Export, version 2, summarised by day or, with --hae-style samples, one datum a \
            sample), expected/payloads/DATE.json, \
            expected/payloads.json and expected/daily.csv (made from the generator's own plan, never \
            by running the converter), plan.json and a README.md with the command. The same \
            arguments give the same bytes on every machine. Files are created with mode 0600.

            With --scale MB instead of --days: one large file for benchmarks, of about MB megabytes \
            (10^6 bytes), as many dates from --start as that takes, written in constant memory: \
            export.xml and export.zip (--scale-file export, the default), export.xml alone (xml) or \
            hae.json in the samples style (hae). Nothing else is written.

            Examples:
              health-import fixtures --days 21 --out fixtures/runner
              health-import fixtures --days 35 --start 2026-03-09 --seed 7 --profile sedentary --units imperial --timezone America/New_York
              health-import fixtures --days 7 --variant ios16-dtd --locale zh_CN --out fixtures/zh
              health-import fixtures --days 14 --hae-style samples --out fixtures/samples
              health-import fixtures --scale 1000 --start 2011-01-01 --out bench/data
              health-import fixtures --scale 300 --scale-file hae --start 2011-01-01 --out bench/data
            """
    )

    // The options with fixed choices are enums, so `--help` lists the values and ArgumentParser
    // refuses another; the library checks the same names again (`FixtureOptions`) for its
    // other callers.
    enum ScaleFile: String, ExpressibleByArgument, CaseIterable { case export, xml, hae }
    enum Profile: String, ExpressibleByArgument, CaseIterable {
        case runner, sedentary
        case shiftWorker = "shift-worker"
        case traveller
    }
    enum Units: String, ExpressibleByArgument, CaseIterable { case metric, imperial }
    enum Variant: String, ExpressibleByArgument, CaseIterable { case ios16DTD = "ios16-dtd" }
    enum LocaleName: String, ExpressibleByArgument, CaseIterable { case zhCN = "zh_CN" }
    enum HAEStyle: String, ExpressibleByArgument, CaseIterable { case days, samples }
    enum HAEBodies: String, ExpressibleByArgument, CaseIterable { case `default`, since }
    enum ExportOffsets: String, ExpressibleByArgument, CaseIterable { case export, sample }

    @Option(help: ArgumentHelp("How many dates the fixture covers (each gets a payload). Example: --days 21", valueName: "n"))
    var days: Int?

    @Option(
        help: ArgumentHelp(
            "Instead of --days: one large file of about MB megabytes (10^6 bytes, 1 to 10000; at most 4000 with export.zip) for benchmarks, as many dates from --start as that takes. Example: --scale 1000",
            valueName: "MB"))
    var scale: Int?

    @Option(
        help: ArgumentHelp(
            "With --scale: export (export.xml and export.zip; the default), xml (export.xml alone) or hae (hae.json, one datum a sample). Example: --scale-file hae",
            valueName: "file"))
    var scaleFile: ScaleFile?

    @Option(
        help: ArgumentHelp(
            "First date, YYYY-MM-DD (default \(FixtureRequest.defaultStart)). Example: --start 2026-03-09", valueName: "date"))
    var start = FixtureRequest.defaultStart

    @Option(help: ArgumentHelp("Seed of the generator: another seed, another person's days. Example: --seed 7", valueName: "s"))
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "IANA zone the person lives in; one with daylight saving puts a change inside a long enough range (default \(FixtureRequest.defaultTimeZone), which changes on 2026-03-29). Example: --timezone Australia/Sydney",
            valueName: "zone"))
    var timezone = FixtureRequest.defaultTimeZone

    @Option(
        help: ArgumentHelp(
            "runner (runs with running mechanics most days), sedentary (walks, fewer steps, nights without the watch), shift-worker (night shifts, sleep by day and an evening nap) or traveller (a runner who flies west mid-range). Example: --profile shift-worker",
            valueName: "p"))
    var profile: Profile = .runner

    @Option(
        help: ArgumentHelp(
            "metric (kJ, km, kg, degC) or imperial (Cal, mi, lb, degF), as the Health app writes them in such a locale. Example: --units imperial",
            valueName: "system"))
    var units: Units = .metric

    @Option(
        help: ArgumentHelp(
            "ios16-dtd: write the broken DTD iOS 16.0 exports carry (an ATTLIST never closed), which stops conforming XML parsers. Example: --variant ios16-dtd",
            valueName: "variant"))
    var variant: Variant?

    @Option(
        help: ArgumentHelp(
            "zh_CN: name the files as that locale's Health app does (导出.xml, 导出.zip). Example: --locale zh_CN", valueName: "locale"))
    var locale: LocaleName?

    @Option(
        help: ArgumentHelp(
            "days (Health Auto Export's Summarize on: a datum a date for each metric; the default) or samples (Summarize off: a datum a sample, with its own date, value and source; heart rate a reading at a time). Example: --hae-style samples",
            valueName: "style"))
    var haeStyle: HAEStyle?

    @Option(
        help: ArgumentHelp(
            "default (HAE's default period: each body the previous day and today so far) or since (Since Last Sync: each body what is new): also write the REST bodies HAE's API automation would have POSTed, four syncs a day, as hae-bodies/ (one JSON file a body) and hae-bodies.jsonl (one body a line). Example: --hae-bodies since",
            valueName: "period"))
    var haeBodies: HAEBodies?

    @Option(
        help: ArgumentHelp(
            "days or samples: the REST bodies' style when it is not --hae-style's, as a person who changed Summarize has (a manual export summarised by day beside REST bodies of samples). Example: --hae-bodies default --hae-bodies-style samples",
            valueName: "style"))
    var haeBodiesStyle: HAEStyle?

    @Option(
        help: ArgumentHelp(
            "export (the default: every export.xml timestamp in the offset of the export moment, as the Health app writes them) or sample (each in the offset of its own instant). Example: --export-offsets sample",
            valueName: "form"))
    var exportOffsets: ExportOffsets = .export

    @Option(help: ArgumentHelp("Output folder (created if missing). Example: --out fixtures/runner", valueName: "dir"))
    var out = "fixtures"

    func validate() throws {
        try CommandErrors.check { try request.validate() }
    }

    private var request: FixtureRequest {
        var r = FixtureRequest(
            days: days, start: start, seed: seed, timeZoneName: timezone, profile: profile.rawValue, units: units.rawValue,
            outDir: out, variant: variant?.rawValue, locale: locale?.rawValue, haeStyle: haeStyle?.rawValue, scaleMegabytes: scale,
            scaleFile: scaleFile?.rawValue, haeBodies: haeBodies?.rawValue)
        r.exportOffsets = exportOffsets.rawValue
        r.haeBodiesStyle = haeBodiesStyle?.rawValue
        return r
    }

    func run() throws {
        do {
            let outcome = try FixtureJob(request).run()
            print(outcome.summary)
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
    }
}
