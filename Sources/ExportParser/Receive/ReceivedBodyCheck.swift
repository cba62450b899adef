import Foundation

/// What `receive` checks of a body before it stores it: that it is one JSON document (yajl,
/// streaming, so a 200 MB HAE body costs no tree in memory) of the endpoint's kind, which
/// dates it covers (for `GET /status`), and then that the reader which will read it later takes
/// it (`ReceivedBodyReading`: its warnings are what that reader leaves out). A body that fails
/// gets a 400 with `problem` as its one sentence; nothing of it is stored.
///
/// The body is read in place from the server's buffer (`BorrowedBytes`, lent for the call), so
/// a body of up to --max-body is never copied; the JSON pass is `JSONDateScan`'s.
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
    public static func check(_ bytes: BorrowedBytes, endpoint: ReceiveEndpoint, now: Date = Date(), scratchFolder: String? = nil)
        -> Result<ReceivedBodyCheck, BodyProblem>
    {
        let head = bytes.prefix(4096)
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count, head[i] == UInt8(ascii: "{") || head[i] == UInt8(ascii: "[") else {
            return .failure(BodyProblem("the body is not JSON (it must be an object)"))
        }
        // Dates after tomorrow anywhere on Earth are data the readers leave out (after the
        // moment the body is received) or refuse: not dates the body covers.
        let plausible = PlausibleDates(now: now)
        let latest = CivilDate.isoDate(plausible.latest(offset: PlausibleDates.widestOffset))
        let dates: (first: String?, last: String?)
        switch JSONDateScan.scan(bytes, from: i, latest: latest) {
        case .failure(let problem): return .failure(problem)
        case .success(let found): dates = found
        }
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
