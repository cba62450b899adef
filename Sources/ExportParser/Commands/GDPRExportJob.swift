import Foundation

/// The `gdpr-export` command: every row the store holds about one person, kind by kind, as JSON
/// Lines and CSV, with README.txt and manifest.json, into a folder or a streamed zip.
///
/// Streams: each kind is one query stepped row by row and encoded into chunks that a second
/// thread hashes and writes (or deflates) every 256 KiB (`ExportPipeline`), so memory does not
/// grow with the person's data. All queries run in one read transaction, so the files are one
/// snapshot of the store even while an import writes to it.
public final class GDPRExportJob {
    public let request: GDPRExportRequest
    /// When the export says it was made (tests fix it to compare two exports byte for byte).
    var createdAt = Date()
    /// The zip's ZIP64 limits (tests lower them to check the ZIP64 forms).
    var zipSizeLimit: UInt64 = 0xFFFF_FFFF
    var zipCountLimit = 0xFFFF

    public init(_ request: GDPRExportRequest) throws {
        guard !request.person.isEmpty else { throw UsageError("--person", "--person needs a non-empty id") }
        self.request = request
    }

    public func run() throws -> GDPRExportOutcome {
        let started = Date()
        let store = try StoreAccess.open(request.storePath)
        let out = request.outPath
        var st = stat()
        if lstat(out, &st) == 0 {
            throw OutputError(file: out, message: "already exists; give a path that does not, so that no earlier export is replaced")
        }
        return try exportAll(store, to: out, started: started)
    }

    /// The store's reading opened from the existential (its row type is the store's own).
    private func exportAll<Store: PersonExportStore>(_ store: Store, to out: String, started: Date) throws -> GDPRExportOutcome {
        try store.exporting(person: request.person) { rows in try export(rows, to: out, started: started) }
    }

    /// The export proper, inside the read transaction of `exporting`.
    private func export<Store: PersonExportReading>(_ store: Store, to out: String, started: Date) throws -> GDPRExportOutcome {
        guard try store.holdsPerson() else {
            throw StoreAccess.missing(request.person, in: request.storePath)
        }
        let schemaVersion = try store.schemaVersion()
        try OutputFiles.makeDirectory(URL(fileURLWithPath: out).deletingLastPathComponent().path)
        let destination: ExportDestination =
            request.isZip
            ? try ZipStreamWriter(out, date: createdAt, sizeLimit: zipSizeLimit, countLimit: zipCountLimit)
            : try ExportFolder(out)
        let pipeline = ExportPipeline()
        do {
            let kinds = ExportKinds.all()
            var files: [ExportedFile] = []
            files.append(try writeWhole(ExportReadme.name, ExportReadme.text(kinds: kinds), to: destination, pipeline: pipeline))
            var rows = 0
            for kind in kinds {
                rows += try write(store.rows(of: kind), kind, to: destination, pipeline: pipeline, files: &files)
            }
            let manifest = ExportManifest.text(person: request.person, createdAt: createdAt, schemaVersion: schemaVersion, files: files)
            _ = try writeWhole(ExportManifest.name, manifest, to: destination, pipeline: pipeline)
            pipeline.close()
            try destination.finish()
            return GDPRExportOutcome(
                path: out, person: request.person, rows: rows, seconds: Date().timeIntervalSince(started), files: files)
        } catch {
            pipeline.close()
            destination.discard()
            throw error
        }
    }

    private func writeWhole(_ name: String, _ text: String, to destination: ExportDestination, pipeline: ExportPipeline) throws
        -> ExportedFile
    {
        let writer = try ExportFileWriter(name, sink: destination.begin(name), pipeline: pipeline)
        writer.buffer.append(text)
        return try writer.end(rows: nil)
    }

    /// Both files of one kind; returns its rows. Into a folder, one pass over the rows writes
    /// both; a zip's entries come one after the other, so there the query runs once for each.
    private func write<Rows: ExportKindRows>(
        _ kindRows: Rows, _ kind: ExportKind, to destination: ExportDestination, pipeline: ExportPipeline,
        files: inout [ExportedFile]
    ) throws -> Int {
        let passes: [[ExportFormat]] = destination.writesFilesAtOnce ? [[.jsonLines, .csv]] : [[.jsonLines], [.csv]]
        var counts: [Int] = []
        for formats in passes {
            let encoders = formats.map { ExportRowEncoder(kind: kind, format: $0) }
            let writers = try formats.map { format in
                let name = format == .csv ? kind.csvName : kind.jsonLinesName
                return try ExportFileWriter(name, sink: destination.begin(name), pipeline: pipeline)
            }
            for (encoder, writer) in zip(encoders, writers) { encoder.header(into: writer.buffer) }
            var rows = 0
            while try kindRows.next() {
                for (encoder, writer) in zip(encoders, writers) {
                    encoder.row(kindRows, into: writer.buffer)
                    try writer.flushIfFull()
                }
                rows += 1
            }
            kindRows.rewind()
            for writer in writers { files.append(try writer.end(rows: rows)) }
            counts.append(rows)
        }
        // One read transaction: every pass sees the same rows.
        precondition(counts.allSatisfy { $0 == counts[0] }, "the passes over \(kind.name) read different rows")
        return counts[0]
    }
}
