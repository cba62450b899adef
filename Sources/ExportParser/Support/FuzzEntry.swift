import Foundation

/// The entry points of the fuzz targets in `fuzz/` (fuzz/README.md), which are a separate package
/// and see only the public surface. Not for any other use.
///
/// Each function runs one input through a reader or parser and returns; an `InputError` is a
/// normal outcome. What must never happen is a crash, a sanitizer report, or one of the checks
/// here failing (`preconditionFailure`): a reader that gives another answer when the same bytes
/// arrive in other chunks, a parser whose fast path disagrees with its slow one.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the libFuzzer boundary: the
/// input arrives as a buffer valid for the call (`LLVMFuzzerTestOneInput`), is only sliced and read
/// within it, and is copied before anything keeps it (a scratch file).
public enum FuzzEntry {
    /// Splits a fuzz input into its chunk offsets and its body. Layout: byte 0's low 3 bits say
    /// how many offsets follow (0–7), each two bytes little-endian; the rest is the body. Offsets
    /// are taken modulo the body's length, sorted, and those at 0 or the end dropped.
    public static func splitInput(_ input: UnsafeRawBufferPointer) -> (body: UnsafeRawBufferPointer, splits: [Int]) {
        guard let first = input.first else { return (input, []) }
        let k = Int(first & 7)
        let headerLength = 1 + 2 * k
        guard input.count >= headerLength else { return (UnsafeRawBufferPointer(rebasing: input[input.count...]), []) }
        let body = UnsafeRawBufferPointer(rebasing: input[headerLength...])
        var splits: [Int] = []
        if body.count > 1 {
            for i in 0..<k {
                let v = Int(input[1 + 2 * i]) | Int(input[2 + 2 * i]) << 8
                let at = v % body.count
                if at > 0 { splits.append(at) }
            }
        }
        return (body, Array(Set(splits)).sorted())
    }

    /// An export.xml in `bytes`, fed to the reader in chunks cut at `splitAt` (ascending offsets),
    /// then once in one piece: both reads must agree.
    public static func readExportXML(_ bytes: UnsafeRawBufferPointer, splitAt: [Int]) {
        func read(_ cuts: [Int]) -> Outcome {
            let counter = CountingSink()
            let book = DayBook()
            let sink = SinkFanout([book, counter])
            var session = ParseSession(
                file: "fuzz.xml", sink: sink, input: InputDescription(path: "fuzz.xml", format: .appleXML, byteCount: Int64(bytes.count)))
            do {
                var from = 0
                for to in cuts + [bytes.count] where to > from && to <= bytes.count {
                    try session.feed(UnsafeRawBufferPointer(rebasing: bytes[from..<to]))
                    from = to
                }
                _ = try session.finish()
            } catch is InputError {
                return Outcome(failed: true)
            } catch {
                preconditionFailure("the export reader threw something else than an InputError: \(error)")
            }
            return counter.outcome(days: book.finish().count)
        }
        let split = read(splitAt), whole = read([])
        precondition(
            split == whole,
            "the export reader's result depends on where its input is cut: \(split) in chunks cut at \(splitAt), \(whole) in one piece")
    }

    /// Health Auto Export JSON in `bytes`, read by `HAEReader` with its chunks cut at `splitAt`,
    /// then in one piece: both reads must agree. And read with its chunks cut at `splitAt`
    /// without taking out the indentation (`JSONIndentStripper`): that read must agree to the
    /// error's offset and words.
    public static func readHAE(_ bytes: UnsafeRawBufferPointer, splitAt: [Int]) {
        guard let path = try? scratchFile("json", bytes) else { return }
        func read(_ cuts: [Int], strip: Bool = true) -> Outcome {
            let counter = CountingSink()
            let book = DayBook()
            var reader = HAEReader(path: path, pendingLimit: 4)  // small: the re-read path runs too
            reader.splits = cuts.map(Int64.init)
            reader.stripIndentation = strip
            do {
                _ = try reader.read(into: SinkFanout([book, counter]))
            } catch let e as InputError {
                return Outcome(failed: true, error: e.description)
            } catch {
                preconditionFailure("the HAE reader threw something else than an InputError: \(error)")
            }
            return counter.outcome(days: book.finish().count)
        }
        // A byte-order mark is recognised in the first read only (a regular file never gives a
        // short read), so no cut falls inside one.
        let cuts = splitAt.filter { $0 >= 3 }
        let split = read(cuts), whole = read([]), unstripped = read(cuts, strip: false)
        precondition(
            split == unstripped,
            "the HAE reader's result depends on taking out indentation: \(split) stripped, \(unstripped) not, chunks cut at \(cuts)")
        // Where yajl reports an error, and the excerpt, depend on the chunks: the counts only.
        precondition(
            split.counts == whole.counts,
            "the HAE reader's result depends on where its input is cut: \(split) in chunks cut at \(cuts), \(whole) in one piece")
    }

