import Foundation

/// One stretch of export.xml's top-level elements for `ParallelSAXDriver`: its bytes (cut
/// between two top-level elements), and what a worker made of them.
///
/// Threading: the reading thread fills the bytes and flags before it queues the chunk (the
/// queue's lock orders them); a worker writes the results before it signals `parsed`, and the
/// player reads them only after waiting for that signal.
// @unchecked Sendable: each field has one writer at a time, handed over by a queue lock or `parsed`.
final class ParseChunk: @unchecked Sendable {
    var bytes: [UInt8]
    /// Holds the prolog and the root's start tag (no synthetic `<HealthData>` before it).
    let first: Bool
    /// Holds the end of the input (no synthetic `</HealthData>` after it).
    let last: Bool
    /// Read by the player's sequential parser, not by a worker: no sound cut was found, or the
    /// input stopped early (`settle`), or the whole document is this one chunk.
    let sequential: Bool
    /// The window read of a mapped export.xml: the chunk's bytes are still in the file
    /// (`bytes` is an empty buffer); the worker copies into `bytes` what it keeps, or the player
    /// all of them, and sets this to nil.
    var mapped: MappedFile.Part?

    // Results, written by a worker before `parsed` is signalled.
    /// Its tapes, in order; their names point into `recorder`'s dictionary.
    var tapes: [ElementTape] = []
    var recorder: ElementRecorder?
    /// Parsed without an error and, unless last, closed the root exactly once (the synthetic end
    /// tag): the cut after it was between two top-level elements.
    var valid = false
    /// The worker rewrote the bytes' entity references as shortcuts (`EntityShortcuts`); whoever
    /// reads them again from the start restores them first.
    var shortcuts = false
    var newlines = 0
    /// Control bytes a window read's worker removed from the bytes (`PrologFilter.dropControls(inPlace:count:)`).
    var controlsDropped = 0
    /// `compare`'s window read: the sleep samples and workouts the worker walked instead of
    /// keeping (`ExportWindow.walkSleep`, `walkWorkout`), placed among `bytes`; whoever parses the
    /// bytes plays them.
    var walked = WalkedElements()
    let parsed = DispatchSemaphore(value: 0)

    init(bytes: [UInt8], first: Bool, last: Bool, sequential: Bool, mapped: MappedFile.Part? = nil) {
        self.bytes = bytes
        self.first = first
        self.last = last
        self.sequential = sequential
        self.mapped = mapped
    }

    /// Copies into `bytes` the mapped elements `window` keeps, and lets the process drop the
    /// pages (`MappedFile.release`).
    func takeMapped(_ window: ExportWindow, seen: inout ExportWindow.Seen) {
        guard let part = mapped else { return }
        window.filter(part.bytes, into: &bytes, seen: &seen)
        part.file.release(part.range)
        mapped = nil
    }

    /// Copies all the mapped bytes into `bytes` (the player's parser reads them), as `takeMapped(_:seen:)`.
    func takeMapped() {
        guard let part = mapped else { return }
        bytes.append(contentsOf: part.bytes.assumingMemoryBound(to: UInt8.self))
        part.file.release(part.range)
        mapped = nil
    }

    /// Removes the window read's forbidden control bytes from `bytes` in place (each walked
    /// sample's place moved down by those before it); false (nothing removed) at a NUL.
    func dropControls() -> Bool {
        let n = bytes.count
        guard n > 0 else { return true }
        var shifted = walked.places
        if !walked.isEmpty {
            var dropped = 0, k = 0
            for (i, c) in bytes.enumerated() {
                while k < shifted.count, shifted[k] <= i {
                    shifted[k] -= dropped
                    k += 1
                }
                if PrologFilter.isForbidden(c) { dropped += 1 }
            }
            while k < shifted.count {
                shifted[k] -= dropped
                k += 1
            }
        }
        let r = bytes.withUnsafeMutableBufferPointer { PrologFilter.dropControls(inPlace: $0.baseAddress!, count: n) }
        if r.nul != nil { return false }
        if r.kept < n { bytes.removeLast(n - r.kept) }
        controlsDropped = r.dropped
        walked.places = shifted
        return true
    }

    static func lineFeeds(_ bytes: [UInt8]) -> Int {
        // libc's vectorised memchr from one line feed to the next: an export's lines average
        // about 160 bytes, so this reads 32 bytes an instruction or two where the byte loop it
        // replaces (which did not vectorise) took five instructions a byte: 100 M of a parser
        // thread's 1,300 M on the 40 MB export (callgrind, docs/export-xml.md, "The fifth pass").
        bytes.withUnsafeBufferPointer { b in
            guard var at = b.baseAddress else { return 0 }
            let end = at + b.count
            var n = 0
            while at < end, let found = memchr(at, 0x0A, end - at) {
                n += 1
                at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return n
        }
    }
}
