import Foundation

/// A body read as the readers will read it later (docs/receive.md, "What a body must be"): the
/// app's through the payload reader (`PayloadReader`, as `compare` reads payload JSON), HAE's
/// through the HAE reader (`HAEReader`, as `convert --received` and `compare --store` read it)
/// into a sink that only looks at dates. What either reader refuses is refused here, in the
/// same words, so a body acknowledged can always be read; what a reader leaves out (an
/// implausible value) is said in the answer's warnings. `receive` also refuses data dated
/// before 2014 or after tomorrow (`PlausibleDates`); `compare` and `convert` do not apply that
/// rule to bodies already stored (time moves on; a body accepted yesterday stays readable).
///
/// The body, lent by the server for the call (`BorrowedBytes`), is read by the payload reader in
/// place (`withData`): the data does not outlive `payloads`, and nothing writes through it.
enum ReceivedBodyReading {
    /// The largest app body read: the payload reader parses a file whole (a tree in memory), and
    /// the app sends a few KB a day (a week's re-upload, tens of KB).
    static let appBodyLimit = 16 << 20

    /// What reading a body found: the warnings of what the reader leaves out, or the one
    /// sentence of why it cannot be read. With `dates`, data outside them is refused too. An HAE
    /// body is written for its reader into `folder` (nil: the system's temporary folder).
    static func read(_ bytes: BorrowedBytes, endpoint: ReceiveEndpoint, dates: PlausibleDates?, folder: String? = nil)
        -> Result<[String], BodyProblem>
    {
        switch endpoint {
        case .app: return payloads(bytes, dates: dates)
        case .hae:
            do {
                let moment = dates.map { Date(timeIntervalSince1970: TimeInterval($0.now)) }
                return try TemporaryBody.withFile(bytes, in: folder, modified: moment) { hae(file: $0, dates: dates) }
            } catch {
                let reason = (error as? TemporaryBody.Failure)?.reason ?? "a temporary file failed"
                return .failure(BodyProblem("the body could not be checked (\(reason)); send it again", isServerFault: true))
            }
        }
    }

    /// The app's body: payloads with a real date each and numbers where the payload has numbers.
    static func payloads(_ bytes: BorrowedBytes, dates: PlausibleDates?) -> Result<[String], BodyProblem> {
        guard dates == nil || bytes.count <= appBodyLimit else {
            return .failure(BodyProblem("the app's body is larger than 16 MiB (its payloads are a few KB a day)"))
        }
        guard !bytes.isEmpty else { return .failure(BodyProblem("the body is empty")) }
        var result = PayloadReader.Result()
        do {
            // Read in place: `bytes` outlives the parse, and the data is never written.
            try bytes.withData { try PayloadReader.read(data: $0, file: "the body", into: &result) }
        } catch let error as InputError {
            return .failure(BodyProblem("the payload reader cannot read it: " + sentence(error)))
        } catch {
            return .failure(BodyProblem("the payload reader cannot read it"))
        }
        guard !result.days.isEmpty else { return .failure(BodyProblem("the body holds no payload")) }
        if let dates {
            for day in result.days {
                let offset = result.zones[day.date].flatMap(dates.offset(ofZone:)) ?? PlausibleDates.widestOffset
                if let why = CivilDate.parseISODate(day.date).flatMap({ dates.problem($0, offset: offset) }) {
                    return .failure(BodyProblem("a payload's date \(day.date) \(why)"))
                }
            }
        }
        var warnings = result.leftOut
        if !result.unknownKeys.isEmpty {
            warnings.append("keys no payload field has, not read: \(result.unknownKeys.keys.sorted().joined(separator: ", "))")
        }
        return .success(warnings)
    }

    /// HAE's body, in the file `path`: the HAE reader's report's skips become the warnings.
    static func hae(file path: String, dates: PlausibleDates?) -> Result<[String], BodyProblem> {
        let sink = DateCheck(dates: dates)
        let report: ReadReport
        do {
            report = try HAEReader(path: path).read(into: sink)
        } catch let error as InputError {
            return .failure(BodyProblem("the Health Auto Export reader cannot read it: " + sentence(error)))
        } catch {
            return .failure(BodyProblem("the Health Auto Export reader cannot read it"))
        }
        if let first = sink.firstProblem {
            let more = sink.problems > 1 ? " (and \(sink.problems - 1) more)" : ""
            return .failure(BodyProblem("data dated \(first)\(more)"))
        }
        let warnings = report.skips.sorted { $0.key < $1.key }.map { reason, count in
            "\(CountText.count(count)) item\(count == 1 ? "" : "s") left out: \(reason)"
        }
        return .success(warnings)
    }

    /// An error's place and message without its file (a temporary file's name means nothing to
    /// the sender, and the body has no name).
    static func sentence(_ error: InputError) -> String {
        var location = error.location
        location?.file = nil
        if let location, !location.description.isEmpty { return "\(location): \(error.message)" }
        return error.message
    }

    /// The dates of the samples, nights and workouts the HAE reader finds, judged by
    /// `PlausibleDates` in each one's own recorded offset. Fed by one thread at a time (the
    /// reader's player thread, then the reader's own); read after `read` returns.
    final class DateCheck: SampleSink {
        let dates: PlausibleDates?
        var firstProblem: String?
        var problems = 0

        init(dates: PlausibleDates?) { self.dates = dates }

        func look(_ t: Timestamp) {
            guard let dates else { return }
            let day = PlausibleDates.day(t.seconds, offset: t.offset)
            guard let why = dates.problem(day, offset: t.offset) else { return }
            problems += 1
            if firstProblem == nil { firstProblem = "\(CivilDate.isoDate(day)) \(why)" }
        }

        func sample(_ sample: Sample) { look(sample.start) }
        func workout(_ workout: Workout) { look(workout.start) }
        func sleepSummary(_ night: SleepSummary) { look(night.sleepEnd) }
    }
}