    /// An export.zip in `bytes`: the archive's directory, the export entry found by content,
    /// inflated in small chunks and read.
    public static func readZip(_ bytes: UnsafeRawBufferPointer) {
        guard let path = try? scratchFile("zip", bytes) else { return }
        var reader = AppleExportReader(path: path)
        reader.chunkSize = 4096
        do {
            try reader.read(into: DayBook())
        } catch is InputError {
        } catch {
            preconditionFailure("the zip reader threw something else than an InputError: \(error)")
        }
    }

    /// A timestamp from `bytes`; when it parses, the fixed-layout and lenient parsers agree,
    /// and its ISO 8601 form parses back to the same instant and offset.
    public static func parseTimestamp(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        guard let t = TimestampParser.parse(base, bytes.count) else { return }
        if bytes.count == 25, let fixed = TimestampParser.parseFixed(base) {
            let lenient = TimestampParser.parseLenient(base, bytes.count)
            precondition(lenient == fixed, "fixed layout gives \(fixed), lenient \(String(describing: lenient))")
        }
        let iso = CivilDate.isoTimestamp(seconds: t.seconds, offset: t.offset)
        let again = TimestampParser.parse(iso)
        precondition(
            again == t || (again == nil && iso.hasPrefix("10000")), "\(t) printed as \(iso) parses back as \(String(describing: again))")
    }

    /// A number from `bytes` through `NumberParser`; when the bytes are a JSON number, also
    /// through `HAEDecimalParser`, whose fast paths must give exactly what strtod gives.
    public static func parseNumber(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let plain = NumberParser.parse(base, bytes.count)
        if let plain { precondition(plain.isFinite, "NumberParser gave \(plain)") }
        guard isJSONNumber(bytes) else { return }
        let fast = HAEDecimalParser.parse(base, bytes.count)
        let reference = Double(String(decoding: bytes, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
        precondition(
            fast?.bitPattern == reference?.bitPattern,
            "HAEDecimalParser gives \(String(describing: fast)), strtod \(String(describing: reference)) for \(String(decoding: bytes, as: UTF8.self))"
        )
    }

    // MARK: - Support

    /// What a read produced, compared between two ways of feeding the same bytes.
    struct Outcome: Equatable, CustomStringConvertible {
        var failed = false
        /// The error's location and message, when the reader says them.
        var error: String?
        var samples = 0, correlations = 0, workouts = 0, summaries = 0, extras = 0, nights = 0, days = 0
        var skipped = 0
        /// The first locations of each skip reason (offsets, lines and paths), sorted.
        var skipLocations: [String] = []
        /// The counts alone: what must not depend on where the input is cut (the error's offset
        /// and excerpt may).
        var counts: Outcome {
            var o = self
            o.error = nil
            o.skipLocations = []
            return o
        }
        var description: String {
            failed
                ? error ?? "an InputError"
                : "\(samples) samples, \(workouts) workouts, \(nights) nights, \(extras) extras, \(skipped) skipped, \(days) days"
        }
    }

    final class CountingSink: SampleSink {
        var outcome = Outcome()
        var wantsDetails: Bool { true }
        func sample(_ sample: Sample) { outcome.samples += 1 }
        func correlation(_ correlation: Correlation) { outcome.correlations += 1 }
        func workout(_ workout: Workout) { outcome.workouts += 1 }
        func activitySummary(_ summary: ActivitySummary) { outcome.summaries += 1 }
        func extra(_ item: ExtraItem) { outcome.extras += 1 }
        func sleepSummary(_ night: SleepSummary) { outcome.nights += 1 }
        func finish(_ input: InputDescription, report: ReadReport) {
            outcome.skipped = report.skips.values.reduce(0, +)
            outcome.skipLocations = report.skipExamples.flatMap { reason, locations in locations.map { "\(reason) at \($0)" } }.sorted()
        }
        func outcome(days: Int) -> Outcome {
            var o = outcome
            o.days = days
            return o
        }
    }

    /// The readers of zip and HAE files read from a path: each input is written to one file per
    /// process, in /dev/shm when there is one (memory, not disk).
    private static func scratchFile(_ ext: String, _ bytes: UnsafeRawBufferPointer) throws -> String {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(dir)/health-import-fuzz-\(getpid()).\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ b: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        func digits() -> Int {
            let s = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < b.count, b[i] == 0x2D { i += 1 }
        guard i < b.count else { return false }
        if b[i] == 0x30 { i += 1 } else if digits() == 0 { return false }
        if i < b.count, b[i] == 0x2E {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == b.count
    }
}
