import Foundation

/// Reads the Health Auto Export inputs of one run as one person's HAE data: every body (files, a
/// folder's files, a JSON Lines file's lines) through `HAEReader` into one `HAEBodyMerger`, which
/// passes each datum, bucket, night and workout on once into `sink` (docs/hae.md, "Several
/// bodies").
///
/// One whole file alone is read straight into the sink, as before: a single body has nothing to
/// repeat, and a large export needs no key per datum.
struct HAESetReader {
    let bodies: [HAEBody]
    /// Called about every 16 MB with (the body, bytes read in it, its size).
    var progress: ((HAEBody, Int64, Int64?) -> Void)?
    /// The run's zone (`--timezone`), which dates buckets and samples as the day book will.
    var zone: TimeZone?

    /// What reading the set found besides the read report (nil for a single body).
    struct Summary: Sendable {
        var bodies = 0
        var repeatedDatums = 0
        var supersededBuckets = 0
        /// Buckets (Summarize on) of a type and date that samples (Summarize off) also gave.
        var bucketsSetAside = 0
        var repeatedWorkouts = 0
    }

    init(bodies: [HAEBody]) { self.bodies = bodies }

    /// Whether the bodies are one whole file, read without the merger.
    var isSingleFile: Bool { bodies.count == 1 && bodies[0].range == nil }

    func read(into sink: SampleSink) throws -> (ReadReport, Summary?) {
        if isSingleFile {
            var reader = HAEReader(path: bodies[0].path)
            if let progress { reader.progress = { progress(bodies[0], $0, $1) } }
            return (try reader.read(into: sink), nil)
        }
        let merger = HAEBodyMerger(downstream: sink, zone: zone)
        var report = ReadReport()
        for body in bodies {
            merger.beginBody()
            var reader = HAEReader(path: body.path)
            if let progress { reader.progress = { progress(body, $0, $1) } }
            do {
                var own = try reader.read(into: merger, range: body.range)
                // The set's report is one: each skipped item's place names its body.
                let name = body.line.map { "line \($0)" } ?? URL(fileURLWithPath: body.path).lastPathComponent
                for (reason, places) in own.skipExamples {
                    own.skipExamples[reason] = places.map { place in
                        var p = place
                        p.file = body.line == nil ? name : nil
                        p.line = body.line ?? p.line
                        return p
                    }
                }
                report.merge(own)
            } catch let error as InputError where body.line != nil {
                // A line of a JSON Lines file: say which line, besides the byte.
                throw InputError(
                    file: error.file,
                    location: InputLocation(line: body.line, byteOffset: error.location?.byteOffset, path: error.location?.path),
                    message: error.message)
            }
        }
        merger.finishSet()
        let summary = Summary(
            bodies: merger.bodies, repeatedDatums: merger.repeatedDatums, supersededBuckets: merger.supersededBuckets,
            bucketsSetAside: merger.bucketsSetAside, repeatedWorkouts: merger.repeatedWorkouts)
        return (report, summary)
    }

    /// A digest of the set for the store's "already imported" check: the sha256 of one file, or
    /// of the list of the files' sha256 (each file once, in order) for several.
    func sha256() throws -> String {
        var paths: [String] = []
        for b in bodies where !paths.contains(b.path) { paths.append(b.path) }
        if paths.count == 1 { return try FileDigest.sha256(path: paths[0]) }
        let list = try paths.map { try FileDigest.sha256(path: $0) }.joined(separator: "\n")
        return FileDigest.sha256(bytes: Array(list.utf8))
    }
}
