import Foundation

/// Reads Apple Health's own export, `export.xml` or straight from the XML entry of
/// `export.zip` (never extracted to disk), and streams it into a `SampleSink`.
///
/// Memory is constant: bytes go through in chunks of `chunkSize`, libxml2 keeps only its small
/// window, and the handler keeps only the element being read.
struct AppleExportReader {
    let path: String
    /// 256 KiB: the chunk and libxml2's window stay in L2 cache (1 MiB measured slower).
    var chunkSize = 256 << 10
    /// Called now and then with (bytes parsed, total bytes if known).
    var progress: ((Int64, Int64?) -> Void)?
    /// Threads that parse export.xml (`--threads`): 1 is the sequential `SAXDriver`; more run
    /// `ParallelSAXDriver` with that many parsing workers.
    var threads = ParseThreads.count
    /// Bytes per chunk of the parallel read (see `ParseThreads.chunkBytes`).
    var parallelChunkBytes = ParseThreads.chunkBytes
    /// The window read (`ExportWindow`): with more than one thread, only the top-level elements
    /// that can reach these dates are parsed; nil reads everything.
    var window: ExportWindow?
    /// The window read of export.xml maps the file instead of reading it (`MappedFile`); tests
    /// turn it off to compare the two.
    var mapsFile = true

    /// `compare`'s window read of a mapped export.xml (the one with a census) cuts chunks this
    /// many times the default `parallelChunkBytes` (2 MiB; a size set by hand, as tests set tiny
    /// ones so that cuts fall everywhere, is taken as it is). A full read's chunk size bounds the
    /// bytes and tapes held in flight; a window read keeps a sliver of each chunk, and the mapped
    /// pages behind it are dropped as the read passes (`MappedFile.release`), so what a chunk
    /// costs it is mostly its hand-overs: the queues' and semaphores' wake-ups from core to
    /// core, the kernel's work per chunk, which compare (its HAE side's threads beside the
    /// export's) pays more for than explain. Four times fewer chunks: compare of the 3 GB export
    /// 1.38–1.46 → 1.30–1.36 s, system time 0.33–0.48 → 0.28–0.36 s, peak 84–85 → 90–92 MB
    /// (eight times: 1.27–1.34 s at 103–107 MB). explain keeps 512 KiB: it meets its goal, and
    /// there the same change gained less (1.03–1.09 → 0.95–1.11 s) for 16 MB more (61 → 77–79).
    static let censusChunkScale = 4

    init(path: String) { self.path = path }

    /// Streams the export into `sink`. Throws `InputError` for fatal problems (malformed or
    /// truncated XML, a zip without an export, unreadable file); record-level problems are
    /// counted in the returned report.
    @discardableResult
    func read(into sink: SampleSink) throws -> ReadReport {
        let format = try InputDetector.detect(path: path)
        switch format {
        case .appleXML: return try readXMLFile(into: sink)
        case .appleZip: return try readZip(into: sink)
        case .hae: throw InputError(file: path, message: "this is Health Auto Export JSON, not an Apple Health export")
        }
    }

    /// Parses an export held in memory (tests, fixtures).
    @discardableResult
    static func read(
        data: Data, name: String, into sink: SampleSink, threads: Int = 1, chunkBytes: Int = ParseThreads.defaultChunkBytes,
        window: ExportWindow? = nil
    ) throws -> ReadReport {
        var session = ParseSession(
            file: name, sink: sink, input: InputDescription(path: name, format: .appleXML, byteCount: Int64(data.count)),
            threads: threads, chunkBytes: chunkBytes, window: window)
        try session.feed(data)
        return try session.finish()
    }

    private func readXMLFile(into sink: SampleSink) throws -> ReadReport {
        let fd = try InputFile.openRegular(path: path)
        defer { close(fd) }
        var st = stat()
        let size: Int64? = fstat(fd, &st) == 0 ? Int64(st.st_size) : nil
        var session = ParseSession(
            file: path, sink: sink, input: InputDescription(path: path, format: .appleXML, byteCount: size), threads: threads,
            chunkBytes: window?.census != nil && mapsFile && parallelChunkBytes == ParseThreads.defaultChunkBytes
                ? parallelChunkBytes * Self.censusChunkScale : parallelChunkBytes,
            window: window, mapsFile: mapsFile, progress: progress)
        while true {
            let n: Int
            do {
                n = try session.feed(reading: fd, upTo: chunkSize)
            } catch let error as POSIXFile.Failure {
                try session.settle()
                throw InputError(
                    file: path, location: InputLocation(byteOffset: session.bytesFed + Int64(error.done)),
                    message: "read failed: \(error.reason)")
            }
            if n == 0 { break }
        }
        return try session.finish()
    }

