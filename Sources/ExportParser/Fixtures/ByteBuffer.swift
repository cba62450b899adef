/// Bytes being written for one output file. Text is appended as UTF-8; nothing depends on the
/// locale.
struct ByteBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func put(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// An attribute ` name="value"`, the value escaped for XML.
    mutating func attribute(_ name: String, _ value: String) {
        bytes.append(0x20)
        put(name)
        bytes.append(contentsOf: [0x3D, 0x22])  // ="
        for u in value.utf8 {
            switch u {
            case 0x26: put("&amp;")
            case 0x3C: put("&lt;")
            case 0x3E: put("&gt;")
            case 0x22: put("&quot;")
            default: bytes.append(u)
            }
        }
        bytes.append(0x22)
    }
}
