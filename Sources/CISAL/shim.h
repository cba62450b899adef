#include <isa-l/igzip_lib.h>

// ISA-L's AVX2/AVX-512 inflate (`decode_huffman_code_block_stateless_04` in Debian's libisal 2.30)
// returns with the upper halves of the YMM/ZMM registers dirty: it executes no `vzeroupper`.
// Until one runs, every legacy-SSE instruction on that thread pays for the dirty state; Swift's
// code for x86-64 is legacy SSE. Measured on this project's bench machine (AMD EPYC, Zen 4): a
// 16-byte-load scan of each inflated 256 KiB buffer ran at half speed (0.030 s against 0.015 s for
// 983 MB), the second pass as slow as the first, and at full speed after a `vzeroupper`
// (docs/export-xml.md, "The seventh pass").
#if defined(__x86_64__)
#include <cpuid.h>

/// Whether the CPU and the OS let code use the YMM registers (CPUID.1:ECX's OSXSAVE and AVX bits,
/// and XCR0's SSE and AVX state bits): only then can ISA-L have dirtied them, and only then may
/// `vzeroupper` run (elsewhere it is an invalid instruction).
static inline int cisal_avx_usable(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 27)) || !(c & (1u << 28))) return 0;
    unsigned int lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6u) == 6u;
}

/// Clears the upper halves of the vector registers. Call only when `cisal_avx_usable()`. The
/// lower 128 bits, all that code without AVX can see, are left as they are. The compiler's own
/// builtin, not inline assembly: it knows which registers the instruction changes, so code built
/// with AVX (`-target-cpu native`) keeps no value in them across it; built without, the `avx`
/// target keeps the function out of line, and a call preserves no vector register anyway.
__attribute__((target("avx"))) static inline void cisal_vzeroupper(void) { __builtin_ia32_vzeroupper(); }
#else
static inline int cisal_avx_usable(void) { return 0; }
static inline void cisal_vzeroupper(void) {}
#endif
