/// A `MetadataEntry key value` child, kept as text: values often carry their unit inline
/// (`"6575 cm"`, `"6400 %"`), and their meaning depends on the key.
struct MetadataEntry: Hashable, Sendable {
    var key: String
    var value: String
    init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One `InstantaneousBeatsPerMinute bpm time` of an HRV record's beat list. `time` is a
/// locale-formatted wall-clock time without a date (`00:20:37,80`), so it is kept verbatim.
struct InstantaneousBeat: Hashable, Sendable {
    var bpm: Double?
    var time: String
    init(bpm: Double?, time: String) {
        self.bpm = bpm
        self.time = time
    }
}
