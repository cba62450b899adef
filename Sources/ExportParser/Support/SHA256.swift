import Foundation

#if canImport(CommonCrypto)
    import CommonCrypto
#else
    import CLibCrypto
#endif

/// SHA-256 from the system's crypto library: OpenSSL's libcrypto on Linux (Debian's
/// `libssl-dev`, as libxml2 and yajl are Debian's), CommonCrypto on macOS. Both run the CPU's
/// SHA instructions where it has them. What identifies an import (`FileDigest`), a received body,
/// a GDPR export's file, a pushed day and a person's fleet shard, and what `receive` keeps of a key.
///
/// Not swift-crypto: it compiled BoringSSL (359 C files) into every cold build, twice in CI (the
/// debug and the AddressSanitizer build), for this one function (docs/architecture.md, "Tests and
/// CI"). A class: the context is the library's, updated in place, never copied.
///
/// Unsafe code (docs/architecture.md, "Where unsafe code lives"): the bytes hashed are lent to
/// the library for the call only; the context is freed once, in `deinit`.
final class SHA256 {
    /// The 32 bytes of a digest.
    typealias Digest = [UInt8]

    #if canImport(CommonCrypto)
        private var context = CC_SHA256_CTX()
    #else
        private let context: OpaquePointer
    #endif

    #if !canImport(CommonCrypto)
        /// libcrypto set up once, without its exit handler. By default OpenSSL frees its state in
        /// an `atexit` handler, and a process that exits (an error's exit status) while one of its
        /// threads hashes (the input's sha256 during the parse) had that thread's digest fail to
        /// start, or crash, after the handler ran (seen in CI: `HostileZipTests`,
        /// `ClearAnswersTests`). `OPENSSL_INIT_NO_ATEXIT` leaves the freeing to the exit itself.
        fileprivate static let setUp: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    #endif

    init() {
        #if canImport(CommonCrypto)
            CC_SHA256_Init(&context)
        #else
            // Fails only when memory cannot be had, which Swift's own allocations treat as fatal too.
            guard Self.setUp, let made = EVP_MD_CTX_new(), EVP_DigestInit_ex(made, EVP_sha256(), nil) == 1 else {
                fatalError("OpenSSL could not start a SHA-256 digest")
            }
            context = made
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
            EVP_MD_CTX_free(context)
        #endif
    }

    /// Adds `bytes` to what is hashed.
    func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        #if canImport(CommonCrypto)
            // CC_LONG is 32 bits: a larger buffer goes in parts.
            var offset = 0
            while offset < bytes.count {
                let n = min(bytes.count - offset, Int(Int32.max))
                CC_SHA256_Update(&context, base + offset, CC_LONG(n))
                offset += n
            }
        #else
            EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    /// Adds `data`'s bytes to what is hashed.
    func update(data: some ContiguousBytes) {
        data.withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// The digest of everything added. Call once.
    func finalize() -> Digest {
        var out = Digest(repeating: 0, count: 32)
        #if canImport(CommonCrypto)
            CC_SHA256_Final(&out, &context)
        #else
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &out, &length)
        #endif
        return out
    }

    /// The digest of `data`'s bytes.
    static func hash(data: some ContiguousBytes) -> Digest {
        let hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// The crypto library set up now, without its exit handler (`SHA256.setUp`), before anything else
/// in the process can set it up with one: libpq does, with OpenSSL's defaults, when it opens a TLS
/// connection to a `postgres://` store, and the first to set it up decides. The tool calls it
/// first thing (main.swift).
package enum CryptoLibrary {
    package static func setUp() {
        #if !canImport(CommonCrypto)
            _ = SHA256.setUp
        #endif
    }
}
