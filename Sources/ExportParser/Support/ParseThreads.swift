import Foundation

/// How many threads parse an export.xml (`--threads`; `AppleExportReader.threads` starts from
/// it). The CLI sets it once, before reading; it defaults to the active processor count.
public enum ParseThreads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var value = ProcessInfo.processInfo.activeProcessorCount

    nonisolated(unsafe) private static var chunkValue = defaultChunkBytes

    /// 512 KiB. A chunk's bytes, and the tapes it records (`ElementTape.byteLimit`,
    /// `eventLimit`, sized to match), are what the parallel read holds in flight: N + 2 chunks
    /// and their tapes, ≈ 30 MB of the 1 GB export's peak at 1 MiB. Halved, the peak fell 15 MB
    /// (109 → 94 MB) for 0.1 % more instructions (callgrind, 40 MB export: 3,431 M → 3,435 M);
    /// 256 KiB saved 3 MB more for twice as many hand-overs (docs/export-xml.md, "Memory").
    static let defaultChunkBytes = 1 << 19

    public static var count: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = max(1, newValue) } }
    }

    /// Bytes per chunk of the parallel read: `defaultChunkBytes` (a chunk's bytes and tapes stay
    /// small, and a parser context per chunk costs nothing next to its parse). Tests make it
    /// tiny, so that cuts fall everywhere.
    static var chunkBytes: Int {
        get { lock.withLock { chunkValue } }
        set { lock.withLock { chunkValue = max(16, newValue) } }
    }
}
