import Foundation

/// What a compare run found, for the terminal, the files and the exit status.
struct CompareReport: Sendable {
    enum Mode: String, Sendable { case validate, monitor }
    var mode: Mode
    var window: Comparison.Window
    var comparison: Comparison?
    var gaps: [CompareGap]
    /// Per field, both sides' values over the window (the HTML charts).
    var series: [CompareSeries] = []
    /// `--monitor`: the native side's dates that were checked.
    var monitored: (from: String, to: String)?
    /// `--monitor`: how the last monitored date was chosen (`--until`, `today in Europe/Madrid`).
    var monitoredUntil: String?
    /// `--monitor`: the last monitored date and the zone whose today it was (`MonitorEnd.zone`).
    var monitorEnd: MonitorEnd?
    /// Lines stated above the verdict that do not fail the check by themselves (two sides that
    /// share no source: `CompareInputCheck.sharedSources`).
    var warnings: [String] = []
    /// Validation with the window chosen from the data (no `--from`): the dates of the window
    /// that have data, when fewer than `--days` (docs/compare.md, "What fails the check").
    var notEnoughDates: (have: Int, need: Int)?
    /// Payload JSON keys no field has, per input.
    var ignoredKeys: [IgnoredPayloadKeys] = []
    /// `--store`: received bodies left out because their reader cannot read them, a sentence each.
    var skippedBodies: [String] = []
    /// Per side, the app's earlier syncs of a date that a later sync replaced (`LatestSyncs`).
    var supersededSyncs = (native: 0, hae: 0)
    /// What each side is (native first): stated before any verdict.
    var sides: [CompareSideSummary] = []
    /// The `explain` command of each side (one, under `.native`, for `--store`).
    var explain: [CompareSide: ExplainShellLine] = [:]

    var rows: [CompareRow] { comparison?.rows ?? [] }
    /// Per field, failing first (`validate` only).
    var verdicts: [FieldVerdict] { FieldVerdict.verdicts(rows) }

    /// The explain command lines of a mismatch row: `native:` and `HAE:` (or `store:`).
    func explainLines(_ r: CompareRow) -> [(label: String, line: String)] {
        guard r.status == .mismatch else { return [] }
        var out: [(label: String, line: String)] = []
        for side in [CompareSide.native, .hae] {
            guard let line = explain[side]?.line(date: r.date, field: r.field) else { continue }
            out.append((explain[side]?.store != nil ? "store" : side.name, line))
        }
        return out
    }
    var failed: Bool { !gaps.isEmpty || (comparison?.failed ?? false) || notEnoughDates != nil }
}
