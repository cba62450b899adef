/// One row of the metric catalog (a class: samples carry it, and one reference is cheaper to
/// copy than its strings) (docs/catalog.md): a HealthKit type, where its value goes
/// in the payload, the rule that folds a day of samples, the unit, and how the CSV and HAE name it.
package final class Metric: Sendable, Hashable {
    /// Position in `Catalog.metrics`; dense, so accumulators can be arrays.
    package let index: Int
    /// The full HealthKit identifier as export.xml writes it.
    package let healthKitType: String
    let section: PayloadSection
    /// The payload field name (`step_count`), also the store's field name.
    package let field: String
    package let rule: Rule
    package let unit: CanonicalUnit
    /// Decimals on the wire (payload and CSV). The store keeps full precision.
    let decimals: Int
    /// What one sample can hold, in `unit`; a value outside it is skipped and counted.
    let plausible: ClosedRange<Double>
    /// Health Auto Export metric names that carry this type (several spellings where public
    /// ingesters disagree).
    package let haeNames: [String]

    init(
        index: Int, healthKitType: String, section: PayloadSection, field: String, rule: Rule, unit: CanonicalUnit, decimals: Int,
        plausible: ClosedRange<Double>, haeNames: [String]
    ) {
        self.index = index
        self.healthKitType = healthKitType
        self.section = section
        self.field = field
        self.rule = rule
        self.unit = unit
        self.decimals = decimals
        self.plausible = plausible
        self.haeNames = haeNames
    }

    /// Why `value` (in `unit`) cannot be one real sample of this type, or nil when it can. The
    /// one check both readers apply, so the same value is skipped whichever file it came from.
    func implausibility(_ value: Double) -> String? {
        if !value.isFinite { return "value that is not a finite number for \(shortName)" }
        if plausible.contains(value) { return nil }
        if value < 0, plausible.lowerBound >= 0 { return "negative value for \(shortName)" }
        let range = "\(Self.format(plausible.lowerBound))–\(Self.format(plausible.upperBound)) \(unit.rawValue)"
        return "value outside \(range) for \(shortName)"
    }

    /// The HealthKit type without its prefix (`StepCount`), for messages.
    var shortName: String { HealthKitTypeName.short(healthKitType) }

    private static func format(_ v: Double) -> String { v == v.rounded() ? CountText.count(Int(v)) : String(v) }

    package static func == (a: Metric, b: Metric) -> Bool { a.index == b.index }
    package func hash(into h: inout Hasher) { h.combine(index) }
}
