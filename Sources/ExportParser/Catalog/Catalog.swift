/// The one table that drives readers, day rules and writers (docs/catalog.md).
///
/// Adding a metric is one row here: the readers find it by HealthKit type or HAE name, the day
/// book picks its accumulator by `rule`, and the field table (`OutputFields`) makes its payload,
/// CSV and store fields from it; a second `minmaxavg` metric too (one accumulator a metric).
package enum Catalog {
    private static let q = "HKQuantityTypeIdentifier"

    /// Rows in payload order. `index` is assigned from the position.
    ///
    /// Columns: HealthKit type, payload section, payload field, rule, payload unit, decimals on the
    /// wire, the range one sample can plausibly hold in the payload unit (generous on purpose:
    /// it only keeps out what no device can produce, such as a negative distance, a heart rate of
    /// 900 or a step count of 1e308 that would overflow a day's sum; docs/rules.md, "Values
    /// that cannot be real"), and the HAE names.
    package static let metrics: [Metric] = {
        typealias Row = (String, PayloadSection, String, Rule, CanonicalUnit, Int, ClosedRange<Double>, [String])
        let rows: [Row] = [
            (
                q + "HeartRateVariabilitySDNN", .metrics, "hrv", .avg, .milliseconds, 0, 0...1000,
                ["heart_rate_variability", "heart_rate_variability_sdnn"]
            ),
            (q + "RestingHeartRate", .metrics, "resting_hr", .avg, .countPerMinute, 0, 20...300, ["resting_heart_rate"]),
            (q + "HeartRate", .metrics, "heart_rate_samples", .minMaxAvg, .countPerMinute, 0, 20...300, ["heart_rate"]),
            (
                q + "HeartRateRecoveryOneMinute", .metrics, "cardio_recovery_bpm", .latest, .countPerMinute, 0, 0...300,
                ["cardio_recovery", "heart_rate_recovery_one_minute"]
            ),
            (q + "VO2Max", .metrics, "vo2max", .latest, .vo2, 1, 0...150, ["vo2_max", "vo2max"]),
            (
                q + "AppleSleepingWristTemperature", .metrics, "apple_sleeping_wrist_temperature", .nightAvg, .degreesCelsius, 2, -20...60,
                ["apple_sleeping_wrist_temperature"]
            ),
            (q + "RespiratoryRate", .metrics, "respiratory_rate", .avg, .countPerMinute, 1, 0...200, ["respiratory_rate"]),
            (
                q + "OxygenSaturation", .metrics, "blood_oxygen_saturation", .avg, .percent, 2, 0...100,
                ["blood_oxygen_saturation", "oxygen_saturation"]
            ),
            (q + "StepCount", .metrics, "step_count", .sum, .count, 0, 0...1_000_000, ["step_count"]),
            (
                q + "DistanceWalkingRunning", .metrics, "distance_km", .sum, .kilometres, 2, 0...1000,
                ["walking_running_distance", "distance_walking_running"]
            ),
            (
                q + "ActiveEnergyBurned", .metrics, "active_calories", .sum, .kilocalories, 0, 0...30_000,
                ["active_energy", "active_energy_burned"]
            ),
            (
                q + "BasalEnergyBurned", .metrics, "basal_calories", .sum, .kilocalories, 0, 0...30_000,
                ["basal_energy_burned", "basal_energy", "resting_energy"]
            ),
            (q + "AppleExerciseTime", .metrics, "exercise_min", .sum, .minutes, 0, 0...1440, ["apple_exercise_time"]),
            (q + "FlightsClimbed", .metrics, "flights_climbed", .sum, .count, 0, 0...10_000, ["flights_climbed"]),
            (q + "TimeInDaylight", .metrics, "daylight_min", .sum, .minutes, 0, 0...1440, ["time_in_daylight"]),
            (q + "RunningSpeed", .runningMechanics, "running_speed_kmh", .workoutAvg, .kilometresPerHour, 2, 0...100, ["running_speed"]),
            (q + "RunningPower", .runningMechanics, "running_power_w", .workoutAvg, .watts, 0, 0...3000, ["running_power"]),
            (q + "RunningStrideLength", .runningMechanics, "running_stride_m", .workoutAvg, .metres, 2, 0...5, ["running_stride_length"]),
            (
                q + "RunningVerticalOscillation", .runningMechanics, "running_oscillation_cm", .workoutAvg, .centimetres, 1, 0...50,
                ["running_vertical_oscillation"]
            ),
            (
                q + "RunningGroundContactTime", .runningMechanics, "running_ground_contact_time", .workoutAvg, .milliseconds, 0, 0...2000,
                ["running_ground_contact_time"]
            ),
            (q + "DietaryProtein", .metrics, "protein_g", .sum, .grams, 1, 0...5000, ["protein", "dietary_protein"]),
            (q + "DietaryCarbohydrates", .metrics, "carbs_g", .sum, .grams, 1, 0...5000, ["carbohydrates", "dietary_carbohydrates"]),
            (q + "DietaryFatTotal", .metrics, "total_fat", .sum, .grams, 1, 0...5000, ["total_fat", "dietary_fat_total"]),
            (q + "DietaryFiber", .metrics, "fiber_g", .sum, .grams, 1, 0...2000, ["fiber", "dietary_fiber"]),
            (
                q + "DietaryEnergyConsumed", .metrics, "dietary_energy_kj", .sum, .kilocalories, 0, 0...50_000,
                ["dietary_energy", "dietary_energy_consumed"]
            ),
            (q + "DietarySugar", .metrics, "sugar_g", .sum, .grams, 1, 0...5000, ["dietary_sugar", "sugar"]),
            (q + "DietaryPotassium", .metrics, "potassium_mg", .sum, .milligrams, 0, 0...100_000, ["potassium", "dietary_potassium"]),
            (q + "DietaryCholesterol", .metrics, "cholesterol", .sum, .milligrams, 0, 0...100_000, ["dietary_cholesterol", "cholesterol"]),
            (
                q + "NumberOfAlcoholicBeverages", .metrics, "alcohol_drinks", .sum, .count, 1, 0...100,
                ["number_of_alcoholic_beverages", "alcoholic_beverages"]
            ),
            (q + "BodyMass", .metrics, "weight_kg", .latest, .kilograms, 2, 0...700, ["weight_body_mass", "body_mass"]),
            (q + "BodyFatPercentage", .metrics, "body_fat_pct", .latest, .percent, 2, 0...100, ["body_fat_percentage"]),
            (q + "LeanBodyMass", .metrics, "lean_body_mass", .latest, .kilograms, 2, 0...700, ["lean_body_mass"]),
            (q + "WalkingSpeed", .metrics, "walking_speed_kmh", .avg, .kilometresPerHour, 2, 0...50, ["walking_speed"]),
        ]
        return rows.enumerated().map { i, r in
            Metric(
                index: i, healthKitType: r.0, section: r.1, field: r.2, rule: r.3, unit: r.4, decimals: r.5, plausible: r.6, haeNames: r.7)
        }
    }()

    /// Sleep is not a quantity; it has its own rule (Days/SleepNight.swift).
    package static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// Decimals of sleep hours on the wire.
    static let sleepDecimals = 2

    private static let byType: [String: Metric] = Dictionary(uniqueKeysWithValues: metrics.map { ($0.healthKitType, $0) })
    private static let byField: [String: Metric] = Dictionary(uniqueKeysWithValues: metrics.map { ($0.field, $0) })
    private static let byHAEName: [String: Metric] = {
        var d: [String: Metric] = [:]
        for m in metrics { for n in m.haeNames { d[n] = m } }
        return d
    }()

    static func metric(forType type: String) -> Metric? { byType[type] }
    static func metric(forField field: String) -> Metric? { byField[field] }
    static func metric(forHAEName name: String) -> Metric? { byHAEName[name] }
    package static func metric(named field: String) -> Metric {
        guard let m = byField[field] else { preconditionFailure("no catalog field \(field)") }
        return m
    }
}
