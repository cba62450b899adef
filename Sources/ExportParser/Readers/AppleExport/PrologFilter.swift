import Foundation

/// Sits between the bytes of export.xml and libxml2, doing the two things a conforming parser
/// cannot be asked to do:
///
/// 1. It removes the inline `<!DOCTYPE HealthData [ … ]>` subset before the parser sees it. The
///    reader never needs the DTD (it declares no entities), iOS 16 exports carry a malformed one
///    that stops libxml2 (docs/export-xml.md, "Before the parser sees a byte"), and v13 data does not even
///    validate against its own. The subset is replaced by as many newlines as it spanned, so the
///    parser's line numbers still match the file.
/// 2. It drops C0 control characters other than NUL, TAB, LF and CR (not allowed in XML 1.0; real
///    exports carry a stray U+000B in source names), counting them. A NUL byte stops the read
///    instead: it is what a damaged file (zero-filled blocks) or a UTF-16 one looks like, never a
///    stray character, so reading on would only produce garbage.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the control-byte scan reads
/// the chunk eight bytes at a time (`loadUnaligned`, only where `i + 8 <= count`) inside the one
/// `withUnsafeBytes` of `filter`, or in the region `filterInPlace` and `dropControls(inPlace:)`
/// are lent, which they also compact (writing only below the byte being read); `emit` gets
/// buffers valid for its call only. A hot byte scan: a
/// plain byte loop cost about 9 % of a read (swift-notes.md).
struct PrologFilter {
    private enum State { case prolog, body }
    private var state = State.prolog
    /// Bytes of the prolog held until the DOCTYPE (if any) has been seen whole.
    private var pending: [UInt8] = []
    private(set) var controlCharactersDropped = 0
    /// Whether control bytes are tested here (the prolog's DOCTYPE is removed either way). The
    /// window read turns it off: its workers test only the bytes they keep
    /// (`dropControls(inPlace:count:)`), a sliver of the file.
    var checksBody = true
    /// Input bytes filtered before the current chunk (for the byte offset of a NUL).
    private var consumed: Int64 = 0
    /// The prolog may not grow past this without a root element: a file that is not XML at all.
    static let prologLimit = 16 << 20

    enum Failure: Error {
        case unterminatedDoctype, prologTooLong, nulByte(offset: Int64)
        /// The DOCTYPE names an external DTD, or declares an entity (1-based line of either).
        case externalDTD(line: Int), entityDeclared(line: Int)
    }

    /// Filters one chunk and passes what is ready to `emit` (possibly nothing, possibly more than
    /// the chunk when held prolog bytes are released).
    mutating func filter(_ chunk: some ContiguousBytes, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        try chunk.withUnsafeBytes { try filter(raw: $0, emit: emit) }
    }

    private mutating func filter(raw chunk: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer { consumed += Int64(chunk.count) }
        switch state {
        case .body:
            let base = consumed
            try dropControls(chunk, emit: emit) { base + Int64($0) }
        case .prolog:
            pending.append(contentsOf: chunk)
            if let ready = try resolveProlog() {
                state = .body
                pending = []
                try ready.bytes.withUnsafeBytes { try dropControls($0, emit: emit, origin: ready.origin) }
            } else if pending.count > Self.prologLimit {
                throw Failure.prologTooLong
            }
        }
    }

    /// Flushes held bytes at the end of input (a document that is only a prolog).
    mutating func finish(emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard state == .prolog else { return }
        if let ready = try resolveProlog(atEnd: true) {
            try ready.bytes.withUnsafeBytes { try dropControls($0, emit: emit, origin: ready.origin) }
        }
        state = .body
        pending = []
    }

    /// The prolog ready to parse, and the file offset of each of its bytes (the DOCTYPE's
    /// replacement is shorter than the DOCTYPE).
    private struct Ready {
        var bytes: [UInt8]
        var replacedAt = 0
        var replacementLength = 0
        var removed = 0
        func origin(_ i: Int) -> Int64 { Int64(i < replacedAt + replacementLength ? i : i + removed) }
    }

