#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place that knows how `stat` names a file's times: `st_mtim` on Linux,
/// `st_mtimespec` on Darwin. Everything else asks here, so the package builds on both.
enum FileTimes {
    /// Whole seconds since 1970 (UTC) of the last modification recorded in `st`.
    static func modificationSeconds(_ st: stat) -> Int64 {
        #if os(Linux)
            return Int64(st.st_mtim.tv_sec)
        #else
            return Int64(st.st_mtimespec.tv_sec)
        #endif
    }
}
