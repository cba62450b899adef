/// The tool's version, recorded in every store import.
public enum ExportParserVersion {
    public static let current = "0.1.0"
}