    /// Returns the prolog with its DOCTYPE replaced, once it is known whole; nil while more bytes are needed.
    private mutating func resolveProlog(atEnd: Bool = false) throws -> Ready? {
        let b = pending
        var i = 0
        let n = b.count
        // Walk markup in the prolog: XML declaration, comments, processing instructions, white space, DOCTYPE.
        while i < n {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || (i == 0 && n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
                i += (i == 0 && c == 0xEF) ? 3 : 1
                continue
            }
            guard c == UInt8(ascii: "<") else { return Ready(bytes: b) }  // not markup: let the parser report it
            guard i + 1 < n else { return atEnd ? Ready(bytes: b) : nil }
            let next = b[i + 1]
            if next == UInt8(ascii: "?") {  // <? … ?>
                guard let e = find(b, [0x3F, 0x3E], from: i + 2) else { return atEnd ? Ready(bytes: b) : nil }
                i = e + 2
            } else if next == UInt8(ascii: "!") {
                guard i + 9 <= n else { return atEnd ? Ready(bytes: b) : nil }
                if b[i + 2] == 0x2D, b[i + 3] == 0x2D {  // <!-- … -->
                    guard let e = find(b, [0x2D, 0x2D, 0x3E], from: i + 4) else { return atEnd ? Ready(bytes: b) : nil }
                    i = e + 3
                } else if Array(b[(i + 2)..<(i + 9)]) == Array("DOCTYPE".utf8) {
                    // The subset ends at the first "]>" after its "["; without "[" the DOCTYPE ends at ">".
                    var j = i + 9
                    while j < n, b[j] != 0x5B, b[j] != 0x3E { j += 1 }
                    guard j < n else { if atEnd { throw Failure.unterminatedDoctype }; return nil }
                    let end: Int
                    if b[j] == 0x5B {
                        guard let e = find(b, [0x5D, 0x3E], from: j + 1) else {
                            if atEnd { throw Failure.unterminatedDoctype }
                            return nil
                        }
                        end = e + 2
                    } else {
                        end = j + 1
                    }
                    try refuseHostileDoctype(b, from: i, subsetStart: j, end: end)
                    let newlines = b[i..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    var out = Array(b[0..<i])
                    out.append(contentsOf: repeatElement(0x0A, count: newlines))
                    out.append(contentsOf: b[end...])
                    return Ready(bytes: out, replacedAt: i, replacementLength: newlines, removed: end - i - newlines)
                } else {
                    return Ready(bytes: b)
                }
            } else {
                return Ready(bytes: b)  // the root element: the prolog is complete and had no DOCTYPE
            }
        }
        return atEnd ? Ready(bytes: b) : nil
    }

    /// Apple's DOCTYPE is an inline subset of ELEMENT and ATTLIST declarations only. One that
    /// points at an external DTD (`SYSTEM`/`PUBLIC`) or declares entities (external ones that read
    /// local files, parameter entities, "billion laughs") is refused outright rather than merely
    /// removed: the file was not written by the Health app, and this says so plainly.
    /// (Removing it would be safe too: libxml2 then never sees a declaration.)
    private func refuseHostileDoctype(_ b: [UInt8], from start: Int, subsetStart: Int, end: Int) throws {
        func line(_ k: Int) -> Int { 1 + b[0..<k].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
        for word in ["SYSTEM", "PUBLIC"] {
            if let k = find(Array(b[start..<subsetStart]), Array(word.utf8), from: 0) { throw Failure.externalDTD(line: line(start + k)) }
        }
        if subsetStart < end, let k = find(Array(b[subsetStart..<end]), Array("<!ENTITY".utf8), from: 0) {
            throw Failure.entityDeclared(line: line(subsetStart + k))
        }
    }

    private func find(_ b: [UInt8], _ needle: [UInt8], from: Int) -> Int? {
        guard needle.count <= b.count else { return nil }
        var i = from
        while i + needle.count <= b.count {
            if b[i] == needle[0] {
                var ok = true
                for k in 1..<needle.count where b[i + k] != needle[k] { ok = false; break }
                if ok { return i }
            }
            i += 1
        }
        return nil
    }

    /// Passes the chunk on, without the forbidden control bytes. Scans a word at a time for a
    /// forbidden byte (normally there is none) and copies only when one must go.
    private mutating func dropControls(
        _ chunk: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void,
        origin: (Int) -> Int64
    ) throws {
        let n = chunk.count
        guard n > 0, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        guard checksBody, let firstBad = Self.firstForbidden(base, n) else { return try emit(chunk) }
        var out = [UInt8](UnsafeBufferPointer(start: base, count: n))
        let (kept, dropped, nul) = out.withUnsafeMutableBufferPointer { Self.compact($0.baseAddress!, from: firstBad, count: n) }
        if let nul { throw Failure.nulByte(offset: origin(nul)) }
        controlCharactersDropped += dropped
        out.removeLast(n - kept)
        try out.withUnsafeBytes { try emit($0) }
    }

    /// The body's bytes just read into `region` (the parallel read's chunk buffer, `ParallelSAXDriver`),
    /// filtered where they are: the forbidden control bytes removed by moving the rest down.
    /// Returns how many bytes are kept, at the start of `region`. Nothing is tested when
    /// `checksBody` is off. Only once the prolog is behind (`inBody`).
    mutating func filterInPlace(_ region: UnsafeMutableRawBufferPointer) throws -> Int {
        precondition(state == .body, "filterInPlace before the prolog was passed")
        let n = region.count
        let base = consumed
        consumed += Int64(n)
        guard checksBody, n > 0, let p = region.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let firstBad = Self.firstForbidden(p, n)
        else { return n }
        let (kept, dropped, nul) = Self.compact(p, from: firstBad, count: n)
        if let nul { throw Failure.nulByte(offset: base + Int64(nul)) }
        controlCharactersDropped += dropped
        return kept
    }

    /// Whether the prolog is behind: from here on every byte goes on as it came, but for the
    /// control bytes (`filterInPlace` may be used).
    var inBody: Bool { state == .body }

    /// Removes the forbidden control bytes from `count` bytes at `p`, in place; for the window
    /// read's workers, which test only the bytes they hand to libxml2 (`checksBody` off on the
    /// reading thread). Returns the bytes kept and dropped, and the index of the first NUL
    /// (nothing is moved then: the caller reads the bytes as they are, and libxml2 refuses them).
    static func dropControls(inPlace p: UnsafeMutablePointer<UInt8>, count n: Int) -> (kept: Int, dropped: Int, nul: Int?) {
        guard n > 0, let firstBad = firstForbidden(p, n) else { return (n, 0, nil) }
        if let z = memchr(p + firstBad, 0, n - firstBad) {
            return (n, 0, p.distance(to: z.assumingMemoryBound(to: UInt8.self)))
        }
        return compact(p, from: firstBad, count: n)
    }

    /// Moves the bytes from `firstBad` on down over the forbidden ones. Stops at a NUL (its index
    /// returned; the bytes are then partly moved, and not to be used).
    private static func compact(_ p: UnsafeMutablePointer<UInt8>, from firstBad: Int, count n: Int) -> (kept: Int, dropped: Int, nul: Int?)
    {
        var write = firstBad
        for k in firstBad..<n {
            let c = p[k]
            if c == 0 { return (write, k - write, k) }
            if isForbidden(c) { continue }
            p[write] = c
            write += 1
        }
        return (write, n - write, nil)
    }

    /// The index of the first forbidden byte in `n` bytes at `base`, nil when there is none.
    private static func firstForbidden(_ base: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        // 32 bytes a step: a quick test of four words at once for any byte below 0x20, then, when
        // one has such a byte (a line feed ends every line of an export), the exact test of each
        // word, which tells a forbidden byte from a tab or line end without a byte loop. Testing a
        // word at a time and then its bytes one by one took 75 M instructions on a 40 MB export,
        // this 30 M (callgrind; docs/export-xml.md, "The fifth pass").
        while i + 32 <= n {
            let w0 = word(base + i), w1 = word(base + i + 8), w2 = word(base + i + 16), w3 = word(base + i + 24)
            if belowSpace(w0) | belowSpace(w1) | belowSpace(w2) | belowSpace(w3) != 0 {
                let b0 = forbiddenLanes(w0), b1 = forbiddenLanes(w1)
                let b2 = forbiddenLanes(w2), b3 = forbiddenLanes(w3)
                if b0 | b1 | b2 | b3 != 0 {
                    let (k, bad) = b0 != 0 ? (0, b0) : b1 != 0 ? (8, b1) : b2 != 0 ? (16, b2) : (24, b3)
                    return i + k + bad.trailingZeroBitCount / 8
                }
            }
            i += 32
        }
        while i + 8 <= n {
            let bad = forbiddenLanes(word(base + i))
            if bad != 0 { return i + bad.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < n {
            if isForbidden(base[i]) { return i }
            i += 1
        }
        return nil
    }

    @inline(__always)
    static func isForbidden(_ c: UInt8) -> Bool { c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D }

    // Byte-lane tests on eight bytes read as one little-endian word (byte k in bits 8k..8k+7).

    @inline(__always)
    private static func word(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    private static let lanes: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// Non-zero iff some byte is below 0x20 (which lane is not exact: a borrow may mark the
    /// lanes above a true one).
    @inline(__always)
    private static func belowSpace(_ w: UInt64) -> UInt64 { (w &- 0x20 &* lanes) & ~w & highBits }

    /// The high bit of each lane whose byte is zero, exactly (no carry crosses a lane: a lane's
    /// low seven bits plus 0x7F stay below 0x100).
    @inline(__always)
    private static func zeroLanes(_ w: UInt64) -> UInt64 { ~(((w & lowBits) &+ lowBits) | w) & highBits }

    /// The high bit of each lane whose byte `isForbidden` refuses, exactly: below 0x20 (bits 5–7
    /// clear: the low seven bits plus 0x60 stay below 0x80) and not a tab, line feed or carriage return.
    @inline(__always)
    private static func forbiddenLanes(_ w: UInt64) -> UInt64 {
        let below = ~(((w & lowBits) &+ 0x60 &* lanes) | w) & highBits
        return below & ~zeroLanes(w ^ (0x09 &* lanes)) & ~zeroLanes(w ^ (0x0A &* lanes)) & ~zeroLanes(w ^ (0x0D &* lanes))
    }
}
