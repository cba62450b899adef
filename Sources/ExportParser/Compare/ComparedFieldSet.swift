/// Which of the compared fields (`ComparableDay.compared`, by index) a day's values hold: what
/// `GapFinder.deliveredDates` needs of every date of a side, without a hash of each field's path
/// on each of thousands of dates (that was a sixth of a window read's single-threaded end on the
/// 3 GB export). Four words inline: no allocation a day; a table of more fields than `capacity`
/// gives no set (`ComparableDay.tracksFields`), and the days are then read by their paths.
struct ComparedFieldSet: Sendable, Equatable {
    static let capacity = 256
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}

    static func == (a: Self, b: Self) -> Bool { a.words == b.words }

    mutating func insert(_ i: Int) {
        let bit = UInt64(1) << UInt64(i & 63)
        switch i >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    mutating func formUnion(_ other: Self) {
        words = (words.0 | other.words.0, words.1 | other.words.1, words.2 | other.words.2, words.3 | other.words.3)
    }

    func contains(_ i: Int) -> Bool {
        let word: UInt64
        switch i >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word & (UInt64(1) << UInt64(i & 63)) != 0
    }

    /// Each index in the set, ascending.
    func forEach(_ body: (Int) -> Void) {
        Self.each(words.0, from: 0, body)
        Self.each(words.1, from: 64, body)
        Self.each(words.2, from: 128, body)
        Self.each(words.3, from: 192, body)
    }

    private static func each(_ word: UInt64, from base: Int, _ body: (Int) -> Void) {
        var word = word
        while word != 0 {
            body(base + word.trailingZeroBitCount)
            word &= word - 1
        }
    }
}