    private func readZip(into sink: SampleSink) throws -> ReadReport {
        let found = try ZipExportLocator.locate(path: path)
        // The descriptor is closed only once the inflating thread has stopped using it.
        let inflated = DispatchSemaphore(value: 0)
        var started = false
        defer {
            if started { inflated.wait() }
            close(found.fd)
        }
        let total = Int64(found.entry.uncompressedSize)
        let entryName = found.entry.printableName
        var session = ParseSession(
            file: "\(path) (\(entryName))", sink: sink,
            input: InputDescription(path: path, format: .appleZip, entry: found.entry.name, byteCount: total), threads: threads,
            chunkBytes: parallelChunkBytes, window: window, progress: progress)
        var stream = ZipEntryStream(fd: found.fd, entry: found.entry, fileSize: found.fileSize)
        stream.chunkSize = chunkSize
        if threads > 1 {
            return try readZipInline(stream, session: &session)
        }
        // Inflate on a second thread; parse here.
        let pipe = BoundedBatchQueue<Data>(capacity: 8)
        let file = path
        NamedThread.start("zip inflater", stackSize: 1 << 20) { [stream] in
            do {
                try stream.read { chunk in
                    if !pipe.push([Data(chunk)]) { throw CancellationError() }
                }
                pipe.close()
            } catch let f as ZipDirectory.Failure {
                pipe.close(error: f.inputError(file: file))
            } catch {
                pipe.close(error: error)
            }
            inflated.signal()
        }
        started = true
        do {
            while let batch = try pipe.popOrThrow(), let data = batch.first {
                try session.feed(data)
            }
        } catch {
            pipe.discardAndClose()
            try session.settle()  // an XML error before the zip's own comes first
            throw error
        }
        return try session.finish()
    }
}

