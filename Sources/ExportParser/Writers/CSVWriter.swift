import Foundation

/// `daily.csv`: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line
/// end), one row a date, a column for every field of `OutputFields.columns`, values rounded as
/// in the payload, an empty cell where there is no value; a text (a source name) that would
/// start a formula gets a leading `'` (`field`).
package enum CSVWriter {
    /// The header line, CRLF-terminated.
    package static let header = OutputFields.columns.map { field($0.column!) }.joined(separator: ",") + "\r\n"

    /// One day's line, CRLF-terminated.
    package static func row(_ day: FinishedDay) -> String {
        OutputFields.columns.map { f in
            switch f.read(day)?.scalar {
            case nil: return ""
            case .number(let n): return JSONValue.format(n, decimals: f.numberDecimals)
            case .text(let t): return field(t)
            }
        }.joined(separator: ",") + "\r\n"
    }

    /// A text cell of any CSV the tool writes, made by the one CSV field writer
    /// (`ExportBytes.appendCSVField`): quoted when it holds a comma, quote or line end, and a
    /// leading `'` when a spreadsheet would run it as a formula. An empty text is an empty cell.
    /// Numbers are not text cells: they are written as they are formatted, a sign included.
    static func field(_ s: String) -> String {
        if s.isEmpty { return "" }
        let out = ExportBytes(capacity: s.utf8.count * 2 + 3)
        out.appendCSVField(s)
        return out.string
    }
}
