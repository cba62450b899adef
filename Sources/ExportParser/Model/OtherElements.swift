/// A `Correlation` (blood pressure, food). Its member records also appear as top-level records,
/// so they are kept for the store but never aggregated a second time.
public struct Correlation: Sendable {
    public var type: String
    public var source: String
    public var sourceVersion: String?
    public var device: String?
    public var start: Timestamp
    public var end: Timestamp
    public var created: Timestamp?
    public var metadata: [MetadataEntry]
    public var members: [Sample]
    public init(type: String, source: String, start: Timestamp, end: Timestamp) {
        self.type = type
        self.source = source
        self.start = start
        self.end = end
        self.metadata = []
        self.members = []
    }
}

/// One `ActivitySummary` (Apple's own de-duplicated daily rings), attributes kept as written.
public struct ActivitySummary: Sendable {
    /// `dateComponents`, `YYYY-MM-DD`.
    public var date: String
    public var attributes: [MetadataEntry]
    public init(date: String, attributes: [MetadataEntry]) {
        self.date = date
        self.attributes = attributes
    }
}

/// The `Me` element: characteristics (birth date, sex, blood type, …) as written.
public struct Me: Sendable {
    public var attributes: [MetadataEntry]
    public init(attributes: [MetadataEntry]) { self.attributes = attributes }
}

/// Something an input holds that nothing aggregates, kept whole for the store: other top-level
/// XML elements (ClinicalRecord, Audiogram, …) or HAE arrays (medications, stateOfMind, …).
public struct ExtraItem: Sendable {
    /// The element or array name.
    public var kind: String
    /// The item as JSON text.
    public var json: String
    public init(kind: String, json: String) {
        self.kind = kind
        self.json = json
    }
}
