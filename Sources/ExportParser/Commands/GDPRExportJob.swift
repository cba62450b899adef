import Crypto
import Foundation

/// The `gdpr-export` command: every row the store holds about one person, kind by kind, as JSON
/// Lines and CSV, with README.txt and manifest.json, into a folder or a streamed zip.
///
/// Streams: each kind is one query stepped row by row, encoded into a buffer that is hashed and
/// written (or deflated) every 256 KiB, so memory does not grow with the person's data. All
/// queries run in one read transaction, so the files are one snapshot of the store even while
/// an import writes to it. A zip is written entry after entry, so each kind's query runs once
/// for its JSON Lines file and once for its CSV.
public final class GDPRExportJob {
    public let request: GDPRExportRequest
    /// When the export says it was made (tests fix it to compare two exports byte for byte).
    var createdAt = Date()
    /// The zip's ZIP64 limits (tests lower them to check the ZIP64 forms).
    var zipSizeLimit: UInt64 = 0xFFFF_FFFF
    var zipCountLimit = 0xFFFF

    public init(_ request: GDPRExportRequest) throws {
        guard !request.person.isEmpty else { throw InputError(file: "--person", message: "needs a non-empty id") }
        self.request = request
    }

    public func run() throws -> GDPRExportOutcome {
        let started = Date()
        let store = try StoreAccess.open(request.storePath)
        let out = request.outPath
        var st = stat()
        if lstat(out, &st) == 0 {
            throw InputError(file: out, message: "already exists; give a path that does not, so that no earlier export is replaced")
        }
        let db = store.db
        try StoreAccess.mapped { try ExportNumberFunction.register(db) }
        try StoreAccess.mapped { try db.execute("BEGIN") }
        defer { try? db.execute("COMMIT") }
        guard try StoreAccess.mapped({ try PersonRows.holds(db, person: request.person) }) else {
            throw StoreAccess.missing(request.person, in: request.storePath)
        }
        let schemaVersion = try StoreAccess.mapped { try store.schemaVersion() }
        try OutputFiles.makeDirectory(URL(fileURLWithPath: out).deletingLastPathComponent().path)
        let destination: ExportDestination = request.isZip
            ? try ZipStreamWriter(out, date: createdAt, sizeLimit: zipSizeLimit, countLimit: zipCountLimit)
            : try ExportFolder(out)
        do {
            let writer = ExportFileWriter(destination)
            let kinds = ExportKinds.all()
            var files: [ExportedFile] = []
            try writer.begin(ExportReadme.name)
            writer.buffer.append(ExportReadme.text(kinds: kinds))
            files.append(try writer.end(rows: nil))
            var rows = 0
            for kind in kinds {
                rows += try write(kind, db: db, to: writer, files: &files)
            }
            try writer.begin(ExportManifest.name)
            writer.buffer.append(ExportManifest.text(person: request.person, createdAt: createdAt, schemaVersion: schemaVersion, files: files))
            _ = try writer.end(rows: nil)
            try destination.finish()
            return GDPRExportOutcome(path: out, person: request.person, rows: rows, seconds: Date().timeIntervalSince(started), files: files)
        } catch {
            destination.discard()
            throw error
        }
    }

    /// Both files of one kind; returns its rows.
    private func write(_ kind: ExportKind, db: SQLiteConnection, to writer: ExportFileWriter, files: inout [ExportedFile]) throws -> Int {
        let statement = try StoreAccess.mapped { try db.prepare(kind.sql) }
        var counts: [Int] = []
        for format in ExportFormat.allCases {
            let encoder = ExportRowEncoder(kind: kind, format: format)
            try writer.begin(format == .csv ? kind.csvName : kind.jsonLinesName)
            encoder.header(into: writer.buffer)
            statement.bind(1, request.person)
            var rows = 0
            while try StoreAccess.mapped({ try statement.step() }) {
                encoder.row(statement.stmt, into: writer.buffer)
                rows += 1
                try writer.flushIfFull()
            }
            statement.reset()
            files.append(try writer.end(rows: rows))
            counts.append(rows)
        }
        // One read transaction: both passes see the same rows.
        precondition(counts.allSatisfy { $0 == counts[0] }, "the JSON Lines and CSV passes of \(kind.name) read different rows")
        return counts[0]
    }
}

/// Hands one file's bytes to the destination in chunks, counting and hashing them for the manifest.
final class ExportFileWriter {
    let destination: ExportDestination
    let buffer = ExportBytes(capacity: 1 << 19)
    private var name = ""
    private var hasher = SHA256()
    private var bytes: UInt64 = 0
    static let chunk = 1 << 18

    init(_ destination: ExportDestination) {
        self.destination = destination
    }

    func begin(_ name: String) throws {
        self.name = name
        hasher = SHA256()
        bytes = 0
        buffer.clear()
        try destination.begin(name)
    }

    @inline(__always) func flushIfFull() throws {
        if buffer.count >= Self.chunk { try flush() }
    }

    private func flush() throws {
        guard buffer.count > 0 else { return }
        hasher.update(bufferPointer: buffer.bytes)
        bytes += UInt64(buffer.count)
        try destination.write(buffer.bytes)
        buffer.clear()
    }

    func end(rows: Int?) throws -> ExportedFile {
        try flush()
        try destination.end()
        return ExportedFile(name: name, rows: rows, bytes: bytes, sha256: FileDigest.hex(hasher.finalize()))
    }
}
