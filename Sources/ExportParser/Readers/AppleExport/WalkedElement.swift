/// `compare`'s window read (docs/export-xml.md, "The census"): a top-level element outside the
/// window that a worker read from its bytes instead of handing it to libxml2. It reaches the
/// handler in its place in file order (an `ElementTape` event), and the handler makes of it what
/// the element would give the day book:
/// - a sleep record (`ExportWindow.walkSleep`): the very `Sample` its start tag gives
///   (`ExportElementHandler.walkedSleep`);
/// - a workout (`ExportWindow.walkWorkout`): its type, source, dates and `HKTimeZone` entry, all
///   a date outside the window takes from it (`ExportElementHandler.walkedWorkout`).
///
/// Its texts are ranges of bytes its holder keeps.
struct WalkedElement {
    enum Kind: UInt8 { case sleep, workout }
    var kind = Kind.sleep
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
    /// keeps the text it was written with). A workout: 0.
    var value: UInt8
    /// A workout's `workoutActivityType`, a range of the same bytes; a count of -1: none.
    var typeFirst: Int32 = 0
    var typeCount: Int32 = -1

    /// The `value`s of a sleep record that `SleepSegment.stage(for:)` gives a stage: any other
    /// is read by libxml2. The handler keeps each text's interned id by its index here.
    static let values: [StaticString] = [
        "HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified",
        "HKCategoryValueSleepAnalysisAwake", "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
        "HKCategoryValueSleepAnalysisAsleepREM",
    ]
}

/// The elements a worker walked in one chunk, in file order, each with its place: the count
/// of the chunk's kept bytes (those libxml2 parses) that come before it in the file. The recorder
/// puts each on the tape before the first top-level element that starts past its place
/// (`ElementRecorder.expect`).
struct WalkedElements {
    var elements: [WalkedElement] = []
    var places: [Int] = []
    /// The texts' bytes (sources, zones, workout types); consecutive elements with one text
    /// share its bytes.
    var sources: [UInt8] = []
    /// The last element's source, zone and workout type in `sources` (`text(_:_:)` compares each
    /// first).
    var lastSource: (first: Int32, count: Int32)?
    var lastZone: (first: Int32, count: Int32)?
    var lastType: (first: Int32, count: Int32)?

    var isEmpty: Bool { elements.isEmpty }
}
