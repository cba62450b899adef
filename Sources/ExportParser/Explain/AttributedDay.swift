/// One input's day book after the whole input was read, with what it heard about the explained
/// date: what every explainer works from. The ranking inputs (source names, watches, priority)
/// are the book's own, so an explanation ranks sources exactly as the payload's rule did.
struct AttributedDay {
    let input: String
    let attribution: DayAttribution
    /// The book's finished day for the date (nil: the input has nothing that date).
    let day: FinishedDay?
    let clock: LocalClock
    let sources: [String]
    let watches: Set<String>
    let priority: SourcePriority

    /// ISO 8601 with the local offset, as the payload writes times.
    func iso(_ t: Timestamp) -> String { clock.iso(t) }
}
