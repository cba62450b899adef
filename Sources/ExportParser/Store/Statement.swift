import CSQLite

/// A prepared statement with raw binds (1-based indexes, as in SQLite). Strings are bound from
/// their UTF-8 storage without a copy on the Swift side; SQLite copies them (`SQLITE_TRANSIENT`).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the SQLite statement
/// boundary: every `sqlite3_bind_*`/`sqlite3_column_*` of the store is here. Texts are bound from a
/// String's UTF-8 storage, valid for the call, with `SQLITE_TRANSIENT` (SQLite copies them); a blob
/// bound in place must outlive the step (said at `bindBlobInPlace`); column bytes are copied out
/// (`text`, `blob`), except `textBytes`, whose `(pointer, count)` is valid until the next step,
/// reset or column read, and whose callers (the GDPR encoders) copy at once.
final class Statement {
    let stmt: OpaquePointer
    unowned let connection: SQLiteConnection
    /// What each parameter holds now (index = parameter number), for a statement that
    /// `remembersBinds`; nil for the others, whose binds all go to SQLite.
    private var held: UnsafeMutablePointer<Held>?
    private var heldCount: Int32 = 0

    init(_ stmt: OpaquePointer, connection: SQLiteConnection) {
        self.stmt = stmt
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(stmt)
        held?.deallocate()
    }

    /// A parameter's value as SQLite holds it, when it can be compared cheaply: NULL, an
    /// integer, a double (its bits) or a text bound in place (its address and length). `unknown`
    /// for anything else (a text or blob SQLite copied, a bind that failed): the next bind of
    /// that parameter always goes to SQLite.
    private struct Held {
        enum Kind: UInt8 { case unknown, null, integer, real, staticText }
        var kind: Kind
        var count: Int32
        var bits: UInt64
        static let unknown = Held(kind: .unknown, count: 0, bits: 0)
        static let null = Held(kind: .null, count: 0, bits: 0)
    }

    /// From now on a bind of the value a parameter already holds is skipped. SQLite keeps a
    /// statement's bindings across `sqlite3_reset` (only `sqlite3_clear_bindings` clears them),
    /// so a parameter bound to the same value as on the statement's previous run holds it still.
    /// For the multi-row inserts (`MultiRowInsert`), whose row `r` takes the sample 64 places
    /// after the one it had before: of a sample's 22 parameters about 16 repeat (its NULL id,
    /// type, source, version, device, unit, offsets, zone, bucket columns, metadata name), and a
    /// bind costs SQLite about 100 instructions (a mutex, releasing the old value, setting the
    /// new) against a few for the comparison (issue 24, store5: 19 % of the store writer's
    /// instructions were binds). Every bind of this type goes through `bindHeld`, so what is
    /// held is always what SQLite holds.
    func remembersBinds() {
        guard held == nil else { return }
        let n = sqlite3_bind_parameter_count(stmt)
        let h = UnsafeMutablePointer<Held>.allocate(capacity: Int(n) + 1)
        h.initialize(repeating: .unknown, count: Int(n) + 1)
        held = h
        heldCount = n
    }

    /// Binds parameter `i` with `bind` unless it holds `value` already (statements that
    /// remember, above); records what it holds after.
    @inline(__always) private func bindHeld(_ i: Int32, _ value: Held, _ bind: () -> Int32) {
        guard let h = held, i > 0, i <= heldCount else {
            _ = bind()
            return
        }
        let p = h + Int(i)
        if value.kind != .unknown, p.pointee.kind == value.kind, p.pointee.bits == value.bits, p.pointee.count == value.count {
            return
        }
        p.pointee = bind() == SQLITE_OK ? value : .unknown
    }

    @inline(__always) private func bindInt(_ i: Int32, _ v: Int64) {
        bindHeld(i, Held(kind: .integer, count: 0, bits: UInt64(bitPattern: v))) { sqlite3_bind_int64(stmt, i, v) }
    }
    @inline(__always) private func bindNull(_ i: Int32) {
        bindHeld(i, .null) { sqlite3_bind_null(stmt, i) }
    }

    @inline(__always) func bind(_ i: Int32, _ v: Int64) { bindInt(i, v) }
    @inline(__always) func bind(_ i: Int32, _ v: Int) { bindInt(i, Int64(v)) }
    @inline(__always) func bind(_ i: Int32, _ v: Int64?) {
        if let v { bindInt(i, v) } else { bindNull(i) }
    }
    @inline(__always) func bind(_ i: Int32, _ v: Int?) {
        if let v { bindInt(i, Int64(v)) } else { bindNull(i) }
    }
    @inline(__always) func bind(_ i: Int32, _ v: Double?) {
        // NaN would be stored as NULL by SQLite anyway; say so explicitly. Compared by bits: a
        // bind is skipped only for the very same double.
        if let v, !v.isNaN {
            bindHeld(i, Held(kind: .real, count: 0, bits: v.bitPattern)) { sqlite3_bind_double(stmt, i, v) }
        } else {
            bindNull(i)
        }
    }
    @inline(__always) func bind(_ i: Int32, _ v: String?) {
        guard let v else { bindNull(i); return }
        // Read the bytes in place (native strings are contiguous); a copy only for the rest.
        if v.utf8.withContiguousStorageIfAvailable({ bindText(i, $0) }) == nil {
            var s = v
            s.withUTF8 { bindText(i, $0) }
        }
    }

