import Foundation

/// The name tables of one import's writer: `sample_types` (shared), `sources` and `devices`
/// (per person), each name looked up once and then kept at hand (a sample's by the ids it
/// carries, `StoreSample`; a workout's or correlation's device by the last one seen), and the
/// samples read and added per type.
final class StoreNames {
    private let rows: StoreRows
    private let findType: Statement
    private let insertType: Statement
    private let findSource: Statement
    private let insertSource: Statement
    // `@exclusivity(unchecked)`: the state the store writer touches on every sample, used by the
    // writer thread alone; why that is safe is the promise written on `SampleSink`.

    /// The last device's text from its first `>` on (the part after the memory address), to
    /// recognise the same device without building a string.
    @exclusivity(unchecked) private var lastDeviceTail: [UInt8] = []
    @exclusivity(unchecked) private var lastDeviceHadAddress = false
    @exclusivity(unchecked) private var lastDeviceID: Int64 = -1
    private let findDevice: Statement
    private let insertDevice: Statement
    @exclusivity(unchecked) private var deviceIDs: [String: Int64] = [:]
    /// The import's names by the ids samples use (`StoreSample`: this thread's own copies), and
    /// the type id, source id and device id each resolved to (-1: not yet). Each id is one
    /// distinct name, so a name is looked up in SQLite once, when its id is first used.
    @exclusivity(unchecked) private var local: [String] = []
    /// `local`'s names as bytes that outlive every statement of this import (`staticText`).
    @exclusivity(unchecked) private var localBytes: [Statement.StaticText] = []
    /// `localBytes` by address, for the binds on every row (`Statement.StaticText.Raw`): valid
    /// while `localBytes` holds the texts, that is for this object's life.
    @exclusivity(unchecked) private var localRaw: [Statement.StaticText.Raw] = []
    /// Each name's `SampleKeyDigest.textHash`, made once (a sample's unit, on every row).
    @exclusivity(unchecked) private var localHashes: [UInt64] = []
    /// Per type name: its `sample_types` id, and the samples read and added. Plain integers by
    /// the sample's id: a counter object per type was retained and released for every sample.
    @exclusivity(unchecked) private var localTypes: [Int64] = []
    @exclusivity(unchecked) private var localRead: [Int] = []
    @exclusivity(unchecked) private var localAdded: [Int] = []
    @exclusivity(unchecked) private var localSources: [Int64] = []
    @exclusivity(unchecked) private var localDevices: [Int64] = []

    init(rows: StoreRows) throws {
        self.rows = rows
        let db = rows.db
        findType = try db.prepare("SELECT id FROM sample_types WHERE name = ?1")
        insertType = try db.prepare("INSERT INTO sample_types (name, payload_unit) VALUES (?1, ?2)")
        findSource = try db.prepare("SELECT id FROM sources WHERE name = ?1 AND person = ?2")
        insertSource = try db.prepare("INSERT INTO sources (name, person) VALUES (?1, ?2)")
        findDevice = try db.prepare("SELECT id FROM devices WHERE description = ?1 AND person = ?2")
        insertDevice = try db.prepare("INSERT INTO devices (description, person) VALUES (?1, ?2)")
        for s in [findSource, insertSource, findDevice, insertDevice] { s.bind(2, rows.person) }
    }

    /// Samples read and added by type.
    var countsByType: [String: (read: Int, added: Int)] {
        var counts: [String: (read: Int, added: Int)] = [:]
        for i in localTypes.indices where localTypes[i] >= 0 {
            let before = counts[local[i]] ?? (0, 0)
            counts[local[i]] = (before.read + localRead[i], before.added + localAdded[i])
        }
        return counts
    }

    /// The id of a name in a lookup table (`sample_types`, `sources`, `devices`), added when new.
    private func lookup(_ name: String, find: Statement, insert add: Statement, table: String, extra: String? = nil) throws -> Int64 {
        find.bind(1, name)
        defer { find.reset() }
        if try find.step() { return find.int(0) }
        add.bind(1, name)
        if add === insertType { add.bind(2, extra) }
        _ = try rows.insert(add)
        rows.added(table)
        return rows.db.lastInsertRowID
    }

