import Foundation

/// The hot path of export.xml: a `Record`'s attributes read from the tape's bytes into a pending
/// record, and the `Sample` handed to the sink at its end tag. Nearly every element of an export
/// is a record (or its metadata, `+Metadata`), so this is where the reader's time goes; each step
/// says what it was measured to save. Unsafe code: see the type's comment (`ExportElementHandler`).
extension ExportElementHandler {
    struct PendingRecord {
        var active = false
        var typeID = -1
        var sourceID = -1
        var unitID = -1
        var versionID = -1
        var value: Double?
        var valueText: String?
        var valueWasText = false
        var start: Timestamp?
        var end: Timestamp?
        var created: Timestamp?
        /// The interned device text (`deviceID`); -1 when none, or when it is not an HKDevice
        /// description and is then kept as written in `device`.
        var deviceID = -1
        var device: String?
        var timeZoneName: String?
        var metadataDigest = FNV1a()
        var hasMetadata = false
        var deviceIsWatch = false
        /// Inside a correlation (`beginRecord`).
        var member = false
        /// A member's metadata entries (a top-level record's go to `recordMetadata`).
        var metadata: [MetadataEntry] = []
        var beats: [InstantaneousBeat] = []
        /// `metadata` and `beats` as a `Sample` keeps them: copies of their exact size, so that
        /// these two buffers stay this record's own and are emptied in place for the next one.
        ///
        /// Why (issue 24): handed over as they were, each buffer was shared by the sample, so
        /// `removeAll(keepingCapacity:)` at the next record made a new one of the old capacity
        /// (the most beats or members' entries any record had had), and every HRV sample and
        /// correlation member waiting in the store's queue held such a buffer: 11 MB of the 6.4 GB
        /// export's heap peak.
        var keptMetadata: [MetadataEntry] { metadata.isEmpty ? [] : metadata.withUnsafeBufferPointer { Array($0) } }
        var keptBeats: [InstantaneousBeat] { beats.isEmpty ? [] : beats.withUnsafeBufferPointer { Array($0) } }
        /// Line and column of its start tag; an `InputLocation` (whose copies count references)
        /// is made only for a skip.
        var position: (Int32, Int32) = (0, 0)
        var location: InputLocation { InputLocation(line: Int(position.0), column: Int(position.1)) }
        var problem: String?
    }

    /// A `Record`'s attributes. `member`: inside a correlation, whose members keep every detail as
    /// values (`Correlation.members`); a top-level record's metadata goes to `recordMetadata`.
    func beginRecord(_ attrs: AttributeList, member: Bool) {
        rec.active = true
        rec.member = member
        recordMetadata.clear()
        rec.typeID = -1; rec.sourceID = -1; rec.unitID = -1; rec.versionID = -1
        rec.value = nil; rec.valueText = nil; rec.valueWasText = false
        rec.start = nil; rec.end = nil; rec.created = nil; rec.deviceID = -1; rec.timeZoneName = nil
        if rec.device != nil { rec.device = nil }
        rec.metadataDigest = FNV1a(); rec.hasMetadata = false; rec.deviceIsWatch = false
        rec.problem = nil
        if !rec.metadata.isEmpty { rec.metadata.removeAll(keepingCapacity: true) }
        if !rec.beats.isEmpty { rec.beats.removeAll(keepingCapacity: true) }
        for i in 0..<attrs.count {
            let n = attrs.name(i), v = attrs.valueStart(i), c = attrs.valueCount(i)
            switch recordAttribute(n) {
            case .type:
                rec.typeID = interner.intern(v, c, hint: hintType)
                hintType = rec.typeID
            case .startDate:
                rec.start = dates.parse(v, c)
                if rec.start == nil, rec.problem == nil { rec.problem = "unparseable startDate" }
            case .sourceName:
                rec.sourceID = internSource(v, c)
            case .sourceVersion where details:
                rec.versionID = internVersion(v, c)
            case .endDate:
                rec.end = dates.parse(v, c)
                if rec.end == nil, rec.problem == nil { rec.problem = "unparseable endDate" }
            case .value:
                rec.value = NumberParser.parse(v, c)
                if rec.value == nil {
                    rec.valueWasText = true
                    rec.valueText = internedString(v, c)
                } else if details, member {
                    // A number's text is kept for a correlation's member (`value_text` of
                    // `correlation_members`); the store keeps no text for a top-level record's
                    // number (`StoreSample.valueText`), so none is made for it.
                    rec.valueText = XMLText.string(v, c)
                }
            case .unit:
                rec.unitID = interner.intern(v, c, hint: hintUnit)
                hintUnit = rec.unitID
            case .creationDate where details:
                rec.created = dates.parse(v, c)
            case .device:
                rec.deviceIsWatch = Self.contains(v, c, "model:Watch,")
                if details {
                    rec.deviceID = deviceID(v, c)
                    if rec.deviceID < 0 { rec.device = XMLText.string(v, c) }
                }
            default:
                break
            }
        }
        rec.position = position
    }