    /// Binds the text built in `buffer` (UTF-8), copied by SQLite: the buffer is reused for the
    /// next one. The same bytes `bind(i, buffer.string)` binds, without making the string.
    @inline(__always) func bindText(_ i: Int32, _ buffer: ExportBytes) {
        let b = buffer.bytes
        bindText(i, UnsafeBufferPointer(start: b.baseAddress?.assumingMemoryBound(to: UInt8.self), count: b.count))
    }

    @inline(__always) private func bindText(_ i: Int32, _ buf: UnsafeBufferPointer<UInt8>) {
        // A zero-length buffer may have a nil base address; SQLite needs a pointer for "".
        // SQLite copies the bytes: what it holds cannot be compared cheaply (`unknown`).
        bindHeld(i, .unknown) {
            if buf.count == 0 { return sqlite3_bind_text(stmt, i, "", 0, sqliteTransient) }
            return buf.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(stmt, i, $0.baseAddress, Int32($0.count), sqliteTransient) }
        }
    }

    /// A text's UTF-8 bytes in memory of its own, at an address that never moves, freed only
    /// when the last reference goes: bound with `bindStatic`, SQLite reads it in place instead of
    /// copying it (the copy is a malloc and a free for every bind).
    // @unchecked Sendable: immutable after init.
    final class StaticText: @unchecked Sendable {
        let bytes: UnsafeMutableBufferPointer<CChar>
        let count: Int32
        init(_ text: String) {
            let utf8 = Array(text.utf8)
            // One byte at least: SQLite needs a pointer for "".
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, utf8.count))
            for (k, b) in utf8.enumerated() { buffer[k] = CChar(bitPattern: b) }
            bytes = buffer
            count = Int32(utf8.count)
        }
        deinit { bytes.deallocate() }

        /// The bytes' address and length, without the object: binding through it counts no
        /// references (a `StaticText` passed to a bind was retained and released for each, four
        /// times a sample: 1.4 % of the 3 GB store run, perf). Valid while the object lives.
        struct Raw {
            let bytes: UnsafeMutablePointer<CChar>
            let count: Int32
        }
        var raw: Raw { Raw(bytes: bytes.baseAddress!, count: count) }
    }

    /// Binds `text` without a copy (SQLITE_STATIC). Safe while `text` is alive when the
    /// statement steps: the callers bind texts their import's `StoreNames` holds for the whole
    /// import, and the statement is stepped within the same call; a bound pointer left behind
    /// after that is never read (a later bind or `sqlite3_finalize` does not read it). A
    /// statement that remembers its binds skips binding the same address and length again:
    /// SQLite then holds exactly the pointer and length this bind would give it, and `text`,
    /// alive now, is what they point to.
    @inline(__always) func bindStatic(_ i: Int32, _ text: StaticText?) {
        bindStatic(i, text?.raw)
    }

    /// `bindStatic` of a `StaticText`'s bytes by address (`StaticText.Raw`): the same promise,
    /// the caller keeping the `StaticText` alive.
    @inline(__always) func bindStatic(_ i: Int32, _ text: StaticText.Raw?) {
        guard let text else { bindNull(i); return }
        let address = UInt64(UInt(bitPattern: text.bytes))
        bindHeld(i, Held(kind: .staticText, count: text.count, bits: address)) {
            sqlite3_bind_text(stmt, i, text.bytes, text.count, nil)
        }
    }

    /// Binds `bytes` as a blob read in place, without a copy (no destructor: SQLITE_STATIC).
    /// The caller keeps `bytes` alive until the statement has stepped; after that the bind is
    /// unused. An empty buffer may have no base address; SQLite needs a pointer for a blob.
    func bindBlobInPlace(_ i: Int32, _ bytes: UnsafeRawBufferPointer) {
        bindHeld(i, .unknown) {
            sqlite3_bind_blob64(stmt, i, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count), nil)
        }
    }

    /// Binds an instant as ISO 8601 text with its recorded offset (`2024-01-02T07:58:11+01:00`)
    /// and its epoch seconds at `i + 1`, formatted without allocating.
    @inline(__always) func bindInstant(_ i: Int32, _ t: Timestamp?) {
        guard let t else {
            bindNull(i)
            bindNull(i + 1)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf in
            let n = ISOInstant.format(t, into: buf.baseAddress!)
            bindText(i, UnsafeBufferPointer(start: buf.baseAddress!, count: n))
        }
        bindInt(i + 1, t.seconds)
    }

    /// Binds an instant as its epoch seconds at `i` and its recorded UTC offset (seconds) at `i + 1`.
    @inline(__always) func bindEpochOffset(_ i: Int32, _ t: Timestamp?) {
        if let t {
            bindInt(i, t.seconds)
            bindInt(i + 1, Int64(t.offset))
        } else {
            bindNull(i)
            bindNull(i + 1)
        }
    }

    /// Steps once: true when a row is ready, false when done. Throws on errors.
    @discardableResult
    @inline(__always) func step() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error("statement failed", rc)
    }

    /// Steps a statement that returns no rows and resets it for the next use.
    @inline(__always) func run() throws {
        let rc = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        if rc != SQLITE_DONE && rc != SQLITE_ROW { throw connection.error("statement failed", rc) }
    }

    @inline(__always) func reset() {
        sqlite3_reset(stmt)
    }

    func clearBindings() {
        sqlite3_clear_bindings(stmt)
        if let held { held.update(repeating: .null, count: Int(heldCount) + 1) }
    }

    var columnCount: Int32 { sqlite3_column_count(stmt) }
    func int(_ col: Int32) -> Int64 { sqlite3_column_int64(stmt, col) }
    func double(_ col: Int32) -> Double? {
        sqlite3_column_type(stmt, col) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, col)
    }
    func text(_ col: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, col) else { return nil }
        return String(cString: p)
    }
    func isNull(_ col: Int32) -> Bool { sqlite3_column_type(stmt, col) == SQLITE_NULL }

    /// What a column of the current row holds, as SQLite stored it (a column has no declared
    /// type that counts: each row's value has its own).
    enum ColumnType { case integer, real, text, blob, null }

    @inline(__always) func type(_ col: Int32) -> ColumnType {
        switch sqlite3_column_type(stmt, col) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// A copy of the column's blob (empty for NULL): SQLite's own buffer is valid only until
    /// the statement steps or resets, so it never leaves this type.
    func blob(_ col: Int32) -> [UInt8] {
        guard let p = sqlite3_column_blob(stmt, col) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, col))))
    }

    /// The column's value as a double (0 for NULL).
    @inline(__always) func real(_ col: Int32) -> Double { sqlite3_column_double(stmt, col) }

    /// The column's UTF-8 text in SQLite's buffer, without a copy, and its length (nil and 0
    /// for NULL, or if SQLite ran out of memory). Valid until the statement steps, resets or
    /// reads the column as another type: the callers copy it out at once (GDPR export's
    /// encoders).
    @inline(__always) func textBytes(_ col: Int32) -> (UnsafePointer<UInt8>?, Int) {
        guard let p = sqlite3_column_text(stmt, col) else { return (nil, 0) }
        return (p, Int(sqlite3_column_bytes(stmt, col)))
    }
}

