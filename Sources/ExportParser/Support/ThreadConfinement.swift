import Foundation

/// The rule of an object that one thread at a time may use (a SQLite connection opened
/// `NOMUTEX`, the store's writer, the day book): it knows the thread that uses it now, and the
/// code hands it to another thread explicitly, at a point that orders the two threads' accesses
/// (a join, a semaphore wait, a queue's lock). `check` traps in debug builds, where the tests run,
/// when another thread uses the object; it costs nothing in release builds. GRDB's
/// `preconditionValidQueue` and NIO's `NIOLoopBound` check the same kind of rule.
final class ThreadConfinement: @unchecked Sendable {
    // @unchecked Sendable: `owner` is written by the thread taking the object over, after the
    // synchronisation of the hand-over point; in debug builds only.
    #if DEBUG
        private var owner: pthread_t?
    #endif

    init() {}

    /// The calling thread uses the object from now on.
    @inline(__always)
    func claim() {
        #if DEBUG
            owner = pthread_self()
        #endif
    }

    /// Whether the calling thread owns the object (always true in release builds, and when nobody
    /// has claimed it yet).
    var isOwnedByCurrentThread: Bool {
        #if DEBUG
            return owner.map { pthread_equal($0, pthread_self()) != 0 } ?? true
        #else
            return true
        #endif
    }

    /// Traps (debug builds) when a thread other than the owner uses the object; the first use
    /// claims it when nobody has.
    @inline(__always)
    func check(_ what: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            if owner == nil { claim() }
            precondition(isOwnedByCurrentThread, "\(what) used from a thread that does not own it", file: file, line: line)
        #endif
    }
}
