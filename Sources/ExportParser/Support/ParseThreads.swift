import Foundation

/// How many threads parse an export.xml (`--threads`; `AppleExportReader.threads` starts from
/// it). The CLI sets it once, before reading; it defaults to the active processor count.
public enum ParseThreads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var value = ProcessInfo.processInfo.activeProcessorCount

    nonisolated(unsafe) private static var chunkValue = 1 << 20

    public static var count: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = max(1, newValue) } }
    }

    /// Bytes per chunk of the parallel read: 1 MiB (a chunk's bytes and tapes stay small, and a
    /// parser context per chunk costs nothing next to its parse). Tests make it tiny, so that
    /// cuts fall everywhere.
    static var chunkBytes: Int {
        get { lock.withLock { chunkValue } }
        set { lock.withLock { chunkValue = max(16, newValue) } }
    }
}
