#!/usr/bin/env bash
# health-import benchmark — the documented command:   bash bench/run.sh
#
# Installs nothing. .ci/run installs the build dependencies (libxml2-dev, libyajl-dev,
# libsqlite3-dev, zlib1g-dev, libisal-dev); sqlite3 (the CLI) is optional and only used for row counts.
#
# Environment:
#   BENCH_SIZE_MB  size of the generated export.xml in MB (10^6 bytes), default 1000
#   BENCH_HAE_MB   size of the generated HAE JSON in MB, default 300
#   BENCH_BIG_MB   size of the large export.xml (about 15 years at 3000) for the memory rows
#                  "c-sax-big" and "store-big" (bench/data/big/), default 3000; 0 skips them
#                  (both made by the binary under test: health-import fixtures --scale)
#   BENCH_RUNS     timed runs per row (the median is reported), default 5
#   BENCH_PROBE_MS creating 1,000 files must take less before timing starts, default 100 (waits up to 6 min)
#   BENCH_STRICT   1 = exit with status 1 when any row FAILs (default 0: report only)
#   BENCH_TIMEOUT  seconds before one timed run is killed and its row FAILs, default 900
#   BENCH_SKIP_BUILD  1 = use the existing release build of health-import
#   BENCH_HEALTH_IMPORT  path of a health-import binary to time instead of building one
#   BENCH_DATA_DIR path of the data directory, default bench/data (e.g. bench/data/small
#                  for a smoke test that leaves the 1 GB set alone)
#
# Data is generated once into bench/data/ (export.xml, export.zip, hae.json) by the release
# binary's own generator and reused while the command that made it is unchanged; programs are
# built into bench/bin/; temporary outputs live under bench/data/tmp and are removed at the end.
set -u -o pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
SIZE_MB=${BENCH_SIZE_MB:-1000}
HAE_MB=${BENCH_HAE_MB:-300}
BIG_MB=${BENCH_BIG_MB:-3000}
RUNS=${BENCH_RUNS:-5}
STRICT=${BENCH_STRICT:-0}
TIMEOUT=${BENCH_TIMEOUT:-900}
BENCH_PROBE_MS=${BENCH_PROBE_MS:-100}  # creating 1,000 files slower than this: the disk has not settled
DATA=${BENCH_DATA_DIR:-$BENCH_DIR/data}
mkdir -p "$DATA" && DATA=$(cd "$DATA" && pwd)
BIN=$BENCH_DIR/bin
TMP=$DATA/tmp
XML=$DATA/export.xml
ZIP=$DATA/export.zip
HAE=$DATA/hae.json
BIG=$DATA/big/export.xml
TIME=/usr/bin/time

# targets
T_XML=0.8     # xml run  <= 0.8 x C SAX floor, both cores (issue 24)
T_ZIP=0.7     # zip run  <= 0.7 x C SAX floor (issue 42; was <= 1.0 x the xml run, issue 24)
T_XML1=1.3    # xml run with --threads 1 (one parser) <= 1.3 x C SAX floor (issue 10)
T_STORE=1.4   # xml + SQLite store <= 1.4 x C SAX floor (issue 24; was 2.0)
T_HAE=1.3     # HAE run  <= 1.3 x yajl floor (issue 24)
T_COMPARE=1.2 # 7-day compare of export.xml against hae.json <= 1.2 x (xml run + hae run)
T_WINDOW=0.1  # compare of 7 dates and explain of one date on the big export <= 0.1 x c-sax-big (issue 42)
T_RSS=100     # every peak RSS < 100 MB (issue 24: flat at any size; the store-big row shows it)

log() { printf '%s\n' "$*" >&2; }
die() { log "bench: $*"; exit 2; }

