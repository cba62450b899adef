/// Pairs the two sides' workouts the way the backend de-duplicates Strava and HealthKit
/// workouts: the same activity type, starts within 2 minutes, durations within 5 %. Each workout
/// pairs at most once, closest start first.
enum WorkoutMatcher {
    static let startSlackSeconds: Int64 = 120
    static let durationSlack = 0.05

    static func matches(_ a: ComparableWorkout, _ b: ComparableWorkout) -> Bool {
        guard a.type == b.type, abs(a.startSeconds - b.startSeconds) <= startSlackSeconds else { return false }
        let longer = max(a.durationSeconds, b.durationSeconds)
        return longer == 0 || abs(a.durationSeconds - b.durationSeconds) / longer <= durationSlack + 1e-12
    }

    /// Pairs (native index, HAE index) and the indices left alone on each side.
    static func pair(native: [ComparableWorkout], hae: [ComparableWorkout]) -> (pairs: [(Int, Int)], nativeOnly: [Int], haeOnly: [Int]) {
        var candidates: [(gap: Int64, n: Int, h: Int)] = []
        for (i, n) in native.enumerated() {
            for (j, h) in hae.enumerated() where matches(n, h) { candidates.append((abs(n.startSeconds - h.startSeconds), i, j)) }
        }
        candidates.sort { ($0.gap, $0.n, $0.h) < ($1.gap, $1.n, $1.h) }
        var usedN = Set<Int>(), usedH = Set<Int>(), pairs: [(Int, Int)] = []
        for c in candidates where !usedN.contains(c.n) && !usedH.contains(c.h) {
            usedN.insert(c.n)
            usedH.insert(c.h)
            pairs.append((c.n, c.h))
        }
        pairs.sort { $0.0 < $1.0 }
        return (pairs, native.indices.filter { !usedN.contains($0) }, hae.indices.filter { !usedH.contains($0) })
    }
}
