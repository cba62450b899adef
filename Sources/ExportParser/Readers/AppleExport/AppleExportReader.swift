import CZlibSystem
import Foundation
import ZIPFoundation

/// Reads Apple Health's own export, `export.xml` or straight from the XML entry of
/// `export.zip` (never extracted to disk), and streams it into a `SampleSink`.
///
/// Memory is constant: bytes go through in chunks of `chunkSize`, libxml2 keeps only its small
/// window, and the handler keeps only the element being read.
public struct AppleExportReader {
    public let path: String
    /// 256 KiB: the chunk and libxml2's window stay in L2 cache (1 MiB measured slower).
    public var chunkSize = 256 << 10
    /// Called now and then with (bytes parsed, total bytes if known).
    public var progress: ((Int64, Int64?) -> Void)?

    public init(path: String) { self.path = path }

    /// Streams the export into `sink`. Throws `InputError` for fatal problems (malformed or
    /// truncated XML, a zip without an export, unreadable file); record-level problems are
    /// counted in the returned report.
    @discardableResult
    public func read(into sink: SampleSink) throws -> ReadReport {
        let format = try InputDetector.detect(path: path)
        switch format {
        case .appleXML: return try readXMLFile(into: sink)
        case .appleZip: return try readZip(into: sink)
        case .hae: throw InputError(file: path, message: "this is Health Auto Export JSON, not an Apple Health export")
        }
    }

    /// Parses an export held in memory (tests, fixtures).
    @discardableResult
    public static func read(data: Data, name: String, into sink: SampleSink) throws -> ReadReport {
        var session = ParseSession(file: name, sink: sink, input: InputDescription(path: name, format: .appleXML, byteCount: Int64(data.count)))
        try data.withUnsafeBytes { try session.feed($0) }
        return try session.finish()
    }

    private func readXMLFile(into sink: SampleSink) throws -> ReadReport {
        guard let fh = FileHandle(forReadingAtPath: path) else { throw InputError(file: path, message: "cannot be opened for reading") }
        defer { try? fh.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        var session = ParseSession(file: path, sink: sink, input: InputDescription(path: path, format: .appleXML, byteCount: size))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        let fd = fh.fileDescriptor
        var done: Int64 = 0
        var lastReport: Int64 = 0
        while true {
            let n = Foundation.read(fd, buffer.baseAddress, chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, location: InputLocation(byteOffset: done), message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try session.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            done += Int64(n)
            if let progress, done - lastReport >= 16 << 20 {
                progress(done, size)
                lastReport = done
            }
        }
        progress?(done, size)
        return try session.finish()
    }

    private func readZip(into sink: SampleSink) throws -> ReadReport {
        let found = try ZipExportLocator.locate(path: path)
        let total = Int64(found.entry.uncompressedSize)
        var session = ParseSession(file: "\(path) (\(found.entry.path))", sink: sink,
                                   input: InputDescription(path: path, format: .appleZip, entry: found.entry.path, byteCount: total))
        // Inflate on a second thread; parse here. ZIPFoundation's own CRC falls back to a slow
        // Swift loop on Linux, so the CRC is computed with zlib's crc32 beside the inflate.
        let pipe = BoundedBatchQueue<Data>(capacity: 8)
        let expectedCRC = found.entry.checksum
        let chunk = chunkSize
        let entryPath = found.entry.path
        let file = path
        let producer = Thread {
            var crc: uLong = crc32(0, nil, 0)
            do {
                _ = try found.archive.extract(found.entry, bufferSize: chunk, skipCRC32: true) { data in
                    data.withUnsafeBytes { raw in
                        crc = crc32(crc, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count))
                    }
                    if !pipe.push([data]) { throw CancellationError() }
                }
                if UInt32(truncatingIfNeeded: crc) != expectedCRC {
                    pipe.close(error: InputError(file: file, message: "the ZIP entry \(entryPath) is corrupt (CRC mismatch)"))
                } else {
                    pipe.close()
                }
            } catch {
                pipe.close(error: InputError(file: file, message: "cannot inflate \(entryPath): \(error) (truncated or damaged ZIP?)"))
            }
        }
        producer.stackSize = 1 << 20
        producer.start()
        var done: Int64 = 0
        var lastReport: Int64 = 0
        do {
            while let batch = try pipe.popOrThrow(), let data = batch.first {
                try data.withUnsafeBytes { try session.feed($0) }
                done += Int64(data.count)
                if let progress, done - lastReport >= 16 << 20 {
                    progress(done, total)
                    lastReport = done
                }
            }
        } catch {
            pipe.discardAndClose()
            throw error
        }
        progress?(done, total)
        return try session.finish()
    }
}

/// One parse: the prolog filter in front of the SAX driver in front of the element handler.
struct ParseSession {
    let file: String
    let sink: SampleSink
    let input: InputDescription
    private var filter = PrologFilter()
    private let handler: ExportElementHandler
    private let driver: SAXDriver
    private var bytes: Int64 = 0

    init(file: String, sink: SampleSink, input: InputDescription) {
        self.file = file
        self.sink = sink
        self.input = input
        handler = ExportElementHandler(sink: sink)
        driver = SAXDriver(file: file, handler: handler)
        sink.begin(input)
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        bytes += Int64(chunk.count)
        let d = driver
        do {
            try filter.filter(chunk) { try d.feed($0) }
        } catch let f as PrologFilter.Failure {
            throw prologError(f)
        }
    }

    mutating func finish() throws -> ReadReport {
        let d = driver
        do {
            try filter.finish { try d.feed($0) }
        } catch let f as PrologFilter.Failure {
            throw prologError(f)
        }
        if bytes == 0 { throw InputError(file: file, message: "the file is empty") }
        try driver.finish()
        var report = handler.finalizeReport()
        report.bytesRead = bytes
        report.controlCharactersDropped = filter.controlCharactersDropped
        if filter.controlCharactersDropped > 0 {
            report.skips["control characters removed (not allowed in XML)"] = filter.controlCharactersDropped
        }
        sink.finish(input, report: report)
        return report
    }

    private func prologError(_ f: PrologFilter.Failure) -> InputError {
        switch f {
        case .unterminatedDoctype:
            return InputError(file: file, location: InputLocation(line: 2), message: "the <!DOCTYPE HealthData [ … ]> block never ends (no \"]>\"): the file is truncated or not an export")
        case .prologTooLong:
            return InputError(file: file, message: "no root element in the first 16 MiB: not an Apple Health export")
        }
    }
}
