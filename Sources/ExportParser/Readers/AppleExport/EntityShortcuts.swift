import Foundation

/// Keeps libxml2 on its fast path for attribute values that hold `&lt;`, `&gt;`, `&quot;` or
/// `&apos;`, which nearly every record of a real export does: its `device` attribute is
/// `&lt;&lt;HKDevice: 0x…&gt;, name:Apple Watch, …&gt;`.
///
/// libxml2 2.9 reads an attribute value in place only while it meets no `&`, `<` or byte above
/// 0x7F; at the first `&` it starts over on its slow path, a call to `xmlCurrentChar` for every
/// character, a buffer allocated for the value and the entity looked up. On the 40 MB export
/// (`fixtures --scale 40`) that path is 38 % of libxml2's instructions: the C floor itself runs
/// 2,385 M instructions, and 1,487 M on the same file with those four references written as
/// plain characters (docs/export-xml.md, "Entity shortcuts").
///
/// So a chunk of the parallel read is given to libxml2 with each such reference's `&` replaced
/// by DEL (0x7F), a character XML allows and the fast path accepts: `&lt;` becomes the four plain
/// characters `\u{7F}lt;`, of the same length, so every line and column stays where it was. The
/// recorder turns `\u{7F}lt;` back into `<` as it copies the value onto the tape, which is the
/// very value libxml2's slow path would have handed over. Exact because:
///
/// - A chunk is rewritten only when it holds no DEL byte and no character reference (`&#`, which
///   could produce a DEL): every DEL libxml2 hands over from it is one of ours, followed by the
///   reference's name and `;`, all inside one value. Nor when it holds `xmlns`: libxml2 checks a
///   namespace's value as a URI, where DEL may not stand.
/// - Where XML allows a reference (attribute values, content), the plain characters are allowed
///   too and mean the same to the recorder; where it reads no references (comments, CDATA,
///   processing instructions) both are plain text, which the reader ignores; anywhere else (a
///   name, a declaration, outside the root) both are errors. A chunk that has an error is read
///   again by the sequential parser from its original bytes (`restore`), so errors are found and
///   worded as before.
/// - `&amp;` is left alone: libxml2 hands it over as `&#38;` (see `XMLText`), which a plain `&`
///   would not be.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `apply` and `restore` scan
/// the array's own buffer with `memchr`, never past its end, and look ahead only within it;
/// `copyDecoding` reads `count` bytes at `source` (a value libxml2 hands the recorder for the
/// callback) and writes at most `count` bytes at `target` (room the tape reserved).
enum EntityShortcuts {
    /// What stands for `&` in a shortcut.
    static let mark: UInt8 = 0x7F

