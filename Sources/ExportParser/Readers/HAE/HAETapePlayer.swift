import CYajl
import Foundation

/// The two-thread main pass over a HAE file: yajl's callbacks (on the reading thread) only record
/// events onto `HAEEventTape`s; a player thread plays them into the walker, and so into the day
/// book and the store. Tapes are recycled and at most `queue.capacity` wait, so memory stays flat.
///
/// Threading: the walker (and the sinks behind it) is used only by the player thread until
/// `finish` has waited for it; tapes pass through the queue's lock, which orders their writes
/// before their reads. Hence `@unchecked Sendable`.
final class HAETapePlayer: @unchecked Sendable {
    let walker: HAEDocumentWalker
    /// Set by the reader: the byte offset of the chunk yajl is parsing, and the handle.
    var chunkBase: Int64 = 0
    var handle: yajl_handle?
    /// Whether any event was recorded (an all-whitespace file has none).
    private(set) var recordedAny = false
    typealias Failure = (message: String, offset: Int64, path: String)

    private var tape = HAEEventTape()
    private let queue = BoundedBatchQueue<HAEEventTape>(capacity: 4)
    private let played = DispatchSemaphore(value: 0)
    private var running = true
    private let shared = Shared()

    /// What both threads touch: played tapes for reuse, and why the walker stopped, with where
    /// (set by the player thread, read after `finish`).
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var spare: [HAEEventTape] = []
        var failure: Failure?

        func recycle(_ t: HAEEventTape) {
            t.clear()
            lock.lock()
            if spare.count < 6 { spare.append(t) }
            lock.unlock()
        }

        func reuse() -> HAEEventTape {
            lock.lock()
            defer { lock.unlock() }
            return spare.popLast() ?? HAEEventTape()
        }
    }

    init(walker: HAEDocumentWalker) {
        self.walker = walker
        walker.handle = nil // offsets come from the tape
        let thread = Thread { [queue, walker, played, shared] in
            while let batch = queue.pop() {
                for t in batch {
                    if shared.failure == nil, !t.play(into: walker) {
                        shared.failure = (walker.fatalMessage ?? "reading stopped", walker.currentOffset, walker.currentPath())
                        // The reading thread sees its next hand-over refused and stops.
                        queue.discardAndClose()
                    }
                    shared.recycle(t)
                }
            }
            played.signal()
        }
        thread.stackSize = 4 << 20
        thread.name = "health-import HAE decoder"
        thread.start()
    }

    deinit { _ = finish() }

    /// Records one event; false when the player has stopped (the callback then stops yajl).
    @inline(__always)
    func record(_ kind: HAEEventTape.Kind) -> Bool {
        recordedAny = true
        tape.record(kind, offset: chunkBase + Int64(yajl_get_bytes_consumed(handle)))
        return tape.isFull ? handOver() : true
    }

    @inline(__always)
    func record(_ kind: HAEEventTape.Kind, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        recordedAny = true
        tape.record(kind, offset: chunkBase + Int64(yajl_get_bytes_consumed(handle)), p, n)
        return tape.isFull ? handOver() : true
    }

    private func handOver() -> Bool {
        let accepted = queue.push([tape])
        tape = shared.reuse()
        return accepted
    }

    /// Hands over what is recorded and waits until the walker has played it all. Returns why the
    /// walker stopped, if it did. Safe to call more than once.
    func finish() -> Failure? {
        if running {
            running = false
            if !tape.isEmpty { queue.push([tape]) }
            queue.close()
            played.wait()
        }
        return shared.failure
    }

    /// yajl's callbacks for the main pass: record and return. The context is the player.
    static let callbacks: yajl_callbacks = {
        @inline(__always) func with(_ ctx: UnsafeMutableRawPointer?, _ body: (HAETapePlayer) -> Bool) -> Int32 {
            Unmanaged<HAETapePlayer>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body) ? 1 : 0
        }
        var c = yajl_callbacks()
        c.yajl_null = { ctx in with(ctx) { $0.record(.null) } }
        c.yajl_boolean = { ctx, v in with(ctx) { $0.record(v != 0 ? .true : .false) } }
        c.yajl_number = { ctx, p, n in
            with(ctx) { $0.record(.number, UnsafeRawPointer(p!).assumingMemoryBound(to: UInt8.self), Int(n)) }
        }
        c.yajl_string = { ctx, p, n in with(ctx) { $0.record(.string, p!, Int(n)) } }
        c.yajl_start_map = { ctx in with(ctx) { $0.record(.startMap) } }
        c.yajl_map_key = { ctx, p, n in with(ctx) { $0.record(.key, p!, Int(n)) } }
        c.yajl_end_map = { ctx in with(ctx) { $0.record(.endMap) } }
        c.yajl_start_array = { ctx in with(ctx) { $0.record(.startArray) } }
        c.yajl_end_array = { ctx in with(ctx) { $0.record(.endArray) } }
        return c
    }()
}
