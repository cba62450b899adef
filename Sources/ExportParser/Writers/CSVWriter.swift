import Foundation

/// `daily.csv`: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line
/// end), one row a date, a column for every field of `OutputFields.columns`, values rounded as
/// in the payload, an empty cell where there is no value.
enum CSVWriter {
    static func csv(_ days: [FinishedDay]) -> String {
        days.reduce(header) { $0 + row($1) }
    }

    /// The header line, CRLF-terminated.
    static let header = OutputFields.columns.map { field($0.column!) }.joined(separator: ",") + "\r\n"

    /// One day's line, CRLF-terminated.
    static func row(_ day: FinishedDay) -> String {
        OutputFields.columns.map { f in
            switch f.read(day)?.scalar {
            case nil: return ""
            case .number(let n): return JSONValue.format(n, decimals: f.numberDecimals)
            case .text(let t): return field(t)
            }
        }.joined(separator: ",") + "\r\n"
    }

    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
