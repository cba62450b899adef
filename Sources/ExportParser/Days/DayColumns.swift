/// The fixed columns of a finished day, in CSV order, taken from the catalog. The CSV header,
/// the store's long-form `field` names and its pivot view all come from this one list.
public enum DayColumns {
    public struct Column: Sendable, Hashable {
        /// CSV header and store field name.
        public let name: String
        /// Unit of the value (nil for text columns).
        public let unit: String?
        /// Decimals on the wire; nil for text.
        public let decimals: Int?
    }

    public static let sleepFields = ["sleep_total_hours", "sleep_core_hours", "sleep_deep_hours", "sleep_rem_hours", "sleep_awake_hours"]

    public static let all: [Column] = {
        var cols: [Column] = [Column(name: "date", unit: nil, decimals: nil), Column(name: "timezone", unit: nil, decimals: nil)]
        for m in Catalog.metrics {
            if m.rule == .minMaxAvg {
                let base = m.field.replacingOccurrences(of: "_samples", with: "")
                for part in ["avg", "min", "max"] { cols.append(Column(name: "\(base)_\(part)", unit: m.unit.rawValue, decimals: m.decimals)) }
                cols.append(Column(name: "\(base)_count", unit: "count", decimals: 0))
            } else {
                cols.append(Column(name: m.field, unit: m.unit.rawValue, decimals: m.decimals))
            }
        }
        for f in sleepFields { cols.append(Column(name: f, unit: "hr", decimals: Catalog.sleepDecimals)) }
        cols.append(Column(name: "sleep_in_bed_start", unit: nil, decimals: nil))
        cols.append(Column(name: "sleep_in_bed_end", unit: nil, decimals: nil))
        cols.append(Column(name: "sleep_source", unit: nil, decimals: nil))
        cols.append(Column(name: "workouts_count", unit: "count", decimals: 0))
        return cols
    }()

    public static let index: [String: Int] = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })
}
