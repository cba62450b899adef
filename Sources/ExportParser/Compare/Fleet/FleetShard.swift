/// `compare --everyone --shard K/N`: the share of a store's people one fleet worker takes
/// (docs/compare.md, "Shards"). K counts from 0, as Kubernetes' `$JOB_COMPLETION_INDEX` does,
/// so an Indexed Job passes `--shard $JOB_COMPLETION_INDEX/N` as it is.
///
/// A person's shard is the first 8 bytes of the SHA-256 of the person's id (UTF-8), read as a
/// big-endian unsigned integer, modulo N: the same on every machine and in every release, and
/// independent of who else the store holds, so N workers started anywhere split the people
/// into N disjoint shares that together are everyone.
public struct FleetShard: Sendable, Equatable, CustomStringConvertible {
    /// 0 ..< count.
    public let index: Int
    public let count: Int

    /// Every person: what a run without `--shard` covers.
    public static let all = FleetShard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex: Int, count: Int) {
        index = uncheckedIndex
        self.count = count
    }

    /// Parses `K/N` (0 ≤ K < N); a `UsageError` naming `--shard` otherwise.
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw UsageError(
                "--shard", "--shard takes K/N, e.g. --shard 0/4 (K counts from 0, as $JOB_COMPLETION_INDEX does); got \"\(text)\"")
        }
        guard n >= 1 else { throw UsageError("--shard", "--shard K/N needs N of at least 1; got \"\(text)\"") }
        guard k >= 0, k < n else {
            throw UsageError("--shard", "--shard K/N counts K from 0 to N-1 (\(n - 1) is the last of \(n)); got \"\(text)\"")
        }
        self.init(uncheckedIndex: k, count: n)
    }

    /// The shard of `count` that `person` falls in.
    public static func index(of person: String, count: Int) -> Int {
        let digest = SHA256.hash(data: Array(person.utf8))
        var first: UInt64 = 0
        for byte in digest.prefix(8) { first = first << 8 | UInt64(byte) }
        return Int(first % UInt64(count))
    }

    public func contains(_ person: String) -> Bool { Self.index(of: person, count: count) == index }

    /// The items of `items` whose person (`person(item)`) falls in this shard, in their order:
    /// how a worker picks its people (`FleetJob`).
    public func select<T>(_ items: [T], person: (T) -> String) -> [T] { items.filter { contains(person($0)) } }

    /// The base name of this worker's fleet files under `--out` (`fleet-K-of-N`), so workers
    /// sharing one `--out` do not overwrite each other's, nor the report's `fleet.*`.
    public var fleetFileBase: String { "fleet-\(index)-of-\(count)" }

    /// `K/N`, as given.
    public var description: String { "\(index)/\(count)" }
}
