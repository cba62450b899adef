/// The attributes of one start tag, as recorded on an `ElementTape`: names (libxml2 dictionary
/// pointers) and values as byte ranges of the tape, not NUL-terminated. Nothing is copied unless
/// asked.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): a view into the
/// `ElementTape` being played: every pointer here addresses that tape's storage (or the recorder's
/// name dictionary), which lives until the tape is recycled after the element is handled. `i` is
/// checked by the callers against `count`; nothing keeps a list past the element's handling.
struct AttributeList {
    let count: Int
    let names: UnsafePointer<UnsafePointer<UInt8>>
    let starts: UnsafePointer<Int32>
    let lengths: UnsafePointer<Int32>
    let bytes: UnsafePointer<UInt8>

    @inline(__always) func name(_ i: Int) -> UnsafePointer<UInt8> { names[i] }
    @inline(__always) func valueStart(_ i: Int) -> UnsafePointer<UInt8> { bytes + Int(starts[i]) }
    @inline(__always) func valueCount(_ i: Int) -> Int { Int(lengths[i]) }

    @inline(__always) func nameIs(_ i: Int, _ literal: StaticString) -> Bool {
        ExportElementHandler.equals(name(i), literal)
    }

    func string(_ i: Int) -> String {
        XMLText.string(valueStart(i), valueCount(i))
    }

    func nameString(_ i: Int) -> String { String(cString: name(i)) }

    func value(named literal: StaticString) -> String? {
        for i in 0..<count where nameIs(i, literal) { return string(i) }
        return nil
    }

    /// Every attribute as text, in document order.
    func entries() -> [MetadataEntry] {
        (0..<count).map { MetadataEntry(key: nameString($0), value: string($0)) }
    }

    func dictionary() -> [String: String] {
        var d: [String: String] = [:]
        for i in 0..<count { d[nameString(i)] = string(i) }
        return d
    }
}