    /// Rewrites the chunk's `&lt;`, `&gt;`, `&quot;` and `&apos;` as shortcuts. Returns whether
    /// any was rewritten; false leaves the bytes as they were (none to rewrite, or the chunk holds
    /// a DEL byte or a character reference, so a DEL in a value could be the file's own).
    static func apply(_ bytes: inout [UInt8]) -> Bool {
        bytes.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress, !b.isEmpty else { return false }
            let end = base + b.count
            if memchr(base, Int32(mark), b.count) != nil || declaresNamespace(base, b.count) { return false }
            var at = base
            var rewrote = false
            while at < end, let found = memchr(at, 0x26, end - at) {
                let p = found.assumingMemoryBound(to: UInt8.self)
                let left = end - p
                if left >= 2, p[1] == UInt8(ascii: "#") {
                    if rewrote { unmark(base, upTo: p) }
                    return false
                }
                if Self.shortcutLength(p, left, first: 0x26) != 0 {
                    p[0] = mark
                    rewrote = true
                }
                at = p + 1
            }
            return rewrote
        }
    }

    /// Whether the bytes hold `xmlns`: libxml2 checks a namespace declaration's value as a URI
    /// itself, where `'` may stand but DEL may not, so a shortcut there would refuse a valid file
    /// (the review found it). Exports declare no namespace; such bytes are read as they are.
    private static func declaresNamespace(_ base: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
        var at = base
        let end = base + count
        // `x` is rare in an export (a device's address), so this is a few `memchr` calls a record.
        while end - at >= 5, let found = memchr(at, 0x78, end - at - 4) {
            let p = found.assumingMemoryBound(to: UInt8.self)
            if p[1] == UInt8(ascii: "m"), p[2] == UInt8(ascii: "l"), p[3] == UInt8(ascii: "n"), p[4] == UInt8(ascii: "s") { return true }
            at = p + 1
        }
        return false
    }

    /// Undoes `apply` on a chunk it returned true for: every DEL in it is a shortcut's.
    static func restore(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            unmark(base, upTo: base + b.count)
        }
    }

    private static func unmark(_ base: UnsafeMutablePointer<UInt8>, upTo end: UnsafeMutablePointer<UInt8>) {
        var at = base
        while at < end, let found = memchr(at, Int32(mark), end - at) {
            let p = found.assumingMemoryBound(to: UInt8.self)
            p[0] = 0x26
            at = p + 1
        }
    }

    /// The length of the reference at `p` (4 for `lt;` and `gt;`, 6 for `quot;` and `apos;`) when
    /// it starts with `first` and is one of the four, else 0.
    @inline(__always)
    private static func shortcutLength(_ p: UnsafePointer<UInt8>, _ left: Int, first: UInt8) -> Int {
        guard p[0] == first, left >= 4 else { return 0 }
        switch p[1] {
        case UInt8(ascii: "l"), UInt8(ascii: "g"):
            return p[2] == UInt8(ascii: "t") && p[3] == UInt8(ascii: ";") ? 4 : 0
        case UInt8(ascii: "q"):
            guard left >= 6 else { return 0 }
            return p[2] == UInt8(ascii: "u") && p[3] == UInt8(ascii: "o") && p[4] == UInt8(ascii: "t") && p[5] == UInt8(ascii: ";") ? 6 : 0
        case UInt8(ascii: "a"):
            guard left >= 6 else { return 0 }
            return p[2] == UInt8(ascii: "p") && p[3] == UInt8(ascii: "o") && p[4] == UInt8(ascii: "s") && p[5] == UInt8(ascii: ";") ? 6 : 0
        default:
            return 0
        }
    }

    /// The character of the shortcut whose name starts with `letter`.
    @inline(__always)
    private static func character(_ letter: UInt8) -> UInt8 {
        switch letter {
        case UInt8(ascii: "l"): return UInt8(ascii: "<")
        case UInt8(ascii: "g"): return UInt8(ascii: ">")
        case UInt8(ascii: "q"): return UInt8(ascii: "\"")
        default: return UInt8(ascii: "'")
        }
    }

    /// Copies a value of a rewritten chunk, each shortcut turned back into its character; returns
    /// the bytes written (at most `count`). A DEL not followed by a whole shortcut (which `apply`
    /// never leaves) is copied as it is.
    @inline(__always)
    static func copyDecoding(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        guard let first = memchr(source, Int32(mark), count) else {
            target.update(from: source, count: count)
            return count
        }
        var read = 0
        var written = 0
        var at = source.distance(to: first.assumingMemoryBound(to: UInt8.self))
        while true {
            (target + written).update(from: source + read, count: at - read)
            written += at - read
            let length = shortcutLength(source + at, count - at, first: mark)
            if length == 0 {
                target[written] = mark
                written += 1
                read = at + 1
            } else {
                target[written] = character(source[at + 1])
                written += 1
                read = at + length
            }
            guard read < count, let next = memchr(source + read, Int32(mark), count - read) else { break }
            at = source.distance(to: next.assumingMemoryBound(to: UInt8.self))
        }
        (target + written).update(from: source + read, count: count - read)
        return written + count - read
    }
}
