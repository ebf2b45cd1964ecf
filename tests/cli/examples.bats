#!/usr/bin/env bats
# The examples/ pair end to end: the semeion manifest downloads through the test HTTP server, and
# the h5py converter script turns the file into an H5PYDataset file that fuel checks and tags.

bats_require_minimum_version 1.5.0

load ../helpers/download

PYTHON=/usr/bin/python3

setup() {
    EXAMPLES=$(cd "$BATS_TEST_DIRNAME/../../examples" && pwd)
    export HOME=$BATS_TEST_TMPDIR/home FUEL_CONFIG=$BATS_TEST_TMPDIR/fuelrc
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_MIRROR FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS
    SERVED=$BATS_TEST_TMPDIR/served
    RAW=$BATS_TEST_TMPDIR/raw
    OUT=$BATS_TEST_TMPDIR/out
    mkdir -p "$SERVED" "$OUT"
    # 30 digits in Semeion's layout: 256 pixels, 10 one-hot columns, a space and CRLF at the end
    $PYTHON - "$SERVED/semeion.data" "$BATS_TEST_TMPDIR/labels" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w", newline="") as data, open(sys.argv[2], "w") as labels:
    for row in range(30):
        pixels = [random.choice(("0.0000", "1.0000")) for _ in range(256)]
        label = (row * 7) % 10
        onehot = ["1" if column == label else "0" for column in range(10)]
        data.write(" ".join(pixels + onehot) + " \r\n")
        labels.write("%d\n" % label)
PY
    (cd "$SERVED" && md5sum semeion.data) > "$BATS_TEST_TMPDIR/md5sums"
    printf 'extra_downloaders: %s\nextra_converters: %s\n' "$EXAMPLES/semeion.json" "$EXAMPLES" \
        > "$FUEL_CONFIG"
}

teardown() {
    stop_server
}

@test "the example manifest declares Semeion's published URLs and checksums" {
    run fuel-download semeion -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"semeion.data  size unknown  sha256 f43228ae3da5ea6a3c95069d53450b86166770e3b719dcc333182128fe08d4b1"* ]]
    run fuel-download semeion --print-urls -d "$RAW"
    [ "$status" -eq 0 ]
    [ "$output" = "https://archive.ics.uci.edu/ml/machine-learning-databases/semeion/semeion.data	$RAW/semeion.data" ]
    run fuel-convert -h
    [[ "$output" =~ semeion\ +extra\ converter\ $EXAMPLES/fuel-convert-semeion ]]
}

@test "the example pair: download from the test server, convert, check, read back with h5py" {
    start_server
    run fuel-download semeion -d "$RAW" --url-prefix "$URL" --checksums "$BATS_TEST_TMPDIR/md5sums"
    [ "$status" -eq 0 ]
    cmp "$SERVED/semeion.data" "$RAW/semeion.data"
    run --separate-stderr fuel-convert semeion -d "$RAW" -o "$OUT" --test 10
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/semeion.hdf5" ]
    [ "$(ls -A "$OUT")" = semeion.hdf5 ]
    run fuel-info --check "$OUT/semeion.hdf5"
    [ "$status" -eq 0 ]
    $PYTHON - "$OUT/semeion.hdf5" "$RAW/semeion.data" "$BATS_TEST_TMPDIR/labels" <<'PY'
import hashlib, json, sys
import h5py, numpy
path, raw, labels = sys.argv[1:]
f = h5py.File(path, "r")
table = numpy.loadtxt(raw)
assert f["features"].dtype == numpy.uint8 and f["features"].shape == (30, 1, 16, 16)
assert (f["features"][:].reshape(30, 256) == table[:, :256]).all()
assert (f["targets"][:, 0] == numpy.loadtxt(labels)).all()
assert [d.label for d in f["features"].dims] == ["batch", "channel", "height", "width"]
rows = [(r["split"], r["source"], r["start"], r["stop"]) for r in f.attrs["split"]]
assert rows == [(b"train", b"features", 0, 20), (b"train", b"targets", 0, 20),
                (b"test", b"features", 20, 30), (b"test", b"targets", 20, 30)], rows
provenance = json.loads(f.attrs["fuel_provenance"])
digest = hashlib.sha256(open(raw, "rb").read()).hexdigest()
assert [(i["name"], i["sha256"]) for i in provenance["inputs"]] == [("semeion.data", digest)]
assert f.attrs["fuel_convert_command"] == "fuel-convert semeion -d %s -o %s --test 10" % (
    raw.rsplit("/", 1)[0], path.rsplit("/", 1)[0])
PY
    FUEL_DATA_PATH=$OUT run fuel list -d "$RAW" --json --verify --checksums "$BATS_TEST_TMPDIR/md5sums"
    [ "$status" -eq 0 ]
    $PYTHON - "$output" "$OUT/semeion.hdf5" <<'PY'
import json, sys
semeion = [d for d in json.loads(sys.argv[1]) if d["name"] == "semeion"]
assert len(semeion) == 1, semeion
assert [(f["name"], f["state"]) for f in semeion[0]["files"]] == [("semeion.data", "verified")], semeion
assert semeion[0]["converted"]["path"] == sys.argv[2], semeion
PY
}