[ -x "$TIME" ] || die "$TIME not found (Debian package 'time')"
mkdir -p "$DATA" "$BIN"
# ext4 without a journal (as on the project's VM) does not reuse an inode deleted in the last
# 60 s, or in the last 360 s while its inode-table block is dirty (fs/ext4/ialloc.c,
# recently_deleted: RECENTCY_MIN + RECENTCY_DIRTY), and creating a file dirties that block. Every
# file creation scans the group's free inodes from the start, stepping over each recent one: after
# 5,000 payload-sized files were deleted, creating 1,000 took 196 ms, then 465 ms, against 20 ms on
# a settled disk (2026-11-27), and a timed HAE run spent 0.65 s of its 1.1 s creating its 1,395 day
# files. The timed runs wait until 370 s after the last bench's deletion, then until a probe
# creates files at a settled disk's speed (the probe below).
DELETED_AT=$(cat "$DATA/.deleted-at" 2>/dev/null || true)  # when the last run's outputs went
if [ -d "$TMP" ]; then
    rm -rf "$TMP"
    DELETED_AT=$(date +%s)
fi
mkdir -p "$TMP"
trap 'rm -rf "$TMP"; date +%s >"$DATA/.deleted-at"' EXIT

# ---------------------------------------------------------------------------- build
log "== building C floors into bench/bin"
cc -O2 -o "$BIN/sax_floor" "$BENCH_DIR/sax_floor.c" $(pkg-config --cflags --libs libxml-2.0) \
    || die "cannot build sax_floor (needs libxml2-dev)"
cc -O2 -o "$BIN/yajl_floor" "$BENCH_DIR/yajl_floor.c" $(pkg-config --cflags --libs yajl 2>/dev/null || echo -lyajl) \
    || die "cannot build yajl_floor (needs libyajl-dev)"

HI=${BENCH_HEALTH_IMPORT:-}
HI_BUILD_ERR=""
if [ -n "$HI" ]; then
    [ -x "$HI" ] || HI_BUILD_ERR="BENCH_HEALTH_IMPORT=$HI is not executable"
