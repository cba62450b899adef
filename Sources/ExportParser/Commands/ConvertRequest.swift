import Foundation

/// What a `convert` run was asked to do (the CLI's options, validated by `ConvertJob`).
public struct ConvertRequest: Sendable {
    public var inputs: [String]
    public var outDir: String
    /// IANA zone for day attribution; nil: each sample's recorded offset.
    public var timeZoneName: String?
    /// `YYYY-MM-DD` bounds of the dates written (inclusive); the whole input is still read.
    public var from: String?
    public var to: String?
    /// Source name fragments, highest priority first; nil: Apple Watch, iPhone, others.
    public var sourcePriority: [String]?
    /// The SQLite store to write; nil: no store.
    public var storePath: String?
    public var person: String
    /// `--received`: the inputs are the Health Auto Export bodies `receive` stored for `person`
    /// in `storePath`, which is then read, not written.
    public var received: Bool

    public init(
        inputs: [String], outDir: String = "out", timeZoneName: String? = nil, from: String? = nil, to: String? = nil,
        sourcePriority: [String]? = nil, storePath: String? = nil, person: String = "me", received: Bool = false
    ) {
        self.inputs = inputs
        self.outDir = outDir
        self.timeZoneName = timeZoneName
        self.from = from
        self.to = to
        self.sourcePriority = sourcePriority
        self.storePath = storePath
        self.person = person
        self.received = received
    }
}

extension ConvertRequest {
    /// Checks the options before anything is read (the command's `validate()` calls it): some
    /// input, dates in the form YYYY-MM-DD with `from` not after `to`, a known time zone.
    public func validate() throws {
        if received {
            guard storePath != nil else { throw UsageError("--received", "--received reads the bodies receive stored: give --store FILE") }
            guard inputs.isEmpty else { throw UsageError("--received", "--received takes its inputs from the store: give no input files") }
        } else {
            guard !inputs.isEmpty else { throw UsageError(nil, "no input file given") }
        }
        _ = try DayOptions(timeZoneName: timeZoneName)
        let f = try from.map { try ConvertJob.day($0, option: "--from") }
        let t = try to.map { try ConvertJob.day($0, option: "--to") }
        if let f, let t, f > t { throw UsageError("--from", "--from \(from!) is after --to \(to!)") }
        if let p = storePath, p.isEmpty { throw UsageError("--store", "--store needs a file name") }
        if person.isEmpty { throw UsageError("--person", "--person needs a non-empty id") }
    }
}

/// Progress of a run, for a terminal display.
public struct ConvertProgress: Sendable {
    public var input: String
    public var bytesDone: Int64
    public var bytesTotal: Int64?
    public var records: Int
    public var elapsed: Double
}

extension ConvertProgress {
    /// The readers' progress callback (input, bytes read, its size) as a run's progress: the
    /// samples `book` has taken so far and the time since `started`. convert, compare and
    /// explain show the same line.
    static func reporter(_ show: @escaping (ConvertProgress) -> Void, book: DayBook, started: Date) -> (String, Int64, Int64?) -> Void {
        reporter(show, started: started) { book.samplesSeen }
    }

    /// The same line with the records counted by `records`: a window read's are the elements its
    /// scan passed (`WindowScanTally`), of which the book is given a sliver.
    static func reporter(
        _ show: @escaping (ConvertProgress) -> Void, started: Date, records: @escaping () -> Int
    ) -> (String, Int64, Int64?) -> Void {
        { path, done, total in
            show(
                ConvertProgress(
                    input: path, bytesDone: done, bytesTotal: total, records: records(), elapsed: Date().timeIntervalSince(started)))
        }
    }
}
