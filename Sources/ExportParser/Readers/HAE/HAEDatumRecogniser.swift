/// Recognises, in the bytes yajl is about to read, the two datum layouts that make up nearly all of
/// a large HAE file, so that `compare`'s window read can pass over the datums far from its window
/// without handing them to yajl (issue 42, docs/hae.md "The window read"):
///
/// - a quantity datum: exactly the keys `startDate`, `endDate`, `qty`, `source`;
/// - a heart-rate bucket: exactly `date`, `Min`, `Avg`, `Max`, `source`;
/// - a bucket of another metric: exactly `date`, `qty`, `source`;
///
/// in any order, each once, dates and sources strings, the rest numbers.
///
/// Why skipping such bytes keeps yajl exactly where a full read would be: what is recognised is a
/// strict subset of JSON. Strings hold no backslash and no control byte and are valid UTF-8
/// (yajl checks less: every byte sequence accepted here it accepts too); numbers follow JSON's
/// grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, yajl's own); white space is JSON's
/// four bytes. So yajl would read a recognised unit `,{…}` as one array element without error,
/// and after it would be in the state it was in before: inside an array, after a value. Anything
/// else (an escape, another key, a key twice, a nested value) is not recognised and yajl reads it.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): reads `bytes[from..<to]`
/// only, every index tested against `to` before its load.
enum HAEDatumRecogniser {
    /// What a recognised datum says, with the byte range of its source name in the buffer.
    struct Datum {
        /// `startDate`/`endDate`, or a bucket's `date` as both.
        var start = Timestamp(seconds: 0, offset: 0)
        var end = Timestamp(seconds: 0, offset: 0)
        /// Whether it is a heart-rate bucket (`date`, `Min`, `Avg`, `Max`).
        var isBucket = false
        /// Whether it is dated by `date` (a bucket of either layout).
        var isDated = false
        /// `qty`, or a bucket's `Avg`.
        var value = 0.0
        var minimum = 0.0
        var maximum = 0.0
        var source: Range<Int> = 0..<0
        /// The datum's last key, which a full read's walker would hold last (`HAEDocumentWalker`).
        var lastKey = HAEKey.unknown
    }

    // One bit a key, for "each once".
    private static let startBit: UInt8 = 1, endBit: UInt8 = 2, qtyBit: UInt8 = 4, sourceBit: UInt8 = 8
    private static let dateBit: UInt8 = 16, minBit: UInt8 = 32, avgBit: UInt8 = 64, maxBit: UInt8 = 128
    static let quantityKeys = startBit | endBit | qtyBit | sourceBit
    static let bucketKeys = dateBit | minBit | avgBit | maxBit | sourceBit
    static let datedKeys = dateBit | qtyBit | sourceBit

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// The first byte at or after `i` that is not JSON white space (`to` if none). A window read
    /// passes over the file as written, indentation and all (docs/hae.md, "In place"): the spaces
    /// after a line feed or a space go eight bytes at a time.
    @inline(__always)
    static func skipSpace(_ p: UnsafePointer<UInt8>, _ i: Int, _ to: Int) -> Int {
        var i = i
        let raw = UnsafeRawPointer(p)
        while i < to {
            let b = p[i]
            guard isSpace(b) else { return i }
            i &+= 1
            // A line feed or a space, and the spaces after it (an indentation) eight at a time:
            // up to the first byte of eight that is not a space.
            guard b == 0x0A || b == 0x20 else { continue }
            while i &+ 8 <= to {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian ^ 0x2020_2020_2020_2020
                if x != 0 {
                    i &+= x.trailingZeroBitCount >> 3
                    break
                }
                i &+= 8
            }
        }
        return i
    }

