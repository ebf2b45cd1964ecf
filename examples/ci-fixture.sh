#!/usr/bin/env bash
# A CI job's data step with fuel fixture, offline: the HDF5 file a training test reads, and the
# raw files run through the real download and convert pipeline; both checked the way Fuel reads.
#
# usage: examples/ci-fixture.sh [DATASET [FORMAT]] (default: mnist). The file a test reads goes to
# $OUTPUT (default: $WORK/data when WORK is set, else ./data); the raw files and the pipeline's
# own file go to $WORK, or to a temporary directory removed on exit. PYTHON names a python3 with
# h5py. EXAMPLES is the count of every split (default 20; adult takes 41 at least, see
# fuel-fixture(1)). SOURCE_DATE_EPOCH is fixed: every run, the same bytes.
set -euo pipefail
dataset=("${@:-mnist}")
if [ -n "${WORK:-}" ]; then
    work=$WORK
    output=${OUTPUT:-$work/data}
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    output=${OUTPUT:-data}
fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}

# 1. The file the code under test opens: $EXAMPLES examples of every split, seed 1.
examples=${EXAMPLES:-20}
file=$(fuel fixture "${dataset[@]}" -o "$output" -n "$examples" --seed 1)
fuel info "$file" | sed -n 1p  # sed reads it all: no SIGPIPE under pipefail
fuel info --check "$file"

# 2. The real pipeline on raw files in their distribution formats, served from a directory.
fuel fixture "${dataset[@]}" --raw -o "$work/fixture" -n "$examples" --seed 1 > /dev/null
fuel download "${dataset[@]}" --url-prefix "file://$work/fixture/" \
    --checksums "$work/fixture/MD5SUMS" -d "$work/raw" > /dev/null
converted=$(fuel convert "${dataset[@]}" -d "$work/raw" -o "$work/pipeline")

# 3. What a training script sees, read as Fuel's H5PYDataset does: both files hold the same data.
"${PYTHON:-python3}" - "$file" "$converted" <<'PY'
import sys
import h5py
import numpy

fixture, converted = (h5py.File(path, "r") for path in sys.argv[1:])
for row in fixture.attrs["split"]:
    split, source = row["split"].decode(), row["source"].decode()
    if row["available"]:
        examples = fixture[source][row["start"]:row["stop"]]
        print("%s/%s: %d examples" % (split, source, len(examples)))
for source in fixture:
    mine, theirs = fixture[source][()], converted[source][()]
    if mine.dtype == object:  # variable-length examples (SVHN format 1)
        assert all(numpy.array_equal(a, b) for a, b in zip(mine, theirs)), source
    else:
        assert numpy.array_equal(mine, theirs), source
PY
echo "fixture ready: $file"
