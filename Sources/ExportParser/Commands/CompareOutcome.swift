import Foundation

/// The end of a compare run: what to print and the exit status (0: everything comparable within
/// tolerance and no gap; 1: something out of tolerance or a gap).
public struct CompareOutcome: Sendable {
    let report: CompareReport
    public let outDir: String
    public var exitStatus: Int32 { report.failed ? 1 : 0 }

    /// The summary and the rows that are not `match`, aligned; ANSI colours when `color`.
    public func terminalText(color: Bool) -> String { CompareTerminal.render(report, outDir: outDir, color: color) }
}