/// ISO 8601 text of a `Timestamp` at its recorded offset, written into a byte buffer.
enum ISOInstant {
    /// Writes `YYYY-MM-DDTHH:MM:SS±HH:MM` (25 bytes for 4-digit years) and returns the length.
    @inline(__always)
    static func format(_ t: Timestamp, into p: UnsafeMutablePointer<UInt8>) -> Int {
        let local = t.seconds + Int64(t.offset)
        let day = Int((local >= 0 ? local : local - 86_399) / 86_400)
        let sod = Int(local - Int64(day) * 86_400)
        let c = CivilDate.civil(day)
        var n = 0
        @inline(__always) func put(_ v: Int, _ width: Int) {
            var v = v
            var i = width - 1
            while i >= 0 { p[n + i] = UInt8(0x30 + v % 10); v /= 10; i -= 1 }
            n += width
        }
        @inline(__always) func ch(_ c: UInt8) { p[n] = c; n += 1 }
        put(min(max(c.year, 0), 9999), 4); ch(0x2D); put(c.month, 2); ch(0x2D); put(c.day, 2)
        ch(0x54); put(sod / 3600, 2); ch(0x3A); put(sod / 60 % 60, 2); ch(0x3A); put(sod % 60, 2)
        let off = Int(t.offset)
        ch(off < 0 ? 0x2D : 0x2B)
        let a = abs(off)
        put(a / 3600 % 100, 2); ch(0x3A); put(a / 60 % 60, 2)
        return n
    }

    static func string(_ t: Timestamp) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf in
            let n = format(t, into: buf.baseAddress!)
            return String(decoding: UnsafeBufferPointer(start: buf.baseAddress!, count: n), as: UTF8.self)
        }
    }
}
