import CYajl

/// The walker's frame machinery: the stack of open containers (`top` and its ancestors in
/// `frames`, moved between them rather than copied), the element count of an array, the keys of
/// an object (each of ours at most once, `isFirst`), and the byte offset and JSON path that
/// messages name. Every event goes through `beginValue` and `mapKey`, so they stay small and
/// inlined where the original marked them so.
extension HAEDocumentWalker {
    var currentOffset: Int64 {
        guard let handle else { return chunkBase }
        return chunkBase + Int64(yajl_get_bytes_consumed(handle))
    }

    /// The JSON path of the current position, `data.metrics[3].data[17].date` (rendered only
    /// for messages and once per metric or workout).
    func currentPath(includingKey: Bool = true) -> String {
        var s = ""
        for f in frames + (depth > 0 ? [top] : []) {
            if let i = f.indexInParent {
                s += "[\(i)]"
            } else if !f.keyInParent.isEmpty {
                if !s.isEmpty { s += "." }
                s += String(decoding: f.keyInParent, as: UTF8.self)
            }
        }
        if includingKey, depth > 0 {
            if top.isArray, top.count > 0 {
                s += "[\(top.count - 1)]"
            } else if !top.isArray, lastKeyCopied || lastKnownKey != .unknown {
                if !s.isEmpty { s += "." }
                s += keyText
            }
        }
        return s
    }

    @inline(__always)
    func intern(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        if n == 0 { return "" }
        let id = interner.intern(p, n, hint: lastInterned)
        lastInterned = id
        return interner.strings[id]
    }

    /// The last key, as messages and metadata name it.
    var keyText: String { lastKeyCopied ? String(decoding: lastKey, as: UTF8.self) : lastKnownKey.spelling }

    @inline(__always)
    func forgetKey() {
        lastKeyCopied = false
        lastKnownKey = .unknown
    }

    /// Counts an element in the enclosing array; returns its index when the parent is an array.
    @inline(__always)
    func beginValue() -> Int? {
        sawValue = true
        guard depth > 0, top.isArray else { return nil }
        top.count += 1
        if case .extraArray = top.role { report.recordsByType["hae:" + extraKind, default: 0] += 1 }
        return top.count - 1
    }

    func push(_ role: HAEFrame.Role, isArray: Bool, index: Int?) {
        var key: [UInt8] = []
        if index == nil, depth > 0 { key = lastKeyCopied ? lastKey : Array(lastKnownKey.spelling.utf8) }
        // Moved, not copied: a copy of the parent frame retained its arrays, and replacing `top`
        // released them (the decoder's reference counting: docs/hae.md, "Leaner datums").
        let frame = HAEFrame(role: role, isArray: isArray, indexInParent: index, keyInParent: key)
        if depth > 0 {
            let parent = topStorage.move()
            frames.append(consume parent)
            topStorage.initialize(to: consume frame)
        } else {
            top = frame
        }
        depth += 1
        forgetKey()
    }

    /// Closes the innermost container and returns it.
    @inline(__always)
    func pop() -> HAEFrame {
        depth -= 1
        forgetKey()
        // Moved: the parent comes back from `frames` into `top` and the closed frame out of it.
        guard depth > 0 else { return top }
        let closed = topStorage.move()
        topStorage.initialize(to: frames.removeLast())
        return closed
    }

    /// Deeper nesting than this stops the read: Health Auto Export nests six or seven levels, and
    /// a hostile file of 10,000 nested arrays would otherwise cost a frame (and a path step in
    /// every message) per level.
    static let depthLimit = 64

    func tooDeep() -> Bool {
        fatalMessage =
            "JSON nested more than \(Self.depthLimit) levels deep (Health Auto Export nests fewer than ten): not a Health Auto Export file"
        return false
    }

    @inline(__always) func copyKey(_ p: UnsafePointer<UInt8>, _ n: Int) {
        lastKey.removeAll(keepingCapacity: true)
        lastKey.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        lastKeyCopied = true
    }

    /// Whether the open object has not had `key` yet (always for keys the reader ignores).
    @inline(__always) func isFirst(_ key: HAEKey) -> Bool {
        guard key != .unknown else { return true }
        let bit: UInt64 = 1 << key.rawValue
        guard top.seenKeys & bit == 0 else { return false }
        top.seenKeys |= bit
        return true
    }

    /// Whether a key the reader has no name for is new in its object: its value may be kept
    /// (a workout's or datum's other fields become metadata), so a repeat is as ambiguous as one
    /// of ours. Such keys are few in an object: a linear search.
    func isFirstOther(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let bytes = UnsafeBufferPointer(start: p, count: n)
        if top.otherKeys.contains(where: { $0.elementsEqual(bytes) }) { return false }
        top.otherKeys.append(Array(bytes))
        return true
    }

    /// A key of ours twice in one object (`"qty": 10, "qty": 20`): JSON leaves open which value
    /// counts, and parsers differ, so the file is refused rather than one of them guessed.
    func duplicate(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        copyKey(p, n)
        let name = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        fatalMessage = "the key \"\(name)\" appears twice in one object, so which of its values is meant is unknown"
        return false
    }
}
