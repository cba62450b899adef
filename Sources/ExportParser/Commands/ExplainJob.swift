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
        var read: [(path: String, isHAE: Bool, days: [FinishedDay], attributed: AttributedDay)] = []
        var payloads: [(path: String, day: ComparableDay?, dates: [String])] = []
        for path in request.inputs {
            if PayloadReader.isPayloadInput(path) {
                let days = try PayloadReader.read(path).days
                payloads.append((path, days.first { $0.date == request.date }, days.map(\.date)))
                continue
            }
            let format = try InputDetector.detect(path: path)
            var dayOptions = options
            dayOptions.fallbackExportDate = ConvertJob.modificationTime(path)
            let book = DayBook(options: dayOptions)
            let attribution = DayAttribution(day: dayNumber, metric: ExplainedField.metric(of: field)?.index)
            book.attribute(to: attribution)
            _ = try ConvertJob.read(path, format: format, into: SinkFanout([book, DetailsWanted()]))
            let days = book.finish()
            let attributed = AttributedDay(
                input: path, attribution: attribution, day: days.first { $0.dayNumber == dayNumber }, clock: book.clock,
                sources: book.sourceNames, watches: book.watchSources, priority: book.options.sourcePriority,
                lateSumPieces: book.lateSumPieces)
            read.append((path, format == .hae, days, attributed))
        }
        let merged = DayMerge.merge(read.map { ($0.days, $0.isHAE) }).first { $0.dayNumber == dayNumber }
        guard merged != nil || payloads.contains(where: { $0.day != nil }) else {
            let dates = Set(read.flatMap { $0.days.map(\.date) } + payloads.flatMap(\.dates)).sorted()
            let range =
                dates.isEmpty ? "they hold no dates" : "their dates run from \(dates.first!) to \(dates.last!) (\(dates.count) dates)"
            throw UsageError("--date", "no data on \(request.date) in \(request.inputs.joined(separator: ", ")); \(range)")
        }
        var explanation: Explanation
        if let merged {
            let value = field.read(merged)
            // The input the payload took the value from: the last native one that has it (native
            // wins, a later input over an earlier), else the last HAE one (`DayMerge`).
            let order = read.filter { !$0.isHAE } + read.filter(\.isHAE)
            let source = order.last { $0.attributed.day.flatMap(field.read) == value && value != nil } ?? order.last!
            explanation = Explainer.explain(source.attributed, field: field)
            explanation.value = value
            if read.count > 1 {
                explanation.from = source.path
                explanation.otherInputs = read.filter { $0.path != source.path }.map { ($0.path, $0.attributed.day.flatMap(field.read)) }
            }
        } else {
            let (path, day, _) = payloads.last { $0.day != nil }!
            explanation = Explanation(date: request.date, field: field, value: nil, rule: "")
            explanation.rule = "payload JSON: the value as the file states it"
            if let path = field.payloadPath, let v = day?.values[path] {
                switch v {
                case .number(let n): explanation.value = .number(n)
                case .text(let t): explanation.value = .text(t)
                }
            } else if field.kind == .workoutsCount, let day {
                explanation.value = .number(Double(day.workouts.count))
            }
            explanation.from = path
        }
        if !payloads.isEmpty {
            explanation.notes.append(
                "payload JSON holds day values, not samples: nothing to show from " + payloads.map(\.path).joined(separator: ", "))
        }
        if explanation.value == nil { explanation.notes.append("no value on this date: the payload leaves the field out") }
        return ExplainOutcome(explanation: explanation)
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