elif [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
    log "== swift build -c release"
    if ! (cd "$ROOT" && swift build -c release) >"$TMP/swift-build.log" 2>&1; then
        HI_BUILD_ERR="swift build -c release failed: $( (grep -m1 -E 'error:' "$TMP/swift-build.log" || tail -n 1 "$TMP/swift-build.log") | cut -c1-240)"
        log "$HI_BUILD_ERR"
        tail -n 20 "$TMP/swift-build.log" >&2
    fi
fi
if [ -z "$HI" ] && [ -z "$HI_BUILD_ERR" ]; then
    BINPATH=$(cd "$ROOT" && swift build -c release --show-bin-path 2>/dev/null)
    if [ -n "$BINPATH" ] && [ -x "$BINPATH/health-import" ]; then
        HI=$BINPATH/health-import
    else
        HI_BUILD_ERR="no release binary health-import found (${BINPATH:-?})"
    fi
fi

# ---------------------------------------------------------------------------- data
# Made by health-import itself (docs/fixtures.md, "--scale MB"): a runner's days from 2011-01-01,
# the export and the HAE file from the same seed and dates, so the compare row compares the same
# days. Regenerated when missing or when the command that made it changed (the stamp files
# export.params and hae.params hold it; the generator's summary goes to export.counts and
# hae.counts). After changing the generator itself, delete the stamps to regenerate.
START=2011-01-01
EXPORT_ARGS=(fixtures --scale "$SIZE_MB" --start "$START")
HAE_ARGS=(fixtures --scale "$HAE_MB" --scale-file hae --start "$START")
generate() { # STAMP ARGS…: runs health-import ARGS --out $DATA and records ARGS in $DATA/STAMP.params
    local stamp=$DATA/$1.params
    shift
    [ -n "$HI" ] || die "cannot generate the data without a health-import binary: $HI_BUILD_ERR"
    log "== generating: health-import $* --out $DATA"
    rm -f "$stamp"
    "$HI" "$@" --out "$DATA" | tee "${stamp%.params}.counts" >&2 || die "health-import $* failed"
    echo "$*" >"$stamp"
}
if [ ! -s "$XML" ] || [ ! -s "$ZIP" ] || [ "$(cat "$DATA/export.params" 2>/dev/null)" != "${EXPORT_ARGS[*]}" ]; then
    generate export "${EXPORT_ARGS[@]}"
fi
if [ ! -s "$HAE" ] || [ "$(cat "$DATA/hae.params" 2>/dev/null)" != "${HAE_ARGS[*]}" ]; then
    generate hae "${HAE_ARGS[@]}"
fi

# The large export for the memory rows: export.xml alone, the same generator from the same start
# (at 3000 MB 5,648 dates, 15.5 years), in its own folder; generated once, like the rest.
BIG_ARGS=(fixtures --scale "$BIG_MB" --scale-file xml --start "$START")
if [ "$BIG_MB" != 0 ] && { [ ! -s "$BIG" ] || [ "$(cat "$DATA/big.params" 2>/dev/null)" != "${BIG_ARGS[*]}" ]; }; then
    [ -n "$HI" ] || die "cannot generate the data without a health-import binary: $HI_BUILD_ERR"
    log "== generating: health-import ${BIG_ARGS[*]} --out $DATA/big"
    rm -f "$DATA/big.params"
    mkdir -p "$DATA/big"
    "$HI" "${BIG_ARGS[@]}" --out "$DATA/big" | tee "$DATA/big.counts" >&2 || die "health-import ${BIG_ARGS[*]} failed"
    echo "${BIG_ARGS[*]}" >"$DATA/big.params"
fi

# The dates the window rows ask about: explain the big export's middle date; compare 7 dates from
# the middle of the HAE file's (both files start on $START).
count_dates() { grep -o '[0-9,]* dates' "$1" 2>/dev/null | head -n 1 | tr -dc '0-9'; }
BIG_DATES=$(count_dates "$DATA/big.counts")
HAE_DATES=$(count_dates "$DATA/hae.counts")
EXPLAIN_DATE=$(date -u -d "$START + $(( ${BIG_DATES:-2} / 2 )) days" +%F)
WINDOW_FROM=$(date -u -d "$START + $(( ${HAE_DATES:-14} / 2 )) days" +%F)

XML_BYTES=$(stat -c %s "$XML")
BIG_BYTES=$( [ "$BIG_MB" != 0 ] && stat -c %s "$BIG" || echo 0)
ZIP_BYTES=$(stat -c %s "$ZIP")
HAE_BYTES=$(stat -c %s "$HAE")

# ---------------------------------------------------------------------------- timing
if [[ $DELETED_AT =~ ^[0-9]+$ ]]; then
    settle=$((DELETED_AT + 370 - $(date +%s)))
    if [ "$settle" -gt 0 ]; then
        log "== waiting ${settle} s: the file system steps over inodes deleted in the last 360 s (see above)"
        sleep "$settle"
    fi
fi
# The probe: 1,000 files of 100 bytes in a new folder under $TMP, where the runs write theirs (kept
# until the end, so the probe deletes nothing). Files deleted by anything else on the disk (a test
# run, a build) slow it down the same way; then wait and probe again, for up to 6 minutes.
# PROBE_MS is printed in the table's header.
probe_files() {
    local dir=$TMP/probe-$1 t0 t1
    mkdir -p "$dir"
    sync
    t0=$(date +%s%N)
    for ((f = 0; f < 1000; f++)); do printf '%0100d' 0 >"$dir/f$f"; done
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
PROBE_MS=$(probe_files 0)
for ((p = 1; p <= 6 && PROBE_MS > BENCH_PROBE_MS; p++)); do
    log "== creating 1,000 files took ${PROBE_MS} ms (settled: under ${BENCH_PROBE_MS} ms): files were deleted on this disk recently; waiting 60 s"
    sleep 60
    PROBE_MS=$(probe_files "$p")
done
[ "$PROBE_MS" -gt "$BENCH_PROBE_MS" ] && log "== the disk did not settle (${PROBE_MS} ms for 1,000 files): rows that write files are slowed by the file system, not by health-import"
declare -A SEC RSS CPU ERR
STORE_KEEP=""

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) exit; if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

declare -A SECS RSSS CPUS ROUNDS

# measure NAME KIND INPUT I: run I of one row. KIND is floor-xml | floor-json | convert | convert-t1 | convert-store | compare
measure() {
    local name=$1 kind=$2 input=$3 i=$4 out cmd
    [ -n "${ERR[$name]:-}" ] && return   # an earlier run of this row failed
    cat "$input" >/dev/null   # same page-cache state for every run
    # compare reads the HAE file too: warmed as well. This machine's page cache gives back pages
    # of a file not read for a while even with memory free (measured 2026-11-29: 100 MB of the
    # 3 GB export in 45 s), so a compare row could otherwise read part of hae.json from disk.
    case $kind in compare | compare-window) cat "$HAE" >/dev/null ;; esac
    # The previous run's written files (the store row's 400 MB SQLite file, a thousand payload
    # files) go to disk now, not by the kernel's flusher threads during this run: a row would
    # otherwise pay for the writes of the row before it.
    sync
    out=$TMP/run-$name-$i
    rm -rf "$out"
    mkdir -p "$out"
    case $kind in
        floor-xml)  cmd=("$BIN/sax_floor" "$input") ;;
        floor-json) cmd=("$BIN/yajl_floor" "$input") ;;
        convert)    cmd=("$HI" convert "$input" --out "$out/out" --quiet --no-store) ;;
        convert-t1) cmd=("$HI" convert "$input" --out "$out/out" --quiet --no-store --threads 1) ;;
        convert-store) cmd=("$HI" convert "$input" --out "$out/out" --quiet --store "$out/health.sqlite") ;;
        compare)    cmd=("$HI" compare --native "$input" --hae "$HAE" --days 7 --out "$out/out" --quiet) ;;
        compare-window) cmd=("$HI" compare --native "$input" --hae "$HAE" --from "$WINDOW_FROM" --days 7 --out "$out/out" --quiet) ;;
        explain)    cmd=("$HI" explain "$input" --date "$EXPLAIN_DATE" --field metrics.step_count --format json) ;;
    esac
    [ "$kind" = explain ] && [ -z "$HI" ] && { ERR[$name]="health-import not built (see 'build:' above)"; return; }
    [ "$kind" = compare-window ] && kind=compare
    if [ "$kind" = convert ] || [ "$kind" = convert-t1 ] || [ "$kind" = convert-store ] || [ "$kind" = compare ]; then
        if [ -z "$HI" ]; then ERR[$name]="health-import not built (see 'build:' above)"; return; fi
        mkdir -p "$out/out"
    fi
    log "   $name run $i/$RUNS: ${cmd[*]}"
    "$TIME" -f '%e %M %U %S' -o "$out/time" timeout -k 10 "$TIMEOUT" "${cmd[@]}" >"$out/stdout" 2>"$out/stderr"
    local rc=$?
    # compare exits 1 when the sides differ, as two generated files do: a finished check.
    [ "$kind" = compare ] && [ "$rc" -eq 1 ] && rc=0
    if [ "$rc" -ne 0 ]; then
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            ERR[$name]="timed out after ${TIMEOUT} s"
        else
            ERR[$name]="exit $rc: $(tail -n 3 "$out/stderr" | tr '\n' ' ' | cut -c1-300)"
        fi
        log "   FAILED: ${ERR[$name]}"
        rm -rf "$out"
        return
    fi
    if [ "$kind" = convert ] || [ "$kind" = convert-t1 ] || [ "$kind" = convert-store ] || [ "$kind" = compare ]; then
        if [ -z "$(ls -A "$out/out")" ]; then
            ERR[$name]="exit 0 but nothing written to --out ($(head -c 200 "$out/stdout" | tr '\n' ' '))"
        elif [ "$kind" = convert-store ] && [ ! -s "$out/health.sqlite" ]; then
            ERR[$name]="exit 0 but no store file written at --store"
        fi
        if [ -n "${ERR[$name]:-}" ]; then log "   FAILED: ${ERR[$name]}"; rm -rf "$out"; return; fi
    fi
    [ "$kind" = floor-xml ] && [ "$i" = 1 ] && log "   $(cat "$out/stdout")"
    [ "$kind" = floor-json ] && [ "$i" = 1 ] && log "   $(cat "$out/stdout")"
    SECS[$name]+="$(awk 'END{print $1}' "$out/time")"$'\n'
    RSSS[$name]+="$(awk 'END{print $2}' "$out/time")"$'\n'
    CPUS[$name]+="$(awk 'END{printf "%.2f", $3 + $4}' "$out/time")"$'\n'
    ROUNDS[$name]+="$(awk 'END{printf "  %s (%s+%s)", $1, $3, $4}' "$out/time")"
    # Kept until the end (the EXIT trap removes $TMP): deleting a run's thousand-odd payload
    # files right away makes ext4's inode allocator slow for the next 6 minutes (it steps over
    # recently deleted inodes one at a time), which would charge one run's clean-up to the
    # file creation of the next run (measured: +0.3 s system time on the HAE row).
    [ "$kind" = convert-store ] && [ "$name" = xml+store ] && STORE_KEEP=$out
    return 0
}

