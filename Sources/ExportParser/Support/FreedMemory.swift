#if canImport(Glibc)
    import Glibc
#endif

/// Hands the pages of freed heap memory back to the kernel between a run's phases.
///
/// Why: the read allocates on its own threads (parsers, player, decoder), so glibc serves it
/// from those threads' arenas; once the read is over, what it freed stays resident in them, and
/// the finish that follows on the calling thread allocates from another arena on top. Peak RSS is
/// then the read's high-water mark plus the finish's. `malloc_trim(0)` returns every free page
/// of every arena (issue 24: measured in docs/export-xml.md, "Memory").
///
/// Unsafe code (docs/architecture.md, "Where unsafe code lives"): glibc's `malloc_trim` is not
/// in Swift's Glibc module, so it is looked up once by name and called through a C function
/// type that matches its declaration, `int malloc_trim(size_t pad)`. Elsewhere (macOS, musl) it
/// does nothing.
enum FreedMemory {
    #if canImport(Glibc)
        private typealias Trim = @convention(c) (Int) -> Int32
        private static let trim: Trim? = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    #endif

    /// Returns freed pages to the kernel (glibc); a no-op elsewhere.
    static func giveBack() {
        #if canImport(Glibc)
            _ = trim?(0)
        #endif
    }
}
