#!/usr/bin/env bash
# compare's window read against a full read (issue 42, docs/compare.md "The window read"): runs
# `compare --from D` on the same inputs twice, through the window (--threads 2) and in full
# (--threads 1), and diffs every output (compare.json, .csv, .html, stdout, stderr, exit status).
# Both sides: with --threads 2 the HAE file is read through the window too (docs/hae.md, "The
# window read"), so each pair also checks the HAE side's census against its full read.
# Inputs: every fixture profile (the traveller and runner at a second seed and scale; export.xml
# and export.zip against their own HAE), and the public sample exports in ../shared/samples-public/export (skipped when
# absent) against a fixture's HAE. Windows: the first and last dates, before the first, after
# the last, across Europe/Amsterdam's change to summer time, a traveller's trip; --days 1, 7 and
# 30; without and with --timezone.
#
#   scripts/window-vs-full.sh [BINARY] [WORKDIR]     (exit 1 on any difference)
set -uo pipefail
bin=$(realpath "${1:-.build/debug/health-import}")
work=$(realpath -m "${2:-$(mktemp -d)}")
samples=$(dirname "$0")/../../shared/samples-public/export
mkdir -p "$work"
runs=0 diffs=0
# one LABEL NATIVE HAE FROM DAYS [ARGS...]: both reads, then the diff.
one() {
    local label=$1 native=$2 hae=$3 from=$4 days=$5; shift 5
    for mode in window full; do
        local t=2; [ $mode = full ] && t=1
        local d=$work/runs/$label/$mode
        rm -rf "$d"; mkdir -p "$d"
        (cd "$d" && "$bin" compare --native "$native" --hae "$hae" --from "$from" --days "$days" --threads $t --out out "$@" \
            >stdout.txt 2>stderr.txt; echo $? >status.txt)
    done
    runs=$((runs + 1))
    if ! diff -r "$work/runs/$label/full" "$work/runs/$label/window" >"$work/runs/$label.diff"; then
        diffs=$((diffs + 1))
        echo "DIFFERS: $label ($native --from $from --days $days $*)"
        head -5 "$work/runs/$label.diff"
    else
        rm -rf "$work/runs/$label" "$work/runs/$label.diff"
    fi
}
# The first and last startDate of an export.xml (dates as written).
edges() { grep -o 'startDate="[0-9-]*' "$1" | cut -d'"' -f2 | sort -u | sed -n '1p;$p'; }
shift_day() { date -u -d "$1 $2 days" +%F; }
windows() { # windows FILE: the --from dates to try for this export
    local e first last
    e=$(edges "$1"); first=$(echo "$e" | head -1); last=$(echo "$e" | tail -1)
    [ -z "$first" ] && return
    echo "$first" "$(shift_day "$first" -3)" "$(shift_day "$first" 2)" "$(shift_day "$last" -6)" "$last" "$(shift_day "$last" 3)"
}
mkdir -p "$work/fix"
# Every profile at one scale, the traveller (trips) and the runner at a second.
for fixture in runner-4-40 sedentary-4-40 shift-worker-4-40 traveller-4-40 traveller-9-75 runner-9-75; do
    IFS=- read -r profile seed n <<<"${fixture/shift-worker/shift_worker}"
    profile=${profile/shift_worker/shift-worker}
    f=$work/fix/$fixture
    [ -f "$f/export.xml" ] || "$bin" fixtures --days "$n" --start 2026-03-01 --profile "$profile" --seed "$seed" --out "$f" >/dev/null
    for native in "$f/export.xml" "$f/export.zip"; do
        [ -f "$native" ] || continue
        set -- $(windows "$f/export.xml")
        first=$1 last=$5
        for from in "$@" 2026-03-26; do
            one "$fixture-$(basename "$native")-$from-7" "$native" "$f/hae.json" "$from" 7
        done
        # --days 1 and 30, and --timezone, at the first date, across the DST change and at the last.
        for from in "$first" 2026-03-28 "$last"; do
            one "$fixture-$(basename "$native")-$from-1" "$native" "$f/hae.json" "$from" 1
            one "$fixture-$(basename "$native")-$from-30" "$native" "$f/hae.json" "$from" 30
            one "$fixture-$(basename "$native")-$from-tz" "$native" "$f/hae.json" "$from" 7 --timezone America/New_York
        done
    done
done
hae=$work/fix/runner-4-40/hae.json
if [ -d "$samples" ]; then
    while IFS= read -r native; do
        xml=$native
        [[ $native == *.zip ]] && continue
        for from in $(windows "$xml"); do
            for days in 1 7; do
                one "sample-$(echo "$native" | md5sum | cut -c1-8)-$from-$days" "$(realpath "$native")" "$hae" "$from" "$days"
            done
        done
    done < <(find "$samples" -name '*.xml' ! -name '*cda*' | sort)
    while IFS= read -r zip; do
        one "sample-zip-$(echo "$zip" | md5sum | cut -c1-8)" "$(realpath "$zip")" "$hae" 2020-01-01 7
    done < <(find "$samples" -name '*.zip' | sort)
else
    echo "no public samples at $samples: skipped"
fi
echo "$runs runs, $diffs with differences (kept under $work/runs)"
[ $diffs = 0 ]
