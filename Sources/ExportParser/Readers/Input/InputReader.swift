/// How any input is read: the one place that picks the reader an input's format needs
/// (`InputDetector` tells the format), for convert, compare, explain and the store's replays.
enum InputReader {
    /// Streams one input through the reader its format needs.
    /// `window`: export.xml's window read (`ExportWindow`); HAE inputs are read whole.
    static func read(
        _ path: String, format: InputFormat, into sink: SampleSink, window: ExportWindow? = nil,
        progress: ((Int64, Int64?) -> Void)? = nil
    ) throws -> ReadReport {
        switch format {
        case .appleXML, .appleZip:
            var reader = AppleExportReader(path: path)
            reader.progress = progress
            reader.window = window
            return try reader.read(into: sink)
        case .hae:
            var reader = HAEReader(path: path)
            reader.progress = progress
            return try reader.read(into: sink)
        }
    }
}
