import Foundation

#if os(Linux)
    import Glibc
#endif

/// Has the kernel start writing a new store's file to disk while the store is still being
/// built, so that the one `fsync` that publishes it (`HealthStore.publishIfNew`) finds little
/// left to write. The new store is written without syncs; without this, the kernel keeps its
/// pages dirty (younger than its 30 s writeback age, and under its background ratio), and that
/// fsync wrote the whole file after the run's last work: about 400 MB of the 1 GB export, 0.27 s
/// at the end of every run (issue 24, store5: docs/store.md). A thread of its own asks every
/// `interval` (`sync_file_range(SYNC_FILE_RANGE_WRITE)`: start writing what is dirty, without
/// waiting for it), so no thread of the import ever waits on the disk for it.
///
/// Linux only (`sync_file_range` is Linux's); elsewhere `init` returns nil and the publishing
/// fsync does all of it, as before. Nothing about durability changes: the file is unnamed until
/// that fsync has returned, and pages written early are written again if they change.
// @unchecked Sendable: the semaphores are thread-safe; the rest is immutable.
final class EarlyWriteback: @unchecked Sendable {
    private let stop = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    /// True until the thread is started, and again once it was stopped (a failed `init` is
    /// deinitialised too, and must not wait for a thread that never ran).
    private var finished = true

    /// Starts the thread for the file at `path`; nil where the system has no `sync_file_range`
    /// or the file cannot be opened (the publishing fsync then does it all).
    init?(path: String, interval: Double = 0.25) {
        #if os(Linux)
            guard let syncFileRange = Self.syncFileRange else { return nil }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            let (stop, ended) = (stop, ended)
            NamedThread.start("store writeback") {
                // SYNC_FILE_RANGE_WRITE (2): start writing the dirty pages of the range (0, 0:
                // the whole file) that are not being written already; do not wait for them.
                while stop.wait(timeout: .now() + interval) == .timedOut { _ = syncFileRange(fd, 0, 0, 2) }
                close(fd)
                ended.signal()
            }
            finished = false
        #else
            return nil
        #endif
    }

    /// Stops the thread and waits for it (it has closed its descriptor when this returns). Safe
    /// to call more than once.
    func finish() {
        guard !finished else { return }
        finished = true
        stop.signal()
        ended.wait()
    }

    deinit { finish() }

    #if os(Linux)
        private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

        /// glibc's `sync_file_range`, looked up at run time: Swift's Glibc module does not
        /// import it (it is declared only under `_GNU_SOURCE`). Unsafe: the cast states the C
        /// signature, `int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int
        /// flags)`, which glibc has had since 2.6.
        private static let syncFileRange: SyncFileRange? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
            return unsafeBitCast(symbol, to: SyncFileRange.self)
        }()
    #endif
}
