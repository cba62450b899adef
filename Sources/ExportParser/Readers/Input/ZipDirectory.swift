#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The central directory of a ZIP archive, read with `pread` and checked against the file's size:
/// the list of entries and, for each, where its data is and how big it says it is.
///
/// Our own reader rather than ZIPFoundation's: the reader must stop on a damaged or hostile
/// archive, and ZIPFoundation 0.9.20's Linux inflate loops forever when the compressed data ends
/// before the deflate stream does (a truncated zip, or sizes that lie) and hands zlib a longer
/// input than it read. Nothing here ever turns an entry name into a path.
struct ZipDirectory {
    struct Entry {
        /// The name as stored (UTF-8, or CP437 read as UTF-8: only used for matching and messages).
        let name: String
        let flags: UInt16
        let method: UInt16
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
        let isDirectory: Bool
        let isSymlink: Bool

        var isEncrypted: Bool { flags & 0x0001 != 0 }
        /// A name that would climb out of a folder or start at the root if it were ever used as a
        /// path (it never is): such an entry is not taken as the export.
        var hasUnsafeName: Bool {
            name.hasPrefix("/") || name.hasPrefix("\\") || name.contains(":")
                || name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
        }
        /// The name with control characters replaced, fit to be printed in a message.
        var printableName: String { ZipDirectory.printable(name) }
    }

    let path: String
    let fileSize: UInt64
    let entries: [Entry]

    /// More entries than any export has (the Health app writes a few dozen plus ECG and route files).
    static let entryLimit = 1_000_000
    /// A central directory larger than this is not an export's (a million entries at 64 bytes).
    static let directoryLimit: UInt64 = 128 << 20

    struct Failure: Error {
        let offset: UInt64?
        let message: String

        /// The failure as the reader reports it for `file`: at its byte offset, when it has one.
        func inputError(file: String) -> InputError {
            InputError(file: file, location: offset.map { InputLocation(byteOffset: Int64($0)) }, message: message)
        }
    }

    /// Reads the directory of the archive open as `fd`.
    init(fd: Int32, path: String) throws {
        self.path = path
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(offset: nil, message: "cannot stat: \(String(cString: strerror(errno)))") }
        fileSize = UInt64(st.st_size)
        let (cdOffset, cdSize, count) = try Self.endRecord(fd: fd, fileSize: fileSize)
        guard cdSize <= Self.directoryLimit, count <= UInt64(Self.entryLimit) else {
            throw Failure(
                offset: cdOffset,
                message: "the ZIP central directory claims \(count) entries in \(cdSize) bytes, more than an export can have")
        }
        guard cdOffset <= fileSize, cdSize <= fileSize - cdOffset else {
            throw Failure(
                offset: cdOffset,
                message: "the ZIP central directory lies outside the file (the archive is truncated or damaged; is the download complete?)")
        }
        let cd = try Self.read(fd: fd, at: cdOffset, count: Int(cdSize))
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var p = 0
        while entries.count < Int(count) {
            let at = cdOffset + UInt64(p)
            guard p + 46 <= cd.count, cd.u32(p) == 0x0201_4B50 else {
                throw Failure(
                    offset: at, message: "the ZIP central directory is damaged (entry \(entries.count + 1) of \(count) has no valid header)"
                )
            }
            let nameLength = Int(cd.u16(p + 28)), extraLength = Int(cd.u16(p + 30)), commentLength = Int(cd.u16(p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= cd.count else {
                throw Failure(offset: at, message: "the ZIP central directory is damaged (entry \(entries.count + 1) runs past its end)")
            }
            let name = String(decoding: cd[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            var compressed = UInt64(cd.u32(p + 20)), uncompressed = UInt64(cd.u32(p + 24)), local = UInt64(cd.u32(p + 42))
            // ZIP64: the fields saturated at 0xFFFFFFFF are in the extra field 0x0001, in this order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = cd.u16(e), size = Int(cd.u16(e + 2))
                guard e + 4 + size <= extraEnd else { break }
                if id == 0x0001 {
                    var q = e + 4
                    let end = e + 4 + size
                    func next(_ v: inout UInt64) {
                        guard v == 0xFFFF_FFFF, q + 8 <= end else { return }
                        v = cd.u64(q)
                        q += 8
                    }
                    next(&uncompressed)
                    next(&compressed)
                    next(&local)
                }
                e += 4 + size
            }
            let unixMode = cd.u32(p + 38) >> 16
            entries.append(
                Entry(
                    name: name, flags: cd.u16(p + 8), method: cd.u16(p + 10), crc32: cd.u32(p + 16),
                    compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local,
                    isDirectory: name.hasSuffix("/") || unixMode & 0xF000 == 0x4000,
                    isSymlink: unixMode & 0xF000 == 0xA000))
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// Finds the end-of-central-directory record (and its ZIP64 twin when the classic one is
    /// saturated): where the directory starts, its size and its entry count.
    private static func endRecord(fd: Int32, fileSize: UInt64) throws -> (offset: UInt64, size: UInt64, count: UInt64) {
        // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
        let tailLength = Int(min(fileSize, 22 + 65_535))
        let tailStart = fileSize - UInt64(tailLength)
        let tail = try read(fd: fd, at: tailStart, count: tailLength)
        var i = tail.count - 22
        while i >= 0, tail.u32(i) != 0x0605_4B50 { i -= 1 }
        guard i >= 0 else {
            throw Failure(
                offset: nil,
                message: "not a complete ZIP archive: no end-of-central-directory record (the download is truncated or the file is damaged)"
            )
        }
        var count = UInt64(tail.u16(i + 10)), size = UInt64(tail.u32(i + 12)), offset = UInt64(tail.u32(i + 16))
        guard count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF else { return (offset, size, count) }
        // ZIP64: a 20-byte locator just before the record points at the ZIP64 end record.
        let locatorAt = tailStart + UInt64(i)
        guard locatorAt >= 20 else { return (offset, size, count) }
        let locator = try read(fd: fd, at: locatorAt - 20, count: 20)
        guard locator.u32(0) == 0x0706_4B50 else { return (offset, size, count) }
        let recordAt = locator.u64(8)
        guard recordAt <= fileSize, fileSize - recordAt >= 56 else {
            throw Failure(
                offset: locatorAt - 20, message: "the ZIP64 end record lies outside the file (the archive is truncated or damaged)")
        }
        let record = try read(fd: fd, at: recordAt, count: 56)
        guard record.u32(0) == 0x0606_4B50 else {
            throw Failure(offset: recordAt, message: "the ZIP64 end record is damaged")
        }
        count = record.u64(32)
        size = record.u64(40)
        offset = record.u64(48)
        return (offset, size, count)
    }

    /// Exactly `count` bytes at `offset`, or a failure saying the file ends first.
    static func read(fd: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let done: Int
        do {
            done = try POSIXFile.fill(&out, from: fd, at: Int64(offset))
        } catch {
            throw Failure(offset: offset + UInt64(error.done), message: "read failed: \(error.reason)")
        }
        guard done == count else {
            throw Failure(
                offset: offset + UInt64(done),
                message: "the file ends in the middle of the ZIP structures (truncated archive; is the download complete?)")
        }
        return out
    }

    /// `s` with control characters (which could move a terminal's cursor) shown as `?`.
    static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "?" : $0 }))
    }
}

extension [UInt8] {
    /// Little-endian fields of ZIP structures; callers have checked the bounds.
    func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
