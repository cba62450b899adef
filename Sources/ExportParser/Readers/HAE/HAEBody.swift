import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One Health Auto Export JSON document: a whole file, or one line of a JSON Lines file of
/// bodies (what a backend that keeps HAE's REST POSTs dumps, one request body a line).
///
/// HAE's REST automation POSTs a body several times a day, and the bodies overlap (docs/hae.md,
/// "Several bodies"): the bodies of a run are read one after another into one `HAEBodyMerger`.
struct HAEBody: Sendable, Equatable {
    var path: String
    /// The line's bytes, for a line of a JSON Lines file; nil for a whole file.
    var range: Range<Int64>?
    /// The line's number (1-based), for messages.
    var line: Int?

    /// Where the body is, for messages: the path, and the line when it is one.
    var label: String { line.map { "\(path) line \($0)" } ?? path }

    /// The bodies `paths` hold, in order: a folder's regular files whose content is JSON (by
    /// name, hidden files left out; a folder inside is not entered), a JSON Lines file's
    /// non-blank lines, any other file whole.
    static func list(_ paths: [String]) throws -> [HAEBody] {
        var out: [HAEBody] = []
        for path in paths {
            if isDirectory(path) {
                let names = try folderFiles(path)
                guard !names.isEmpty else {
                    throw InputError(
                        file: path,
                        message:
                            "is a folder without Health Auto Export JSON files (.json, .jsonl or .ndjson): a folder is read as HAE bodies; give an export.zip or export.xml itself, not the folder it is in"
                    )
                }
                for name in names { out += try bodies(of: path + "/" + name) }
            } else {
                out += try bodies(of: path)
            }
        }
        return out
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A folder's `.json` / `.jsonl` / `.ndjson` files, by name (the order HAE's file names and a
    /// backend's time-stamped names sort in).
    static func folderFiles(_ dir: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw InputError(file: dir, message: "the folder cannot be listed")
        }
        return names.filter { n in
            !n.hasPrefix(".") && [".json", ".jsonl", ".ndjson"].contains { n.lowercased().hasSuffix($0) } && !isDirectory(dir + "/" + n)
        }.sorted()
    }

    /// A file whole, or its lines when it is JSON Lines.
    static func bodies(of path: String) throws -> [HAEBody] {
        guard let lines = try jsonLines(path) else { return [HAEBody(path: path)] }
        return lines.map { HAEBody(path: path, range: $0.range, line: $0.line) }
    }

    /// The non-blank lines of `path` when it is JSON Lines, nil when it is one JSON document.
    ///
    /// JSON text holds no raw line end inside a string, so a file is JSON Lines when its first
    /// line is a whole JSON value and something other than white space follows it. A
    /// pretty-printed document's first line (`{`) is no whole value, and a compact one-line
    /// document has nothing after its line: both are read whole, as before, after reading only
    /// up to their first line end (for a compact document that is the file, with `memchr`).
    static func jsonLines(_ path: String) throws -> [(range: Range<Int64>, line: Int)]? {
        let fd = try InputFile.openRegular(path: path)
        defer { close(fd) }
        let scanner = LineScanner(fd: fd, path: path)
        guard let firstEnd = try scanner.nextLineEnd(from: 0) else { return nil }
        if try scanner.isBlank(firstEnd..<scanner.size) { return nil }
        var first = WholeValue()
        var offset: Int64 = 0
        while offset < firstEnd, !first.failed {
            first.feed(try scanner.bytes(offset..<Swift.min(firstEnd, offset + Int64(LineScanner.chunk))))
            offset += Int64(LineScanner.chunk)
        }
        guard first.isWhole else { return nil }
        var lines: [(range: Range<Int64>, line: Int)] = []
        var start: Int64 = 0
        for (i, end) in (try scanner.lineEnds() + [scanner.size]).enumerated() where end >= start {
            if try !scanner.isBlank(start..<end) { lines.append((start..<end, i + 1)) }
            start = end + 1
        }
        return lines.count > 1 ? lines : nil
    }
}

/// Whether bytes fed in pieces hold exactly one complete JSON object or array (and white
/// space): the depth counted outside strings; nothing but white space may follow it.
struct WholeValue {
    private var depth = 0, inString = false, escaped = false, closed = false, opened = false
    private(set) var failed = false
    var isWhole: Bool { closed && !inString && !failed }

    mutating func feed(_ bytes: [UInt8]) {
        for b in bytes where !failed {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0xEF, 0xBB, 0xBF: continue
            case _ where closed: failed = true
            case UInt8(ascii: "\""):
                if !opened { failed = true }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                opened = true
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { failed = true }
                if depth == 0 { closed = true }
            default:
                if !opened { failed = true }
            }
        }
    }
}

/// Finds line ends in a file with `pread` and `memchr`, 1 MiB at a time.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): only the line scan's
/// `memchr`, inside `withUnsafeBytes` of its own buffer and bounded by the bytes read; a hot scan
/// over the whole file. Reads go through `POSIXFile`.
private struct LineScanner {
    let fd: Int32
    let path: String
    let size: Int64
    static let chunk = 1 << 20

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        var st = stat()
        size = fstat(fd, &st) == 0 ? Int64(st.st_size) : 0
    }

    /// The offset of the first `\n` at or after `from`, nil when there is none.
    func nextLineEnd(from: Int64) throws -> Int64? {
        var found: Int64?
        try scan(from: from) { offset in
            found = offset
            return false
        }
        return found
    }

    /// The offsets of every `\n`, in one pass.
    func lineEnds() throws -> [Int64] {
        var ends: [Int64] = []
        try scan(from: 0) { offset in
            ends.append(offset)
            return true
        }
        return ends
    }

    /// Calls `body` with the offset of each `\n` from `from` on, until it returns false.
    private func scan(from: Int64, _ body: (Int64) -> Bool) throws {
        var offset = from
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        while offset < size {
            let n = try read(&buffer, at: offset)
            if n == 0 { return }
            var i = 0
            while i < n {
                // memchr: this scan runs over the whole file, a line at a time (a hot byte scan).
                let next = buffer.withUnsafeBytes { raw -> Int? in
                    guard let hit = memchr(raw.baseAddress! + i, 0x0A, n - i) else { return nil }
                    return raw.baseAddress!.distance(to: UnsafeRawPointer(hit))
                }
                guard let next else { break }
                if !body(offset + Int64(next)) { return }
                i = next + 1
            }
            offset += Int64(n)
        }
    }

    func bytes(_ range: Range<Int64>) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Int(range.count))
        let done: Int
        do {
            done = try POSIXFile.fill(&buffer, from: fd, at: range.lowerBound)
        } catch {
            throw InputError(file: path, location: InputLocation(byteOffset: range.lowerBound + Int64(error.done)), message: "read failed")
        }
        guard done == buffer.count else {
            throw InputError(file: path, location: InputLocation(byteOffset: range.lowerBound + Int64(done)), message: "read failed")
        }
        return buffer
    }

    /// Whether the bytes hold only white space (checked a chunk at a time).
    func isBlank(_ range: Range<Int64>) throws -> Bool {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let piece = try bytes(offset..<Swift.min(range.upperBound, offset + 4096))
            if piece.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }) { return false }
            offset += Int64(piece.count)
        }
        return true
    }

    private func read(_ buffer: inout [UInt8], at offset: Int64) throws -> Int {
        do {
            return try POSIXFile.fill(&buffer, from: fd, at: offset)
        } catch {
            throw InputError(file: path, location: InputLocation(byteOffset: offset), message: "read failed: \(error.reason)")
        }
    }
}