    /// An `InstantaneousBeatsPerMinute` of a heart-rate-variability record's beat list (details only).
    func beat(_ attrs: AttributeList) {
        var bpm: Double?
        var time = ""
        for i in 0..<attrs.count {
            if attrs.nameIs(i, "bpm") {
                bpm = NumberParser.parse(attrs.valueStart(i), attrs.valueCount(i))
            } else if attrs.nameIs(i, "time") {
                time = attrs.string(i)
            }
        }
        rec.beats.append(InstantaneousBeat(bpm: bpm, time: time))
    }

    /// A record's device as a `Sample` holds it.
    var recordDevice: String? { rec.deviceID >= 0 ? interner[rec.deviceID] : rec.device }

    /// A record's source: one of the last two, nearly always (a type's records interleave the
    /// phone's and the watch's), compared before the bytes are hashed.
    @inline(__always)
    func internSource(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        recentSources.id(matching: { interner.holds($0, p, count) }, else: { interner.intern(p, count) })
    }

    /// A record's source version: like its source, one of the last two nearly always.
    @inline(__always)
    func internVersion(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        recentVersions.id(matching: { interner.holds($0, p, count) }, else: { interner.intern(p, count) })
    }

    /// Interns and returns the shared String (two steps: the subscript must see the updated table).
    @inline(__always)
    func internedString(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        let id = interner.intern(p, count)
        return interner[id]
    }

    @inline(__always)
    func typeInfo(_ id: Int) -> Metric? {
        if id >= types.count { types.append(contentsOf: repeatElement(TypeInfo(), count: id - types.count + 1)) }
        if !types[id].resolved {
            types[id].resolved = true
            types[id].metric = Catalog.metric(forType: interner[id])
        }
        return types[id].metric
    }

