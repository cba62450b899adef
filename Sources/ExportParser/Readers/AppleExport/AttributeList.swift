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

    /// Every attribute as text, in document order.
    func entries() -> [MetadataEntry] {
        (0..<count).map { MetadataEntry(key: nameString($0), value: string($0)) }
    }

    /// The attribute named `literal` (the last, as a dictionary of the attributes would keep
    /// it; XML allows none twice). Read in place: a [String: String] of every attribute, made
    /// for each workout and its parts, was a tenth of what the thread that plays the tapes did
    /// at the end of the 3 GB export, where the workouts are (docs/performance.md).
    func index(_ literal: StaticString) -> Int? {
        var i = count - 1
        while i >= 0 {
            if nameIs(i, literal) { return i }
            i -= 1
        }
        return nil
    }

    /// The named attribute's text (`string`), nil when absent.
    func text(_ literal: StaticString) -> String? { index(literal).map(string) }

    /// The named attribute's number as `NumberParser.parse(text(literal))` reads it: from the
    /// bytes in place when they are that text's (ASCII without `&`, `ExportElementHandler.keepsBytes`).
    func number(_ literal: StaticString) -> Double? {
        guard let i = index(literal) else { return nil }
        let p = valueStart(i), c = valueCount(i)
        return ExportElementHandler.keepsBytes(p, c) ? NumberParser.parse(p, c) : NumberParser.parse(string(i))
    }

    /// The named attribute's date as `TimestampParser.parse(text(literal))` reads it, in place
    /// as `number` is.
    func timestamp(_ literal: StaticString) -> Timestamp? {
        guard let i = index(literal) else { return nil }
        let p = valueStart(i), c = valueCount(i)
        return ExportElementHandler.keepsBytes(p, c) ? TimestampParser.parse(p, c) : TimestampParser.parse(string(i))
    }
}
