import Foundation

/// How samples become days: the run's time zone and the source priority.
struct DayOptions: Sendable {
    /// The run's zone (`--timezone`); nil: each sample's own recorded offset.
    var timeZone: TimeZone?
    /// The input's `HKTimeZone` timeline, given for a second pass when the first found it further
    /// from the recorded offsets than one pass can correct (`DayBook.rereadTimeline`).
    var timeline: ZoneTimeline?
    /// Each instant in its recorded offset, placed on arrival, without learning a timeline: what
    /// an input without `HKTimeZone` gives anyway; `explain` reads so to hear every sample placed.
    var recordedOffsetsOnly = false
    var sourcePriority: SourcePriority
    /// How many sum-rule sample pieces may wait in memory (32 bytes each) before days that the
    /// stream has left behind are resolved and their pieces freed. Keeps memory flat on any
    /// file size; files below it are resolved exactly whatever their record order.
    var sumPieceBudget = 400_000
    /// The dates whose days `DayBook.finish` makes; nil makes every date's. `explain`'s window
    /// read asks for its date only: the rest of what it read (every `HKTimeZone` record of the
    /// file, years of sleep samples, each watch's first record) is there for what it tells that
    /// date, and their thousands of other dates and nights were made to be dropped (about a
    /// tenth of the run's time on the 3 GB export).
    var finishedDays: ClosedRange<Int>?
    /// The dates whose sums are made at the end from all their pieces, never resolved early
    /// (`SumBook.keptToTheEnd`): the dates `compare --from` compares and `explain` explains. A
    /// window read holds fewer pieces than a full read and passes the budget later if at all; a
    /// full read past it (or meeting records after export.xml's workouts) resolved them early,
    /// which for an input in another order than the Health app's gave another sum. Kept to the
    /// end, both give the exact one.
    var exactDays: ClosedRange<Int>?
    /// `DayBook.finish` makes the other rules' days while the nights' thread works, and takes the
    /// nights after. Off (convert, explain): the nights are taken first, so that their samples are
    /// freed before the days are made, which kept a 6.4 GB export's peak lower (issue 24). On for
    /// `compare --from`'s window read, whose book is small: the main thread no longer waits idle
    /// for the nights (docs/performance.md, "The seventh pass"); and the nights resolve in two
    /// halves, on two threads (`NightBook.finish`).
    var nightsBesideDays = false

    init(timeZone: TimeZone? = nil, sourcePriority: SourcePriority = SourcePriority()) {
        self.timeZone = timeZone
        self.sourcePriority = sourcePriority
    }

    /// Options from command-line text; throws a readable error for an unknown zone.
    init(timeZoneName: String?, sourcePriority: [String]? = nil) throws {
        var zone: TimeZone?
        if let name = timeZoneName {
            guard let z = TimeZone(identifier: name) else {
                throw UsageError(
                    "--timezone", "unknown time zone \"\(name)\" (use an IANA name such as Europe/Amsterdam or Australia/Sydney)")
            }
            zone = z
        }
        self.init(timeZone: zone, sourcePriority: SourcePriority(sourcePriority))
    }
}