    /// A unit `ws , ws {datum}` starting at `from`: the datum and the offset just past its `}`.
    /// Nil when the bytes up to `to` are not exactly that.
    static func unit(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (Datum, end: Int)? {
        var memo = Memo()
        return unit(p, from: from, to: to, memo: &memo)
    }

    /// `unit`, with what the datums before taught (`Memo`): the same answer, sooner.
    @inline(__always)
    static func unit(_ p: UnsafePointer<UInt8>, from: Int, to: Int, memo: inout Memo) -> (Datum, end: Int)? {
        var i = skipSpace(p, from, to)
        guard i < to, p[i] == 0x2C else { return nil }
        i = skipSpace(p, i &+ 1, to)
        return object(p, from: i, to: to, memo: &memo)
    }

    /// A datum object starting exactly at `from` (its `{`).
    static func object(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (Datum, end: Int)? {
        var memo = Memo()
        return object(p, from: from, to: to, memo: &memo)
    }

    /// `object`, with what the datums before taught.
    static func object(_ p: UnsafePointer<UInt8>, from: Int, to: Int, memo: inout Memo) -> (Datum, end: Int)? {
        guard from < to, p[from] == 0x7B else { return nil }
        var d = Datum()
        var seen: UInt8 = 0
        var i = from &+ 1
        while true {
            i = skipSpace(p, i, to)
            let (bit, key, keyEnd) = Self.key(p, from: i, to: to)
            guard bit != 0, seen & bit == 0 else { return nil }
            seen |= bit
            d.lastKey = key
            i = skipSpace(p, keyEnd, to)
            guard i < to, p[i] == 0x3A else { return nil }
            i = skipSpace(p, i &+ 1, to)
            if bit == qtyBit || bit == minBit || bit == avgBit || bit == maxBit {
                guard let (numberEnd, value) = numberValue(p, from: i, to: to) else { return nil }
                switch bit {
                case minBit: d.minimum = value
                case maxBit: d.maximum = value
                default: d.value = value
                }
                i = numberEnd
            } else if bit == sourceBit {
                // Mostly the source of the datum before: its bytes compared, not scanned again.
                let valueEnd: Int
                if let end = memo.sameSource(p, from: i, to: to) {
                    valueEnd = end
                } else {
                    guard let end = string(p, from: i, to: to) else { return nil }
                    valueEnd = end
                    memo.rememberSource(p + (i &+ 1), valueEnd &- i &- 2)
                }
                d.source = i &+ 1..<valueEnd &- 1
                i = valueEnd
            } else {
                let t: Timestamp
                if let (known, end) = memo.date(p, from: i, to: to) {
                    t = known
                    i = end
                } else {
                    guard let valueEnd = string(p, from: i, to: to) else { return nil }
                    guard let parsed = memo.parseDate(p + (i &+ 1), valueEnd &- i &- 2) else { return nil }
                    t = parsed
                    i = valueEnd
                }
                if bit == endBit { d.end = t } else { d.start = t }
                if bit == dateBit { d.end = t }
            }
            i = skipSpace(p, i, to)
            guard i < to else { return nil }
            if p[i] == 0x2C {
                i &+= 1
                continue
            }
            guard p[i] == 0x7D else { return nil }
            guard seen == quantityKeys || seen == bucketKeys || seen == datedKeys else { return nil }
            d.isBucket = seen == bucketKeys
            d.isDated = seen != quantityKeys
            return (d, i &+ 1)
        }
    }

    /// The key whose string starts at `from` (its opening quote): its bit and the offset just past
    /// its closing quote; bit 0 for any other key. Exact spellings only: `min`/`avg`/`max` (which
    /// the walker takes too) are left to yajl. A key is one of these literals followed by the
    /// closing quote, a string of plain ASCII letters, so its bytes are not scanned as a string's.
    /// (Matched here rather than through `HAEKeyTable`, whose shared table cost a retain and an
    /// access check a key.)
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (bit: UInt8, key: HAEKey, end: Int) {
        let none: (UInt8, HAEKey, Int) = (0, .unknown, 0)
        guard from &+ 11 < to else { return keyNearTheEnd(p, from: from, to: to) }
        // Twelve bytes or more are left: the key and its quotes compared as words (the bytes
        // of `"startDa`, `artDate"`… read as little-endian words), the same answers as below.
        let raw = UnsafeRawPointer(p + from)
        let w = raw.loadUnaligned(as: UInt64.self).littleEndian
        switch w {
        case 0x6144_7472_6174_7322:  // "startDa
            return raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self).littleEndian == 0x2265_7461_4474_7261  // artDate"
                ? (startBit, .startDate, from &+ 11) : none
        case 0x6574_6144_646E_6522:  // "endDate
            return p[from &+ 8] == 0x22 ? (endBit, .endDate, from &+ 9) : none
        case 0x2265_6372_756F_7322: return (sourceBit, .source, from &+ 8)  // "source"
        default: break
        }
        switch w & 0xFF_FFFF_FFFF {
        case 0x22_7974_7122: return (qtyBit, .qty, from &+ 5)  // "qty"
        case 0x22_6E69_4D22: return (minBit, .min, from &+ 5)  // "Min"
        case 0x22_7861_4D22: return (maxBit, .max, from &+ 5)  // "Max"
        case 0x22_6776_4122: return (avgBit, .avg, from &+ 5)  // "Avg"
        default: break
        }
        return w & 0xFFFF_FFFF_FFFF == 0x2265_7461_6422 ? (dateBit, .date, from &+ 6) : none  // "date"
    }

    /// `key` with fewer than twelve bytes left before `to`: byte by byte.
    static func keyNearTheEnd(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (bit: UInt8, key: HAEKey, end: Int) {
        let none: (UInt8, HAEKey, Int) = (0, .unknown, 0)
        guard from &+ 1 < to, p[from] == 0x22 else { return none }
        let first = from &+ 1
        func match(_ s: StaticString, _ bit: UInt8, _ key: HAEKey) -> (UInt8, HAEKey, Int)? {
            let n = s.utf8CodeUnitCount, t = s.utf8Start
            guard first &+ n < to, p[first &+ n] == 0x22 else { return nil }
            for k in 0..<n where p[first &+ k] != t[k] { return nil }
            return (bit, key, first &+ n &+ 1)
        }
        switch p[first] {
        case 0x73: return match("startDate", startBit, .startDate) ?? match("source", sourceBit, .source) ?? none
        case 0x65: return match("endDate", endBit, .endDate) ?? none
        case 0x71: return match("qty", qtyBit, .qty) ?? none
        case 0x64: return match("date", dateBit, .date) ?? none
        case 0x4D: return match("Min", minBit, .min) ?? match("Max", maxBit, .max) ?? none
        case 0x41: return match("Avg", avgBit, .avg) ?? none
        default: return none
        }
    }

    /// A string starting at `from` (its opening quote): the offset just past its closing quote.
    /// Nil for a backslash, a control byte, bytes that are not UTF-8, or no closing quote before
    /// `to`.
    static func string(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, p[from] == 0x22 else { return nil }
        var i = from &+ 1
        let raw = UnsafeRawPointer(p)
        while i < to {
            // Eight plain bytes at a time (none a quote, a backslash, a control byte or ≥ 0x80):
            // each test below is exact as a yes or no for the word (Bit Twiddling Hacks'
            // "haszero"/"hasless"), which is all that is asked of it.
            if i &+ 8 <= to {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                let q = x ^ (ones &* 0x22), s = x ^ (ones &* 0x5C)
                let special = ((x &- ones &* 0x20) & ~x) | ((q &- ones) & ~q) | ((s &- ones) & ~s) | x
                if special & highs == 0 {
                    i &+= 8
                    continue
                }
            }
            let b = p[i]
            if b == 0x22 { return i &+ 1 }
            if b == 0x5C || b < 0x20 { return nil }
            if b < 0x80 {
                i &+= 1
                continue
            }
            guard let next = utf8Scalar(p, at: i, to: to) else { return nil }
            i = next
        }
        return nil
    }

    /// The end of the one UTF-8 scalar of two to four bytes at `i` (a lead byte ≥ 0x80), by
    /// Unicode's table of well-formed sequences (no overlong form, no surrogate, nothing past
    /// U+10FFFF). Nil otherwise.
    @inline(__always)
    static func utf8Scalar(_ p: UnsafePointer<UInt8>, at i: Int, to: Int) -> Int? {
        let b = p[i]
        func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            i &+ k < to && p[i &+ k] >= low && p[i &+ k] <= high
        }
        switch b {
        case 0xC2...0xDF: return cont(1) ? i &+ 2 : nil
        case 0xE0: return cont(1, 0xA0) && cont(2) ? i &+ 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? i &+ 3 : nil
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? i &+ 3 : nil
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? i &+ 4 : nil
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? i &+ 4 : nil
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? i &+ 4 : nil
        default: return nil
        }
    }

    /// A JSON number starting at `from` and its value (`HAEDecimalParser.parse`'s of its bytes):
    /// the offset just past it, as `number` gives. What HAE writes (`-?digits(.digits)?`, at most
    /// 19 digits, a value of at most 2^53 with at most 22 decimals) is read and valued in one
    /// pass, as `HAEDecimalParser` values it (Clinger's fast path); anything else goes through
    /// `number` and `HAEDecimalParser`.
    @inline(__always)
    static func numberValue(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (end: Int, value: Double)? {
        var i = from
        let negative = i < to && p[i] == 0x2D
        if negative { i &+= 1 }
        guard i < to, p[i] &- 0x30 < 10 else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        if p[i] == 0x30 {
            i &+= 1
            digits = 1
        } else {
            while i < to, p[i] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                digits &+= 1
                i &+= 1
            }
        }
        var decimals = 0
        if i < to, p[i] == 0x2E {
            i &+= 1
            guard i < to, p[i] &- 0x30 < 10 else { return nil }
            while i < to, p[i] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                digits &+= 1
                decimals &+= 1
                i &+= 1
            }
        }
        guard i < to else { return nil }
        let b = p[i]
        if b == 0x65 || b == 0x45 || digits > 19 {
            guard let end = number(p, from: from, to: to), let value = HAEDecimalParser.parse(p + from, end &- from) else { return nil }
            return (end, value)
        }
        // A digit after a leading 0 ("01"): no JSON number.
        guard b &- 0x30 >= 10 else { return nil }
        guard mantissa <= 1 << 53, decimals <= 22 else {
            guard let value = HAEDecimalParser.parse(p + from, i &- from) else { return nil }
            return (i, value)
        }
        let m = Double(mantissa)
        let v = decimals == 0 ? m * NumberParser.exactPowerOfTen(0) : m / NumberParser.exactPowerOfTen(decimals)
        return (i, negative ? -v : v)
    }

