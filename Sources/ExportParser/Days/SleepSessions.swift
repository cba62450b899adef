/// Sleep sessions (docs/rules.md, "Nights"): sleep samples of any stage and any source, taken in
/// order of start, chain into one session while each starts less than three hours after the
/// session's end so far (the latest end of the samples already in it). A session belongs to the
/// local date its end falls on: a night that starts before midnight is the date it wakes up on, a
/// day sleep or a nap keeps its own date. `NightBook` dates every sleep sample so; `explain`
/// splits the date's samples again to name its sessions.
enum SleepSessions {
    /// A sample that starts this long or longer after the session's end so far begins a new one.
    static let gap: Int64 = 3 * 3_600

    /// The sessions of `count` items already in order of start, as ranges of their indices:
    /// `start(i)` and `end(i)` are item `i`'s instants in seconds.
    static func split(count: Int, start: (Int) -> Int64, end: (Int) -> Int64) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var first = 0
        var sessionEnd = Int64.min
        for i in 0..<count {
            if i > first, start(i) >= sessionEnd + gap {
                out.append(first..<i)
                first = i
                sessionEnd = Int64.min
            }
            sessionEnd = max(sessionEnd, end(i))
        }
        if count > first { out.append(first..<count) }
        return out
    }
}
