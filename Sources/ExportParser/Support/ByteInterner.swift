import Foundation

/// Turns repeated byte strings (type names, source names, units) into one shared `String` and a
/// dense id, so the hot path creates no String for a name it has seen before.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `intern` reads `count` bytes
/// at `p` (an attribute value of the tape being played, valid for the call) and copies them into
/// its own arrays on first sight; comparisons run inside `withUnsafeBufferPointer` of its own
/// arrays, after checking the counts are equal. A hot byte path: it runs for the repeated names of
/// every record.
struct ByteInterner {
    private struct Entry {
        var bytes: [UInt8]
        var id: Int
    }
    private var table: [UInt64: [Entry]] = [:]
    private(set) var strings: [String] = []
    /// Makes the String for bytes seen the first time (the XML reader decodes `&#38;` there).
    let makeString: (UnsafePointer<UInt8>, Int) -> String

    init() { makeString = { String(decoding: UnsafeBufferPointer(start: $0, count: $1), as: UTF8.self) } }
    init(makeString: @escaping (UnsafePointer<UInt8>, Int) -> String) { self.makeString = makeString }

    private var entryBytes: [[UInt8]] = []

    /// The id of the bytes, trying `hint` (the id this slot had last time) before hashing:
    /// consecutive records mostly repeat their type, unit and source.
    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>, _ count: Int, hint: Int) -> Int {
        if hint >= 0, holds(hint, p, count) { return hint }
        return intern(p, count)
    }

    /// Whether entry `id` is the `count` bytes at `p`. libc's memcmp (through raw pointers): the
    /// byte loop below took five instructions a byte of every record's type name (docs/export-xml.md,
    /// "The fifth pass").
    @inline(__always)
    func holds(_ id: Int, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        entryBytes[id].withUnsafeBufferPointer { b in
            b.count == count && (count == 0 || memcmp(UnsafeRawPointer(b.baseAddress!), UnsafeRawPointer(p), count) == 0)
        }
    }

    /// Whether entry `id` is `prefix` followed by the `count` bytes at `p`: a name the caller
    /// would otherwise first copy together into one buffer to intern (a device's description
    /// without its address).
    @inline(__always)
    func holds(_ id: Int, prefixedBy prefix: StaticString, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return entryBytes[id].withUnsafeBufferPointer { b in
            b.count == n + count && memcmp(UnsafeRawPointer(b.baseAddress!), UnsafeRawPointer(prefix.utf8Start), n) == 0
                && (count == 0 || memcmp(UnsafeRawPointer(b.baseAddress! + n), UnsafeRawPointer(p), count) == 0)
        }
    }

    /// The id of the bytes, adding them on first sight.
    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<count { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3 }
        if let bucket = table[h] {
            for e in bucket where e.bytes.count == count {
                if e.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, count) == 0 }) { return e.id }
            }
        }
        let id = strings.count
        let bytes = Array(UnsafeBufferPointer(start: p, count: count))
        strings.append(makeString(p, count))
        table[h, default: []].append(Entry(bytes: bytes, id: id))
        entryBytes.append(bytes)
        return id
    }

    subscript(id: Int) -> String { strings[id] }
}

@inline(__always)
func memcmp(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
    for i in 0..<n where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
    return 0
}
