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
        let out = ExportBytes(capacity: 1024)
        row(day, into: out)
        return out.string
    }

    /// One day's line, CRLF-terminated, appended to `out`: the cells written straight into the
    /// bytes (numbers as `JSONValue.format` writes them, texts through `field`'s writer), not
    /// made as strings and joined, which cost about 90 k instructions a date (docs/hae.md,
    /// "Rendering").
    static func row(_ day: FinishedDay, into out: ExportBytes) {
        var first = true
        for f in OutputFields.columns {
            if !first { out.append(0x2C) }
            first = false
            switch f.read(day)?.scalar {
            case nil: break
            case .number(let n): out.appendRounded(n, decimals: f.numberDecimals)
            case .text(let t): if !t.isEmpty { out.appendCSVField(t) }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
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
