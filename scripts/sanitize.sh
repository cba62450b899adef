#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and then ThreadSanitizer, each in its own
# scratch directory (.build-asan, .build-tsan; git-ignored through .build-*) so that neither
# invalidates the normal debug build. Each sanitized build takes ~4 minutes on 2 cores.
#
#   bash scripts/sanitize.sh            # both
#   bash scripts/sanitize.sh address    # one of: address, thread
#   SANITIZE_FILTER='Store|HAE' bash scripts/sanitize.sh address   # only the tests matching (swift test --filter)
#   SANITIZE_SKIP='LargeStore' …                                     # and not those (swift test --skip)
#   HEALTH_IMPORT_WITHOUT_RECEIVE=1 …   # without `receive`'s HTTP server and its tests (Package.swift;
#                                       # CI's build): half the build. Set it for a whole scratch folder's life.
#
# Exit status: 0 when every run passed with no sanitizer report, 1 otherwise. A report makes
# the test process fail (ASan/TSan abort on their first error with halt_on_error=1).
set -u -o pipefail
cd "$(dirname "$0")/.."

kinds=("$@")
[ "${#kinds[@]}" -gt 0 ] || kinds=(address thread)
status=0
for kind in "${kinds[@]}"; do
    case "$kind" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "sanitize: unknown sanitizer '$kind' (address or thread)" >&2; exit 2 ;;
    esac
    log=$(mktemp)
    filter=()
    [ -z "${SANITIZE_FILTER:-}" ] || filter=(--filter "$SANITIZE_FILTER")
    [ -z "${SANITIZE_SKIP:-}" ] || filter+=(--skip "$SANITIZE_SKIP")
    echo "== swift test --sanitize=$kind --scratch-path $scratch ${filter[*]}"
    # detect_leaks=0: Foundation's and XCTest's one-time allocations are reported as leaks.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1} \
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} \
        swift test --sanitize="$kind" --scratch-path "$scratch" "${filter[@]}" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ] || grep -qE 'ERROR: AddressSanitizer|WARNING: ThreadSanitizer' "$log"; then
        echo "sanitize: $kind FAILED (exit $rc)"
        status=1
    else
        echo "sanitize: $kind passed: $(grep -E 'Executed [0-9]+ tests' "$log" | tail -n 1 | sed 's/^[[:space:]]*//')"
    fi
    rm -f "$log"
done
exit $status
