import CZlibSystem

/// A ZIP archive as the Health app's share sheet makes it: deflated entries (zlib, raw deflate),
/// UTF-8 names, a central directory. Entries over 4 GiB (ZIP64) are not written: a fixture that
/// large is refused by `FixtureJob` first. The time stamp is the export's, so the same fixture
/// gives the same bytes.
struct ZipWriter {
    private(set) var bytes: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0
    let dosTime: UInt16
    let dosDate: UInt16

    /// `local` is the export's local wall time as y, m, d, h, min, s.
    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        dosTime = UInt16(hour << 11 | minute << 5 | second / 2)
        dosDate = UInt16((year - 1980) << 9 | month << 5 | day)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func le16(_ v: UInt16, into b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32, into b: inout [UInt8]) { for i in 0..<4 { b.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }

    static func crc(_ data: [UInt8]) -> UInt32 {
        var c = crc32(0, nil, 0)
        data.withUnsafeBufferPointer { p in
            var offset = 0
            while offset < p.count {
                let n = min(p.count - offset, 1 << 30)
                c = crc32(c, p.baseAddress! + offset, uInt(n))
                offset += n
            }
        }
        return UInt32(truncatingIfNeeded: c)
    }

    static func deflated(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else {
            throw Failure(description: "zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        var input = data
        let status: Int32 = input.withUnsafeMutableBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { outp in
                stream.next_in = inp.baseAddress
                stream.avail_in = uInt(inp.count)
                stream.next_out = outp.baseAddress
                stream.avail_out = uInt(outp.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib could not deflate an entry (status \(status))") }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    mutating func add(_ name: String, _ data: [UInt8]) throws {
        guard data.count < Int(UInt32.max), bytes.count < Int(UInt32.max) else {
            throw Failure(description: "a fixture over 4 GiB needs ZIP64, which is not written")
        }
        let packed = try Self.deflated(data)
        let crc = Self.crc(data)
        let nameBytes = Array(name.utf8)
        let offset = UInt32(bytes.count)
        func common(_ b: inout [UInt8]) {
            Self.le16(20, into: &b)  // version needed: 2.0 (deflate)
            Self.le16(0x0800, into: &b)  // names are UTF-8 (导出.xml)
            Self.le16(8, into: &b)  // deflate
            Self.le16(dosTime, into: &b)
            Self.le16(dosDate, into: &b)
            Self.le32(crc, into: &b)
            Self.le32(UInt32(packed.count), into: &b)
            Self.le32(UInt32(data.count), into: &b)
            Self.le16(UInt16(nameBytes.count), into: &b)
            Self.le16(0, into: &b)  // extra
        }
        Self.le32(0x0403_4B50, into: &bytes)
        common(&bytes)
        bytes += nameBytes
        bytes += packed
        Self.le32(0x0201_4B50, into: &central)
        Self.le16(0x031E, into: &central)  // made by: Unix, 3.0
        common(&central)
        Self.le16(0, into: &central)  // comment
        Self.le16(0, into: &central)  // disk
        Self.le16(0, into: &central)  // internal attributes
        Self.le32(UInt32(0o100600) << 16, into: &central)  // a regular file, 0600
        Self.le32(offset, into: &central)
        central += nameBytes
        count += 1
    }

    /// The archive's bytes, with its central directory.
    mutating func finish() -> [UInt8] {
        let cdOffset = UInt32(bytes.count)
        bytes += central
        Self.le32(0x0605_4B50, into: &bytes)
        Self.le16(0, into: &bytes)
        Self.le16(0, into: &bytes)
        Self.le16(UInt16(count), into: &bytes)
        Self.le16(UInt16(count), into: &bytes)
        Self.le32(UInt32(central.count), into: &bytes)
        Self.le32(cdOffset, into: &bytes)
        Self.le16(0, into: &bytes)
        return bytes
    }
}
