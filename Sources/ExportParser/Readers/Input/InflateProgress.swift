/// What both inflaters of `ZipEntryStream` (ISA-L, zlib) check between their calls, so a damaged
/// or hostile entry is stopped and worded the same whichever library inflates it: never more
/// bytes handed on than the entry declares, progress on every call, and the declared size at the
/// end.
struct InflateProgress {
    typealias Failure = ZipDirectory.Failure

    let entry: ZipDirectory.Entry
    /// The file offset of the entry's compressed data.
    let start: UInt64
    /// Compressed bytes read from the file so far.
    var consumed: UInt64 = 0
    /// Bytes handed on so far.
    private(set) var produced: UInt64 = 0

    init(entry: ZipDirectory.Entry, start: UInt64) {
        self.entry = entry
        self.start = start
    }

    /// Whether every compressed byte the entry declares has been read.
    var inputEnded: Bool { consumed >= entry.compressedSize }

    /// Hands on the `count` bytes one call wrote, or, when they go past the declared size, what
    /// fits and then a failure. `pendingInput`: compressed bytes read but not yet taken by the
    /// inflater (for the failure's byte offset).
    mutating func deliver(
        _ bytes: UnsafeRawPointer?, _ count: Int, pendingInput: Int, _ output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if UInt64(count) > entry.uncompressedSize - produced {
            let fits = Int(entry.uncompressedSize - produced)
            if fits > 0 { try output(UnsafeRawBufferPointer(start: bytes, count: fits)) }
            throw Failure(
                offset: start + consumed - UInt64(pendingInput),
                message:
                    "the ZIP entry \(entry.printableName) inflates to more than the \(entry.uncompressedSize) bytes its header declares; stopped there (damaged or hostile archive)"
            )
        }
        if count > 0 { try output(UnsafeRawBufferPointer(start: bytes, count: count)) }
        produced += UInt64(count)
    }

    /// A call that took no input and wrote nothing before the stream's end: the compressed data
    /// stops early when it has all been read, else the inflater is stuck (never spin on it).
    func noProgress(pendingInput: Int) -> Failure {
        if inputEnded, pendingInput == 0 {
            return Failure(
                offset: start + consumed,
                message:
                    "the compressed data of the ZIP entry \(entry.printableName) ends before its deflate stream does (truncated or damaged archive)"
            )
        }
        return Failure(
            offset: start + consumed - UInt64(pendingInput),
            message: "the ZIP entry \(entry.printableName) cannot be inflated (no progress): damaged archive")
    }

    /// A damaged stream, in the inflater's words.
    func damaged(_ detail: String, pendingInput: Int) -> Failure {
        Failure(
            offset: start + consumed - UInt64(pendingInput),
            message: "the ZIP entry \(entry.printableName) cannot be inflated (\(detail)): damaged archive")
    }

    /// At the stream's end: exactly the declared size was written.
    func finish() throws {
        if produced != entry.uncompressedSize {
            throw Failure(
                offset: start + consumed,
                message:
                    "the ZIP entry \(entry.printableName) inflates to \(produced) bytes, not the \(entry.uncompressedSize) its header declares (damaged archive)"
            )
        }
    }
}
