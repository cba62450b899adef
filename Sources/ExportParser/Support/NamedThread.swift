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
            #if os(Linux)
                // And straight to the kernel: corelibs Foundation passes the name on through the
                // thread's pthread handle, which `start` stores only after the thread exists, so
                // a thread that names itself at once can race it and keep the process's name
                // (seen under load: the decoder showed as the process). Glibc's
                // `pthread_setname_np` is not imported into Swift; this file is what it writes.
                let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                if fd >= 0 {
                    try? POSIXFile.writeAll(fd, Array(name.utf8))
                    close(fd)
                }
            #endif
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
