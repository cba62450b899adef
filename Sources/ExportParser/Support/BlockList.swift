/// An append-only list in blocks of a fixed number of elements: what the day book keeps until the
/// end of the input (sleep samples, `night-avg` samples waiting for the zone timeline).
///
/// Why not an array: an array that grows by doubling holds up to twice what it needs, and while
/// it grows the old and the new storage are both alive (issue 24: the 119,212 sleep samples of a
/// 15-year export were 6 MB that way at the end of the read, when memory peaks). Blocks never
/// move; `removeAll` frees them, and `drain` frees each block once its elements were handed on.
struct BlockList<Element> {
    private var blocks: [[Element]] = []
    private let blockSize: Int
    private(set) var count = 0

    init(blockSize: Int = 4096) { self.blockSize = max(1, blockSize) }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ e: Element) {
        if blocks.isEmpty || blocks[blocks.count - 1].count == blockSize {
            var block: [Element] = []
            block.reserveCapacity(blockSize)
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(e)
        count += 1
    }

    /// Hands every element to `body` in the order appended, freeing each block after its last;
    /// the list is empty afterwards.
    mutating func drain(_ body: (Element) throws -> Void) rethrows {
        var taken = blocks
        removeAll()
        for i in taken.indices {
            for e in taken[i] { try body(e) }
            taken[i] = []
        }
    }

    /// The element appended `position`-th (from 0); changed in place.
    subscript(position: Int) -> Element {
        get { blocks[position / blockSize][position % blockSize] }
        _modify { yield &blocks[position / blockSize][position % blockSize] }
    }

    /// Every element, in the order appended.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for block in blocks { for e in block { try body(e) } }
    }

    mutating func removeAll() {
        blocks = []
        count = 0
    }
}
