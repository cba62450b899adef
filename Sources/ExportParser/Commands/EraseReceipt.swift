import Foundation

/// What `erase` removed: the person, when, and rows per table. No health value and no name of
/// a source or device: a receipt can be kept or sent on without being health data itself.
public struct EraseReceipt: Sendable {
    public let person: String
    public let storePath: String
    public let erasedAt: Date
    /// Rows removed, per table, in the order they were deleted.
    public let removed: [Table]
    /// Set when the rows are gone but making them unrecoverable from the file did not finish
    /// (another process kept reading the store): what happened and what to run.
    public let unfinished: String?
    /// How the store deleted the rows and what it may still keep (the store's own sentence).
    let method: String

    public struct Table: Sendable, Equatable {
        public let name: String
        public let rows: Int
    }

    public var totalRows: Int { removed.reduce(0) { $0 + $1.rows } }

    /// What erase cannot reach: files health-import already wrote are copies outside the store.
    static let filesOutsideTheStore =
        "Not erased: files health-import wrote outside the store are not in it, so they are as they were and must be deleted "
        + "by you: under a convert --out folder (payloads/, payloads.json, daily.csv, apple-daily-totals.csv), compare reports "
        + "(compare.csv, compare.json, compare.html), gdpr-export folders or zips, and earlier receipts.\n"

    public var text: String {
        let width = max(removed.map(\.name.count).max() ?? 0, 5)
        var out = "Erasure receipt\n"
        out += "person: \(person)\n"
        out += "store: \(storePath)\n"
        out += "erased at: \(HealthStore.isoUTC(erasedAt))\n"
        out += "tool: health-import \(ExportParserVersion.current)\n"
        out += "rows removed, by table:\n"
        for t in removed { out += "  " + t.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(t.rows)\n" }
        out += "  " + "total".padding(toLength: width, withPad: " ", startingAt: 0) + "  \(totalRows)\n"
        if unfinished == nil { out += method }
        out += Self.filesOutsideTheStore
        return out
    }
}
