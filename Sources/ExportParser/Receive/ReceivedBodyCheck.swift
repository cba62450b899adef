import CYajl
import Foundation

/// What `receive` checks of a body before it stores it: that it is one JSON document (yajl,
/// streaming, so a 200 MB HAE body costs no tree in memory) of the endpoint's kind, which
/// dates it covers (for `GET /status`), and then that the reader which will read it later takes
/// it (`ReceivedBodyReading`: its warnings are what that reader leaves out). A body that fails
/// gets a 400 with `problem` as its one sentence; nothing of it is stored.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the yajl boundary of
/// `receive`. The date collector reaches the C callbacks through `Unmanaged.passRetained` and is
/// released when `check` returns, after `yajl_free`; yajl's bytes are read inside the callback only
/// (at most 10 of a string, after checking its length). The body is read in place from the server's
/// buffer, valid for the call, so a body of up to --max-body is never copied.
public struct ReceivedBodyCheck: Sendable, Equatable {
    /// The earliest and latest `YYYY-MM-DD` the body's `date` and `start` values begin with
    /// (payload dates, HAE datums' and workouts' local dates); nil when it has none.
    public var firstDate: String?
    public var lastDate: String?
    /// What the reader leaves out of the body (an implausible value), one sentence each, for the
    /// answer's `warnings`; never a value.
    public var warnings: [String] = []

    /// Checks `bytes` as a body of `endpoint` received at `now`: the dates it covers and the
    /// warnings, or the sentence a 400 says. An HAE body is read from a file written in
    /// `scratchFolder` for the reader (`TemporaryBody`; nil: the system's temporary folder).
    public static func check(_ bytes: UnsafeRawBufferPointer, endpoint: ReceiveEndpoint, now: Date = Date(), scratchFolder: String? = nil)
        -> Result<ReceivedBodyCheck, BodyProblem>
    {
        let head = [UInt8](bytes.prefix(4096))
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count, head[i] == UInt8(ascii: "{") || head[i] == UInt8(ascii: "[") else {
            return .failure(BodyProblem("the body is not JSON (it must be an object)"))
        }
        let dates = DateRange()
        // Dates after tomorrow anywhere on Earth are data the readers leave out (after the
        // moment the body is received) or refuse: not dates the body covers.
        let plausible = PlausibleDates(now: now)
        dates.latest = CivilDate.isoDate(plausible.latest(offset: PlausibleDates.widestOffset))
        let context = Unmanaged.passRetained(dates)
        defer { context.release() }
        var callbacks = Self.callbacks
        let failure: String? = withUnsafePointer(to: &callbacks) { cb in
            guard let handle = yajl_alloc(cb, nil, context.toOpaque()) else { return "the server could not parse it (out of memory)" }
            defer { yajl_free(handle) }
            let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var status = start.map { yajl_parse(handle, $0 + i, bytes.count - i) } ?? yajl_status_ok
            var offset = yajl_get_bytes_consumed(handle) + i
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
        if let failure { return .failure(BodyProblem(failure)) }
        let isPayload = PayloadSniffer.isPayload(head)
        switch endpoint {
        case .app where !isPayload:
            return .failure(BodyProblem("the body is not the app's payload JSON ({\"data\": [payload, …]} or a payload)"))
        case .hae where isPayload || !Self.isObjectOrArrayOfObjects(head, at: i):
            return .failure(BodyProblem("the body is not a Health Auto Export body (an object with data.metrics or data.workouts)"))
        default:
            return ReceivedBodyReading.read(bytes, endpoint: endpoint, dates: plausible, folder: scratchFolder).map {
                warnings in
                ReceivedBodyCheck(firstDate: dates.first, lastDate: dates.last, warnings: warnings)
            }
        }
    }

    /// The HAE reader's shapes (docs/hae.md): an object (a body, with or without its `data`
    /// wrapper), or an array of such objects (perhaps empty).
    static func isObjectOrArrayOfObjects(_ head: [UInt8], at start: Int) -> Bool {
        if head[start] == UInt8(ascii: "{") { return true }
        var j = start + 1
        while j < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[j]) { j += 1 }
        return j < head.count && (head[j] == UInt8(ascii: "{") || head[j] == UInt8(ascii: "]"))
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

/// Why a body was refused (400), in one sentence that quotes nothing of the body; or, with
/// `isServerFault`, why the server could not check it (500: the client sends it again).
public struct BodyProblem: Error, Sendable, Equatable {
    public let message: String
    public let isServerFault: Bool
    init(_ message: String, isServerFault: Bool = false) {
        self.message = message
        self.isServerFault = isServerFault
    }
}