extension AppleExportReader {
    /// The zip of a parallel read, inflated on the reading thread itself: its parsing workers and
    /// player keep both cores busy, so an inflating thread would add its hand-over (a copy of
    /// every byte into a new buffer, a queue) and no overlap (docs/export-xml.md, "Inflating the
    /// zip").
    fileprivate func readZipInline(_ stream: ZipEntryStream, session: inout ParseSession) throws -> ReadReport {
        do {
            try stream.read { try session.feed($0) }
        } catch let f as ZipDirectory.Failure {
            try session.settle()  // an XML error before the zip's own comes first
            throw f.inputError(file: path)
        } catch {
            try session.settle()
            throw error
        }
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
    private let driver: ExportParse
    /// Bytes of the input fed so far.
    private(set) var bytesFed: Int64 = 0
    /// Told (bytes fed, the input's size) every 16 MiB and once at the end.
    private let progress: ((Int64, Int64?) -> Void)?
    private var lastReport: Int64 = 0
    /// What `feed(reading:upTo:)` reads into when the bytes cannot go straight into a chunk.
    private var readBuffer: [UInt8] = []
    /// The window read maps export.xml once the prolog is behind (`ParallelSAXDriver.startMapping`):
    /// not tried yet, and the map while it is fed.
    private var mapsFile: Bool
    private var mapping: MappedFile?
    private var bytesMapped: Int64 = 0

    init(
        file: String, sink: SampleSink, input: InputDescription, threads: Int = 1, chunkBytes: Int = ParseThreads.defaultChunkBytes,
        window: ExportWindow? = nil, mapsFile: Bool = false, progress: ((Int64, Int64?) -> Void)? = nil
    ) {
        self.file = file
        self.mapsFile = mapsFile && window != nil && threads > 1
        self.sink = sink
        self.input = input
        self.progress = progress
        handler = ExportElementHandler(sink: sink)
        if threads > 1 {
            driver = ParallelSAXDriver(file: file, handler: handler, workers: threads, chunkBytes: chunkBytes, window: window)
            // The window read's workers test the control bytes of what they keep, not this thread.
            filter.checksBody = window == nil
        } else {
            driver = SAXDriver(file: file, handler: handler)
        }
        sink.begin(input)
    }

    /// The input stops early: throws the first XML error in what was fed, if there is one.
    func settle() throws { try driver.settle() }

    mutating func feed(_ chunk: some ContiguousBytes & Collection) throws {
        bytesFed += Int64(chunk.count)
        let d = driver
        do {
            try filter.filter(chunk) { try d.feed($0) }
        } catch let f as PrologFilter.Failure {
            try d.settle()
            throw prologError(f)
        }
        reportProgress()
    }

    /// Reads up to `count` bytes of `fd` into the parse and returns how many (0 at the end of the
    /// file); a failed read throws `POSIXFile.Failure`, its bytes not fed. Once the prolog is
    /// behind, the parallel read takes them straight into its chunk buffer (one copy, the
    /// kernel's); otherwise they go through a buffer of this session and `feed`.
    mutating func feed(reading fd: Int32, upTo count: Int) throws -> Int {
        let n: Int
        if filter.inBody, let parallel = driver as? ParallelSAXDriver, let mapped = try feed(mapping: fd, into: parallel, upTo: count) {
            return mapped
        }
        if filter.inBody, let parallel = driver as? ParallelSAXDriver {
            do {
                n = try parallel.feed(reading: fd, upTo: count, filter: &filter)
            } catch let f as PrologFilter.Failure {
                try parallel.settle()
                throw prologError(f)
            }
            bytesFed += Int64(n)
            reportProgress()
            return n
        }
        if readBuffer.count != count { readBuffer = [UInt8](repeating: 0, count: count) }
        n = try POSIXFile.fill(&readBuffer, from: fd)
        if n > 0 { try feed(readBuffer[..<n]) }
        return n
    }

    /// The window read from the map of `fd`, up to `count` bytes of it a call (the bytes held
    /// grow as reading would, and so cut as the read does); nil when the map is not (or no more)
    /// in use: once its end is reached, bytes the file gained since are read after it.
    private mutating func feed(mapping fd: Int32, into parallel: ParallelSAXDriver, upTo count: Int) throws -> Int? {
        if mapsFile, parallel.canMap {
            mapsFile = false
            if let file = MappedFile(fd: fd), parallel.startMapping(file, at: Int(bytesFed)) { mapping = file }
        }
        guard let file = mapping else { return nil }
        let end = min(file.count, Int(bytesFed) + count)
        guard end > bytesFed else {
            // The map's end: bytes the file gained since it was made are read after it (a
            // descriptor that cannot seek there ends the read with the map).
            mapping = nil
            parallel.endMapping()
            return lseek(fd, off_t(file.count), SEEK_SET) < 0 ? 0 : nil
        }
        try parallel.feed(mappedThrough: end)
        let n = end - Int(bytesFed)
        bytesFed = Int64(end)
        bytesMapped += Int64(n)
        reportProgress()
        return n
    }

    private mutating func reportProgress() {
        if let progress, bytesFed - lastReport >= 16 << 20 {
            progress(bytesFed, input.byteCount)
            lastReport = bytesFed
        }
    }

    mutating func finish() throws -> ReadReport {
        progress?(bytesFed, input.byteCount)
        let d = driver
        do {
            try filter.finish { try d.feed($0) }
        } catch let f as PrologFilter.Failure {
            try d.settle()
            throw prologError(f)
        }
        if bytesFed == 0 { throw InputError(file: file, message: "the file is empty") }
        try driver.finish()
        var report = handler.finalizeReport()
        report.bytesRead = bytesFed
        report.bytesMapped = bytesMapped
        let dropped = filter.controlCharactersDropped + ((driver as? ParallelSAXDriver)?.controlCharactersDropped ?? 0)
        report.controlCharactersDropped = dropped
        if dropped > 0 { report.skips["control characters removed (not allowed in XML)"] = dropped }
        sink.finish(input, report: report)
        return report
    }

    private func prologError(_ f: PrologFilter.Failure) -> InputError {
        switch f {
        case .unterminatedDoctype:
            return InputError(
                file: file, location: InputLocation(line: 2),
                message: "the <!DOCTYPE HealthData [ … ]> block never ends (no \"]>\"): the file is truncated or not an export")
        case .prologTooLong:
            return InputError(file: file, message: "no root element in the first 16 MiB: not an Apple Health export")
        case .externalDTD(let line):
            return InputError(
                file: file, location: InputLocation(line: line),
                message:
                    "the DOCTYPE refers to an external DTD (SYSTEM or PUBLIC); Apple Health exports carry their DTD inline, and health-import never fetches one: not an export"
            )
        case .entityDeclared(let line):
            return InputError(
                file: file, location: InputLocation(line: line),
                message:
                    "the DOCTYPE declares an entity (<!ENTITY); Apple Health exports declare none, and health-import never expands one: not an export"
            )
        case .nulByte(let offset):
            return InputError(
                file: file, location: InputLocation(byteOffset: offset),
                message: "a NUL byte: XML text never holds one, so the file is damaged (zero-filled by a failed copy?) or not an export")
        }
    }
}
