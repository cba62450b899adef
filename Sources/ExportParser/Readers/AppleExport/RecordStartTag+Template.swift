/// The last record's start tag as `readInApplesOrder` read it, for the next: records come in runs
/// whose tags are the same bytes up to their first date but for the device's address (a run of
/// one type from one source and device: 99.9998 % of the 3 GB export's records after the one
/// before, 99.7 % of a public sample's). Such a tag is read by comparing those bytes with the
/// template's, two compares of a hundred bytes or so, where the walk tests each name, searches
/// each value's quote and recalls the type and the device's rest (`Memo`). Its dates and value
/// are then read as the walk reads them (`readDates`).
///
/// Why it reads what the walk reads: the walk's steps up to the dates look only at the bytes
/// before the first date's value (each name is tested by its first word, which a name there
/// decides, and a value's quote is in them), and at the address only through `addressEnd`,
/// which is made again here. Its memo answers (the type's entry, the device's tests) are the
/// template's: the memo changes only in the walks, each of which forgets the template first,
/// so a walk of this tag would find in the memo what the template's walk left there.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the tag's bytes in the
/// chunk a worker scans, compared below the count the caller measured (the template's bytes are
/// copied into its own arrays).
extension RecordStartTag {
    struct Template {
        private(set) var valid = false
        /// The tag's bytes up to its device's address (`split`), else up to its first date's
        /// value; and from the address's end (the device's rest) to the first date's value.
        private var head: [UInt8] = [], rest: [UInt8] = []
        private var split = false
        /// In the template's tag: where the device's rest starts, and the quote that ends the
        /// last attribute before the dates.
        private var restStart = 0, headEnd = 0
        private var type = (at: 0, count: 0), sourceName = (at: 0, count: 0)
        private var device: (at: Int, count: Int)?, unit: (at: Int, count: Int)?
        private var typeEntry = -1
        private var deviceIs: (watch: Bool, reference: Bool)?

        /// A walk is about to change the memo.
        mutating func forget() { valid = false }

        /// `r`, just read from `count` bytes at `tag` by `readInApplesOrder`: `headEnd` is the
        /// quote before its dates, `firstDate` where the first date's value starts.
        mutating func keep(_ r: RecordStartTag, _ tag: UnsafePointer<UInt8>, _ count: Int, headEnd: Int, firstDate: Int) {
            guard let t = r.type, let s = r.sourceName else { return }
            func offset(_ x: Text) -> (at: Int, count: Int) { (tag.distance(to: x.at), x.count) }
            type = offset(t)
            sourceName = offset(s)
            device = r.device.map(offset)
            unit = r.unit.map(offset)
            typeEntry = r.typeEntry
            deviceIs = r.deviceIs
            self.headEnd = headEnd
            var headCount = firstDate
            split = false
            if let d = device, let at = RecordStartTag.deviceRest(tag, d.at, count), at < firstDate {
                split = true
                headCount = d.at + RecordStartTag.addressLead
                restStart = at
            }
            head.removeAll(keepingCapacity: true)
            head.append(contentsOf: UnsafeBufferPointer(start: tag, count: headCount))
            rest.removeAll(keepingCapacity: true)
            if split { rest.append(contentsOf: UnsafeBufferPointer(start: tag + restStart, count: firstDate - restStart)) }
            valid = true
        }

        /// Reads `count` bytes at `tag` into `r` when they are the template's up to the first
        /// date (the address aside); false otherwise (`r` is then to be read by the walk).
        @inline(__always)
        func read(_ tag: UnsafePointer<UInt8>, _ count: Int, into r: inout RecordStartTag) -> Bool {
            let h = head.count
            // Room for a date's 25 bytes and its quote after the compared bytes, as the
            // template's tag had: every test the walk made of the bytes before stands.
            guard valid, h > 0, h + rest.count + 26 < count,
                head.withUnsafeBufferPointer({ WordBytes.sameLong(tag, $0.baseAddress!, h) })
            else { return false }
            var shift = 0
            if split {
                let n = rest.count
                guard let at = RecordStartTag.addressEnd(tag, h, count), at + n + 26 < count,
                    rest.withUnsafeBufferPointer({ WordBytes.sameLong(tag + at, $0.baseAddress!, n) })
                else { return false }
                shift = at - restStart
            }
            r = RecordStartTag()
            r.type = (tag + type.at, type.count)
            r.sourceName = (tag + sourceName.at, sourceName.count)
            r.device = device.map { (tag + $0.at, $0.count + shift) }
            r.unit = unit.map { (tag + $0.at + shift, $0.count) }
            r.typeEntry = typeEntry
            r.deviceIs = deviceIs
            var firstDate = 0
            return r.readDates(tag, count, after: headEnd + shift, firstDate: &firstDate)
        }
    }

    /// `read`'s first try: the tag read as the memo's template (`Template.read`; the template
    /// read in place: a copy of it retained and released its arrays each record).
    @inline(__always)
    mutating func readLikeTemplate(_ tag: UnsafePointer<UInt8>, _ count: Int, memo: inout Memo) -> Bool {
        memo.template.valid && memo.template.read(tag, count, into: &self)
    }
}
