import ExportParser

/// The fixtures' own random numbers: SplitMix64 (Steele, Lea, Flood 2014), so that the same seed
/// gives the same fixture on every machine and every Swift release. The system generator is
/// never used: its sequence is not specified and may change.
struct FixtureRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one purpose (a day, a metric) derived from the seed and a label, so adding
    /// a draw in one place does not shift every number drawn after it elsewhere.
    init(seed: UInt64, stream: UInt64) {
        var g = FixtureRandom(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        _ = g.next()
        self = g
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform integer in the closed range (no modulo bias worth a fixture's concern: the range
    /// is tiny next to 2^64).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % width)
    }

    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Splits `total` (a whole number of grid units) into `count` non-negative parts that add up
    /// to it exactly, each about its share with some noise.
    mutating func split(_ total: Int, into count: Int) -> [Int] {
        guard count > 1 else { return [total] }
        let weights = (0..<count).map { _ in 0.5 + unit() }
        let sum = weights.reduce(0, +)
        var parts = weights.map { Int((Double(total) * $0 / sum).rounded(.down)) }
        parts[count - 1] += total - parts.reduce(0, +)
        return parts
    }
}
