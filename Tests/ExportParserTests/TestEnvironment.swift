import Foundation

/// Facts about the run of the tests themselves.
enum TestEnvironment {
    /// Whether the tests (and the tool they start, built alike) run under AddressSanitizer
    /// (`scripts/sanitize.sh address`): its runtime is then linked into this process.
    static let underAddressSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil
}
