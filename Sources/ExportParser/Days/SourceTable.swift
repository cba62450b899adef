/// The sources of one input by dense id (`SumPiece.source`), and which of them are watches by
/// their records' device (`model:Watch`), whatever their names.
struct SourceTable {
    private(set) var names: [String] = []
    private var ids: [String: Int32] = [:]
    private var isWatch: [Bool] = []
    private var last: (String, Int32)?
    /// The one before `last`: a type's records alternate between the phone and the watch, and a
    /// String hashed for each was 10 M instructions of a 40 MB export (docs/export-xml.md, "The fifth pass").
    private var previous: (String, Int32)?

    @inline(__always)
    mutating func id(_ name: String) -> Int32 {
        if let (n, id) = last, n == name { return id }  // interned by the reader: usually the same string
        let id: Int32
        if let (n, i) = previous, n == name { id = i } else { id = lookup(name) }
        previous = last
        last = (name, id)
        return id
    }

    private mutating func lookup(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        ids[name] = id
        isWatch.append(false)
        return id
    }

    /// How many sources are known to be watches. It only grows (a source never stops being one),
    /// so an equal count means the same sources: what a settled sum was ranked under (`SumBook`).
    private(set) var watchCount = 0

    mutating func markWatch(_ name: String) {
        let i = Int(id(name))
        if !isWatch[i] {
            isWatch[i] = true
            watchCount += 1
        }
    }

    /// The sources known to be watches by their records' device.
    var watches: Set<String> { Set(names.indices.filter { isWatch[$0] }.map { names[$0] }) }
}
