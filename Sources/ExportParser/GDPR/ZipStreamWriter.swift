import CZlibSystem
import Foundation

/// A zip archive written front to back as its entries are made: each entry's local header,
/// its deflated bytes as they come, then a data descriptor with its CRC-32 and sizes (general
/// purpose flag bit 3), so nothing is held in memory, staged in a temporary folder or written
/// twice. The central directory goes at the end. ZIP64 fields are used only where a size, an
/// offset or the entry count outgrows the classic fields: the data descriptor of an entry over
/// 4 GiB has 8-byte sizes, and the central directory and end record take the ZIP64 forms
/// (APPNOTE 6.3.10, 4.3.9 and 4.5.3), as Java's and Go's streaming writers do. Readers that
/// use the central directory (unzip, Python's zipfile, 7-Zip, macOS Archive Utility) read it.
///
/// Entries are 0600 regular files (Unix external attributes), names UTF-8 (flag bit 11).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the zlib boundary. The
/// `z_stream` and the output buffer are owned by this object (allocated in `init`, freed in
/// `deinit`); `next_in` points into the chunk being written only while `compress` runs, and
/// `next_out`/`avail_out` never pass the output buffer.
final class ZipStreamWriter: ExportDestination, ExportFileSink {
    private struct Entry {
        let name: [UInt8]
        let crc: UInt32
        let compressed: UInt64
        let uncompressed: UInt64
        let offset: UInt64
    }

    let path: String
    private let temporary: String
    private var fd: Int32
    /// Bytes written to the archive so far: the next record's offset.
    private var offset: UInt64 = 0
    private var entries: [Entry] = []
    private let stream: UnsafeMutablePointer<z_stream>
    private var streamOpen = false
    private let outCapacity = 1 << 18
    private let outBuffer: UnsafeMutablePointer<UInt8>
    private var name: [UInt8] = []
    private var entryOffset: UInt64 = 0
    private var crc: uLong = 0
    private var uncompressed: UInt64 = 0
    private var compressed: UInt64 = 0
    private let header = ExportBytes(capacity: 1024)
    private let dosTime: UInt16
    private let dosDate: UInt16
    /// From this value on, a size or offset goes in a ZIP64 field (and from this count on, the
    /// entry count): the classic fields' limits. Tests lower them to check the ZIP64 forms.
    let sizeLimit: UInt64
    let countLimit: Int
    /// zlib's fastest level: the export is text that deflates to about a fifth at any level, and
    /// the higher levels cost three times the time for a few percent.
    static let level: Int32 = 1

