/// One row of the metric catalog (a class: samples carry it, and one reference is cheaper to
/// copy than its strings) (docs/catalog.md): a HealthKit type, where its value goes
/// in the payload, the rule that folds a day of samples, the unit, and how the CSV and HAE name it.
public final class Metric: Sendable, Hashable {
    /// Position in `Catalog.metrics`; dense, so accumulators can be arrays.
    public let index: Int
    /// The full HealthKit identifier as export.xml writes it.
    public let healthKitType: String
    public let section: PayloadSection
    /// The payload field name (`step_count`), also the store's field name.
    public let field: String
    public let rule: Rule
    public let unit: CanonicalUnit
    /// Decimals on the wire (payload and CSV). The store keeps full precision.
    public let decimals: Int
    /// Health Auto Export metric names that carry this type (several spellings where public
    /// ingesters disagree).
    public let haeNames: [String]

    init(index: Int, healthKitType: String, section: PayloadSection, field: String, rule: Rule, unit: CanonicalUnit, decimals: Int, haeNames: [String]) {
        self.index = index
        self.healthKitType = healthKitType
        self.section = section
        self.field = field
        self.rule = rule
        self.unit = unit
        self.decimals = decimals
        self.haeNames = haeNames
    }

    public static func == (a: Metric, b: Metric) -> Bool { a.index == b.index }
    public func hash(into h: inout Hasher) { h.combine(index) }
}
