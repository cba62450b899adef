import Foundation

/// The attributes of a `Record`'s start tag that `compare`'s window read needs (docs/export-xml.md,
/// "The census"): its two dates for the window test, and type, source, device, unit and value
/// for the census; each value's bytes in place, found in one walk of the tag. Before, the dates
/// were found by one search and the census's attributes by a second walk (callgrind, 194 MB
/// export: that walk alone 683 M of 3,339 M instructions, about 1,700 a record).
///
/// The walk reads the tag as Apple writes it: `name="value"` pairs, white space before each. A
/// name is found by its length and its bytes as words (no call to compare it); a date's value by
/// its fixed 25 bytes when its closing quote is where it must be and none is before it; any
/// other value by a search for its closing quote, but a type or a device met lately, which is
/// found again among those (`Memo`). Nil for any other layout (single quotes,
/// white space around `=`, a value without its closing quote because a raw `>` ended the tag,
/// two attributes with no space between, an attribute this walk reads given twice): the record
/// is then read by libxml2, which judges it.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the tag's bytes in the
/// chunk a worker scans, read below the count the caller measured (a word loaded only where
/// eight bytes are left).
struct RecordStartTag {
    typealias Text = (at: UnsafePointer<UInt8>, count: Int)
    var type, sourceName, device, unit, value, startDate, endDate: Text?

    /// An attribute this walk reads, or another.
    private enum Name { case type, sourceName, device, unit, value, startDate, endDate, creationDate, sourceVersion, other }

    /// The memo entry (`Memo`) the type's bytes were, or -1; the census keeps the type's index
    /// in its payload.
    var typeEntry = -1
    /// Whether the device names a watch (`model:Watch,`) and holds a character reference (`&#`),
    /// when the memo knew its bytes after the `HKDevice` address; nil: the caller tests them.
    var deviceIs: (watch: Bool, reference: Bool)?

    /// No attribute read yet.
    init() {}

    /// The attributes of `count` bytes at `tag`, or nil (`read`).
    init?(_ tag: UnsafePointer<UInt8>, _ count: Int, memo: inout Memo) {
        guard read(tag, count, memo: &memo) else { return nil }
    }

    /// Reads the tag's `count` bytes from its `<` (the caller checked `<Record `) into this
    /// value, in place: a worker keeps one (`ExportWindow.Seen.record`), so that the census
    /// reads it where the walk wrote it (perf: a copy of the value returned, then passed on, was
    /// a tenth of the walk and of `keep`). False for another layout. `memo`: the types and
    /// devices met by this worker.
    mutating func read(_ tag: UnsafePointer<UInt8>, _ count: Int, memo: inout Memo) -> Bool {
        readLikeTemplate(tag, count, memo: &memo) || readInApplesOrder(tag, count, memo: &memo) || readAnyOrder(tag, count, memo: &memo)
    }

    /// `read` of any layout the walk knows: attribute after attribute, each name told from the
    /// others; the way every tag `readInApplesOrder` refuses is read.
    mutating func readAnyOrder(_ tag: UnsafePointer<UInt8>, _ count: Int, memo: inout Memo) -> Bool {
        self = RecordStartTag()
        memo.template.forget()
        var i = 7
        while i < count {
            // White space first: one space in Apple's layout, any of the four XML allows. A
            // self-closing tag's `/` is its last byte (the caller's count stops before `>`).
            var c = tag[i]
            if c == UInt8(ascii: "/") {
                guard i == count - 1 else { return false }
                return true
            }
            guard c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D else { return false }
            repeat {
                i += 1
                if i == count { return true }
                c = tag[i]
            } while c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
            if c == UInt8(ascii: "/") {
                guard i == count - 1 else { return false }
                return true
            }
            var (name, v) = Self.knownName(tag, i, count)
            if name == .other {
                guard let e = ExportWindow.first(0x3D, tag, from: i, count), e > i, e + 1 < count, tag[e + 1] == 0x22 else { return false }
                name = Self.name(tag, i, e, count)
                v = e + 2
                // A name holding white space or a quote is no name (`a b="1"`): libxml2's to judge.
                if name == .other {
                    for k in i..<e where tag[k] <= 0x20 || tag[k] == 0x22 { return false }
                }
            }
            let q = valueEnd(name, tag, v, count, memo: &memo)
            guard q >= 0 else { return false }
            let text: Text = (tag + v, q - v)
            switch name {
            case .type: guard Self.setOnce(&type, text) else { return false }
            case .sourceName: guard Self.setOnce(&sourceName, text) else { return false }
            case .device: guard Self.setOnce(&device, text) else { return false }
            case .unit: guard Self.setOnce(&unit, text) else { return false }
            case .value: guard Self.setOnce(&value, text) else { return false }
            case .startDate: guard Self.setOnce(&startDate, text) else { return false }
            case .endDate: guard Self.setOnce(&endDate, text) else { return false }
            case .creationDate, .sourceVersion, .other: break
            }
            i = q + 1
        }
        return true
    }

