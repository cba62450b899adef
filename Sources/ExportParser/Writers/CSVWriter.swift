/// `daily.csv`: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line
/// end), one row a date, the columns of `DayColumns.all`, values rounded as in the payload, an
/// empty cell where there is no value.
public enum CSVWriter {
    public static func csv(_ days: [FinishedDay]) -> String {
        days.reduce(header) { $0 + row($1) }
    }

    /// The header line, CRLF-terminated.
    public static let header = DayColumns.all.map { field($0.name) }.joined(separator: ",") + "\r\n"

    /// One day's line, CRLF-terminated.
    public static func row(_ day: FinishedDay) -> String {
        var cells = Array(repeating: "", count: DayColumns.all.count)
        for f in day.fields {
            guard let i = DayColumns.index[f.name] else { continue }
            if let v = f.value {
                cells[i] = JSONValue.format(v, decimals: DayColumns.all[i].decimals ?? 2)
            } else if let t = f.text {
                cells[i] = field(t)
            }
        }
        return cells.joined(separator: ",") + "\r\n"
    }

    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

import Foundation
