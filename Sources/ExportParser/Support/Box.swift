/// A reference a worker thread can drop before it signals that it is done: a closure's
/// captures live until the thread itself ends, which may be after the process has moved on.
// @unchecked Sendable: the value is set before the thread starts and dropped by that thread alone.
final class Box<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}
