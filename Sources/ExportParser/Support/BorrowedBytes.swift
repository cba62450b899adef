import Foundation

/// Bytes another owner lends for one call, read in place: a request's body in the server's
/// buffer (up to `--max-body`, never copied whole), or an array. `receive`'s checks read a body
/// through this type's safe methods (`count`, `prefix`, `data`), and the C boundaries that take
/// it whole (yajl, `write`, SQLite) through `withUnsafeBytes`, so `Receive/` holds no pointer.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `raw` is valid only for
/// the call it is lent to (the server's `withUnsafeReadableBytes`, the array's
/// `withUnsafeBytes` in `lending`); a value of this type is never stored, and nothing writes
/// through it (`data` hands Foundation the bytes with no deallocator, for a parse that returns
/// before the call does).
public struct BorrowedBytes: ContiguousBytes {
    private let raw: UnsafeRawBufferPointer

    /// The bytes of `raw`, valid for as long as the caller's call lasts.
    public init(lentFor raw: UnsafeRawBufferPointer) { self.raw = raw }

    /// Lends `bytes` for the call of `body`.
    static func lending<R>(_ bytes: [UInt8], _ body: (BorrowedBytes) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(BorrowedBytes(lentFor: $0)) }
    }

    var count: Int { raw.count }
    var isEmpty: Bool { raw.isEmpty }

    /// A copy of the first `n` bytes (fewer when there are fewer).
    func prefix(_ n: Int) -> [UInt8] { [UInt8](raw.prefix(n)) }

    /// The bytes as `Data` without a copy, for a reader that parses them within `body`.
    func withData<R>(_ body: (Data) throws -> R) rethrows -> R {
        guard let base = raw.baseAddress else { return try body(Data()) }
        return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: raw.count, deallocator: .none))
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try body(raw) }
}
