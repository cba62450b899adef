/// `compare`'s window read (docs/export-xml.md, "The census"): a sleep sample outside the window
/// that a worker read from its start tag alone (`ExportWindow.walkSleep`) instead of handing it to
/// libxml2. It reaches the handler in its place in file order (an `ElementTape` event), and the
/// handler makes of it the very `Sample` the record's start tag would give
/// (`ExportElementHandler.walkedSleep`). Its source is a range of bytes its holder keeps.
struct WalkedSleepSample {
    var start: Timestamp
    var end: Timestamp
    var deviceIsWatch: Bool
    var sourceFirst: Int32
    var sourceCount: Int32
    /// Its last `HKTimeZone` entry's value (the reader's `timeZoneName`), a range of the same
    /// bytes; a count of -1: none.
    var zoneFirst: Int32 = 0
    var zoneCount: Int32 = -1
    /// Its metadata entries' digest, as the handler makes it from their keys and values.
    var digest = FNV1a()
    var hasMetadata = false

    /// Which of `values` the record's `value` is (two texts give one stage, and the sample
    /// keeps the text it was written with).
    var value: UInt8

    /// The `value`s of a sleep record that `SleepSegment.stage(for:)` gives a stage: any other
    /// is read by libxml2. The handler keeps each text's interned id by its index here.
    static let values: [StaticString] = [
        "HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified",
        "HKCategoryValueSleepAnalysisAwake", "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
        "HKCategoryValueSleepAnalysisAsleepREM",
    ]
}

/// The sleep samples a worker walked in one chunk, in file order, each with its place: the count
/// of the chunk's kept bytes (those libxml2 parses) that come before it in the file. The recorder
/// puts each on the tape before the first top-level element that starts past its place
/// (`ElementRecorder.expect`).
struct WalkedSleepSamples {
    var samples: [WalkedSleepSample] = []
    var places: [Int] = []
    /// The sources' bytes; consecutive samples of one source share theirs.
    var sources: [UInt8] = []
    /// The last sample's source and zone in `sources` (`ExportWindow.walkSleep` compares each
    /// first).
    var lastSource: (first: Int32, count: Int32)?
    var lastZone: (first: Int32, count: Int32)?

    var isEmpty: Bool { samples.isEmpty }
}
