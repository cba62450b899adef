import Foundation

/// Bytes as they are made, appended without Swift strings in between: a `gdpr-export` file
/// (a row is a few hundred bytes and there can be tens of millions, handed on in chunks) and
/// every JSON text the tool writes (`JSONValue`, `JSONText`), whose one string escaper is here.
///
/// One of the few byte-buffer types that keep pointer code (docs/architecture.md, "Where unsafe
/// code lives"). Why it is safe: `base` is owned by this object alone (allocated here, freed in
/// `deinit` or when `grow` replaces it), so it lives as long as the object; every write goes
/// through `reserve`, which grows the buffer to hold `count + n` bytes before `n` are written,
/// so no write passes `capacity`; readers outside see the bytes only inside `withUnsafeBytes`
/// or `bytes` (valid until the next append, which may move them), or as a copy (`array`,
/// `string`). Appenders taking `(pointer, count)` trust the caller for those `count` bytes:
/// they are called from the other fenced types (the readers' attribute and yajl buffers, the
/// SQLite statement) and from the safe overloads below.
final class ExportBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 20) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of the bytes.
    var array: [UInt8] { Array(bytes) }

    /// The bytes as UTF-8 text (invalid sequences replaced, as `String(decoding:)` does).
    var string: String { String(decoding: bytes, as: UTF8.self) }

    func clear() { count = 0 }

    /// Drops the bytes from `n` on (a writer that wrote a part it then leaves out: an empty
    /// object of the payload). `n` is at most `count`.
    func truncate(to n: Int) {
        precondition(n >= 0 && n <= count, "truncate past the end")
        count = n
    }

    @inline(__always) func reserve(_ n: Int) {
        if count + n > capacity { grow(to: count + n) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) func append(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        guard n > 0, let p else { return }
        reserve(n)
        (base + count).update(from: p, count: n)
        count += n
    }

    @inline(__always) func append(_ text: StaticString) {
        append(text.utf8Start, text.utf8CodeUnitCount)
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0.baseAddress, $0.count) }
    }

    @inline(__always) func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0.baseAddress, $0.count) }
    }

    /// An instant as ISO 8601 text at its recorded offset (`ISOInstant.format`, at most 32 bytes).
    @inline(__always) func appendInstant(_ t: Timestamp) {
        reserve(32)
        count += ISOInstant.format(t, into: base + count)
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { if let p = $0.baseAddress { append(p, $0.count) } }
    }

    /// Decimal digits of an integer.
    @inline(__always) func appendInt(_ value: Int64) {
        reserve(20)
        var v = value.magnitude
        if value < 0 {
            base[count] = 0x2D
            count += 1
        }
        var digits = 1
        var t = v
        while t >= 10 { t /= 10; digits += 1 }
        var i = count + digits - 1
        repeat {
            base[i] = UInt8(0x30 + v % 10)
            v /= 10
            i -= 1
        } while v > 0
        count += digits
    }

    /// A finite number in the shortest text that reads back as the same double (`72`, `0.1`,
    /// `1e-05`); whole numbers without a fraction. Returns false, writing nothing, for NaN and
    /// infinities, which JSON cannot hold.
    @inline(__always) func appendDouble(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if value == value.rounded(.towardZero), value.magnitude < 1e15 {
            appendInt(Int64(value))
        } else {
            append(value.description)
        }
        return true
    }

    /// `value` rounded half away from zero to `decimals` places, as the payload and daily.csv
    /// write it: the text of `JSONValue.format` (`8432`, `6.2`, `null` for NaN and infinities),
    /// a whole number's digits written here rather than through a `String` (the days' rendering
    /// writes about a hundred numbers a date, after the reading: docs/hae.md, "Rendering").
    @inline(__always) func appendRounded(_ value: Double, decimals: Int) {
        guard value.isFinite else { return append("null") }
        let r = JSONValue.round(value, decimals: decimals)
        if r == r.rounded(), abs(r) < 1e15 {
            appendInt(Int64(r))
        } else {
            append(r.description)
        }
    }

    /// A JSON string: quotes, with `"`, `\` and control characters escaped.
    @inline(__always) func appendJSONString(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        reserve(n + 2)
        guard let p, n > 0 else {
            append(0x22)
            append(0x22)
            return
        }
        base[count] = 0x22
        count += 1
        var start = 0
        for i in 0..<n {
            let c = p[i]
            guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
            append(p + start, i - start)
            start = i + 1
            switch c {
            case 0x22: append(0x5C); append(0x22)
            case 0x5C: append(0x5C); append(0x5C)
            case 0x0A: append(0x5C); append(0x6E)
            case 0x0D: append(0x5C); append(0x72)
            case 0x09: append(0x5C); append(0x74)
            default:
                append([0x5C, 0x75, 0x30, 0x30, Self.hexDigits[Int(c >> 4)], Self.hexDigits[Int(c & 0xF)]])
            }
        }
        append(p + start, n - start)
        append(0x22)
    }

    /// `text` as a JSON string (`appendJSONString` of its UTF-8 bytes).
    func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString($0.baseAddress, $0.count) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The one CSV text cell writer (every CSV of the tool comes through here: `CSVWriter.field`
    /// for daily.csv, compare.csv and apple-daily-totals.csv, the GDPR export directly).
    /// An RFC 4180 field: quoted when it holds a comma, quote or line end (quotes doubled), and
    /// an empty text as `""` so that it differs from an empty cell, which is null. A text that
    /// starts with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`: any app can
    /// name itself `=HYPERLINK(…)`, and a spreadsheet would run that cell as a formula (OWASP's
    /// "CSV injection"). Numbers are written by the callers without this function, so a
    /// negative number stays a number, and a text that is only a signed figure (`+11:00`) stays
    /// as it is (`isSignedFigure`).
    @inline(__always) func appendCSVField(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        guard let p, n > 0 else {
            append(0x22)
            append(0x22)
            return
        }
        if Self.startsFormula(p[0]), !Self.isSignedFigure(p, n) {
            appendFormulaGuardedCSVField(p, n)
            return
        }
        var needsQuotes = false
        for i in 0..<n {
            let c = p[i]
            if c == 0x2C || c == 0x22 || c == 0x0A || c == 0x0D {
                needsQuotes = true
                break
            }
        }
        guard needsQuotes else {
            append(p, n)
            return
        }
        reserve(n + 2)
        append(0x22)
        var start = 0
        for i in 0..<n where p[i] == 0x22 {
            append(p + start, i + 1 - start)
            append(0x22)
            start = i + 1
        }
        append(p + start, n - start)
        append(0x22)
    }

    /// `text` as a CSV field (`appendCSVField` of its UTF-8 bytes).
    func appendCSVField(_ text: String) {
        var text = text
        text.withUTF8 { appendCSVField($0.baseAddress, $0.count) }
    }

    /// Whether a spreadsheet reads a cell starting with this byte as a formula.
    @inline(__always) static func startsFormula(_ first: UInt8) -> Bool {
        first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D
    }

    /// A sign followed only by digits, `:` and `.` (`+11:00`, a UTC offset; `-5`, a number kept
    /// as text): a spreadsheet can read it only as a number or a time, never run anything, so it
    /// is written as it is (daily.csv's `timezone` column stays `+11:00`).
    static func isSignedFigure(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard n > 1, p[0] == 0x2B || p[0] == 0x2D else { return false }
        for i in 1..<n where !((p[i] >= 0x30 && p[i] <= 0x39) || p[i] == 0x3A || p[i] == 0x2E) { return false }
        return true
    }

    /// `appendCSVField` for a text that starts a formula: `'` then the text, quoted as it needs.
    private func appendFormulaGuardedCSVField(_ p: UnsafePointer<UInt8>, _ n: Int) {
        let guarded = ExportBytes(capacity: n + 1)
        guarded.append(0x27)
        guarded.append(p, n)
        // The guarded text no longer starts a formula: the plain path quotes it.
        appendCSVField(guarded.base, guarded.count)
    }
}

extension ExportBytes: ContiguousBytes {
    /// The bytes, valid inside `body` only (the next append may move them).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try body(bytes) }
}
