import ExportParser

/// What a fixtures run wrote.
public struct FixtureOutcome: Sendable {
    public internal(set) var outDir: String
    /// Dates covered (each has a payload in `expected/`, when there is one).
    public let days: Int
    /// Records in export.xml (correlations' members not counted), or datums in hae.json for
    /// `--scale-file hae`.
    public let records: Int
    /// Bytes of export.xml (of hae.json for `--scale-file hae`).
    public let exportBytes: Int
    /// `--scale`: the files written, name and bytes, and the first and last date.
    public var scaleFiles: [(name: String, bytes: Int64)] = []
    public var firstDate = ""
    public var lastDate = ""

    public var summary: String {
        guard !scaleFiles.isEmpty else {
            return "Wrote a fixture of \(days) days (\(records) records, export.xml \(exportBytes / 1_000) kB) to \(outDir)"
        }
        func mb(_ bytes: Int64) -> String {
            let tenths = (bytes + 50_000) / 100_000
            return CountText.count(Int(tenths / 10)) + "." + String(tenths % 10) + " MB"
        }
        let files = scaleFiles.map { "\($0.name) (\(mb($0.bytes)))" }.joined(separator: " and ")
        let what = scaleFiles[0].name.hasSuffix(".json") ? "datums" : "records"
        return "Wrote \(files) to \(outDir): \(CountText.count(days)) dates, \(firstDate) to \(lastDate), "
            + "\(CountText.count(records)) \(what)"
    }
}
