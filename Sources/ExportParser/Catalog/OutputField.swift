/// One per-day output field: where the payload, `daily.csv` and the store's long form put it,
/// how it was made (for tolerances when two outputs are compared), its unit and rounding, and
/// how to read it from a `FinishedDay`. The rows are in `OutputFields.all`; every writer walks
/// that list, so no writer has a name of its own that another could miss.
struct OutputField: Sendable {
    /// Dotted path in the payload (`metrics.heart_rate_samples.min`, `sleep.total_hours`);
    /// nil when the payload does not carry the field.
    let payloadPath: String?
    /// The `daily.csv` column (and the column of the store's `daily` view); nil when the CSV
    /// does not carry the field.
    let column: String?
    /// The store's name for it: a `day_values.field` value, or `date`, the key of every
    /// `day_values` row; nil when the store does not keep it.
    let storeName: String?
    let kind: Kind
    /// The unit of the number (nil for text).
    let unit: String?
    /// Decimals on the wire (payload and CSV); nil for text. The store keeps full precision.
    let decimals: Int?
    /// The day's value at full precision; nil where the day has none (the field is then left
    /// out of the payload, empty in the CSV and absent from the long form).
    let read: @Sendable (FinishedDay) -> Value?

    /// How a field's day value is made, the comparison tolerances go by.
    enum Kind: String, Sendable, CaseIterable {
        /// The day itself: the payload's `date` and the key of the store's rows.
        case date
        case sum
        case avg
        /// The parts of a `minmaxavg` metric.
        case min, max, count
        case latest
        case nightAvg = "night-avg"
        case workoutAvg = "workout-avg"
        /// Hours of a sleep stage (or of all sleep) in the night that ends on the date.
        case sleepDuration = "sleep-duration"
        /// The in-bed start or end of that night, ISO 8601 text.
        case sleepTime = "sleep-time"
        case text
        /// The day's workouts: the payload lists them, the CSV and store count them.
        case workoutsCount = "workouts-count"

        init(_ rule: Rule) {
            switch rule {
            case .sum: self = .sum
            case .avg: self = .avg
            case .latest: self = .latest
            case .nightAvg: self = .nightAvg
            case .workoutAvg: self = .workoutAvg
            case .minMaxAvg: preconditionFailure("a minmaxavg metric is four fields, each with its own kind")
            }
        }

        /// Whether the field is text (the long form's `text`, not its `value`).
        var isText: Bool { self == .date || self == .sleepTime || self == .text }
    }

    /// A count written without decimals (steps, flights, heart-rate readings, workouts): the
    /// store's `daily` view shows its whole values as INTEGER.
    var isWholeCount: Bool { unit == CanonicalUnit.count.rawValue && decimals == 0 }

    /// A field's value for one day.
    enum Value: Equatable, Sendable {
        case number(Double)
        case text(String)
        /// The day's workouts, which the payload writes as objects and the CSV and store count.
        case workouts([WorkoutSummary])

        /// The value as one CSV cell or long-form row holds it: workouts become their count.
        var scalar: Scalar {
            switch self {
            case .number(let n): return .number(n)
            case .text(let t): return .text(t)
            case .workouts(let list): return .number(Double(list.count))
            }
        }
    }

    enum Scalar: Equatable {
        case number(Double)
        case text(String)
    }

    /// The payload path, else the column or store name, for messages.
    var name: String { payloadPath ?? column ?? storeName ?? "?" }

    /// Decimals of a number this field read. Numbers always have them (see `init`); a text
    /// field that reads a number is a mistake in the table.
    var numberDecimals: Int {
        guard let decimals else { preconditionFailure("output field \(name) is text but read a number") }
        return decimals
    }

    init(
        payloadPath: String?, column: String?, storeName: String?, kind: Kind, unit: String?, decimals: Int?,
        read: @escaping @Sendable (FinishedDay) -> Value?
    ) {
        // A number without a unit and rounding, or text with them, is a mistake in the table.
        precondition(
            kind.isText == (unit == nil) && kind.isText == (decimals == nil),
            "output field \(payloadPath ?? column ?? "?"): unit and decimals go with numbers only")
        precondition(payloadPath != nil || column != nil || storeName != nil, "a field that no output carries")
        self.payloadPath = payloadPath
        self.column = column
        self.storeName = storeName
        self.kind = kind
        self.unit = unit
        self.decimals = decimals
        self.read = read
    }
}
