import Foundation

/// The `explain` command: every input read in full as `convert` reads it (the payload's value
/// needs the whole day book), with the book telling a `DayAttribution` where it placed the
/// explained date's samples; the inputs merged as `convert` merges them; the explanation built
/// from the input whose value the payload took.
public final class ExplainJob {
    let request: ExplainRequest
    let options: DayOptions
    let dayNumber: Int
    let field: OutputField

    public init(_ request: ExplainRequest) throws {
        try request.validate()
        self.request = request
        options = try DayOptions(timeZoneName: request.timeZoneName, sourcePriority: request.sourcePriority)
        dayNumber = try ConvertJob.day(request.date, option: "--date")
        field = try ExplainedField.named(request.field)
    }

    public func run() throws -> ExplainOutcome {
        ExplainOutcome(explanation: explain(field, in: try readDate()))
    }

    /// The inputs read for the date: each input's book with what it heard, payload JSON days,
    /// and the date merged as `convert` merges inputs. Any field of the date can be explained
    /// from it (the tests explain them all from one read).
    struct DateReading {
        var read: [(path: String, isHAE: Bool, attributed: AttributedDay)] = []
        var payloads: [(path: String, day: ComparableDay)] = []
        var merged: FinishedDay?
    }

    func readDate() throws -> DateReading {
        var r = DateReading()
        var perInput: [(days: [FinishedDay], isHAE: Bool)] = []
        var dates = Set<String>()
        for path in request.inputs {
            if PayloadReader.isPayloadInput(path) {
                let days = try PayloadReader.read(path).days
                dates.formUnion(days.map(\.date))
                if let day = days.first(where: { $0.date == request.date }) { r.payloads.append((path, day)) }
                continue
            }
            let format = try InputDetector.detect(path: path)
            var dayOptions = options
            dayOptions.fallbackExportDate = ConvertJob.modificationTime(path)
            let book = DayBook(options: dayOptions)
            let attribution = DayAttribution(day: dayNumber)
            book.attribute(to: attribution)
            _ = try ConvertJob.read(path, format: format, into: SinkFanout([book, DetailsWanted()]))
            let days = book.finish()
            dates.formUnion(days.map(\.date))
            let attributed = AttributedDay(
                input: path, attribution: attribution, day: days.first { $0.dayNumber == dayNumber }, clock: book.clock,
                sources: book.sourceNames, watches: book.watchSources, priority: book.options.sourcePriority,
                lateSumPieces: book.lateSumPieces)
            r.read.append((path, format == .hae, attributed))
            perInput.append((days, format == .hae))
        }
        r.merged = DayMerge.merge(perInput).first { $0.dayNumber == dayNumber }
        guard r.merged != nil || !r.payloads.isEmpty else {
            let sorted = dates.sorted()
            let range =
                sorted.isEmpty ? "they hold no dates" : "their dates run from \(sorted.first!) to \(sorted.last!) (\(sorted.count) dates)"
            throw UsageError("--date", "no data on \(request.date) in \(request.inputs.joined(separator: ", ")); \(range)")
        }
        return r
    }

    func explain(_ field: OutputField, in r: DateReading) -> Explanation {
        var explanation: Explanation
        if let merged = r.merged {
            let value = field.read(merged)
            // The input the payload took the value from: the last native one that has it (native
            // wins, a later input over an earlier), else the last HAE one (`DayMerge`).
            func gave(_ x: (path: String, isHAE: Bool, attributed: AttributedDay)) -> Bool {
                value != nil && x.attributed.day.flatMap(field.read) == value
            }
            let source =
                r.read.last { !$0.isHAE && gave($0) } ?? r.read.last { $0.isHAE && gave($0) } ?? r.read.last { !$0.isHAE } ?? r.read.last!
            explanation = Explainer.explain(source.attributed, field: field)
            explanation.value = value
            if r.read.count > 1 {
                explanation.from = source.path
                explanation.otherInputs = r.read.filter { $0.path != source.path }.map { ($0.path, $0.attributed.day.flatMap(field.read)) }
            }
        } else {
            let (path, day) = r.payloads.last!
            explanation = Explanation(date: request.date, field: field, value: nil, rule: "payload JSON: the value as the file states it")
            if let p = field.payloadPath, let v = day.values[p] {
                switch v {
                case .number(let n): explanation.value = .number(n)
                case .text(let t): explanation.value = .text(t)
                }
            } else if field.kind == .workoutsCount {
                explanation.value = .number(Double(day.workouts.count))
            }
            explanation.from = path
            explanation.hasSamples = false
        }
        if !r.payloads.isEmpty {
            explanation.notes.append(
                "payload JSON holds day values, not samples: nothing to show from " + r.payloads.map(\.path).joined(separator: ", "))
        }
        if explanation.value == nil { explanation.notes.append("no value on this date: the payload leaves the field out") }
        return explanation
    }
}

/// The end of an explain run: the explanation, as text or JSON.
public struct ExplainOutcome: Sendable {
    let explanation: Explanation

    /// Aligned columns, the rule in one line.
    public var text: String { ExplanationText.render(explanation) }
    /// `date`, `field`, `value` (the payload's), `rule`, `samples` with their `counted` parts.
    public var json: String { ExplanationJSON.render(explanation) }
}
