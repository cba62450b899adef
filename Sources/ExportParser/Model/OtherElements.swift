/// A `Correlation` (blood pressure, food). Its member records also appear as top-level records,
/// so they are kept for the store but never aggregated a second time.
struct Correlation: Sendable {
    var type: String
    var source: String
    var sourceVersion: String?
    var device: String?
    var start: Timestamp
    var end: Timestamp
    var created: Timestamp?
    var metadata: [MetadataEntry]
    var members: [Sample]
    init(type: String, source: String, start: Timestamp, end: Timestamp) {
        self.type = type
        self.source = source
        self.start = start
        self.end = end
        self.metadata = []
        self.members = []
    }
}

/// One `ActivitySummary` (Apple's own de-duplicated daily rings), attributes kept as written.
struct ActivitySummary: Sendable {
    /// `dateComponents`, `YYYY-MM-DD`.
    var date: String
    var attributes: [MetadataEntry]
    init(date: String, attributes: [MetadataEntry]) {
        self.date = date
        self.attributes = attributes
    }
}

/// The `Me` element: characteristics (birth date, sex, blood type, …) as written.
struct Me: Sendable {
    var attributes: [MetadataEntry]
    init(attributes: [MetadataEntry]) { self.attributes = attributes }
}

/// Something an input holds that nothing aggregates, kept whole for the store: other top-level
/// XML elements (ClinicalRecord, Audiogram, …) or HAE arrays (medications, stateOfMind, …).
struct ExtraItem: Sendable {
    /// The element or array name.
    var kind: String
    /// The item as JSON text.
    var json: String
    init(kind: String, json: String) {
        self.kind = kind
        self.json = json
    }
}