    /// `read` of the layout Apple writes: `type`, `sourceName`, then `sourceVersion`, `device`,
    /// `unit` and `creationDate` when there, `startDate`, `endDate`, then `value` when there, one
    /// space apart, the tag ending with the last. Each name is tested where the one before ends,
    /// against the one name that may come there, with no dispatch on it (perf: the any-order
    /// walk's tests of white space, its chain of name tests and its two switches a name were
    /// most of the walk's samples). False for any other layout, which `readAnyOrder` then reads:
    /// this one's tags it reads to the same values (the same name tests, `valueStart`, where no
    /// two names match the same bytes; each kind of value read as `valueEnd` reads it; each name
    /// once; `RecordStartTagLayoutTests`).
    mutating func readInApplesOrder(_ tag: UnsafePointer<UInt8>, _ count: Int, memo: inout Memo) -> Bool {
        self = RecordStartTag()
        // The memo may change below: the template no longer stands for a walk of it (`Template`).
        memo.template.forget()
        // Each step: where the next name's value starts (`next`, -1 when another name is there),
        // then its closing quote, by the one reading its kind of value has (`valueEnd`'s). Written
        // out name by name: through one function taking the name, the compiler kept the call and
        // its switches (callgrind).
        var v = Self.next(.type, tag, after: 6, count)  // the first name is at 8, after `<Record `
        guard v >= 0 else { return false }
        var q = typeEnd(tag, v, count, memo: &memo)
        guard q >= 0 else { return false }
        type = (tag + v, q - v)
        v = Self.next(.sourceName, tag, after: q, count)
        guard v >= 0, let s = Self.quote(tag, from: v, count) else { return false }
        sourceName = (tag + v, s - v)
        q = s
        v = Self.next(.sourceVersion, tag, after: q, count)
        if v >= 0 {
            guard let e = Self.quote(tag, from: v, count) else { return false }
            q = e
        }
        v = Self.next(.device, tag, after: q, count)
        if v >= 0 {
            let e = deviceValueEnd(tag, v, count, memo: &memo)
            guard e >= 0 else { return false }
            device = (tag + v, e - v)
            q = e
        }
        v = Self.next(.unit, tag, after: q, count)
        if v >= 0 {
            guard let e = Self.quote(tag, from: v, count) else { return false }
            unit = (tag + v, e - v)
            q = e
        }
        let headEnd = q
        var firstDate = 0
        guard readDates(tag, count, after: q, firstDate: &firstDate) else { return false }
        memo.template.keep(self, tag, count, headEnd: headEnd, firstDate: firstDate)
        return true
    }

    /// The rest of `readInApplesOrder` from the quote at `q` that ends the last attribute before
    /// the dates: `creationDate` when there, `startDate`, `endDate`, then `value` when there, and
    /// the tag's end. `firstDate`: where the first date's value starts.
    @inline(__always)
    mutating func readDates(_ tag: UnsafePointer<UInt8>, _ count: Int, after q: Int, firstDate: inout Int) -> Bool {
        var q = q
        var v = Self.next(.creationDate, tag, after: q, count)
        if v >= 0 {
            firstDate = v
            q = Self.dateEnd(tag, v, count)
            guard q >= 0 else { return false }
        }
        v = Self.next(.startDate, tag, after: q, count)
        guard v >= 0 else { return false }
        if firstDate == 0 { firstDate = v }
        q = Self.dateEnd(tag, v, count)
        guard q >= 0 else { return false }
        startDate = (tag + v, q - v)
        v = Self.next(.endDate, tag, after: q, count)
        guard v >= 0 else { return false }
        q = Self.dateEnd(tag, v, count)
        guard q >= 0 else { return false }
        endDate = (tag + v, q - v)
        v = Self.next(.value, tag, after: q, count)
        if v >= 0 {
            guard let e = Self.quote(tag, from: v, count) else { return false }
            value = (tag + v, e - v)
            q = e
        }
        // Closed in place (its `/` the last byte: the caller's count stops before `>`), or not.
        return q + 1 == count || q + 2 == count && tag[q + 1] == UInt8(ascii: "/")
    }

