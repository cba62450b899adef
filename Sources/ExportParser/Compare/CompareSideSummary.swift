/// What one side of a comparison is, stated before any verdict so a person sees at once when a
/// file went to the wrong side: the kind of input, its files, the dates it covers and the
/// sources it holds.
struct CompareSideSummary: Sendable {
    var side: CompareSide
    /// `Apple Health export`, `Health Auto Export JSON`, `payload JSON`, `store imports`, or two
    /// of them joined with " + ".
    var kind: String
    var files: [String]
    /// First and last date the side has data for, and how many dates it has; nil when none.
    var first: String?
    var last: String?
    var dates: Int
    /// Source names in name order.
    var sources: [String]

    init(side: CompareSide, kind: String, files: [String], days: [String: ComparableDay]) {
        self.side = side
        self.kind = kind
        self.files = files
        let keys = days.keys.sorted()
        first = keys.first
        last = keys.last
        dates = keys.count
        // A side's days share their input's source set (one set, `inputSources`): it is added
        // once per set met, not once per date (a window read's census gives thousands of dates,
        // and each union hashed every name again). Each day adds what only it names.
        var names = Set<String>()
        var added: Set<String>?
        for d in days.values {
            if added != d.inputSources {
                names.formUnion(d.inputSources)
                added = d.inputSources
            }
            d.addOwnSources(to: &names)
        }
        sources = names.sorted()
    }

    /// The kind of each input, named once each in the order met.
    static func kind(of inputs: [String]) -> String {
        var kinds: [String] = []
        for path in inputs {
            let k: String
            if PayloadReader.isPayloadInput(path) {
                k = "payload JSON"
            } else {
                switch CompareInputCheck.kind(path) {
                case .appleXML?, .appleZip?: k = "Apple Health export"
                case .hae?: k = "Health Auto Export JSON"
                case nil: k = "unknown"
                }
            }
            if !kinds.contains(k) { kinds.append(k) }
        }
        return kinds.joined(separator: " + ")
    }

    /// `2024-03-01 … 2024-03-07 (7 dates)`, or `no dates`.
    var range: String {
        guard let first, let last else { return "no dates" }
        return (first == last ? first : "\(first) … \(last)") + " (\(dates) \(dates == 1 ? "date" : "dates"))"
    }

    /// `native: Apple Health export export.zip, 2024-03-01 … 2024-03-07 (7 dates), sources: Anna’s Apple Watch, iPhone`.
    var sentence: String {
        if files.isEmpty { return "\(side.name): no input" }
        return "\(side.name): \(kind) \(files.joined(separator: ", ")), \(range), sources: "
            + (sources.isEmpty ? "none named" : sources.joined(separator: ", "))
    }
}