    /// A JSON number starting at `from`: the offset just past it. Nil unless the grammar holds
    /// and a byte follows it before `to` (yajl ends a number only at the byte after it).
    static func number(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        func isDigit(_ k: Int) -> Bool { k < to && p[k] >= 0x30 && p[k] <= 0x39 }
        if i < to, p[i] == 0x2D { i &+= 1 }
        guard isDigit(i) else { return nil }
        if p[i] == 0x30 {
            i &+= 1
        } else {
            while isDigit(i) { i &+= 1 }
        }
        if i < to, p[i] == 0x2E {
            i &+= 1
            guard isDigit(i) else { return nil }
            while isDigit(i) { i &+= 1 }
        }
        if i < to, p[i] == 0x65 || p[i] == 0x45 {
            i &+= 1
            if i < to, p[i] == 0x2B || p[i] == 0x2D { i &+= 1 }
            guard isDigit(i) else { return nil }
            while isDigit(i) { i &+= 1 }
        }
        // A number must be followed by a byte that cannot continue it; the caller checks which.
        guard i < to, !isDigit(i) else { return nil }
        return i
    }
}

extension HAEDatumRecogniser {
    /// What the datums read so far say of the next: a large file's datums of one metric mostly
    /// share a date (a day's datums), an offset and a source, so a date whose day and offset are
    /// the last one's costs its time of day only, and a source the last one's a comparison of its
    /// bytes, not a scan (docs/hae.md, "In place"). The answers are those of the full path: the
    /// remembered bytes are a date `TimestampParser.parseFixed` took and a string `string` took,
    /// so bytes equal to them (and the time's six digits and two colons checked here) are a
    /// string yajl reads and the timestamp the parser gives.
    struct Memo {
        /// The last date of the 25-byte layout `yyyy-MM-dd HH:mm:ss ±HHMM` parsed in full: its
        /// bytes 0..<8 and 3..<11 (the date and its space) and 19..<25 (the offset, the word of
        /// bytes 17..<25 less its two lowest bytes), and that date's local midnight as UTC
        /// seconds (the offset taken off).
        private var dateHead: UInt64 = 0
        private var dateMid: UInt64 = 0
        private var dateTail: UInt64 = 0
        private var midnight: Int64 = 0
        private var offset: Int32 = 0
        private var hasDate = false
        /// The last source string scanned in full, without its quotes (empty: none).
        private var source: [UInt8] = []

