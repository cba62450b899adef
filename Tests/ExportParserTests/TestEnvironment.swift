import Foundation

/// Facts about the run of the tests themselves.
enum TestEnvironment {
    /// Whether the tests (and the tool they start, built alike) run under AddressSanitizer or
    /// ThreadSanitizer (`scripts/sanitize.sh`): its runtime is then linked into this process.
    /// Both make every process several times larger, so memory bounds are not asserted there.
    static let underSanitizer: Bool = {
        let me = dlopen(nil, RTLD_NOW)
        return dlsym(me, "__asan_init") != nil || dlsym(me, "__tsan_init") != nil
    }()
}
