import Foundation

/// `compare --from D` of files: the two sides read at once (issue 42, docs/compare.md "The window
/// read"). The export side's window read leaves about half a core idle (its scan waits on the
/// reading thread), which the HAE side's read, on a thread of its own, takes. Everything the user
/// sees is as when the sides are read one after the other:
/// - the export side is read on the calling thread, as before;
/// - the HAE side's progress lines are held until the export side is done, then shown on the
///   calling thread in the order they came (`CompareProgressRelay`);
/// - an error of the export side is the one thrown (the HAE side's read is waited for and its
///   result dropped), then one of the HAE side;
/// - the ignored keys are the export side's, then the HAE side's.
extension CompareJob {
    /// One side as read: its days, the payload keys it ignored, the syncs it superseded.
    struct SideRead: Sendable {
        var days: [String: ComparableDay]
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        /// Its inputs read through the window (`CompareJob.windowReads`).
        var windowReads = 0
    }

    /// Both sides of a comparison of files; at once with a window and more than one parsing
    /// thread (the window read's condition), else one after the other (a full read of an export
    /// takes every core already, and reading both at once would add their peaks).
    static func bothSides(
        native: [String], hae: [String], options: DayOptions, window: Comparison.Window?, progress: ((ConvertProgress) -> Void)?
    ) throws -> (native: SideRead, hae: SideRead) {
        func read(_ inputs: [String], progress: ((ConvertProgress) -> Void)?) throws -> SideRead {
            var out = SideRead(days: [:])
            out.days = try side(
                inputs, options: options, ignored: &out.ignored, superseded: &out.superseded, windowReads: &out.windowReads, window: window,
                progress: progress)
            return out
        }
        guard window != nil, ParseThreads.count > 1 else {
            let n = try read(native, progress: progress)
            return (n, try read(hae, progress: progress))
        }
        let relay = CompareProgressRelay()
        let shows = progress != nil
        let haeRead = BackgroundValue<SideRead>(name: "compare hae") {
            defer { relay.end() }
            let send: ((ConvertProgress) -> Void)? = shows ? { relay.send($0) } : nil
            var out = SideRead(days: [:])
            out.days = try CompareJob.side(
                hae, options: options, ignored: &out.ignored, superseded: &out.superseded, windowReads: &out.windowReads, window: window,
                progress: send)
            return out
        }
        let n: SideRead
        do {
            n = try read(native, progress: progress)
        } catch {
            _ = try? haeRead.value()
            throw error
        }
        relay.relay(to: progress)
        return (n, try haeRead.value())
    }
}