        /// A date string starting at `from` (its opening quote) with the remembered date and
        /// offset: its timestamp and the offset just past its closing quote. Nil otherwise.
        @inline(__always)
        func date(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> (Timestamp, end: Int)? {
            guard hasDate, from &+ 26 < to, p[from] == 0x22, p[from &+ 26] == 0x22 else { return nil }
            let q = p + (from &+ 1)
            let raw = UnsafeRawPointer(q)
            guard raw.loadUnaligned(as: UInt64.self) == dateHead, raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self) == dateMid,
                raw.loadUnaligned(fromByteOffset: 17, as: UInt64.self).littleEndian >> 16 == dateTail, q[13] == 0x3A, q[16] == 0x3A,
                let time = Self.timeOfDay(q)
            else { return nil }
            return (Timestamp(seconds: midnight &+ time, offset: offset), from &+ 27)
        }

        /// The timestamp of the `n` bytes of a date string at `q` (`TimestampParser.parse`'s
        /// answer), remembered when it is of the 25-byte layout.
        mutating func parseDate(_ q: UnsafePointer<UInt8>, _ n: Int) -> Timestamp? {
            guard n == 25, let t = TimestampParser.parseFixed(q), let time = Self.timeOfDay(q) else {
                return TimestampParser.parse(q, n)
            }
            let raw = UnsafeRawPointer(q)
            dateHead = raw.loadUnaligned(as: UInt64.self)
            dateMid = raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self)
            dateTail = raw.loadUnaligned(fromByteOffset: 17, as: UInt64.self).littleEndian >> 16
            midnight = t.seconds - time
            offset = t.offset
            hasDate = true
            return t
        }

