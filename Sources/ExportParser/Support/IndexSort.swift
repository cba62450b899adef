/// Sorts an array of large values by a key through an index of positions (8 bytes each), then
/// moves each value to its place once along the permutation's cycles.
///
/// Why not `sort`: the standard library's sort is a merge sort whose scratch buffer holds half of
/// the elements. The day book's finish sorts every date's `FinishedDay` (about 200 bytes each,
/// in dictionary order), so at 12,205 dates that was a 1.2 MB buffer at the end of the finish,
/// on top of everything held then (issue 24); here it is 8 bytes a date.
enum IndexSort {
    /// Sorts `values` in place by `key`, which must be unique (the order of equal keys is not
    /// kept).
    static func sort<T>(_ values: inout [T], by key: (T) -> Int) {
        guard values.count > 1 else { return }
        var order = values.indices.sorted { key(values[$0]) < key(values[$1]) }
        // Place i gets the value at order[i]: walk each cycle once, marking each place done
        // (`order[j] = j`) as it receives its value.
        for i in order.indices where order[i] != i {
            var j = i
            while order[j] != i {
                let next = order[j]
                values.swapAt(j, next)
                order[j] = j
                j = next
            }
            order[j] = j
        }
    }
}
