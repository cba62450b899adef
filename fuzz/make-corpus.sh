#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target, fuzz/corpus/TARGET/, from the sample export and
# the test fixtures (nothing of it is committed). Run again to reset the corpora to their seeds:
# it deletes what the fuzzer added.
#
#   bash fuzz/make-corpus.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf fuzz/corpus
mkdir -p fuzz/corpus/{export-xml,hae,zip,timestamp,number}
python3 - <<'PY'
import glob, io, os, re, struct, zipfile

fixtures = 'Tests/ExportParserTests/Fixtures'
xml = sorted(glob.glob(f'{fixtures}/rules/*.xml')) + [f'{fixtures}/twins/same-days.xml', 'samples/export.xml']
hae = sorted(glob.glob(f'{fixtures}/hae/*.json')) + [f'{fixtures}/twins/same-days.hae.json']

def put(target, name, data):
    with open(f'fuzz/corpus/{target}/{name}', 'wb') as f:
        f.write(data)

def header(cuts):
    # FuzzEntry.splitInput: a count (low 3 bits of byte 0), then each cut as UInt16 little-endian.
    return bytes([len(cuts)]) + b''.join(struct.pack('<H', c) for c in cuts)

# export.xml and HAE: each file in one piece, and cut in three places (one cut near the start,
# inside the prolog; two spread over the body).
for target, files in (('export-xml', xml), ('hae', hae)):
    for path in files:
        data = open(path, 'rb').read()
        name = os.path.basename(path)
        put(target, name + '.whole', header([]) + data)
        n = max(len(data), 2)
        put(target, name + '.cut', header([7 % n, n // 3, 2 * n // 3]) + data)

# zip: the sample export.zip, and small archives written here around one rule fixture.
put('zip', 'sample-export.zip', open('samples/export.zip', 'rb').read())
body = open(f'{fixtures}/rules/05-heart-rate-minmaxavg.xml', 'rb').read()
def archive(name, entries, method=zipfile.ZIP_DEFLATED, zip64=False):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', compression=method) as z:
        for entry, data in entries:
            with z.open(zipfile.ZipInfo(entry, (2024, 3, 5, 8, 0, 0)), 'w', force_zip64=zip64) as f:
                f.write(data)
    put('zip', name, buf.getvalue())
archive('deflated.zip', [('apple_health_export/export.xml', body)])
archive('stored.zip', [('apple_health_export/export.xml', body)], method=zipfile.ZIP_STORED)
archive('zip64.zip', [('apple_health_export/export.xml', body)], zip64=True)
archive('no-folder-localised.zip', [('vienti.xml', body)])
archive('junk-and-cda.zip', [('__MACOSX/._export.xml', b'junk'), ('apple_health_export/export_cda.xml', b'<ClinicalDocument/>'),
                             ('apple_health_export/workout-routes/route.gpx', b'<gpx/>'), ('apple_health_export/export.xml', body)])
archive('no-xml.zip', [('readme.txt', b'nothing here')])
archive('unsafe-name.zip', [('../export.xml', body)])

# Dates: every distinct date attribute of the fixtures, and the other layouts the parser takes.
dates = set()
for path in xml:
    dates.update(re.findall(rb'(?:startDate|endDate|creationDate|value)="(\d{4}-\d\d-\d\d [^"]*)"', open(path, 'rb').read()))
for path in hae:
    dates.update(re.findall(rb'"(\d{4}-\d\d-\d\d [^"]*)"', open(path, 'rb').read()))
dates = sorted(dates)[:40] + [s.encode() for s in (
    '2024-03-05 8:00:00 PM +0100', '2024-03-05 12:00:00\u202fAM -0500', '2024-03-05 12:30:00\u00a0pm +05:30',
    '2024-03-05T08:00:00Z', '2024-03-05T08:00:00.123+01:00', '2024-02-29 23:59:60 -1200', '9999-12-31 23:59:60 -1800',
    '0000-01-01 00:00:00 +1859', '2023-02-29 00:00:00 +0000', '2024-03-05')]
for i, d in enumerate(dates):
    put('timestamp', f'date-{i:02}', d)

# Numbers: every distinct value of the fixtures, and the edges of the fast paths and of strtod.
numbers = set()
for path in xml:
    numbers.update(re.findall(rb'value="(-?[0-9.][0-9.eE+-]*)"', open(path, 'rb').read()))
for path in hae:
    numbers.update(re.findall(rb'[:\[,]\s*(-?[0-9][0-9.eE+-]*)', open(path, 'rb').read()))
numbers = sorted(numbers)[:40] + [s.encode() for s in (
    '0', '-0', '1e999', '-1e999', '57.189999999999998', '0.1', '9007199254740993', '9007199254740992.5',
    '123456789012345678901234', '1.7976931348623157e308', '4.9e-324', '2.2250738585072011e-308',
    '0.000000000000000000000000001', '18446744073709551615', '.5', '+1', '1E5', '0x1p3', 'inf', 'nan')]
for i, n in enumerate(numbers):
    put('number', f'number-{i:02}', n)
PY
for t in export-xml hae zip timestamp number; do
  echo "fuzz/corpus/$t: $(ls "fuzz/corpus/$t" | wc -l) files, $(du -sk "fuzz/corpus/$t" | cut -f1) KiB"
done
