import Foundation

/// Keys of a payload JSON input that no output field has: the input was read without them.
struct IgnoredPayloadKeys: Sendable {
    let input: String
    /// Key path (`metrics.restingHeartRate`) and how many times it was met.
    let keys: [String: Int]

    /// `metrics.restingHeartRate (7), foo (1)`: most frequent first, then by name.
    var listed: String {
        keys.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }
}