    /// Builds the sample and hands it to the sink, or reports why it cannot be one. Handed over
    /// here rather than returned: an optional `Sample` returned and unwrapped was copied whole
    /// (five `memcpy` and the copy of each of its references a record; docs/export-xml.md,
    /// "The fifth pass").
    func sendSample() {
        guard rec.typeID >= 0 else {
            report.skip("record without a type", at: rec.location)
            return
        }
        if let problem = rec.problem {
            report.skip("\(problem) (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        guard let start = rec.start, let end = rec.end else {
            report.skip("record without startDate or endDate (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if end < start {
            report.skip("endDate before startDate (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if end.seconds - start.seconds > Sample.longestSpan {
            report.skip("record lasting more than a year (\(shortType(interner[rec.typeID])))", at: rec.location)
            return
        }
        if start.seconds > exportMoment {
            report.skip(Self.afterExportMoment("record"), at: rec.location)
            return
        }
        let metric = typeInfo(rec.typeID)
        var canonical: Double?
        if let metric {
            if let value = rec.value {
                let unitID = rec.unitID
                if types[rec.typeID].unitID != unitID {
                    let unit = unitID >= 0 ? interner[unitID] : ""
                    types[rec.typeID].unitID = unitID
                    types[rec.typeID].conversion = metric.unit.convert(1, from: unit).map { one in
                        let zero = metric.unit.convert(0, from: unit) ?? 0
                        return (one - zero, zero)
                    }
                }
                let conversion = types[rec.typeID].conversion
                if let (scale, offset) = conversion {
                    canonical = value * scale + offset
                    if let why = metric.implausibility(canonical!) {
                        report.skip(why, at: rec.location)
                        canonical = nil
                    }
                } else {
                    if unitID >= 0 {
                        report.skip("unknown unit \"\(interner[unitID])\" for \(shortType(metric.healthKitType))", at: rec.location)
                    } else {
                        report.skip(
                            "no unit given for \(shortType(metric.healthKitType)), so its value cannot be converted", at: rec.location)
                    }
                }
            } else if rec.valueWasText {
                report.skip("unparseable value for \(shortType(metric.healthKitType))", at: rec.location)
            } else {
                report.skip("record without a value (\(shortType(metric.healthKitType)))", at: rec.location)
            }
        }
        // The sample is `scratch`, rewritten in place, and moved out for the call and back: built
        // as a new value, it was assembled, copied whole for the call through the protocol and
        // both destroyed, four reference counts for each of its type, metric, source and device a
        // record (a third of this thread's time on the 3 GB export, perf). The interned names are
        // set only when their id changes (a file repeats them record after record).
        let sc = scratch
        if scratchIDs.type != rec.typeID {
            sc.pointee.type = interner[rec.typeID]
            sc.pointee.metric = metric
            scratchIDs.type = rec.typeID
        }
        if scratchIDs.source != rec.sourceID {
            sc.pointee.source = rec.sourceID >= 0 ? interner[rec.sourceID] : ""
            scratchIDs.source = rec.sourceID
        }
        if scratchIDs.version != rec.versionID {
            sc.pointee.sourceVersion = rec.versionID >= 0 ? interner[rec.versionID] : nil
            scratchIDs.version = rec.versionID
        }
        if scratchIDs.unit != rec.unitID {
            sc.pointee.unit = rec.unitID >= 0 ? interner[rec.unitID] : nil
            scratchIDs.unit = rec.unitID
        }
        if rec.deviceID >= 0 {
            if scratchIDs.device != rec.deviceID {
                sc.pointee.device = interner[rec.deviceID]
                scratchIDs.device = rec.deviceID
            }
        } else {
            // No device, or one kept as written: never the same id as an interned one.
            sc.pointee.device = rec.device
            scratchIDs.device = -1
        }
        sc.pointee.valueText = rec.valueText
        sc.pointee.value = rec.value
        sc.pointee.canonicalValue = canonical
        sc.pointee.start = start
        sc.pointee.end = end
        sc.pointee.created = rec.created
        if sc.pointee.timeZoneName != nil || rec.timeZoneName != nil { sc.pointee.timeZoneName = rec.timeZoneName }
        if details || !sc.pointee.beats.isEmpty { sc.pointee.beats = details ? rec.keptBeats : [] }
        sc.pointee.metadataDigest = rec.hasMetadata ? rec.metadataDigest.value : 0
        sc.pointee.deviceIsWatch = rec.deviceIsWatch
        let sample = sc.move()
        if details {
            sink.sample(sample, metadata: recordMetadata)
        } else {
            sink.sample(sample)
        }
        sc.initialize(to: consume sample)
    }

    /// `compare`'s window read: a sleep record a worker walked from its start tag instead of
    /// recording it (`ExportWindow.walkSleep`), in its place in file order. The pending record is
    /// set as `beginRecord` and its metadata entries set it (no unit, a stage's text as its
    /// value, the entries' digest, the last `HKTimeZone` value; the details the store would want
    /// are not walked, and compare's day book wants none), and finished as any top-level record:
    /// the same checks (the export moment) and the same `Sample` to the sink.
    func walkedSleep(_ w: WalkedElement, bytes: UnsafePointer<UInt8>) {
        assert(!details, "a walked sleep sample has no details for the store")
        let typeSlot = WalkedElement.values.count
        if walkedSleepIDs[typeSlot] < 0 {
            let type: StaticString = "HKCategoryTypeIdentifierSleepAnalysis"
            walkedSleepIDs[typeSlot] = interner.intern(type.utf8Start, type.utf8CodeUnitCount)
        }
        let v = Int(w.value)
        if walkedSleepIDs[v] < 0 {
            let text = WalkedElement.values[v]
            walkedSleepIDs[v] = interner.intern(text.utf8Start, text.utf8CodeUnitCount)
        }
        rec.active = true
        rec.member = false
        recordMetadata.clear()
        rec.typeID = walkedSleepIDs[typeSlot]
        rec.sourceID = internSource(bytes + Int(w.sourceFirst), Int(w.sourceCount))
        rec.unitID = -1; rec.versionID = -1
        rec.value = nil; rec.valueText = interner[walkedSleepIDs[v]]; rec.valueWasText = true
        rec.start = w.start; rec.end = w.end; rec.created = nil; rec.deviceID = -1
        rec.timeZoneName = w.zoneCount >= 0 ? internedString(bytes + Int(w.zoneFirst), Int(w.zoneCount)) : nil
        if rec.device != nil { rec.device = nil }
        rec.metadataDigest = w.digest; rec.hasMetadata = w.hasMetadata; rec.deviceIsWatch = w.deviceIsWatch
        rec.problem = nil
        if !rec.metadata.isEmpty { rec.metadata.removeAll(keepingCapacity: true) }
        if !rec.beats.isEmpty { rec.beats.removeAll(keepingCapacity: true) }
        rec.position = (0, 0)
        finishTopLevelRecord()
    }

    func finishTopLevelRecord() {
        rec.active = false
        if rec.typeID >= 0 {
            _ = typeInfo(rec.typeID)
            types[rec.typeID].count += 1
        }
        sendSample()
    }
}
