import ExportParser

/// The units an export and an HAE file write, by the Health app's unit preferences: a metric
/// locale writes kJ, km, kg and degC; a US (imperial) one writes Cal, mi, lb and degF. Each
/// value is the payload unit's value divided by `factor` (catalog.md, "Units"), a table of our
/// own rather than the converter's, so the fixture checks the converter's table too.
struct FixtureUnits: Sendable {
    struct Unit: Sendable {
        var name: String
        /// Payload-unit value = written value × factor (+ offset).
        var factor: Double
        var offset: Double = 0
        /// Decimals the file writes: enough that the rounding is far below the payload's.
        var decimals: Int

        func written(_ payloadValue: Double) -> Double { (payloadValue - offset) / factor }
        func text(_ payloadValue: Double) -> String { FixtureNumber.text(written(payloadValue), decimals: decimals) }
    }

    var name: String
    var energy: Unit
    /// HAE's energy unit (HAE writes kcal where the Health app writes Cal).
    var haeEnergy: Unit
    var distance: Unit
    var mass: Unit
    var temperature: Unit
    var speed: Unit

    static let metric = FixtureUnits(
        name: "metric",
        energy: Unit(name: "kJ", factor: 1 / 4.184, decimals: 4),
        haeEnergy: Unit(name: "kJ", factor: 1 / 4.184, decimals: 4),
        distance: Unit(name: "km", factor: 1, decimals: 5),
        mass: Unit(name: "kg", factor: 1, decimals: 3),
        temperature: Unit(name: "degC", factor: 1, decimals: 4),
        speed: Unit(name: "km/hr", factor: 1, decimals: 5))

    static let imperial = FixtureUnits(
        name: "imperial",
        energy: Unit(name: "Cal", factor: 1, decimals: 4),
        haeEnergy: Unit(name: "kcal", factor: 1, decimals: 4),
        distance: Unit(name: "mi", factor: 1.609344, decimals: 8),
        mass: Unit(name: "lb", factor: 0.45359237, decimals: 6),
        temperature: Unit(name: "degF", factor: 5.0 / 9.0, offset: -32 * 5.0 / 9.0, decimals: 6),
        speed: Unit(name: "mi/hr", factor: 1.609344, decimals: 8))

    static func named(_ name: String) -> FixtureUnits? { [metric, imperial].first { $0.name == name } }
}
