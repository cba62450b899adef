/// A `MetadataEntry key value` child, kept as text: values often carry their unit inline
/// (`"6575 cm"`, `"6400 %"`), and their meaning depends on the key.
public struct MetadataEntry: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One `InstantaneousBeatsPerMinute bpm time` of an HRV record's beat list. `time` is a
/// locale-formatted wall-clock time without a date (`00:20:37,80`), so it is kept verbatim.
public struct InstantaneousBeat: Hashable, Sendable {
    public var bpm: Double?
    public var time: String
    public init(bpm: Double?, time: String) {
        self.bpm = bpm
        self.time = time
    }
}