    /// Where the value of `name` starts when that attribute is the one a space after the quote
    /// at `q`; -1 when another is there (or the tag ends).
    @inline(__always)
    private static func next(_ name: Name, _ tag: UnsafePointer<UInt8>, after q: Int, _ count: Int) -> Int {
        guard q + 2 < count, tag[q + 1] == 0x20 else { return -1 }
        return valueStart(name, tag, q + 2, count)
    }

    /// The closing quote of the value of `name` starting at `v`, or -1 when none closes it (the
    /// one reading of each kind of value, for both walks).
    @inline(__always)
    private mutating func valueEnd(_ name: Name, _ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int, memo: inout Memo) -> Int {
        switch name {
        case .startDate, .endDate, .creationDate: return Self.dateEnd(tag, v, count)
        case .type: return typeEnd(tag, v, count, memo: &memo)
        case .device: return deviceValueEnd(tag, v, count, memo: &memo)
        default: return Self.quote(tag, from: v, count) ?? -1
        }
    }

    /// A date's closing quote: by its 25 bytes (`isDate`), else searched.
    @inline(__always)
    private static func dateEnd(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int) -> Int {
        isDate(tag, v, count) ? v + 25 : quote(tag, from: v, count) ?? -1
    }

    /// A type's closing quote: a type met lately found again in the memo, else searched and kept
    /// there; `typeEntry` says which entry.
    @inline(__always)
    private mutating func typeEnd(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int, memo: inout Memo) -> Int {
        if let (entry, end) = memo.recall(Memo.types, tag, from: v, count) {
            typeEntry = entry
            return end
        }
        guard let q = Self.quote(tag, from: v, count) else { return -1 }
        typeEntry = memo.store(Memo.types, tag + v, q - v)
        return q
    }

    /// A device's closing quote: as Apple writes it (`deviceEnd`, which tells `deviceIs`), else
    /// searched.
    @inline(__always)
    private mutating func deviceValueEnd(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int, memo: inout Memo) -> Int {
        let q = deviceEnd(tag, v, count, memo: &memo)
        return q >= 0 ? q : Self.quote(tag, from: v, count) ?? -1
    }

    /// The name at `from` with its `="`, when it is one this walk reads written as Apple writes
    /// it, and where its value starts; `.other` when not (or fewer bytes are left than its two
    /// words need: the caller then searches for the `=`).
    @inline(__always)
    private static func knownName(_ tag: UnsafePointer<UInt8>, _ from: Int, _ count: Int) -> (Name, Int) {
        for name in Self.knownNames {
            let v = valueStart(name, tag, from, count)
            if v >= 0 { return (name, v) }
        }
        return (.other, 0)
    }

    /// The names `knownName` tells, the short ones first (the any-order walk reads the tags
    /// `readInApplesOrder` leaves, few in a real export: its speed matters little).
    private static let knownNames: [Name] = [
        .type, .unit, .value, .device, .endDate, .startDate, .sourceName, .creationDate, .sourceVersion,
    ]

    /// Where the value starts when the bytes at `from` are `name="` as Apple writes it, else -1
    /// (also when fewer bytes are left than the name's two words need). Compared as
    /// little-endian words: the bytes of `type="` are 74 79 70 65 3D 22, the word's low six bytes
    /// 0x223D_6570_7974.
    @inline(__always)
    private static func valueStart(_ name: Name, _ tag: UnsafePointer<UInt8>, _ from: Int, _ count: Int) -> Int {
        guard from + 8 <= count else { return -1 }
        let w = UInt64(littleEndian: UnsafeRawPointer(tag + from).loadUnaligned(as: UInt64.self))
        let six = w & 0xFFFF_FFFF_FFFF
        switch name {
        case .type: return six == 0x223D_6570_7974 ? from + 6 : -1  // type="
        case .unit: return six == 0x223D_7469_6E75 ? from + 6 : -1  // unit="
        case .value: return w & 0xFF_FFFF_FFFF_FFFF == 0x22_3D65_756C_6176 ? from + 7 : -1  // value="
        case .device: return w == 0x223D_6563_6976_6564 ? from + 8 : -1  // device="
        case .other: return -1
        default: break
        }
        guard from + 16 <= count else { return -1 }
        let w2 = UInt64(littleEndian: UnsafeRawPointer(tag + from + 8).loadUnaligned(as: UInt64.self))
        switch name {
        case .endDate: return w == 0x3D65_7461_4464_6E65 && tag[from + 8] == 0x22 ? from + 9 : -1  // endDate= "
        case .startDate: return w == 0x7461_4474_7261_7473 && w2 & 0xFF_FFFF == 0x22_3D65 ? from + 11 : -1  // startDat e="
        case .sourceName: return w == 0x614E_6563_7275_6F73 && w2 & 0xFFFF_FFFF == 0x223D_656D ? from + 12 : -1  // sourceNa me="
        case .creationDate:  // creation Date="
            return w == 0x6E6F_6974_6165_7263 && w2 & 0xFFFF_FFFF_FFFF == 0x223D_6574_6144 ? from + 14 : -1
        case .sourceVersion:  // sourceVe rsion="
            return w == 0x6556_6563_7275_6F73 && w2 & 0xFF_FFFF_FFFF_FFFF == 0x22_3D6E_6F69_7372 ? from + 15 : -1
        default: return -1
        }
    }

