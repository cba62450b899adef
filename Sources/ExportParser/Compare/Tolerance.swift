import Foundation

/// How far apart the two sides' values of a field may be and still match.
struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    enum Measure: Sendable, Equatable {
        /// A fraction of the HAE value (0.02 = 2 %).
        case relative(Double)
        /// An amount in the field's own unit (1 bpm).
        case absolute(Double)
        /// Minutes: of a duration in hours, or between two instants.
        case minutes(Double)
    }
    var measure: Measure
    /// The field's unit, for the description of an absolute tolerance.
    var unit: String?

    init(_ measure: Measure, unit: String? = nil) {
        self.measure = measure
        self.unit = unit
    }

    var description: String {
        switch measure {
        case .relative(let f): return "±" + Self.trim(f * 100) + " %"
        case .absolute(let a): return "±" + Self.trim(a) + (unit.map { " " + ($0 == "count/min" ? "bpm" : $0) } ?? "")
        case .minutes(let m): return "±" + Self.trim(m) + " min"
        }
    }

    /// Whether two numbers match. Durations in hours when the measure is minutes.
    func allows(native: Double, hae: Double) -> Bool {
        let slack = 1e-9  // the boundary itself matches, whatever the float rounding
        switch measure {
        case .relative(let f):
            if hae == 0 { return native == 0 }
            return abs(native - hae) / abs(hae) <= f + slack
        case .absolute(let a): return abs(native - hae) <= a + slack
        case .minutes(let m): return abs(native - hae) * 60 <= m + slack
        }
    }

    /// Whether two instants (seconds) match; only a minutes measure applies to instants.
    func allows(nativeSeconds: Int64, haeSeconds: Int64) -> Bool {
        guard case .minutes(let m) = measure else { return nativeSeconds == haeSeconds }
        return Double(abs(nativeSeconds - haeSeconds)) <= m * 60
    }

    /// `2%`, `2 %`, `1`, `1.5 bpm`, `10min`, `10 min`: the text a tolerances file holds.
    static func parse(_ text: String, unit: String?) -> Tolerance? {
        let t = text.trimmingCharacters(in: .whitespaces)
        func number(_ s: Substring) -> Double? {
            Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
        if t.hasSuffix("%") { return number(t.dropLast()).map { Tolerance(.relative($0 / 100)) } }
        if t.hasSuffix("min") { return number(t.dropLast(3)).map { Tolerance(.minutes($0)) } }
        if t.hasSuffix("bpm") { return number(t.dropLast(3)).map { Tolerance(.absolute($0), unit: unit) } }
        return number(Substring(t)).map { Tolerance(.absolute($0), unit: unit) }
    }

    private static func trim(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%g", v)
    }
}

/// The tolerance of every compared field: a default by the field's kind (how its value is made),
/// overridable by kind or by payload path from a small JSON or TOML file (README, "compare").
struct Tolerances: Sendable {
    var byKind: [OutputField.Kind: Tolerance.Measure]
    var byField: [String: Tolerance.Measure] = [:]

    /// Sums ±2 %, averages ±3 %, latest readings ±1 %, heart-rate min/max ±1 bpm, counts ±2 %,
    /// sleep durations ±10 minutes each, in-bed times ±15 minutes.
    static let defaultMeasures: [OutputField.Kind: Tolerance.Measure] = [
        .sum: .relative(0.02), .avg: .relative(0.03), .nightAvg: .relative(0.03), .workoutAvg: .relative(0.03),
        .latest: .relative(0.01), .min: .absolute(1), .max: .absolute(1), .count: .relative(0.02),
        .sleepDuration: .minutes(10), .sleepTime: .minutes(15),
    ]

    init() { byKind = Self.defaultMeasures }

    /// The tolerance for a field; nil for text that is not compared (a sleep source names apps
    /// the two sides spell differently).
    func tolerance(for field: OutputField) -> Tolerance? {
        guard let path = field.payloadPath else { return nil }
        if let m = byField[path] { return Tolerance(m, unit: field.unit) }
        return byKind[field.kind].map { Tolerance($0, unit: field.unit) }
    }

    /// Workout figures: energy and distance as sums, average heart rate as an average, maximum
    /// heart rate as a maximum (`workouts.energy_kcal` and so on override them).
    func workoutTolerance(_ figure: String) -> Tolerance {
        if let m = byField["workouts." + figure] { return Tolerance(m, unit: figure.hasSuffix("heart_rate") ? "count/min" : nil) }
        switch figure {
        case "avg_heart_rate": return Tolerance(byKind[.avg] ?? .relative(0.03), unit: "count/min")
        case "max_heart_rate": return Tolerance(byKind[.max] ?? .absolute(1), unit: "count/min")
        default: return Tolerance(byKind[.sum] ?? .relative(0.02))
        }
    }

    /// Reads overrides: a flat table whose keys are kinds (`sum`, `avg`, `latest`, `min`, `max`,
    /// `count`, `night-avg`, `workout-avg`, `sleep-duration`, `sleep-time`) or payload paths
    /// (`metrics.step_count`, `workouts.energy_kcal`), and whose values are `"2%"`, `1`,
    /// `"10 min"`. JSON when the file starts with `{`, TOML otherwise.
    static func load(_ path: String) throws -> Tolerances {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, message: "the tolerances file cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self)
        let entries: [(String, String)]
        if text.drop(while: { $0.isWhitespace }).first == "{" {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw InputError(file: path, message: "the tolerances file is not a JSON object of names and tolerances")
            }
            entries = try object.map { key, value in
                if let s = value as? String { return (key, s) }
                if let n = PayloadReader.number(value) { return (key, String(n)) }
                throw InputError(
                    file: path, location: InputLocation(path: key),
                    message: "a tolerance is a number or a text such as \"2%\" or \"10 min\"")
            }
        } else {
            entries = try TOMLEntries.parse(text, file: path)
        }
        var t = Tolerances()
        let fields = Dictionary(OutputFields.all.compactMap { f in f.payloadPath.map { ($0, f) } }, uniquingKeysWith: { a, _ in a })
        let workoutFigures: Set<String> = [
            "workouts.energy_kcal", "workouts.distance_m", "workouts.avg_heart_rate", "workouts.max_heart_rate",
        ]
        for (key, value) in entries {
            let unit = fields[key]?.unit
            guard let tolerance = Tolerance.parse(value, unit: unit) else {
                throw InputError(
                    file: path, location: InputLocation(path: key),
                    message: "\"\(value)\" is not a tolerance (write \"2%\", 1 or \"10 min\")")
            }
            // Minutes only where values are times: a sleep duration (hours) or a clock time. On
            // any other field "10 min" would be read as 10 of its own unit.
            if case .minutes = tolerance.measure {
                let kind = OutputField.Kind(rawValue: key) ?? fields[key]?.kind
                guard kind == .sleepDuration || kind == .sleepTime else {
                    throw InputError(
                        file: path, location: InputLocation(path: key),
                        message: "\"\(value)\" is a time, but \(key) is not a sleep duration or time (write \"2%\" or a number in its unit)"
                    )
                }
            }
            if let kind = OutputField.Kind(rawValue: key) {
                t.byKind[kind] = tolerance.measure
            } else if fields[key] != nil || workoutFigures.contains(key) {
                t.byField[key] = tolerance.measure
            } else {
                throw InputError(
                    file: path, location: InputLocation(path: key),
                    message:
                        "\"\(key)\" is neither a field kind (sum, avg, latest, min, max, count, sleep-duration, sleep-time, …) nor a payload field such as metrics.step_count"
                )
            }
        }
        return t
    }
}