        /// Seconds since local midnight of the `HH:mm:ss` at bytes 11..<19 of a 25-byte date, in
        /// `TimestampParser.parseFixed`'s ranges (a leap second's 60 too); nil otherwise.
        @inline(__always)
        private static func timeOfDay(_ q: UnsafePointer<UInt8>) -> Int64? {
            @inline(__always) func d2(_ i: Int) -> Int64 {
                let a = q[i] &- 0x30, b = q[i &+ 1] &- 0x30
                return a < 10 && b < 10 ? Int64(a) * 10 + Int64(b) : -1
            }
            let h = d2(11), m = d2(14), s = d2(17)
            guard h >= 0, h <= 23, m >= 0, m <= 59, s >= 0, s <= 60 else { return nil }
            return h * 3600 + m * 60 + s
        }

        /// The offset just past the closing quote of a string starting at `from` that holds the
        /// remembered source's bytes; nil otherwise.
        @inline(__always)
        func sameSource(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
            let n = source.count
            guard n > 0, from &+ n &+ 1 < to, p[from] == 0x22, p[from &+ n &+ 1] == 0x22 else { return nil }
            let equal = source.withUnsafeBufferPointer { WordBytes.equal(p + (from &+ 1), $0.baseAddress!, n) }
            return equal ? from &+ n &+ 2 : nil
        }

        /// The `n` bytes at `q` are a source string's, just scanned in full.
        mutating func rememberSource(_ q: UnsafePointer<UInt8>, _ n: Int) {
            source = Array(UnsafeBufferPointer(start: q, count: n))
        }
    }
}
