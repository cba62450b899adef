import Foundation

/// The tests' random numbers: SplitMix64 from a seed, so a failing run can be repeated exactly.
///
/// A test that draws random inputs takes its seed from `HI_TEST_SEED` when set (to replay a
/// failure) and otherwise from a fixed default, and names the seed in every failure message.
/// `SystemRandomNumberGenerator` is never used in a test: a red run it causes cannot be replayed.
struct SeededRandom: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The seed a test uses: `HI_TEST_SEED` from the environment, else `fallback`.
    init(defaultSeed fallback: UInt64) {
        let text = ProcessInfo.processInfo.environment["HI_TEST_SEED"] ?? ""
        self.init(seed: UInt64(text) ?? fallback)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// What a failure message says so the run can be repeated.
    var replay: String { "(seed \(seed); repeat with HI_TEST_SEED=\(seed))" }
}
