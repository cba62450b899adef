import Foundation

/// The export's second thread: the sha256, the count and the write (for a zip, the deflate)
/// of every chunk happen here while the calling thread steps SQLite and encodes rows. On the
/// 1 GB benchmark's store that work is about a third of the whole, and writing 2 GB through the
/// kernel is most of it.
///
/// A fixed pool of chunk buffers is passed back and forth, so memory stays flat: when the writer
/// falls behind, `take` waits for a buffer to come back.
// @unchecked Sendable: the free buffers and the failure are behind its condition lock; chunks pass through the queue's lock.
final class ExportPipeline: @unchecked Sendable {
    private struct Work {
        let file: ExportFileWriter
        /// nil: the file is complete.
        let chunk: ExportBytes?
    }

    static let chunkSize = 1 << 18
    private let queue = BoundedBatchQueue<Work>(capacity: 4)
    private let condition = NSCondition()
    private var free: [ExportBytes]
    /// The first failure of the writer thread; later chunks are dropped, and the caller sees it
    /// at its next `take` or `end`.
    private var failure: Error?
    private let stopped = DispatchSemaphore(value: 0)

    init(buffers: Int = 8) {
        free = (0..<buffers).map { _ in ExportBytes(capacity: Self.chunkSize + (1 << 16)) }
        NamedThread.start("gdpr writer") { [self] in
            while let batch = queue.pop() {
                for work in batch { run(work) }
            }
            stopped.signal()
        }
    }

    private var closed = false

    /// Stops the thread once it has done what is queued. Safe to call more than once.
    func close() {
        guard !closed else { return }
        closed = true
        queue.close()
        stopped.wait()
    }

    /// A buffer not handed on after all (a file's last, empty one).
    func giveBack(_ buffer: ExportBytes) {
        buffer.clear()
        condition.lock()
        free.append(buffer)
        condition.broadcast()
        condition.unlock()
    }

    /// An empty buffer to encode into, waiting while all are queued; throws the writer's failure.
    func take() throws -> ExportBytes {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure { throw failure }
        return free.removeLast()
    }

    func submit(_ file: ExportFileWriter, _ chunk: ExportBytes?) {
        queue.push([Work(file: file, chunk: chunk)])
    }

    var error: Error? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    private func run(_ work: Work) {
        let file = work.file
        do {
            if error == nil {
                if let chunk = work.chunk {
                    file.hash(chunk)
                    try file.sink.write(chunk)
                } else {
                    try file.sink.end()
                }
            }
        } catch {
            condition.lock()
            if failure == nil { failure = error }
            condition.broadcast()
            condition.unlock()
        }
        if let chunk = work.chunk {
            chunk.clear()
            condition.lock()
            free.append(chunk)
            condition.broadcast()
            condition.unlock()
        } else {
            file.ended.signal()
        }
    }
}

/// One file of an export: the buffer rows are encoded into, handed to the pipeline every
/// `ExportPipeline.chunkSize` bytes; at the end, its entry for the manifest.
// @unchecked Sendable: the caller fills the buffer; the pipeline's thread alone hashes and counts until `ended` is signalled.
final class ExportFileWriter: @unchecked Sendable {
    let name: String
    let sink: ExportFileSink
    private let pipeline: ExportPipeline
    private(set) var buffer: ExportBytes
    /// Touched by the pipeline's thread only, until `ended` is signalled.
    var hasher = SHA256()
    var bytes: UInt64 = 0
    let ended = DispatchSemaphore(value: 0)

    init(_ name: String, sink: ExportFileSink, pipeline: ExportPipeline) throws {
        self.name = name
        self.sink = sink
        self.pipeline = pipeline
        buffer = try pipeline.take()
    }

    @inline(__always) func flushIfFull() throws {
        if buffer.count >= ExportPipeline.chunkSize { try handOff() }
    }

    /// Adds a chunk to the file's sha256 and size.
    func hash(_ chunk: ExportBytes) {
        hasher.update(bufferPointer: chunk.bytes)
        bytes += UInt64(chunk.count)
    }

    private func handOff() throws {
        let full = buffer
        buffer = try pipeline.take()
        pipeline.submit(self, full)
    }

    /// Hands on the rest, waits until the file is written, and returns it as the manifest lists it.
    func end(rows: Int?) throws -> ExportedFile {
        if buffer.count > 0 { try handOff() }
        pipeline.giveBack(buffer)
        pipeline.submit(self, nil)
        ended.wait()
        if let error = pipeline.error { throw error }
        return ExportedFile(name: name, rows: rows, bytes: bytes, sha256: FileDigest.hex(hasher.finalize()))
    }
}
