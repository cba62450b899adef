#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Takes the indentation out of pretty-printed JSON, chunk by chunk, before yajl reads it: the
/// spaces and tabs that follow each line feed.
///
/// Why: Health Auto Export writes its files indented (the public samples are 24–61 % white space,
/// the benchmark's file 46 %), and yajl's lexer takes every white-space byte through its main
/// loop. yajl's thread is the critical path of an HAE read, and its floor program reads the
/// 20 MB benchmark file in 506.5 M instructions as written and in 346.0 M with the indentation
/// gone (callgrind; docs/hae.md, "Indentation taken out before yajl").
///
/// Why the JSON yajl reads stays the same JSON, valid or not:
/// - Only bytes that follow a line feed are taken out, and the line feed stays. Outside a string
///   they are white space between two tokens, which a line feed already separates: yajl reads the
///   same tokens in the same order.
/// - Inside a string yajl refuses the line feed itself ("invalid character inside string"), at
///   the line feed, before it would read what follows: the same error at the same byte.
/// - Every event's offset is turned back into the file's through the chunk's `StrippedRuns`
///   (see `StrippedRuns.removed(before:)`), so skip locations and the byte ranges of re-read
///   metrics are the file's. An error is found again in the file's own bytes (`HAEReader`), so
///   its offset and excerpt are those of a read that strips nothing.
///
/// One stripper reads one byte range in order: a chunk may start with the indentation of a line
/// whose line feed ended the chunk before (`afterLineFeed`).
struct JSONIndentStripper {
    /// Whether the bytes stripped so far end with a line feed, or with one and then only spaces
    /// and tabs: then the next chunk's leading spaces and tabs are indentation too.
    private(set) var afterLineFeed = false

    /// Strips `bytes[0..<count]` in place and returns how many bytes are left; `runs` is
    /// replaced by where bytes were taken out. Every load and store stays inside
    /// `bytes[0..<count]`.
    ///
    /// A line is copied eight bytes at a time once eight bytes or more have been taken out (the
    /// store at `w` then never reaches the bytes not yet read, at `r` and after); before that,
    /// with `memchr` and `memmove`. (≈ 140 instructions a line with a call each way, measured on
    /// the 20 MB benchmark file; see docs/hae.md.)
    mutating func strip(_ bytes: UnsafeMutablePointer<UInt8>, count n: Int, runs: StrippedRuns) -> Int {
        let raw = UnsafeMutableRawPointer(bytes)
        let positions = runs.positions, removedThrough = runs.removedThrough
        var runCount = 0
        var removed = 0
        var r = 0  // next byte to read
        var w = 0  // next byte to write (w <= r: the bytes only move towards the start)
        var indenting = afterLineFeed
        while r < n {
            if indenting {
                let start = r
                r = Self.indentationEnd(bytes, from: r, to: n)
                if r > start {
                    removed &+= r &- start
                    positions[runCount] = Int32(truncatingIfNeeded: w)
                    removedThrough[runCount] = Int32(truncatingIfNeeded: removed)
                    runCount &+= 1
                }
                if r == n { break }
                indenting = false
            }
            // The line, through its line feed (or to the chunk's end).
            if r &- w >= 8 {
                while r &+ 8 <= n {
                    let x = raw.loadUnaligned(fromByteOffset: r, as: UInt64.self)
                    raw.storeBytes(of: x, toByteOffset: w, as: UInt64.self)
                    // The first line feed of the eight bytes, if any: the lowest byte of
                    // `x ^ 0x0A…` that is zero sets the lowest bit of `m` exactly (bits above it
                    // may be set falsely, and are not used).
                    let y = x.littleEndian ^ 0x0A0A_0A0A_0A0A_0A0A
                    let m = (y &- 0x0101_0101_0101_0101) & ~y & 0x8080_8080_8080_8080
                    if m != 0 {
                        let k = (m.trailingZeroBitCount >> 3) &+ 1
                        r &+= k
                        w &+= k
                        indenting = true
                        break
                    }
                    r &+= 8
                    w &+= 8
                }
                if indenting { continue }
                while r < n {
                    let b = bytes[r]
                    bytes[w] = b
                    r &+= 1
                    w &+= 1
                    if b == 0x0A {
                        indenting = true
                        break
                    }
                }
            } else {
                var end = n
                if let lf = memchr(bytes + r, 0x0A, n - r) {
                    end = bytes.distance(to: lf.assumingMemoryBound(to: UInt8.self)) + 1
                    indenting = true
                }
                if w != r { memmove(bytes + w, bytes + r, end - r) }
                w += end - r
                r = end
            }
        }
        runs.setCount(runCount)
        afterLineFeed = indenting
        return w
    }

    /// The offset of the first byte at or after `from` that is neither a space nor a tab (`to`
    /// when there is none). Eight bytes at a time while they are all spaces.
    @inline(__always)
    static func indentationEnd(_ bytes: UnsafeMutablePointer<UInt8>, from: Int, to n: Int) -> Int {
        var r = from
        let raw = UnsafeRawPointer(bytes)
        while true {
            while r &+ 8 <= n {
                let x = raw.loadUnaligned(fromByteOffset: r, as: UInt64.self) ^ 0x2020_2020_2020_2020
                if x != 0 {
                    r &+= x.littleEndian.trailingZeroBitCount >> 3
                    break
                }
                r &+= 8
            }
            while r < n, bytes[r] == 0x20 { r &+= 1 }
            guard r < n, bytes[r] == 0x09 else { return r }
            r &+= 1
        }
    }
}
