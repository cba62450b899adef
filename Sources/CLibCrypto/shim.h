// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 only: its digest interface (EVP), which
// runs OpenSSL's assembly (SHA-NI or AVX2 where the CPU has them). Linux only; macOS hashes with
// CommonCrypto (`Support/SHA256.swift`).
#include <openssl/crypto.h>
#include <openssl/evp.h>