    /// The closing quote of a device written as Apple writes it, `&lt;&lt;HKDevice: 0x`, an
    /// address, then the rest from the next `&` (`&gt;, name:…`): the rest found among the
    /// memo's, whose entry tells `deviceIs`, or searched and kept in the memo; -1 for any other
    /// device (searched by the caller, tested by the census).
    ///
    /// Why the rest decides as the whole value does: the part before it holds no quote, no `m`
    /// and no `#` (the address is tested for them), so the value goes on into the rest,
    /// `model:Watch,` cannot start before it, and no `&#` either (no `#` before the rest, whose
    /// first byte is the `&`).
    private mutating func deviceEnd(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int, memo: inout Memo) -> Int {
        guard let t = Self.deviceRest(tag, v, count) else { return -1 }
        if let (entry, end) = memo.recall(Memo.devices, tag, from: t, count) {
            let flags = memo.payload[entry]
            deviceIs = (flags & 1 != 0, flags & 2 != 0)
            return end
        }
        guard t < count, let q = Self.quote(tag, from: t, count) else { return -1 }
        let watch = ExportWindow.find(tag + t, q - t, "model:Watch,") != nil
        let reference = q - t > 1 && ExportWindow.hasCharacterReference(tag + t, q - t)
        deviceIs = (watch, reference)
        let entry = memo.store(Memo.devices, tag + t, q - t)
        if entry >= 0 { memo.payload[entry] = (watch ? 1 : 0) | (reference ? 2 : 0) }
        return q
    }

