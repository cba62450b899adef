/// A stretch of the document's element events, recorded on the parsing thread and played back
/// into the `ExportElementHandler` on another, so that libxml2's tokenising and our decoding of
/// records (dates, numbers, interning, rules, store rows) run on two cores.
///
/// Only what the handler reads is recorded: for a start tag its name, line and column, and each
/// attribute's name and value bytes (copied, since libxml2's are valid only during its callback);
/// for an end tag its name. Names are libxml2 dictionary pointers, valid while the parser lives.
final class ElementTape: @unchecked Sendable {
    enum Kind: UInt8 { case start, end }

    private(set) var kinds: [Kind] = []
    private(set) var names: [UnsafePointer<UInt8>] = []
    private(set) var lines: [Int32] = []
    private(set) var columns: [Int32] = []
    /// For event i: its attributes are `attributeFirst[i] ..< attributeFirst[i] + attributeCount[i]`.
    private(set) var attributeFirst: [Int32] = []
    private(set) var attributeCount: [Int32] = []
    private(set) var attributeNames: [UnsafePointer<UInt8>] = []
    private(set) var valueStarts: [Int32] = []
    private(set) var valueLengths: [Int32] = []
    private(set) var bytes: [UInt8] = []

    /// A tape is handed over when it holds this many events or bytes.
    static let eventLimit = 8192
    static let byteLimit = 1 << 20

    var isFull: Bool { kinds.count >= Self.eventLimit || bytes.count >= Self.byteLimit }
    var isEmpty: Bool { kinds.isEmpty }
    var count: Int { kinds.count }

    init() {
        kinds.reserveCapacity(Self.eventLimit)
        names.reserveCapacity(Self.eventLimit)
        lines.reserveCapacity(Self.eventLimit)
        columns.reserveCapacity(Self.eventLimit)
        attributeFirst.reserveCapacity(Self.eventLimit)
        attributeCount.reserveCapacity(Self.eventLimit)
        bytes.reserveCapacity(Self.byteLimit + 64 * 1024)
    }

    func clear() {
        kinds.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        attributeFirst.removeAll(keepingCapacity: true)
        attributeCount.removeAll(keepingCapacity: true)
        attributeNames.removeAll(keepingCapacity: true)
        valueStarts.removeAll(keepingCapacity: true)
        valueLengths.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Records a start tag from libxml2's attribute array (five pointers an attribute).
    @inline(__always)
    func recordStart(name: UnsafePointer<UInt8>, line: Int32, column: Int32, count: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        kinds.append(.start)
        names.append(name)
        lines.append(line)
        columns.append(column)
        attributeFirst.append(Int32(attributeNames.count))
        attributeCount.append(Int32(count))
        guard let attributes else { return }
        for i in 0..<count {
            let start = attributes[5 * i + 3]!
            let length = start.distance(to: attributes[5 * i + 4]!)
            attributeNames.append(attributes[5 * i]!)
            valueStarts.append(Int32(bytes.count))
            valueLengths.append(Int32(length))
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
        }
    }

    @inline(__always)
    func recordEnd(name: UnsafePointer<UInt8>) {
        kinds.append(.end)
        names.append(name)
        lines.append(0)
        columns.append(0)
        attributeFirst.append(0)
        attributeCount.append(0)
    }

    /// Plays every event into the handler, in order.
    func play(into handler: ExportElementHandler) {
        attributeNames.withUnsafeBufferPointer { attrNames in
            valueStarts.withUnsafeBufferPointer { starts in
                valueLengths.withUnsafeBufferPointer { lengths in
                    bytes.withUnsafeBufferPointer { raw in
                        let base = raw.baseAddress ?? UnsafePointer(bitPattern: 1)!
                        for i in 0..<kinds.count {
                            switch kinds[i] {
                            case .start:
                                let first = Int(attributeFirst[i])
                                let attrs = AttributeList(
                                    count: Int(attributeCount[i]),
                                    names: (attrNames.baseAddress ?? UnsafePointer(bitPattern: 8)!) + first,
                                    starts: (starts.baseAddress ?? UnsafePointer(bitPattern: 4)!) + first,
                                    lengths: (lengths.baseAddress ?? UnsafePointer(bitPattern: 4)!) + first,
                                    bytes: base)
                                handler.position = (lines[i], columns[i])
                                handler.start(name: names[i], attributes: attrs)
                            case .end:
                                handler.end(name: names[i])
                            }
                        }
                    }
                }
            }
        }
    }
}
