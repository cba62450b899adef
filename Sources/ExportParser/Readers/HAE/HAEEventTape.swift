/// A stretch of yajl's events for one HAE file, recorded on the parsing thread and played into
/// the `HAEDocumentWalker` on another, so that yajl's tokenising and the decoding of datums
/// (dates, numbers, day rules, store rows) run on two cores: the JSON twin of `ElementTape`.
///
/// Each event keeps the byte offset yajl had reached when it reported the event (what the walker
/// would have read from the live handle): the walker uses it in messages and to re-read a metric.
/// Numbers, strings and keys keep their bytes (yajl's are valid only during its callback).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): raw storage owned by this
/// object (allocated in `init`, grown by copying, freed in `deinit`), written by the reading thread
/// (through `HAETapePlayer`) and then read by the decoder thread after the hand-over through the
/// pipeline's lock, never both at once; every write reserves first, so offsets stay inside the
/// capacities.
// @unchecked Sendable: filled by the reading thread, then handed through the queue's lock to the decoder, never shared.
final class HAEEventTape: RecordedTape, @unchecked Sendable {
    enum Kind: UInt8 { case null, `true`, `false`, number, string, key, startMap, endMap, startArray, endArray, skipped }

    struct Event {
        var kind: Kind
        var length: Int32
        var start: Int32
        var offset: Int64
    }

    /// Fixed-size event storage and growable byte storage, written through raw pointers by the
    /// recording thread (`HAETapePlayer` keeps copies of these pointers while the tape is
    /// current: no reference counting or uniqueness checks per event).
    let events: UnsafeMutablePointer<Event>
    var eventCount = 0
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCapacity: Int
    var byteCount = 0

    /// A tape is handed over when it holds this many events or bytes.
    static let eventLimit = 16384
    static let byteLimit = 1 << 19

    init() {
        events = .allocate(capacity: Self.eventLimit)
        byteCapacity = Self.byteLimit + 64 * 1024
        bytes = .allocate(capacity: byteCapacity)
    }

    deinit {
        events.deallocate()
        bytes.deallocate()
    }

    func clear() {
        eventCount = 0
        byteCount = 0
    }

    /// Makes room for `n` more bytes (one string can be longer than the usual limit).
    func reserveBytes(_ n: Int) {
        guard byteCount + n > byteCapacity else { return }
        let capacity = Swift.max(byteCapacity * 2, byteCount + n)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = capacity
    }

    /// Plays the events into `walker`; false as soon as the walker stops (its `fatalMessage`
    /// says why, and its `chunkBase` is the offset of the event it stopped at).
    func play(into walker: HAEDocumentWalker) -> Bool {
        let base = UnsafePointer(bytes)
        for e in UnsafeBufferPointer(start: events, count: eventCount) {
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
            case .skipped:
                var w: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &w) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(start: base + Int(e.start), count: Int(e.length)))
                }
                ok = walker.skipped(
                    count: Int(w.0), holds: Int(w.1), firstNotMidnight: Int(w.2), sign: Int(w.3),
                    lastKey: HAEKey(rawValue: UInt8(w.4)) ?? .unknown)
            }
            if !ok { return false }
        }
        return true
    }
}
