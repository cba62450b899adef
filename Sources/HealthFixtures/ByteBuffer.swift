import ExportParser

/// Bytes being written for one output file or one item of it. Text is appended as UTF-8;
/// nothing depends on the locale. Numbers are written digit by digit and text is escaped only
/// when it holds a character that needs it: a `--scale` run writes a gigabyte through here.
struct ByteBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func put(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func put(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    /// An attribute ` name="value"`, the value escaped for XML.
    mutating func attribute(_ name: String, _ value: String) {
        bytes.append(0x20)
        put(name)
        bytes.append(contentsOf: [0x3D, 0x22])  // ="
        escaped(value)
        bytes.append(0x22)
    }

    /// `value` escaped for an XML attribute.
    ///
    /// Through `withUTF8`, kept on purpose: scanning `value.utf8` instead cost four times the
    /// instructions here (this runs for every attribute of a `--scale` export: 15 % of the
    /// whole run, callgrind). The buffer is used only inside the closure, within its count.
    mutating func escaped(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for u in utf8 {
                switch u {
                case 0x26: put("&amp;")
                case 0x3C: put("&lt;")
                case 0x3E: put("&gt;")
                case 0x22: put("&quot;")
                default: bytes.append(u)
                }
            }
        }
    }

    /// A whole number in decimal.
    mutating func decimal(_ v: Int) {
        if v < 0 { bytes.append(0x2D) }
        var m = v.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: m % 10) + 0x30)
            m /= 10
        } while m > 0
        bytes[first...].reverse()
    }

    /// Two digits, `07`.
    mutating func twoDigits(_ v: Int) {
        bytes.append(UInt8(truncatingIfNeeded: v / 10) + 0x30)
        bytes.append(UInt8(truncatingIfNeeded: v % 10) + 0x30)
    }

    /// Lower-case hexadecimal without leading zeros, as `String(v, radix: 16)`.
    mutating func hex(_ v: UInt64) {
        var shift = max(0, (64 - v.leadingZeroBitCount + 3) / 4 * 4 - 4)
        while shift >= 0 {
            bytes.append(Self.hexDigits[Int((v >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
