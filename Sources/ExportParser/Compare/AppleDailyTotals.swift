import Foundation

/// Apple's own daily ring totals (`ActivitySummary`: active energy and exercise minutes, computed
/// by Apple with its own overlap resolution) beside this tool's `active_calories` and
/// `exercise_min`, on every day that has both. Users compare with the Health app first; this
/// tells them where and by how much the numbers differ before they find out themselves.
///
/// A day agrees when the tool's value is within `tolerance` (2 %) of Apple's; when Apple's is 0
/// only a 0 agrees. Values are compared at full precision, before the payload's rounding.
struct AppleDailyTotals: Sendable {
    static let tolerance = 0.02
    static let fileName = "apple-daily-totals.csv"

    /// One ActivitySummary in payload units.
    struct Figures: Sendable {
        var activeEnergyKcal: Double?
        var exerciseMinutes: Double?

        init?(_ a: ActivitySummary) {
            func number(_ key: String) -> Double? {
                a.attributes.first { $0.key == key }.flatMap { NumberParser.parse($0.value) }
            }
            let unit = a.attributes.first { $0.key == "activeEnergyBurnedUnit" }?.value ?? "kcal"
            activeEnergyKcal = number("activeEnergyBurned").flatMap { CanonicalUnit.kilocalories.convert($0, from: unit) }
            exerciseMinutes = number("appleExerciseTime")
            if activeEnergyKcal == nil, exerciseMinutes == nil { return nil }
        }
    }

    /// One field of one day that has both values.
    struct Row: Sendable, Equatable {
        var date: String
        /// The payload field: `active_calories` or `exercise_min`.
        var field: String
        var ours: Double
        var apple: Double
        var unit: String
        /// |ours − apple| / apple; infinite when Apple's is 0 and ours is not.
        var relativeDifference: Double {
            apple == 0 ? (ours == 0 ? 0 : .infinity) : abs(ours - apple) / apple
        }
        var agrees: Bool { relativeDifference <= AppleDailyTotals.tolerance }
    }

    /// The rows of one field, in date order.
    struct Field: Sendable {
        var name: String
        var rows: [Row] = []
        var agreeing: Int { rows.filter(\.agrees).count }
        /// The day furthest from Apple's figure (largest relative, then absolute difference).
        var furthest: Row? {
            rows.filter { !$0.agrees }.max { a, b in
                a.relativeDifference != b.relativeDifference
                    ? a.relativeDifference < b.relativeDifference : abs(a.ours - a.apple) < abs(b.ours - b.apple)
            }
        }
    }

    var energy = Field(name: "active_calories")
    var exercise = Field(name: "exercise_min")

    init(apple: [Int: Figures], days: [FinishedDay]) {
        let energyIndex = Catalog.metric(named: "active_calories").index
        let exerciseIndex = Catalog.metric(named: "exercise_min").index
        for d in days {
            guard let a = apple[d.dayNumber] else { continue }
            if let ours = d.values[energyIndex], let theirs = a.activeEnergyKcal {
                energy.rows.append(Row(date: d.date, field: energy.name, ours: ours, apple: theirs, unit: "kcal"))
            }
            if let ours = d.values[exerciseIndex], let theirs = a.exerciseMinutes {
                exercise.rows.append(Row(date: d.date, field: exercise.name, ours: ours, apple: theirs, unit: "min"))
            }
        }
    }

    var isEmpty: Bool { energy.rows.isEmpty && exercise.rows.isEmpty }

    /// The days outside the tolerance, by date then field.
    var disagreeing: [Row] {
        (energy.rows + exercise.rows).filter { !$0.agrees }.sorted { ($0.date, $0.field) < ($1.date, $1.field) }
    }

    /// "Apple's daily totals: active energy within 2 % on 97 % of 412 days, exercise minutes on
    /// 99 % of 410 days; furthest: 2024-03-02 612 vs 655 kcal". Nil when no day has both.
    var summaryLine: String? {
        guard !isEmpty else { return nil }
        func share(_ f: Field) -> String {
            String(format: "%.0f %% of %@ days", 100 * Double(f.agreeing) / Double(f.rows.count), CountText.count(f.rows.count))
        }
        var parts: [String] = []
        if !energy.rows.isEmpty { parts.append("active energy within 2 % on " + share(energy)) }
        if !exercise.rows.isEmpty {
            parts.append((parts.isEmpty ? "exercise minutes within 2 % on " : "exercise minutes on ") + share(exercise))
        }
        var line = "Apple's daily totals: " + parts.joined(separator: ", ")
        let worst = [energy.furthest, exercise.furthest].compactMap { $0 }.max { $0.relativeDifference < $1.relativeDifference }
        if let w = worst {
            line += String(format: "; furthest: %@ %.0f vs %.0f %@", w.date, w.ours, w.apple, w.unit)
        }
        return line
    }

    /// CSV (RFC 4180, as daily.csv) of the disagreeing days: `input,date,field,health_import,apple,unit,difference,relative_difference`.
    static let csvHeader = "input,date,field,health_import,apple,unit,difference,relative_difference\r\n"

    func csvRows(input: String) -> String {
        var out = ""
        for r in disagreeing {
            let relative = r.relativeDifference.isFinite ? String(format: "%.4f", r.relativeDifference) : ""
            out +=
                [
                    CSVWriter.field(input), r.date, r.field, String(format: "%.2f", r.ours), String(format: "%.2f", r.apple), r.unit,
                    String(format: "%.2f", r.ours - r.apple), relative,
                ].joined(separator: ",") + "\r\n"
        }
        return out
    }
}
