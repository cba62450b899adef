import Foundation

/// The parallel read's two kinds of thread (`ParallelSAXDriver` starts them): the workers that cut
/// and parse chunks, and the one player that plays their tapes into the handler in file order.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): a chunk's `[UInt8]` is lent
/// to libxml2 for one `feed` (`withUnsafeBytes`), the worker's or, after a failed proof, the
/// player's sequential parser's.
extension ParallelSAXDriver {
    // MARK: - Workers

    /// A worker thread's loop: each chunk of `work` cut to the window (if any), its control bytes
    /// tested, parsed by a parser of its own into tapes and proven (`valid`), then `parsed` signalled.
    static func parseChunks(
        from work: BoundedBatchQueue<ParseChunk>, state: ChunkPlayState, spares: TapeSpares<ElementTape>, file: String,
        window: ExportWindow?
    ) {
        var seen = ExportWindow.Seen()
        while let batch = work.pop() {
            for chunk in batch {
                defer { chunk.parsed.signal() }
                if state.workersStopped { continue }
                // The window read: only the elements that can reach the dates asked about go on.
                if let window, chunk.mapped != nil {
                    chunk.takeMapped(window, seen: &seen)
                } else {
                    chunk.takeMapped()
                    window?.filter(&chunk.bytes, seen: &seen)
                }
                // The window read's reading thread tests no control byte (`PrologFilter.checksBody`):
                // the bytes left for libxml2 are tested here, a sliver of the chunk. A NUL leaves
                // the chunk to the player's parser, whose libxml2 refuses it: an error, so the
                // window read is done again in full (`ExplainJob`), and the NUL reported there.
                if !seen.walked.isEmpty { (chunk.walked, seen.walked) = (seen.walked, WalkedElements()) }
                if window != nil, !chunk.dropControls() { continue }
                let recorder = ElementRecorder(file: file, syntheticRoot: !chunk.first, spares: spares) { chunk.tapes.append($0) }
                recorder.expect(chunk.walked)
                chunk.shortcuts = EntityShortcuts.apply(&chunk.bytes)
                recorder.shortcuts = chunk.shortcuts
                do {
                    try chunk.bytes.withUnsafeBytes { try recorder.feed($0) }
                    if chunk.last { try recorder.finish() } else { try recorder.finishChunk() }
                    recorder.flush()
                    chunk.valid = chunk.last || recorder.rootCloses == 1
                } catch {
                    chunk.valid = false
                }
                if chunk.valid {
                    recorder.releaseParser()
                    chunk.recorder = recorder
                    chunk.newlines = ParseChunk.lineFeeds(chunk.bytes)
                } else {
                    for t in chunk.tapes { spares.recycle(t) }
                    chunk.tapes = []
                }
            }
        }
        window?.collect(seen)
    }

    // MARK: - The player

    /// The player thread's loop: each chunk in file order, once parsed, played into `handler`;
    /// from the first chunk that is not valid on, the rest of the input through one sequential
    /// parser of its own, whose first error ends the read.
    static func play(
        _ order: BoundedBatchQueue<ParseChunk>, into handler: ExportElementHandler, state: ChunkPlayState, spares: TapeSpares<ElementTape>,
        byteSpares: ChunkByteSpares, file: String
    ) {
        var lineBase = 1  // the file's line of the next chunk's first byte
        var sequential: ElementRecorder?
        while let batch = order.pop() {
            for chunk in batch {
                chunk.parsed.wait()
                // The worker is done with the bytes once `parsed` is signalled.
                defer { byteSpares.recycle(&chunk.bytes) }
                if chunk.controlsDropped > 0 { state.addDropped(chunk.controlsDropped) }
                if sequential == nil, !chunk.sequential, chunk.valid {
                    let offset = Int32(truncatingIfNeeded: chunk.first ? 0 : lineBase - 2)
                    for t in chunk.tapes {
                        t.play(into: handler, lineOffset: offset)
                        spares.recycle(t)
                    }
                    chunk.tapes = []
                    chunk.recorder = nil
                    lineBase += chunk.newlines
                    state.markRoot()
                    continue
                }
                // From here on, one parser reads the rest of the input in order, as the file has it.
                chunk.takeMapped()
                if chunk.shortcuts {
                    EntityShortcuts.restore(&chunk.bytes)
                    chunk.shortcuts = false
                }
                for t in chunk.tapes { spares.recycle(t) }
                chunk.tapes = []
                chunk.recorder = nil
                if sequential == nil {
                    state.stopWorkers()
                    let offset = chunk.first ? 0 : lineBase - 2
                    let lineOffset = Int32(truncatingIfNeeded: offset)
                    sequential = ElementRecorder(file: file, syntheticRoot: !chunk.first, lineOffset: offset, spares: spares) { t in
                        t.play(into: handler, lineOffset: lineOffset)
                        spares.recycle(t)
                    }
                }
                guard let parser = sequential, state.failure == nil else { continue }
                parser.expect(chunk.walked)
                do {
                    try chunk.bytes.withUnsafeBytes { try parser.feed($0) }
                    if chunk.last {
                        try parser.finish()
                        parser.flush()
                        if parser.sawRoot { state.markRoot() }
                        state.endLocation = parser.location()
                    } else {
                        parser.flush()
                    }
                } catch let e as InputError {
                    state.fail(e)
                    order.discardAndClose()
                } catch {
                    state.fail(InputError(file: file, message: "\(error)"))
                    order.discardAndClose()
                }
            }
        }
    }
}
