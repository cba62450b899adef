/// A stretch of the document's element events, recorded on the parsing thread and played back
/// into the `ExportElementHandler` on another, so that libxml2's tokenising and our decoding of
/// records (dates, numbers, interning, rules, store rows) run on two cores.
///
/// Only what the handler reads is recorded: for a start tag its name, line and column, and each
/// attribute's name and value bytes (copied, since libxml2's are valid only during its callback);
/// for an end tag its name. Names are libxml2 dictionary pointers, valid while the parser lives.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the tape is raw storage
/// owned by this object (allocated in `init`, grown by copying, freed in `deinit`), written by one
/// thread, then read by one other after the hand-over through the pipeline's lock, never both at
/// once. Every write reserves first (`grow`), so indexes stay under the capacities; `AttributeList`
/// views into it are valid while the tape is being played.
// @unchecked Sendable: filled by the parsing thread, then handed through the queue's lock to the player, never shared.
final class ElementTape: RecordedTape, @unchecked Sendable {
    enum Kind: UInt8 { case start, end, walked }

    /// One start or end tag. For a start tag, its attributes are entries
    /// `attributeFirst ..< attributeFirst + attributeCount` of the attribute arrays.
    struct Event {
        var name: UnsafePointer<UInt8>
        var line: Int32
        var column: Int32
        var attributeFirst: Int32
        var attributeCount: Int32
        var kind: Kind
    }

    // Raw storage, written once per event on the hot path: Swift arrays cost a uniqueness and a
    // capacity check per append, ten times a record. Events are fixed (a full tape is handed
    // over); attributes and bytes grow when one tape's elements need more.
    private let events: UnsafeMutablePointer<Event>
    private(set) var count = 0
    private var attributeNames: UnsafeMutablePointer<UnsafePointer<UInt8>>
    private var valueStarts: UnsafeMutablePointer<Int32>
    private var valueLengths: UnsafeMutablePointer<Int32>
    private var attributeCapacity: Int
    private var attributeTotal = 0
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCapacity: Int
    private var byteCount = 0
    /// `compare`'s walked elements (`recordWalked`), their texts in `bytes`; a `.walked` event's
    /// `attributeFirst` is its index here.
    private var walked: [WalkedElement] = []

    /// A tape is handed over when it holds this many events or bytes: about what a chunk of the
    /// parallel read (`ParseThreads.defaultChunkBytes`) records, so a chunk of records dense with
    /// metadata makes a few tapes, not a dozen half-touched ones (issue 24: the tapes in flight
    /// were ≈ 30 MB of the 1 GB export's heap peak at 8,192 events and 1 MiB).
    static let eventLimit = 4096
    static let byteLimit = 1 << 19

    var isFull: Bool { count >= Self.eventLimit || byteCount >= Self.byteLimit }
    var isEmpty: Bool { count == 0 }

    init() {
        events = .allocate(capacity: Self.eventLimit)
        attributeCapacity = Self.eventLimit * 4
        attributeNames = .allocate(capacity: attributeCapacity)
        valueStarts = .allocate(capacity: attributeCapacity)
        valueLengths = .allocate(capacity: attributeCapacity)
        byteCapacity = Self.byteLimit + 64 * 1024
        bytes = .allocate(capacity: byteCapacity)
    }

    deinit {
        events.deallocate()
        attributeNames.deallocate()
        valueStarts.deallocate()
        valueLengths.deallocate()
        bytes.deallocate()
    }

    func clear() {
        count = 0
        attributeTotal = 0
        byteCount = 0
        if !walked.isEmpty { walked.removeAll(keepingCapacity: true) }
    }