    /// Where the rest of a device written as Apple writes it starts (`deviceEnd`): its value at
    /// `v` is `&lt;&lt;HKDevice: 0x`, then an address up to the rest's `&`.
    @inline(__always)
    static func deviceRest(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int) -> Int? {
        guard v + addressLead < count else { return nil }
        let p = UnsafeRawPointer(tag + v)
        guard UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)) == 0x3B74_6C26_3B74_6C26,  // &lt;&lt;
            UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == 0x6563_6976_6544_4B48,  // HKDevice
            UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) == 0x7830_203A  // ": 0x"
        else { return nil }
        return addressEnd(tag, v + addressLead, count)
    }

    /// `&lt;&lt;HKDevice: 0x`: the bytes of a device before its address.
    static let addressLead = 20

    /// The end of a device's address starting at `base` (the rest's `&`): the first `&` in the
    /// next 16 bytes, none before it a quote (which would end the value), an `m` or a `#`
    /// (found as words: a loop over hex digits, whose count varies, mispredicted its end; perf:
    /// 6 % of the run).
    @inline(__always)
    static func addressEnd(_ tag: UnsafePointer<UInt8>, _ base: Int, _ count: Int) -> Int? {
        guard base + 16 <= count else { return nil }
        let p = UnsafeRawPointer(tag + base)
        let w1 = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
        let w2 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        guard let amp = Self.firstOf(0x26, w1, w2) else { return nil }
        if let bad = Self.firstOf(0x22, w1, w2), bad < amp { return nil }
        if let bad = Self.firstOf(0x6D, w1, w2), bad < amp { return nil }
        if let bad = Self.firstOf(0x23, w1, w2), bad < amp { return nil }
        return base + amp
    }

    /// The first quote at or after `from`, eight bytes at a time while eight are left: most
    /// values searched (a source, a version, a unit, a number) end in their first or second word,
    /// where `ExportWindow.first`'s search of the last bytes one by one mispredicted its end.
    @inline(__always)
    static func quote(_ tag: UnsafePointer<UInt8>, from: Int, _ count: Int) -> Int? {
        var i = from
        while i + 8 <= count {
            let flags = WordBytes.matches(UInt64(littleEndian: UnsafeRawPointer(tag + i).loadUnaligned(as: UInt64.self)), 0x22)
            if flags != 0 { return i + flags.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < count {
            if tag[i] == 0x22 { return i }
            i += 1
        }
        return nil
    }

    /// The index of the first `byte` in the 16 bytes of two little-endian words
    /// (`WordBytes.matches`: its lowest flag is exact).
    @inline(__always)
    private static func firstOf(_ byte: UInt8, _ w1: UInt64, _ w2: UInt64) -> Int? {
        let f1 = WordBytes.matches(w1, byte), f2 = WordBytes.matches(w2, byte)
        if f1 != 0 { return f1.trailingZeroBitCount / 8 }
        if f2 != 0 { return 8 + f2.trailingZeroBitCount / 8 }
        return nil
    }

    /// Puts `text` in an empty `slot`; false when the slot holds one already (an attribute given
    /// twice, an error to the reader). The workout walk's too (`ExportWindow.walkWorkout`).
    @inline(__always)
    static func setOnce(_ slot: inout Text?, _ text: Text) -> Bool {
        guard slot == nil else { return false }
        slot = text
        return true
    }

    /// The name in `tag[from..<to]` (the `=` at `to`), by its length and its first eight bytes
    /// as a little-endian word (the bytes of `type` are 74 79 70 65: 0x65707974), the rest
    /// compared byte by byte.
    @inline(__always)
    private static func name(_ tag: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ count: Int) -> Name {
        let length = to - from
        guard length >= 4, length <= 12 else { return .other }
        var w: UInt64 = 0
        if from + 8 <= count {
            w = UInt64(littleEndian: UnsafeRawPointer(tag + from).loadUnaligned(as: UInt64.self))
        } else {
            for k in 0..<(count - from) { w |= UInt64(tag[from + k]) << UInt64(8 * k) }
        }
        let n = tag + from
        switch length {
        case 4:
            let low = w & 0xFFFF_FFFF
            return low == 0x6570_7974 ? .type : low == 0x7469_6E75 ? .unit : .other  // "type", "unit"
        case 5: return w & 0xFF_FFFF_FFFF == 0x65_756C_6176 ? .value : .other  // "value"
        case 6: return w & 0xFFFF_FFFF_FFFF == 0x6563_6976_6564 ? .device : .other  // "device"
        case 7: return w & 0xFF_FFFF_FFFF_FFFF == 0x65_7461_4464_6E65 ? .endDate : .other  // "endDate"
        case 9: return w == 0x7461_4474_7261_7473 && n[8] == UInt8(ascii: "e") ? .startDate : .other  // "startDat" "e"
        case 10:  // "sourceNa" "me"
            return w == 0x614E_6563_7275_6F73 && n[8] == UInt8(ascii: "m") && n[9] == UInt8(ascii: "e") ? .sourceName : .other
        case 12:  // "creation" "Date"
            return w == 0x6E6F_6974_6165_7263 && n[8] == UInt8(ascii: "D") && n[9] == UInt8(ascii: "a") && n[10] == UInt8(ascii: "t")
                && n[11] == UInt8(ascii: "e") ? .creationDate : .other
        default: return .other
        }
    }

    /// Whether the value at `v` is 25 bytes closed by a quote with none before it (a date as Apple
    /// writes it, `2024-03-31 01:59:59 +0100`; what its bytes are, the date's parser checks): the
    /// 25 tested as three words and a byte, where a search would go byte by byte to the quote.
    /// `ExportWindow.dates` passes a `creationDate` over with it too.
    @inline(__always)
    static func isDate(_ tag: UnsafePointer<UInt8>, _ v: Int, _ count: Int) -> Bool {
        guard v + 25 < count, tag[v + 25] == 0x22, tag[v + 24] != 0x22 else { return false }
        var any: UInt64 = 0
        for k in stride(from: 0, to: 24, by: 8) {
            any |= WordBytes.matches(UnsafeRawPointer(tag + v + k).loadUnaligned(as: UInt64.self), 0x22)
        }
        return any == 0
    }
}
