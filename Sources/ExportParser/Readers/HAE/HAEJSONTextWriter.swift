/// Writes yajl's events back out as compact JSON text, for items of HAE arrays nothing
/// aggregates (medications, stateOfMind, ecg, …) that the store keeps whole. Numbers are
/// copied as written (no double round trip), strings re-escaped. Only used when a sink wants
/// details.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): it copies `(pointer, count)`
/// bytes from the walker's callbacks (valid for the call) into its own array at once.
struct HAEJSONTextWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open container: whether the next member needs a comma before it.
    private var needsComma: [Bool] = []
    /// Set after a key: the value that follows needs no comma.
    private var afterKey = false

    var isEmpty: Bool { bytes.isEmpty }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
        afterKey = false
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if afterKey { afterKey = false; return }
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma.removeLast()
    }

    mutating func key(_ p: UnsafePointer<UInt8>, _ n: Int) {
        separate()
        string(p, n, separated: true)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    mutating func raw(_ p: UnsafePointer<UInt8>, _ n: Int) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
    }

    mutating func literal(_ s: StaticString) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func string(_ p: UnsafePointer<UInt8>, _ n: Int, separated: Bool = false) {
        if !separated { separate() }
        bytes.append(UInt8(ascii: "\""))
        @inline(__always) func hex(_ d: UInt8) -> UInt8 { d < 10 ? 0x30 + d : 0x57 + d }
        for i in 0..<n {
            let c = p[i]
            switch c {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20: bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex(c >> 4), hex(c & 15)])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
