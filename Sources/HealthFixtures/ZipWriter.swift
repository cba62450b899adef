import CZlibSystem
import ExportParser
import Foundation

/// A ZIP archive as the Health app's share sheet makes it: deflated entries (zlib, raw deflate),
/// UTF-8 names, a central directory. It is written to its file as it goes: an entry's data is
/// deflated piece by piece (a `--scale` export.xml is read back from its file a megabyte at a
/// time), and its local header, written first, gets the checksum and sizes afterwards. Entries
/// and archives over 4 GiB (ZIP64) are not written: `FixtureRequest` keeps fixtures below that.
/// The time stamp is the export's, so the same fixture gives the same bytes.
///
/// Unsafe code, at zlib's boundary: `z_stream`'s `next_in`/`next_out` and `crc32`'s argument
/// point into a buffer lent by `withUnsafe(Mutable)Bytes` (or the caller's piece) for the calls
/// made inside that closure, with the buffer's count as the length; nothing reads them after it
/// returns (the next piece sets them again). Files are read through `POSIXFile`.
final class ZipWriter {
    private let out: OutputFiles.Staged
    private var central: [UInt8] = []
    private var count = 0
    let dosTime: UInt16
    let dosDate: UInt16

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates the archive at `path` (under a temporary name until `finish`); the time stamp is
    /// the export's local wall time as y, m, d, h, min, s.
    init(path: String, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws {
        out = try OutputFiles.Staged(path)
        dosTime = UInt16(hour << 11 | minute << 5 | second / 2)
        dosDate = UInt16((year - 1980) << 9 | month << 5 | day)
    }

    private static func le16(_ v: UInt16, into b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32, into b: inout [UInt8]) { for i in 0..<4 { b.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }

    /// One entry being deflated.
    private struct Entry {
        var stream = z_stream()
        var crc = crc32(0, nil, 0)
        var size: Int64 = 0
        var packed: Int64 = 0
    }

    private static let outputSize = 1 << 18

    /// The fields local header and central directory share.
    private func common(crc: UInt32, packed: UInt32, size: UInt32, name: [UInt8]) -> [UInt8] {
        var b: [UInt8] = []
        Self.le16(20, into: &b)  // version needed: 2.0 (deflate)
        Self.le16(0x0800, into: &b)  // names are UTF-8 (导出.xml)
        Self.le16(8, into: &b)  // deflate
        Self.le16(dosTime, into: &b)
        Self.le16(dosDate, into: &b)
        Self.le32(crc, into: &b)
        Self.le32(packed, into: &b)
        Self.le32(size, into: &b)
        Self.le16(UInt16(name.count), into: &b)
        Self.le16(0, into: &b)  // extra
        return b
    }

    /// Adds an entry whose data `produce` hands over piece by piece (it calls its argument with
    /// each piece, in order).
    func add(_ name: String, produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let nameBytes = Array(name.utf8)
        let offset = out.size
        guard offset < Int64(UInt32.max) else { throw Failure(description: "a fixture over 4 GiB needs ZIP64, which is not written") }
        // The local header with the checksum and sizes still zero; they are patched in below.
        var header: [UInt8] = []
        Self.le32(0x0403_4B50, into: &header)
        header += common(crc: 0, packed: 0, size: 0, name: nameBytes)
        header += nameBytes
        try out.append(bytes: header)

        var e = Entry()
        guard
            deflateInit2_(&e.stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw Failure(description: "zlib could not start deflating") }
        defer { deflateEnd(&e.stream) }
        var output = [UInt8](repeating: 0, count: Self.outputSize)
        func run(_ input: UnsafeRawBufferPointer, flush: Int32) throws {
            e.stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            e.stream.avail_in = uInt(input.count)
            while true {
                let (status, produced): (Int32, Int) = output.withUnsafeMutableBytes { o in
                    e.stream.next_out = o.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    e.stream.avail_out = uInt(o.count)
                    let status = deflate(&e.stream, flush)
                    return (status, o.count - Int(e.stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw Failure(description: "zlib could not deflate an entry (status \(status))")
                }
                try output.withUnsafeBytes { try out.append(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) }
                e.packed += Int64(produced)
                if flush == Z_FINISH ? status == Z_STREAM_END : (e.stream.avail_in == 0 && produced < output.count) { return }
            }
        }
        try produce { piece in
            guard piece.count > 0 else { return }
            e.crc = crc32(e.crc, piece.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(piece.count))
            e.size += Int64(piece.count)
            try run(piece, flush: Z_NO_FLUSH)
        }
        try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
        guard e.size < Int64(UInt32.max), e.packed < Int64(UInt32.max) else {
            throw Failure(description: "a fixture over 4 GiB needs ZIP64, which is not written")
        }
        let crc = UInt32(truncatingIfNeeded: e.crc)
        var sizes: [UInt8] = []
        Self.le32(crc, into: &sizes)
        Self.le32(UInt32(e.packed), into: &sizes)
        Self.le32(UInt32(e.size), into: &sizes)
        try out.patch(sizes, at: offset + 14)

        Self.le32(0x0201_4B50, into: &central)
        Self.le16(0x031E, into: &central)  // made by: Unix, 3.0
        central += common(crc: crc, packed: UInt32(e.packed), size: UInt32(e.size), name: nameBytes)
        Self.le16(0, into: &central)  // comment
        Self.le16(0, into: &central)  // disk
        Self.le16(0, into: &central)  // internal attributes
        Self.le32(UInt32(0o100600) << 16, into: &central)  // a regular file, 0600
        Self.le32(UInt32(offset), into: &central)
        central += nameBytes
        count += 1
    }

    /// Adds an entry of bytes in memory.
    func add(_ name: String, _ data: [UInt8]) throws {
        try add(name) { piece in try data.withUnsafeBytes { try piece($0) } }
    }

    /// Adds the file at `path` as an entry, read a megabyte at a time.
    func add(_ name: String, file path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError(file: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        try add(name) { piece in
            while true {
                let n: Int
                do throws(POSIXFile.Failure) {
                    n = try POSIXFile.fill(&buffer, from: fd)
                } catch {
                    throw OutputError(file: path, message: "read failed: \(error.reason)")
                }
                if n > 0 { try buffer.withUnsafeBytes { try piece(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) } }
                // `fill` reads until the buffer is full or the file ends.
                if n < buffer.count { return }
            }
        }
    }

    /// Writes the central directory and renames the archive into place; the archive's size.
    @discardableResult
    func finish() throws -> Int64 {
        guard out.size < Int64(UInt32.max), count <= Int(UInt16.max) else {
            throw Failure(description: "a fixture over 4 GiB or 65,535 files needs ZIP64, which is not written")
        }
        let cdOffset = UInt32(out.size)
        var end = central
        Self.le32(0x0605_4B50, into: &end)
        Self.le16(0, into: &end)
        Self.le16(0, into: &end)
        Self.le16(UInt16(count), into: &end)
        Self.le16(UInt16(count), into: &end)
        Self.le32(UInt32(central.count), into: &end)
        Self.le32(cdOffset, into: &end)
        Self.le16(0, into: &end)
        try out.append(bytes: end)
        try out.commit()
        return out.size
    }

    /// Drops the unfinished archive (the run failed).
    func discard() { out.discard() }
}