# Runs are interleaved (run 1 of every row, then run 2, …): on a shared or throttling machine a
# row timed minutes after its floor would be compared with a floor from other conditions.
log "== timing, median of $RUNS runs each, rows interleaved"
for ((i = 1; i <= RUNS; i++)); do
    measure c-sax-floor floor-xml "$XML" "$i"
    measure xml convert "$XML" "$i"
    measure xml-t1 convert-t1 "$XML" "$i"
    measure zip convert "$ZIP" "$i"
    measure xml+store convert-store "$XML" "$i"
    measure yajl-floor floor-json "$HAE" "$i"
    measure hae convert "$HAE" "$i"
    measure compare compare "$XML" "$i"
    if [ "$BIG_MB" != 0 ]; then
        measure c-sax-big floor-xml "$BIG" "$i"
        measure store-big convert-store "$BIG" "$i"
        rm -f "$TMP/run-store-big-$i/health.sqlite"   # 1.3 GB a run; one file, no inode storm
        measure compare-window compare-window "$BIG" "$i"
        measure explain-date explain "$BIG" "$i"
    fi
done
# Every row, in the order of the table.
ROW_NAMES=(c-sax-floor xml xml-t1 zip xml+store yajl-floor hae compare c-sax-big store-big compare-window explain-date)
for name in "${ROW_NAMES[@]}"; do
    [ -n "${ERR[$name]:-}" ] && continue
    SEC[$name]=$(printf '%s' "${SECS[$name]:-}" | median)
    RSS[$name]=$(printf '%s' "${RSSS[$name]:-}" | sort -g | tail -n 1)   # worst run
    CPU[$name]=$(printf '%s' "${CPUS[$name]:-}" | median)