    /// The `sample_types` id of a sample's type; also counts the sample as read for that type.
    @inline(__always) func typeID(_ s: StoreSample) throws -> Int64 {
        let i = Int(s.type)
        var id = localTypes[i]
        if id < 0 {
            let unit = s.metricIndex >= 0 ? Catalog.metrics[Int(s.metricIndex)].unit.rawValue : nil
            id = try lookup(local[i], find: findType, insert: insertType, table: "sample_types", extra: unit)
            localTypes[i] = id
        }
        localRead[i] += 1
        return id
    }

    /// Counts a sample of the type `type` (a `StoreSample.type`) as added to the store.
    @inline(__always) func countAdded(type: Int32) { localAdded[Int(type)] += 1 }

    /// The `SampleKeyDigest.textHash` of the name `id` (-1: absent).
    @inline(__always) func textHash(_ id: Int32) -> UInt64 { id < 0 ? SampleKeyDigest.textHash(nil as String?) : localHashes[Int(id)] }

    /// Names that samples refer to by id from now on (`StoreSample`), the next ids in order.
    func add(_ names: [String]) {
        local.append(contentsOf: names)
        for n in names {
            let text = Statement.StaticText(n)
            localBytes.append(text)
            localRaw.append(text.raw)
            localHashes.append(SampleKeyDigest.textHash(n))
        }
        localTypes.append(contentsOf: repeatElement(-1, count: names.count))
        localRead.append(contentsOf: repeatElement(0, count: names.count))
        localAdded.append(contentsOf: repeatElement(0, count: names.count))
        localSources.append(contentsOf: repeatElement(-1, count: names.count))
        localDevices.append(contentsOf: repeatElement(-1, count: names.count))
    }

    /// The name of an id of `StoreSample`; nil for -1 (absent).
    /// The name `id` as UTF-8 bytes at a fixed address (nil for -1), bound without SQLite
    /// copying them (`Statement.bindStatic`): a sample's version, unit and zone, on every row.
    @inline(__always) func staticText(_ id: Int32) -> Statement.StaticText.Raw? { id < 0 ? nil : localRaw[Int(id)] }

    @inline(__always) func sourceID(local id: Int32) throws -> Int64 {
        let i = Int(id)
        if localSources[i] >= 0 { return localSources[i] }
        let resolved = try lookup(local[i], find: findSource, insert: insertSource, table: "sources")
        localSources[i] = resolved
        return resolved
    }

    @inline(__always) func deviceID(local id: Int32) throws -> Int64? {
        guard id >= 0 else { return nil }
        let i = Int(id)
        if localDevices[i] >= 0 { return localDevices[i] }
        guard let resolved = try deviceID(local[i]) else { return nil }
        localDevices[i] = resolved
        return resolved
    }

    /// The `devices` row of an HKDevice description (address removed), added when new.
    @inline(__always) func deviceID(_ raw: String?) throws -> Int64? {
        guard let raw else { return nil }
        if lastDeviceID >= 0, let (hasAddress, tail) = Self.deviceTail(raw), hasAddress == lastDeviceHadAddress,
            tail.count == lastDeviceTail.count, tail.elementsEqual(lastDeviceTail)
        {
            return lastDeviceID
        }
        let description = DeviceText.withoutAddress(raw)
        let id: Int64
        if let known = deviceIDs[description] {
            id = known
        } else {
            id = try lookup(description, find: findDevice, insert: insertDevice, table: "devices")
            deviceIDs[description] = id
        }
        if let (hasAddress, tail) = Self.deviceTail(raw) {
            lastDeviceHadAddress = hasAddress
            lastDeviceTail = Array(tail)
            lastDeviceID = id
        } else {
            lastDeviceID = -1
        }
        return id
    }

    private static let devicePrefix = Array("<<HKDevice: 0x".utf8)

    /// Whether the text starts with an HKDevice address, and the bytes from its first `>` on
    /// (the whole text when it has no address); nil for an empty text.
    @inline(__always)
    static func deviceTail(_ text: String) -> (Bool, Substring.UTF8View)? {
        let bytes = text.utf8
        guard !bytes.isEmpty else { return nil }
        if bytes.count > devicePrefix.count, bytes.starts(with: devicePrefix), let close = bytes.firstIndex(of: 0x3E) {
            return (true, text[close...].utf8)
        }
        return (false, text[...].utf8)
    }
}
