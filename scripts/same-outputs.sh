#!/usr/bin/env bash
# Runs two health-import binaries on the same inputs and diffs every output file and every
# stdout/stderr/exit status: fixtures (each profile), convert, compare, explain, people and
# gdpr-export. Used to prove a refactor changes no byte.
#
#   scripts/same-outputs.sh OLD_BINARY NEW_BINARY [WORKDIR]
#
# Ignored (stamped at run time, not by the data): the store's import timestamps (the store
# itself is not diffed byte for byte; its content reaches the diff through gdpr-export), the
# manifest.json "created_at" and README times gdpr-export writes, which are normalised below,
# and convert's/gdpr-export's summary lines with seconds taken.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") work=$(realpath -m "${3:-$(mktemp -d)}")
run() { # run LABEL BIN ARGS... : stdout, stderr and status into $work/LABEL/
    local label=$1 bin=$2; shift 2
    mkdir -p "$work/$label"
    set +e
    (cd "$work/$label" && "$bin" "$@" >stdout.txt 2>stderr.txt; echo $? >status.txt)
    set -e
}
for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    d=$work/$side
    rm -rf "$d"; mkdir -p "$d"
    for p in runner sedentary shift-worker traveller; do
        run $side/fix-$p "$bin" fixtures --days 10 --profile $p --seed 3 --out f
    done
    run $side/fix-imperial "$bin" fixtures --days 8 --units imperial --hae-style samples --hae-bodies since --out f
    run $side/fix-dtd "$bin" fixtures --days 5 --variant ios16-dtd --locale zh_CN --out f
    f=$d/fix-runner/f
    run $side/convert "$bin" convert "$f/export.zip" "$f/hae.json" --out o --quiet
    run $side/convert-sum "$bin" convert "$f/export.xml" --out o --no-store
    run $side/compare "$bin" compare --native "$f/export.zip" --hae "$f/hae.json" --out c
    run $side/compare-store "$bin" compare --store "$d/convert/o/health.sqlite" --out c
    run $side/explain "$bin" explain "$f/export.zip" --date 2026-03-05 --field metrics.step_count
    run $side/explain-json "$bin" explain "$f/export.zip" "$f/hae.json" --date 2026-03-06 --field sleep.total_hours --format json
    run $side/people "$bin" people --store "$d/convert/o/health.sqlite"
    run $side/gdpr "$bin" gdpr-export --store "$d/convert/o/health.sqlite" --person me --out g
    run $side/gdpr-zip "$bin" gdpr-export --store "$d/convert/o/health.sqlite" --person me --out g.zip
    # Errors: each command's message and status for a bad input.
    run $side/err-people "$bin" people --store "$d/nothing.sqlite"
    run $side/err-gdpr "$bin" gdpr-export --store "$d/convert/o/health.sqlite" --person nobody --out g2
    run $side/err-convert "$bin" convert "$f/plan.json" --out o
    run $side/err-erase "$bin" erase --store "$d/nothing.sqlite" --person ann --yes
done
# Normalise what is stamped at run time (times, durations, speeds, hashes of files holding
# times) and the work folder's own path.
normalise() { # normalise SIDE FOLDER
    find "$2" -type f \( -name '*.txt' -o -name '*.json' -o -name '*.md' -o -name '*.html' -o -name '*.csv' -o -name '*.jsonl' \) -print0 |
        xargs -0 -r sed -i -E -e "s#$work/$1#WORK#g" \
            -e 's/("created_at": ?")[^"]*"/\1T"/g' -e 's/"(exported|imported)_at": ?"[^"]*"/"\1_at": "T"/g' \
            -e 's/in [0-9]+\.[0-9]+ s/in N s/g' -e 's|[0-9,]+ rows/s|N rows/s|g' -e 's|\([0-9.,]+ MB/s\)|(N MB/s)|g' \
            -e 's/[0-9.]+ s\b/N s/g' -e 's/"sha256": "[0-9a-f]+"/"sha256": "H"/g' \
            -e 's/20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g'
}
find "$work/old" "$work/new" -type f -name '*.sqlite*' -path '*/convert/*' -delete
for side in old new; do
    # gdpr-export's zip: compare its entries, not its bytes (entries carry the run's time).
    z=$work/$side/gdpr-zip/g.zip
    if [ -f "$z" ]; then mkdir -p "$z.d" && (cd "$z.d" && unzip -qo "$z") && rm "$z"; fi
    normalise $side "$work/$side"
done
if diff -r "$work/old" "$work/new"; then echo "same outputs ($work)"; else echo "OUTPUTS DIFFER ($work)"; exit 1; fi