@test "the example converter's own error exits 4 with its status, and nothing is published" {
    mkdir -p "$RAW"
    head -n 5 "$SERVED/semeion.data" > "$RAW/semeion.data"
    run fuel-convert semeion -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "${lines[0]}" = "fuel-convert-semeion: --test must be between 0 and 5" ]
    [ "${lines[1]}" = "fuel-convert: converter failed: $EXAMPLES/fuel-convert-semeion exited with status 1; its output is discarded" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "fuel fetch runs the example pair: manifest download, extra converter, raw file removed" {
    start_server
    run fuel fetch -h
    [[ "$output" =~ semeion\ +Semeion\ handwritten\ digits ]]
    run --separate-stderr fuel fetch semeion --test 10 -d "$OUT" --url-prefix "$URL" \
        --checksums "$BATS_TEST_TMPDIR/md5sums" -q
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/semeion.hdf5" ]
    [ "$(ls "$OUT")" = semeion.hdf5 ]
    run fuel-info --check "$OUT/semeion.hdf5"
    [ "$status" -eq 0 ]
    $PYTHON - "$OUT/semeion.hdf5" <<'PY'
import json, sys
import h5py
f = h5py.File(sys.argv[1], "r")
rows = [(r["split"], r["source"], r["start"], r["stop"]) for r in f.attrs["split"]]
assert rows[0] == (b"train", b"features", 0, 20) and rows[2] == (b"test", b"features", 20, 30), rows
assert [i["name"] for i in json.loads(f.attrs["fuel_provenance"])["inputs"]] == ["semeion.data"]
PY
    run --separate-stderr fuel fetch semeion --test 10 -d "$OUT" --url-prefix "$URL" \
        --checksums "$BATS_TEST_TMPDIR/md5sums"
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fetch: nothing to do: $OUT/semeion.hdf5 is there and passes fuel-info --check" ]
    [ "$(requests /semeion.data | wc -l)" -eq 1 ]
}

@test "fuel fetch of an extra dataset whose converter fails keeps the raw file, publishes nothing" {
    head -n 5 "$SERVED/semeion.data" > "$SERVED/short.data"
    mv "$SERVED/short.data" "$SERVED/semeion.data"
    (cd "$SERVED" && md5sum semeion.data) > "$BATS_TEST_TMPDIR/md5sums"
    start_server
    run --separate-stderr fuel fetch semeion -d "$OUT" --url-prefix "$URL" \
        --checksums "$BATS_TEST_TMPDIR/md5sums" -q
    [ "$status" -eq 4 ]
    [[ "$stderr" == *"fuel-fetch: converter failed: $EXAMPLES/fuel-convert-semeion exited with status 1; its output is discarded" ]]
    [ -f "$OUT/semeion.data" ]
    [ ! -e "$OUT/semeion.hdf5" ]
}
