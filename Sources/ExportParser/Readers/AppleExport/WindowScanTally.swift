import Synchronization

/// How many top-level elements a window read's scan has passed, kept or cut (`ExportWindow`):
/// the progress line's records during a window read. The book counts only the samples it is
/// given, a sliver of them, so the line said "0 records/s" while the scan went through
/// millions. Added to once per chunk, by each worker.
final class WindowScanTally: Sendable {
    private let count = Atomic<Int>(0)

    var elements: Int { count.load(ordering: .relaxed) }

    func add(_ n: Int) {
        count.add(n, ordering: .relaxed)
    }
}