    init(_ path: String, date: Date = Date(), sizeLimit: UInt64 = 0xFFFF_FFFF, countLimit: Int = 0xFFFF) throws {
        self.path = path
        self.sizeLimit = sizeLimit
        self.countLimit = countLimit
        temporary = ExportPaths.temporary(for: path)
        unlink(temporary)
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutputError(file: path, message: "cannot create the zip: \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        outBuffer = .allocate(capacity: outCapacity)
        (dosTime, dosDate) = Self.dosDateTime(date)
    }

    deinit {
        discard()
        if streamOpen { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        outBuffer.deallocate()
    }

    /// Entries go one after the other: `begin` returns the archive itself, whose `end` closes the entry.
    var writesFilesAtOnce: Bool { false }

    func begin(_ name: String) throws -> ExportFileSink {
        precondition(!streamOpen, "one zip entry at a time")
        self.name = Array(name.utf8)
        entryOffset = offset
        crc = crc32(0, nil, 0)
        uncompressed = 0
        compressed = 0
        guard
            deflateInit2_(
                stream, Self.level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw OutputError(file: path, message: "cannot start compressing \(name) (zlib)")
        }
        streamOpen = true
        header.clear()
        header.le32(0x0403_4B50)
        header.le16(20)  // version needed: deflate
        header.le16(Self.flags)
        header.le16(8)  // deflate
        header.le16(dosTime)
        header.le16(dosDate)
        header.le32(0)  // CRC-32 and sizes follow in the data descriptor
        header.le32(0)
        header.le32(0)
        header.le16(UInt16(self.name.count))
        header.le16(0)
        header.append(self.name)
        try put(header.bytes)
        return self
    }

    func write(_ chunk: ExportBytes) throws {
        try chunk.withUnsafeBytes { try compress($0) }
    }

    /// Adds `bytes` to the open entry's CRC and sizes and feeds them to zlib.
    private func compress(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crc = crc32(crc, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
        uncompressed += UInt64(bytes.count)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        try pump(flush: Z_NO_FLUSH)
    }

    func end() throws {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try pump(flush: Z_FINISH)
        deflateEnd(stream)
        streamOpen = false
        let crc32 = UInt32(truncatingIfNeeded: crc)
        let large = compressed >= sizeLimit || uncompressed >= sizeLimit
        header.clear()
        header.le32(0x0807_4B50)
        header.le32(crc32)
        if large {
            header.le64(compressed)
            header.le64(uncompressed)
        } else {
            header.le32(UInt32(compressed))
            header.le32(UInt32(uncompressed))
        }
        try put(header.bytes)
        entries.append(Entry(name: name, crc: crc32, compressed: compressed, uncompressed: uncompressed, offset: entryOffset))
    }

    /// Writes the central directory and the end records, then moves the archive into place.
    func finish() throws {
        let directoryStart = offset
        for e in entries {
            header.clear()
            let zip64 = ExportBytes(capacity: 32)
            let bigUncompressed = e.uncompressed >= sizeLimit, bigCompressed = e.compressed >= sizeLimit, bigOffset = e.offset >= sizeLimit
            // The ZIP64 extra holds exactly the saturated fields, in this order (APPNOTE 4.5.3).
            if bigUncompressed { zip64.le64(e.uncompressed) }
            if bigCompressed { zip64.le64(e.compressed) }
            if bigOffset { zip64.le64(e.offset) }
            let needsZip64 = zip64.count > 0
            header.le32(0x0201_4B50)
            header.le16(3 << 8 | 45)  // made by: Unix, spec 4.5
            header.le16(needsZip64 ? 45 : 20)
            header.le16(Self.flags)
            header.le16(8)
            header.le16(dosTime)
            header.le16(dosDate)
            header.le32(e.crc)
            header.le32(bigCompressed ? 0xFFFF_FFFF : UInt32(e.compressed))
            header.le32(bigUncompressed ? 0xFFFF_FFFF : UInt32(e.uncompressed))
            header.le16(UInt16(e.name.count))
            header.le16(needsZip64 ? UInt16(4 + zip64.count) : 0)
            header.le16(0)  // comment
            header.le16(0)  // disk
            header.le16(0)  // internal attributes
            header.le32(UInt32(0o100600) << 16)  // a regular file, rw-------
            header.le32(bigOffset ? 0xFFFF_FFFF : UInt32(e.offset))
            header.append(e.name)
            if needsZip64 {
                header.le16(0x0001)
                header.le16(UInt16(zip64.count))
                header.append(Array(zip64.bytes))
            }
            try put(header.bytes)
        }
        let directorySize = offset - directoryStart
        header.clear()
        let count = UInt64(entries.count)
        if entries.count >= countLimit || directorySize >= sizeLimit || directoryStart >= sizeLimit {
            let recordAt = offset
            header.le32(0x0606_4B50)
            header.le64(44)  // the record's size after this field
            header.le16(3 << 8 | 45)
            header.le16(45)
            header.le32(0)
            header.le32(0)
            header.le64(count)
            header.le64(count)
            header.le64(directorySize)
            header.le64(directoryStart)
            header.le32(0x0706_4B50)  // the locator
            header.le32(0)
            header.le64(recordAt)
            header.le32(1)
        }
        header.le32(0x0605_4B50)
        header.le16(0)
        header.le16(0)
        header.le16(entries.count >= countLimit ? 0xFFFF : UInt16(count))
        header.le16(entries.count >= countLimit ? 0xFFFF : UInt16(count))
        header.le32(directorySize >= sizeLimit ? 0xFFFF_FFFF : UInt32(directorySize))
        header.le32(directoryStart >= sizeLimit ? 0xFFFF_FFFF : UInt32(directoryStart))
        header.le16(0)
        try put(header.bytes)
        let rc = close(fd)
        fd = -1
        guard rc == 0 else { throw OutputError(file: path, message: "write failed: \(String(cString: strerror(errno)))") }
        try ExportPaths.moveIntoPlace(temporary, path)
    }

    func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporary)
    }

    /// UTF-8 names (bit 11); CRC-32 and sizes in a data descriptor after the data (bit 3).
    private static let flags: UInt16 = 0x0808

    /// Runs deflate until it has taken all input (or, finishing, written everything), writing
    /// what it makes.
    private func pump(flush: Int32) throws {
        while true {
            stream.pointee.next_out = outBuffer
            stream.pointee.avail_out = uInt(outCapacity)
            let rc = deflate(stream, flush)
            guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                throw OutputError(file: path, message: "compressing failed (zlib \(rc))")
            }
            let made = outCapacity - Int(stream.pointee.avail_out)
            if made > 0 {
                compressed += UInt64(made)
                try put(UnsafeRawBufferPointer(start: outBuffer, count: made))
            }
            if flush == Z_FINISH ? rc == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
        }
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        try OutputFiles.writeAll(fd, bytes, path: path)
        offset += UInt64(bytes.count)
    }

    /// MS-DOS time and date fields (local time, 2-second resolution, from 1980).
    static func dosDateTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var t = time_t(date.timeIntervalSince1970)
        var tm = tm()
        localtime_r(&t, &tm)
        let year = max(Int(tm.tm_year) + 1900, 1980)
        let time = UInt16(tm.tm_hour) << 11 | UInt16(tm.tm_min) << 5 | UInt16(tm.tm_sec / 2)
        let day = UInt16(year - 1980) << 9 | UInt16(tm.tm_mon + 1) << 5 | UInt16(tm.tm_mday)
        return (time, day)
    }
}

extension ExportBytes {
    /// Little-endian fields of zip records.
    func le16(_ v: UInt16) {
        append(UInt8(v & 0xFF))
        append(UInt8(v >> 8))
    }

    func le32(_ v: UInt32) {
        le16(UInt16(v & 0xFFFF))
        le16(UInt16(v >> 16))
    }

    func le64(_ v: UInt64) {
        le32(UInt32(v & 0xFFFF_FFFF))
        le32(UInt32(v >> 32))
    }
}
