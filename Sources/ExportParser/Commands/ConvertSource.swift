import Foundation

/// One input of a `convert` (or one side of `compare`) as it is read into its own day book: an
/// Apple Health export, or every Health Auto Export input of the run together (docs/rules.md,
/// "Several inputs in one run": all HAE inputs are one person's HAE data, read through
/// `HAESetReader`, whatever the number of files, folders and JSON Lines files they come in).
enum ConvertSource: Sendable {
    case export(path: String, format: InputFormat)
    case hae(paths: [String], bodies: [HAEBody])

    /// The run's inputs in command-line order, the HAE ones as one source where the first of
    /// them stands; the files of a folder inputs skipped, with why.
    struct Plan {
        var sources: [ConvertSource] = []
        /// Files of a folder input that are none of the inputs convert reads, named and skipped
        /// (`ConvertOutcome` prints them), in the order met.
        var skipped: [(path: String, reason: String)] = []
    }

    /// The run's inputs in command-line order, the HAE ones as one source where the first of
    /// them stands. A folder is the list of its files in name order, each read as if it were
    /// named on the command line (export.zip, export.xml, Health Auto Export JSON); a file of a
    /// folder that is none of them is skipped and named in `Plan.skipped` (docs/usage.md,
    /// "A folder is the list of its files"). A file named on the command line that is payload JSON is refused
    /// (`PayloadInput`): payloads are convert's output, not an input it can pass through exactly.
    static func planned(_ inputs: [String]) throws -> Plan {
        var plan = Plan()
        var haePaths: [String] = []
        var haePlace: Int?
        func add(_ path: String, _ format: InputFormat) {
            if format == .hae {
                if haePlace == nil { haePlace = plan.sources.count }
                haePaths.append(path)
            } else {
                plan.sources.append(.export(path: path, format: format))
            }
        }
        for path in inputs {
            if HAEBody.isDirectory(path) {
                let (files, skipped) = try FolderInput.files(of: path)
                plan.skipped += skipped
                for file in files { add(file.path, file.format) }
                continue
            }
            let format = try InputDetector.detect(path: path)
            if format == .hae, try PayloadInput.isPayload(path: path) { throw PayloadInput.refusal(path) }
            add(path, format)
        }
        if let haePlace {
            plan.sources.insert(.hae(paths: haePaths, bodies: try HAEBody.list(haePaths)), at: haePlace)
        }
        return plan
    }

    /// The sources of `planned`, for the commands that read a folder's usable files and say
    /// nothing of the others (`explain`, `compare`).
    static func plan(_ inputs: [String]) throws -> [ConvertSource] { try planned(inputs).sources }

    var format: InputFormat {
        switch self {
        case .export(_, let format): return format
        case .hae: return .hae
        }
    }

    /// The input's name in the summary: its path, or the first HAE path and how many more.
    var label: String {
        switch self {
        case .export(let path, _): return path
        case .hae(let paths, _): return paths.count == 1 ? paths[0] : "\(paths[0]) and \(paths.count - 1) more"
        }
    }

    /// The file name the store records for the import.
    var fileName: String {
        switch self {
        case .export(let path, _): return URL(fileURLWithPath: path).lastPathComponent
        case .hae(let paths, _):
            let first = URL(fileURLWithPath: paths[0]).lastPathComponent
            return paths.count == 1 ? first : "\(first) and \(paths.count - 1) more"
        }
    }

    func sha256() throws -> String {
        switch self {
        case .export(let path, _): return try FileDigest.sha256(path: path)
        case .hae(_, let bodies): return try HAESetReader(bodies: bodies).sha256()
        }
    }

    /// Streams the input into `sink`; `progress` gets (path, bytes read, size). `zone` is the
    /// run's `--timezone`: the HAE set dates by it what it compares per date. `window`: an
    /// export's window read (`ExportWindow`).
    func read(
        into sink: SampleSink, zone: TimeZone? = nil, window: ExportWindow? = nil, progress: ((String, Int64, Int64?) -> Void)? = nil
    ) throws -> (
        ReadReport, HAESetReader.Summary?
    ) {
        switch self {
        case .export(let path, let format):
            return (
                try InputReader.read(path, format: format, into: sink, window: window, progress: progress.map { p in { p(path, $0, $1) } }),
                nil
            )
        case .hae(_, let bodies):
            var reader = HAESetReader(bodies: bodies)
            reader.zone = zone
            reader.progress = progress.map { p in { p($0.path, $1, $2) } }
            return try reader.read(into: sink)
        }
    }
}
