#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + AddressSanitizer) and runs one for N seconds.
#
#   bash fuzz/run.sh TARGET SECONDS [libFuzzer options…]
#
# TARGET: export-xml, hae, zip, timestamp or number (fuzz/README.md). New inputs the fuzzer finds
# go into fuzz/corpus/TARGET (seeded by fuzz/make-corpus.sh); a crash is written to
# fuzz/artifacts/TARGET-crash-… and replays with `fuzz/.build-fuzz/debug/FuzzX THAT_FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: bash fuzz/run.sh export-xml|hae|zip|timestamp|number SECONDS [libFuzzer options…]" >&2; exit 2; }
[ $# -ge 2 ] || usage
target=$1 seconds=$2
shift 2
case $target in
  export-xml) product=FuzzExportXML dict=fuzz/dict/xml.dict ;;
  hae)        product=FuzzHAE       dict=fuzz/dict/json.dict ;;
  zip)        product=FuzzZip       dict=fuzz/dict/zip.dict ;;
  timestamp)  product=FuzzTimestamp dict=fuzz/dict/timestamp.dict ;;
  number)     product=FuzzNumber    dict=fuzz/dict/number.dict ;;
  *) usage ;;
esac
[[ $seconds =~ ^[0-9]+$ ]] || usage

# -Xswiftc -sanitize=fuzzer,address: SwiftPM passes its two sanitizers to swiftc as two flags in
# no fixed order, and of two -sanitize= flags swiftc keeps only the last; without this, the Swift
# code is sometimes built without libFuzzer's coverage ("no interesting inputs were found").
build() {
  swift build --package-path fuzz -c debug --sanitize=fuzzer --sanitize=address \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --scratch-path fuzz/.build-fuzz
}
# After a new file appears in the library, this package (which depends on the root by path)
# can go on compiling from SwiftPM's old build plan and fail with "cannot find … in scope",
# however often it is run. Removing the plan (debug.yaml) makes SwiftPM plan again.
build || {
  echo "fuzz/run.sh: the build failed; planning it again and retrying once" >&2
  rm -f fuzz/.build-fuzz/debug.yaml
  build
}
# Coverage check: the library's code must be instrumented.
if ! objdump -h fuzz/.build-fuzz/debug/ExportParser.build/FuzzEntry.swift.o | grep -c sancov >/dev/null; then
  echo "fuzz/run.sh: the library was built without libFuzzer's coverage instrumentation" >&2
  exit 1
fi
[ -d "fuzz/corpus/$target" ] || bash fuzz/make-corpus.sh
mkdir -p fuzz/artifacts

# libFuzzer prints the crash itself; Swift's backtracer would only slow every crash down.
export SWIFT_BACKTRACE=enable=no
exec "fuzz/.build-fuzz/debug/$product" "fuzz/corpus/$target" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -dict="$dict" \
  -artifact_prefix="fuzz/artifacts/$target-" -print_final_stats=1 "$@"
