/// How one field's value on one date was made (`explain`): the value exactly as the payload has
/// it, the rule in one line, and the samples the rule met with the part each counted.
///
/// For a sum the counted parts are the very terms the day's total added (`SumResolver.attribute`),
/// so they add up to the value; for a mean each used sample counts value ÷ n; for a latest, a
/// minimum or a maximum the one sample used counts its value; for sleep hours each interval
/// counts the time it adds to the union. `countedTotal` is their sum.
struct Explanation: Sendable {
    var date: String
    var field: OutputField
    /// The payload's value (several inputs: after they are merged as `convert` merges them).
    var value: OutputField.Value?
    /// The rule in one line.
    var rule: String
    /// The input the value came from, when several were read.
    var from: String?
    var samples: [ExplainedSample] = []
    /// Sum rule: which source the overlap rule gave each stretch of time.
    var stretches: [SourceStretch] = []
    /// Further facts (the sleep window, a payload input without samples, a merge), one a line.
    var notes: [String] = []
    /// False where the value was read from payload JSON, which holds no samples.
    var hasSamples = true
    /// Other inputs' own values for the field when several were read.
    var otherInputs: [(input: String, value: OutputField.Value?)] = []

    init(date: String, field: OutputField, value: OutputField.Value?, rule: String) {
        self.date = date
        self.field = field
        self.value = value
        self.rule = rule
    }

    /// The sum of the counted parts: 0 when there are no samples, nil when the samples have no
    /// counted parts (text fields) or the input has no samples (payload JSON).
    var countedTotal: Double? {
        let parts = samples.compactMap(\.counted)
        return !hasSamples || (parts.isEmpty && !samples.isEmpty) ? nil : parts.reduce(0, +)
    }

    /// The value as a number, when it is one (workouts: their count).
    var number: Double? {
        guard let value, case .number(let n) = value.scalar else { return nil }
        return n
    }
}