    private func growAttributes(toHold n: Int) {
        let capacity = Swift.max(attributeCapacity * 2, n)
        func grown<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: capacity)
            p.moveInitialize(from: old, count: attributeTotal)
            old.deallocate()
            return p
        }
        attributeNames = grown(attributeNames)
        valueStarts = grown(valueStarts)
        valueLengths = grown(valueLengths)
        attributeCapacity = capacity
    }

    private func growBytes(toHold n: Int) {
        let capacity = Swift.max(byteCapacity * 2, n)
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        p.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = p
        byteCapacity = capacity
    }

    /// Records a start tag from libxml2's attribute array (five pointers an attribute).
    /// `shortcuts`: the parsed bytes were rewritten by `EntityShortcuts.apply`, so each value is
    /// copied with its shortcuts turned back into characters (never longer than the value).
    @inline(__always)
    func recordStart(
        name: UnsafePointer<UInt8>, line: Int32, column: Int32, count attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, shortcuts: Bool = false
    ) {
        let first = attributeTotal
        let n = attributes == nil ? 0 : attributeCount
        events[count] = Event(name: name, line: line, column: column, attributeFirst: Int32(first), attributeCount: Int32(n), kind: .start)
        count += 1
        guard let attributes, n > 0 else { return }
        if first + n > attributeCapacity { growAttributes(toHold: first + n) }
        for i in 0..<n {
            let start = attributes[5 * i + 3]!
            let length = start.distance(to: attributes[5 * i + 4]!)
            if byteCount + length > byteCapacity { growBytes(toHold: byteCount + length) }
            attributeNames[first + i] = attributes[5 * i]!
            valueStarts[first + i] = Int32(byteCount)
            let copied: Int
            if shortcuts {
                copied = EntityShortcuts.copyDecoding(start, count: length, to: bytes + byteCount)
            } else {
                (bytes + byteCount).update(from: start, count: length)
                copied = length
            }
            valueLengths[first + i] = Int32(copied)
            byteCount += copied
        }
        attributeTotal = first + n
    }

    /// The name of a `.walked` event (never read).
    private static let noName: StaticString = "walked element"

    /// Records a walked element (`ElementRecorder.expect`), its texts' bytes (ranges of `from`:
    /// source, zone, workout type) copied.
    func recordWalked(_ element: WalkedElement, bytes from: UnsafePointer<UInt8>) {
        let length = Int(element.sourceCount) + Int(max(element.zoneCount, 0)) + Int(max(element.typeCount, 0))
        if byteCount + length > byteCapacity { growBytes(toHold: byteCount + length) }
        var w = element
        func copy(_ first: inout Int32, _ n: Int32) {
            guard n >= 0 else { return }
            (bytes + byteCount).update(from: from + Int(first), count: Int(n))
            first = Int32(byteCount)
            byteCount += Int(n)
        }
        copy(&w.sourceFirst, w.sourceCount)
        copy(&w.zoneFirst, w.zoneCount)
        copy(&w.typeFirst, w.typeCount)
        events[count] = Event(
            name: Self.noName.utf8Start, line: 0, column: 0, attributeFirst: Int32(walked.count), attributeCount: 0, kind: .walked)
        count += 1
        walked.append(w)
    }

    @inline(__always)
    func recordEnd(name: UnsafePointer<UInt8>) {
        events[count] = Event(name: name, line: 0, column: 0, attributeFirst: 0, attributeCount: 0, kind: .end)
        count += 1
    }

    /// Plays every event into the handler, in order. `lineOffset` turns the recording parser's
    /// line numbers into the file's (a chunk's parser starts counting at its first byte).
    func play(into handler: ExportElementHandler, lineOffset: Int32 = 0) {
        handler.beginTape()
        for e in UnsafeBufferPointer(start: events, count: count) {
            switch e.kind {
            case .start:
                let first = Int(e.attributeFirst)
                let attrs = AttributeList(
                    count: Int(e.attributeCount), names: attributeNames + first, starts: valueStarts + first,
                    lengths: valueLengths + first, bytes: bytes)
                handler.position = (e.line &+ lineOffset, e.column)
                handler.start(name: e.name, attributes: attrs)
            case .end:
                handler.end(name: e.name)
            case .walked:
                let w = walked[Int(e.attributeFirst)]
                switch w.kind {
                case .sleep: handler.walkedSleep(w, bytes: bytes)
                case .workout: handler.walkedWorkout(w, bytes: bytes)
                }
            }
        }
    }
}
