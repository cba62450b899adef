import CLibXML2

/// The attributes of one start tag as libxml2 hands them over: five pointers each (local name,
/// prefix, URI, value start, value end), valid only during the callback. Values are byte ranges,
/// not NUL-terminated; nothing is copied unless asked.
struct AttributeList {
    let count: Int
    let raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    @inline(__always) func name(_ i: Int) -> UnsafePointer<UInt8> { raw![5 * i]! }
    @inline(__always) func valueStart(_ i: Int) -> UnsafePointer<UInt8> { raw![5 * i + 3]! }
    @inline(__always) func valueCount(_ i: Int) -> Int { raw![5 * i + 3]!.distance(to: raw![5 * i + 4]!) }

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
