import ArgumentParser
import ExportParser
import Foundation

struct Fixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a synthetic export, its Health Auto Export twin and the payloads they must give.",
        discussion: """
            Writes under --out: export.xml and export.zip (shaped like the Health app's), hae.json \
            (Health Auto Export, version 2, summarised by day), expected/payloads/DATE.json, \
            expected/payloads.json and expected/daily.csv (made from the generator's own plan, never \
            by running the converter), plan.json and a README.md with the command. The same \
            arguments give the same bytes on every machine. Files are created with mode 0600.

            Examples:
              health-import fixtures --days 21 --out fixtures/runner
              health-import fixtures --days 35 --start 2026-03-09 --seed 7 --profile sedentary --units imperial --timezone America/New_York
              health-import fixtures --days 7 --variant ios16-dtd --locale zh_CN --out fixtures/zh
            """
    )

    @Option(help: ArgumentHelp("How many dates the fixture covers (each gets a payload). Example: --days 21", valueName: "n"))
    var days: Int

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
            "runner (runs with running mechanics most days), sedentary (walks, fewer steps, nights without the watch), shift-worker (night shifts, sleep across noon) or traveller (a runner who flies west mid-range). Example: --profile shift-worker",
            valueName: "p"))
    var profile = "runner"

    @Option(
        help: ArgumentHelp(
            "metric (kJ, km, kg, degC) or imperial (Cal, mi, lb, degF), as the Health app writes them in such a locale. Example: --units imperial",
            valueName: "system"))
    var units = "metric"

    @Option(
        help: ArgumentHelp(
            "ios16-dtd: write the broken DTD iOS 16.0 exports carry (an ATTLIST never closed), which stops conforming XML parsers. Example: --variant ios16-dtd",
            valueName: "variant"))
    var variant: String?

    @Option(
        help: ArgumentHelp(
            "zh_CN: name the files as that locale's Health app does (导出.xml, 导出.zip). Example: --locale zh_CN", valueName: "locale"))
    var locale: String?

    @Option(help: ArgumentHelp("Output folder (created if missing). Example: --out fixtures/runner", valueName: "dir"))
    var out = "fixtures"

    func run() throws {
        let request = FixtureRequest(
            days: days, start: start, seed: seed, timeZoneName: timezone, profile: profile, units: units, outDir: out,
            variant: variant, locale: locale)
        do {
            let outcome = try FixtureJob(request).run()
            print(outcome.summary)
        } catch let error as InputError {
            FileHandle.standardError.write(Data(("health-import: " + error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