done
# compare reads both files: its reference is the two convert runs together, round by round.
if [ -n "${SEC[xml]:-}" ] && [ -n "${SEC[hae]:-}" ]; then
    SEC[xml+hae]=$(awk -v a="${SEC[xml]}" -v b="${SEC[hae]}" 'BEGIN { printf "%.2f", a + b }')
    SECS[xml+hae]=$(paste -d' ' <(printf '%s' "${SECS[xml]}") <(printf '%s' "${SECS[hae]}") | awk '{ printf "%.2f\n", $1 + $2 }')
fi

# ---------------------------------------------------------------------------- report
FAILS=0
# The ratio of a row to its reference is the median of the per-round ratios: run i of a row is
# divided by run i of its reference, timed seconds before it in the same round. This VM's speed
# drifts by ±25 % over minutes (the floor took 3.3-4.8 s within one hour), and a round's runs share
# its conditions; the ratio of two medians would mix the rounds.
pratio() { # NAME REF
    paste -d' ' <(printf '%s' "${SECS[$1]:-}") <(printf '%s' "${SECS[$2]:-}") |
        awk 'NF == 2 && $2 > 0 { printf "%.4f\n", $1 / $2 }' | median | awk '{ printf "%.2f", $1 }'
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

row() { # name bytes floor-name target [second-ref target2]
    local name=$1 bytes=$2 ref=$3 target=$4 ref2=${5:-} target2=${6:-}
    local s=${SEC[$name]:-} r=${RSS[$name]:-} verdict=PASS why="" rat="-" rat2="" mbs="-" rssmb="-"
    if [ -z "$s" ]; then
        printf '%-14s %8s %8s %-22s %8s %7s  FAIL  %s\n' "$name" "-" "-" "-" "-" "-" "${ERR[$name]:-not run}"
        FAILS=$((FAILS + 1))
        return
    fi
    mbs=$(awk -v b="$bytes" -v s="$s" 'BEGIN { printf "%.1f", (s > 0 ? b / 1e6 / s : 0) }')
    rssmb=$(awk -v k="$r" 'BEGIN { printf "%.1f", k / 1024 }')
    if [ -n "$ref" ]; then
        if [ -n "${SEC[$ref]:-}" ]; then
            local q
            q=$(pratio "$name" "$ref")
            rat="${q}x $ref"
            if [ -n "$target" ] && ! le "$q" "$target"; then verdict=FAIL; why+=" >${target}x $ref;"; fi
        else
            rat="? ($ref missing)"
            [ -n "$target" ] && { verdict=FAIL; why+=" no $ref;"; }
        fi
    else
        rat="(floor)"
    fi
    if [ -n "$ref2" ]; then
        if [ -n "${SEC[$ref2]:-}" ]; then
            local q2
            q2=$(pratio "$name" "$ref2")
            rat2="${q2}x $ref2"
            if [ -n "$target2" ] && ! le "$q2" "$target2"; then verdict=FAIL; why+=" >${target2}x $ref2;"; fi
        else
            rat2="? ($ref2 missing)"
            [ -n "$target2" ] && { verdict=FAIL; why+=" no $ref2;"; }
        fi
    fi
    if ! awk -v m="$rssmb" -v t="$T_RSS" 'BEGIN { exit !(m < t) }'; then verdict=FAIL; why+=" RSS>=${T_RSS}MB;"; fi
    [ "$verdict" = FAIL ] && FAILS=$((FAILS + 1))
    printf '%-14s %8s %8s %-22s %8s %7s  %-4s %s%s\n' "$name" "$s" "$mbs" "$rat" "$rssmb" "${CPU[$name]}" "$verdict" \
        "${rat2:+($rat2) }" "${why:+[${why# }]}"
}

echo
echo "health-import benchmark  $(date -u '+%Y-%m-%d %H:%M UTC')  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "file creation: 1,000 files in ${PROBE_MS} ms (settled disk: under ${BENCH_PROBE_MS} ms; see bench/README.md, \"The disk\")"
echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')  libxml2 $(pkg-config --modversion libxml-2.0)  runs=$RUNS (median s; peak RSS = worst run)"
printf 'export.xml %d bytes (%.1f MB)   export.zip %d bytes (%.1f MB)   hae.json %d bytes (%.1f MB)\n' \
    "$XML_BYTES" "$(awk -v b="$XML_BYTES" 'BEGIN{print b/1e6}')" "$ZIP_BYTES" "$(awk -v b="$ZIP_BYTES" 'BEGIN{print b/1e6}')" \
    "$HAE_BYTES" "$(awk -v b="$HAE_BYTES" 'BEGIN{print b/1e6}')"
[ -n "$HI_BUILD_ERR" ] && echo "build: $HI_BUILD_ERR"
[ "$BIG_MB" != 0 ] && printf 'big/export.xml %d bytes (%.1f MB): c-sax-big and store-big\n' "$BIG_BYTES" "$(awk -v b="$BIG_BYTES" 'BEGIN{print b/1e6}')"
echo "targets: xml <= ${T_XML}x C SAX floor (xml-t1, --threads 1: <= ${T_XML1}x), zip <= ${T_ZIP}x C SAX floor, xml+store <= ${T_STORE}x C SAX floor, hae <= ${T_HAE}x yajl floor, compare <= ${T_COMPARE}x (xml + hae), store-big <= ${T_STORE}x c-sax-big, compare-window ($WINDOW_FROM, 7 dates) and explain-date ($EXPLAIN_DATE) <= ${T_WINDOW}x c-sax-big, every peak RSS < ${T_RSS} MB"
echo
printf '%-14s %8s %8s %-22s %8s %7s  %s\n' run seconds MB/s ratio RSS-MB cpu-s result
printf '%-14s %8s %8s %-22s %8s %7s  %s\n' -------------- -------- -------- ---------------------- -------- ------- ------
row c-sax-floor "$XML_BYTES" "" ""
row xml "$XML_BYTES" c-sax-floor "$T_XML"
row xml-t1 "$XML_BYTES" c-sax-floor "$T_XML1"
row zip "$XML_BYTES" c-sax-floor "$T_ZIP" xml ""
row xml+store "$XML_BYTES" c-sax-floor "$T_STORE"
row yajl-floor "$HAE_BYTES" "" ""
row hae "$HAE_BYTES" yajl-floor "$T_HAE"
row compare "$((XML_BYTES + HAE_BYTES))" xml+hae "$T_COMPARE"
ROWS=6
if [ "$BIG_MB" != 0 ]; then
    row c-sax-big "$BIG_BYTES" "" ""
    row store-big "$BIG_BYTES" c-sax-big "$T_STORE"
    row compare-window "$BIG_BYTES" c-sax-big "$T_WINDOW"
    row explain-date "$BIG_BYTES" c-sax-big "$T_WINDOW"
    ROWS=10
fi
echo "(seconds: median wall time; ratio: median of the per-round ratios to the reference; cpu-s: median user+sys, informational; MB/s counts uncompressed export.xml bytes for the zip row)"
echo
echo "rounds: wall s (user+sys CPU s) of each run, in order; a row's system time rising with no change to the code is"
echo "the machine: the file system or the VM's memory (see \"The disk\" and \"The memory\" in bench/README.md)"
for name in "${ROW_NAMES[@]}"; do
    [ -n "${ROUNDS[$name]:-}" ] && printf '  %-16s%s\n' "$name" "${ROUNDS[$name]}"
done

if [ -n "$STORE_KEEP" ] && [ -f "$STORE_KEEP/health.sqlite" ]; then
    db=$STORE_KEEP/health.sqlite
    echo
    printf 'store: %s bytes (%.1f MB)' "$(stat -c %s "$db")" "$(awk -v b="$(stat -c %s "$db")" 'BEGIN{print b/1e6}')"
    [ -f "$db-wal" ] && printf ' + WAL %s bytes' "$(stat -c %s "$db-wal")"
    echo
    if command -v sqlite3 >/dev/null 2>&1; then
        for t in $(sqlite3 "$db" "select name from sqlite_master where type='table' and name not like 'sqlite_%' order by name" 2>/dev/null); do
            printf '  %-24s %12s rows\n' "$t" "$(sqlite3 "$db" "select count(*) from \"$t\"" 2>/dev/null)"
        done
    else
        echo "  (sqlite3 CLI not installed: no row counts)"
    fi
elif [ -n "${ERR[xml+store]:-}" ] && [ -n "$HI" ]; then
    echo
    echo "store: not produced (${ERR[xml+store]})"
fi

echo
if [ "$FAILS" -eq 0 ]; then echo "overall: PASS"; else echo "overall: FAIL ($FAILS of $ROWS rows)"; fi
if [ "$STRICT" = 1 ] && [ "$FAILS" -ne 0 ]; then exit 1; fi
exit 0
