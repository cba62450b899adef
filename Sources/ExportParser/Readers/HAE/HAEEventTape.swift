/// A stretch of yajl's events for one HAE file, recorded on the parsing thread and played into
/// the `HAEDocumentWalker` on another, so that yajl's tokenising and the decoding of datums
/// (dates, numbers, day rules, store rows) run on two cores: the JSON twin of `ElementTape`.
///
/// Each event keeps the byte offset yajl had reached when it reported the event (what the walker
/// would have read from the live handle): the walker uses it in messages and to re-read a metric.
/// Numbers, strings and keys keep their bytes (yajl's are valid only during its callback).
final class HAEEventTape: @unchecked Sendable {
    enum Kind: UInt8 { case null, `true`, `false`, number, string, key, startMap, endMap, startArray, endArray }

    struct Event {
        var kind: Kind
        var length: Int32
        var start: Int32
        var offset: Int64
    }

    private(set) var events: [Event] = []
    private(set) var bytes: [UInt8] = []

    /// A tape is handed over when it holds this many events or bytes.
    static let eventLimit = 16384
    static let byteLimit = 1 << 19

    var isFull: Bool { events.count >= Self.eventLimit || bytes.count >= Self.byteLimit }
    var isEmpty: Bool { events.isEmpty }

    init() {
        events.reserveCapacity(Self.eventLimit)
        bytes.reserveCapacity(Self.byteLimit + 64 * 1024)
    }

    func clear() {
        events.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func record(_ kind: Kind, offset: Int64) {
        events.append(Event(kind: kind, length: 0, start: 0, offset: offset))
    }

    @inline(__always)
    func record(_ kind: Kind, offset: Int64, _ p: UnsafePointer<UInt8>, _ n: Int) {
        events.append(Event(kind: kind, length: Int32(truncatingIfNeeded: n), start: Int32(truncatingIfNeeded: bytes.count), offset: offset))
        bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
    }

    /// Plays the events into `walker`; false as soon as the walker stops (its `fatalMessage`
    /// says why, and its `chunkBase` is the offset of the event it stopped at).
    func play(into walker: HAEDocumentWalker) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(empty.baseAddress!)
                for e in events {
                    walker.chunkBase = e.offset
                    let ok: Bool
                    switch e.kind {
                    case .null: ok = walker.literal("null", isNull: true)
                    case .true: ok = walker.literal("true")
                    case .false: ok = walker.literal("false")
                    case .number: ok = walker.number(base + Int(e.start), Int(e.length))
                    case .string: ok = walker.string(base + Int(e.start), Int(e.length))
                    case .key: ok = walker.mapKey(base + Int(e.start), Int(e.length))
                    case .startMap: ok = walker.startMap()
                    case .endMap: ok = walker.endMap()
                    case .startArray: ok = walker.startArray()
                    case .endArray: ok = walker.endArray()
                    }
                    if !ok { return false }
                }
                return true
            }
        }
    }
}
