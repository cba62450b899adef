import Foundation

/// Starts every thread of the tool the same way: named from inside, with its stack size.
///
/// Why one place: corelibs Foundation gives the system a thread's name only when the thread
/// sets it on itself (a name set before `start` stays Foundation's own), and Linux keeps at
/// most 15 bytes of it (`pthread_setname_np` refuses a longer one: ERANGE). Without its name a
/// thread shows in `perf` and `top -H` as the process, and a profile charges its work to
/// another thread (docs/hae.md, "What limits it"). Seven threads had each repeated that.
enum NamedThread {
    /// The longest name Linux keeps, in bytes.
    static let maxNameBytes = 15

    /// Starts `body` on a new thread called `name` (at most `maxNameBytes` bytes of UTF-8).
    /// `stackSize`: bytes, where Foundation's default is not enough (the threads that run
    /// libxml2's parser or the decoders it feeds); nil keeps the default.
    static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= maxNameBytes, "thread name over \(maxNameBytes) bytes: \(name)")
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
