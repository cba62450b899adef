/// One reading from any input (an export.xml `Record`, a HAE datum), decoded by its reader.
///
/// This is the sample stream of the design: every reader yields `Sample`s, and the day book,
/// the store and any other sink consume them without knowing the input format.
struct Sample: Sendable {
    /// The HealthKit identifier as written, e.g. `HKQuantityTypeIdentifierStepCount`.
    var type: String
    /// The catalog row for `type`, when the catalog aggregates it.
    var metric: Metric?
    /// `sourceName` (the user-visible name of the app or device that wrote it).
    var source: String
    var sourceVersion: String?
    /// The `HKDevice` description as written, less its per-record memory address
    /// (`<<HKDevice>, name:Apple Watch, …>`) (details only).
    var device: String?
    /// The unit as written, when the record has one.
    var unit: String?
    /// The value as written. Category records carry an enum name here
    /// (`HKCategoryValueSleepAnalysisAsleepCore`); quantities the decimal text (details only).
    var valueText: String?
    /// The numeric value as written, in `unit`.
    var value: Double?
    /// The value in the catalog's payload unit; nil for types outside the catalog, for category
    /// types, and when the unit could not be converted (the reader then reports a skip).
    var canonicalValue: Double?
    var start: Timestamp
    var end: Timestamp
    /// The longest a sample may last, in seconds: a year and a day. No device records for longer;
    /// a sample that claims to (an endDate in the year 9019) would be split into a piece for every
    /// day it covers, millions of them, so the readers skip it ("lasting more than a year").
    static let longestSpan: Int64 = 366 * 86_400
    var created: Timestamp?
    /// The IANA zone of an `HKTimeZone` metadata entry, when present (always filled).
    var timeZoneName: String?
    /// Metadata entries (details only).
    var metadata: [MetadataEntry]
    /// The HRV beat list (details only).
    var beats: [InstantaneousBeat]
    /// Set when the sample is an input's bucket statistic rather than one HealthKit sample
    /// (HAE's aggregated data): `value` is then the bucket's average or sum, and these carry the
    /// bucket's extremes in the payload unit. Day counts are unknown for such samples.
    var bucketMinimum: Double? = nil
    var bucketMaximum: Double? = nil
    var isBucket = false
    /// A digest of the record's metadata entries (keys and values in order; 0 when it has none).
    /// Two records are the same reading only when their metadata match too: a food app writes
    /// several foods at one instant with the same protein, told apart only by their metadata.
    /// Computed whether or not details are decoded, so the day rules never depend on `--no-store`.
    var metadataDigest: UInt64 = 0
    /// The record's `device` says `model:Watch`: its source is an Apple Watch whatever the
    /// user named it (a renamed or localised watch).
    var deviceIsWatch = false
    /// Tells apart datums of one Health Auto Export body that are alike in every field: two foods
    /// logged in one minute with the same protein are two HealthKit samples, and HAE writes no
    /// metadata that could tell them apart. The HAE reader numbers its datums; `HAEBodyMerger`
    /// numbers the copies of one datum within a body (0, 1, …), so a copy that another body
    /// repeats gets the same number there. 0 for export.xml records (their metadata tells them
    /// apart; copies of one record from a re-sync are alike there and count once).
    var occurrence: UInt32 = 0

    init(
        type: String, metric: Metric? = nil, source: String, sourceVersion: String? = nil,
        device: String? = nil, unit: String? = nil, valueText: String? = nil, value: Double? = nil,
        canonicalValue: Double? = nil, start: Timestamp, end: Timestamp, created: Timestamp? = nil,
        timeZoneName: String? = nil, metadata: [MetadataEntry] = [], beats: [InstantaneousBeat] = [],
        metadataDigest: UInt64 = 0, deviceIsWatch: Bool = false
    ) {
        self.type = type
        self.metric = metric
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.valueText = valueText
        self.value = value
        self.canonicalValue = canonicalValue
        self.start = start
        self.end = end
        self.created = created
        self.timeZoneName = timeZoneName
        self.metadata = metadata
        self.beats = beats
        self.metadataDigest = metadataDigest
        self.deviceIsWatch = deviceIsWatch
    }
}
