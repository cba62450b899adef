import CYajl
import Foundation

/// One pass of yajl over a JSON text (streaming, so a 200 MB HAE body costs no tree in memory):
/// whether it is valid JSON, and the earliest and latest `YYYY-MM-DD` its `date` and `start`
/// values begin with (payload dates, HAE datums' and workouts' local dates). `receive` checks a
/// body with it (`ReceivedBodyCheck`) and answers `GET /status` with those dates.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the yajl boundary of
/// `receive`. The date collector reaches the C callbacks through `Unmanaged.passRetained` and is
/// released when `scan` returns, after `yajl_free`; yajl's bytes are read inside the callback
/// only (at most 10 of a string, after checking its length). The text is read in place from the
/// bytes lent for the call (`BorrowedBytes`), so a body of up to --max-body is never copied.
enum JSONDateScan {
    /// The dates met, or the one sentence of why the text is not valid JSON. `start`: where the
    /// JSON starts (after a byte order mark and blanks); `latest`: dates after it are not counted.
    static func scan(_ bytes: BorrowedBytes, from start: Int, latest: String?) -> Result<(first: String?, last: String?), BodyProblem> {
        let dates = DateRange()
        dates.latest = latest
        let context = Unmanaged.passRetained(dates)
        defer { context.release() }
        var callbacks = Self.callbacks
        let failure: String? = bytes.withUnsafeBytes { bytes in
            withUnsafePointer(to: &callbacks) { cb -> String? in
                guard let handle = yajl_alloc(cb, nil, context.toOpaque()) else { return "the server could not parse it (out of memory)" }
                defer { yajl_free(handle) }
                let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                var status = base.map { yajl_parse(handle, $0 + start, bytes.count - start) } ?? yajl_status_ok
                var offset = yajl_get_bytes_consumed(handle) + start
                if status == yajl_status_ok {
                    status = yajl_complete_parse(handle)
                    offset = bytes.count
                }
                guard status != yajl_status_ok else { return nil }
                guard let text = yajl_get_error(handle, 0, nil, 0) else { return "the body is not valid JSON (byte \(offset))" }
                defer { yajl_free_error(handle, text) }
                // yajl's first line names the problem ("parse error: premature EOF"); no excerpt of the body.
                let first = String(cString: text).split(separator: "\n").first.map(String.init) ?? "parse error"
                return "the body is not valid JSON: \(first.trimmingCharacters(in: .whitespaces)) (near byte \(offset))"
            }
        }
        if let failure { return .failure(BodyProblem(failure)) }
        return .success((dates.first, dates.last))
    }

    /// The earliest and latest date met; the parser's context.
    final class DateRange {
        var first: String?
        var last: String?
        /// Dates after this one are not counted.
        var latest: String?
        /// Whether the value being parsed belongs to a `date` or `start` key.
        var wanted = false

        func string(_ p: UnsafePointer<UInt8>, _ n: Int) {
            defer { wanted = false }
            guard wanted, n >= 10 else { return }
            let b = UnsafeBufferPointer(start: p, count: 10)
            for k in [0, 1, 2, 3, 5, 6, 8, 9] where !(0x30...0x39).contains(b[k]) { return }
            guard b[4] == 0x2D, b[7] == 0x2D else { return }
            let d = String(decoding: b, as: UTF8.self)
            if let latest, d > latest { return }
            if first.map({ d < $0 }) ?? true { first = d }
            if last.map({ d > $0 }) ?? true { last = d }
        }

        func key(_ p: UnsafePointer<UInt8>, _ n: Int) {
            let k = UnsafeBufferPointer(start: p, count: n)
            wanted = k.elementsEqual("date".utf8) || k.elementsEqual("start".utf8)
        }
    }

    static let callbacks: yajl_callbacks = {
        @inline(__always) func with(_ ctx: UnsafeMutableRawPointer?, _ body: (DateRange) -> Void) -> Int32 {
            Unmanaged<DateRange>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body)
            return 1
        }
        var c = yajl_callbacks()
        c.yajl_null = { ctx in with(ctx) { $0.wanted = false } }
        c.yajl_boolean = { ctx, _ in with(ctx) { $0.wanted = false } }
        c.yajl_number = { ctx, _, _ in with(ctx) { $0.wanted = false } }
        c.yajl_string = { ctx, p, n in with(ctx) { $0.string(p!, Int(n)) } }
        c.yajl_start_map = { ctx in with(ctx) { $0.wanted = false } }
        c.yajl_map_key = { ctx, p, n in with(ctx) { $0.key(p!, Int(n)) } }
        c.yajl_start_array = { ctx in with(ctx) { $0.wanted = false } }
        return c
    }()
}
