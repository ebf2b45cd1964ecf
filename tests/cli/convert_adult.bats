#!/usr/bin/env bats
# fuel-convert adult: the columns by the rule (sorted values of adult.data, one numbering for both
# splits) computed from the raw files alone, text variants, every malformed input, and the file
# through export, preview and serve.

bats_require_minimum_version 1.5.0

load ../helpers/processes

PYTHON=/usr/bin/python3
RULE=tests/helpers/adult_expected.py

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    RAW="$FUEL_FIXTURES/raw/adult"
    OUT="$BATS_TEST_TMPDIR/out"
    VARIANT="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$VARIANT"
    cp "$RAW"/adult.* "$VARIANT/"
    chmod u+w "$VARIANT"/adult.*
}

teardown() {
    stop_jobs
}

# follows_rule DIRECTORY: converts DIRECTORY's files and checks them against the rule.
follows_rule() {
    run fuel-convert adult -d "$1" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "$OUT/adult.hdf5" ]
    run $PYTHON $RULE "$1" "$OUT/adult.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# fails_with FILE MESSAGE: converting $VARIANT exits 4 with exactly MESSAGE about $VARIANT/FILE,
# leaving nothing in the output directory.
fails_with() {
    run fuel-convert adult -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 4 ] || { echo "$output"; false; }
    [ "$output" = "fuel-convert: ${2//FILE/$VARIANT/$1}" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "the reference files: 48 + 22 rows, 104 columns by the rule, bool targets, info --check" {
    follows_rule "$RAW"
    fuel-info --check "$OUT/adult.hdf5"
    run $PYTHON -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
print(f["features"].shape, f["features"].dtype, f["targets"].shape, f["targets"].dtype)' "$OUT/adult.hdf5"
    [ "$output" = "(70, 104) float64 (70, 1) bool" ]
}

@test "the rule check fails on a file whose columns are in another order" {
    follows_rule "$RAW"
    $PYTHON -c '
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    features = f["features"][...]
    features[:, [1, 2]] = features[:, [2, 1]]
    f["features"][...] = features' "$OUT/adult.hdf5"
    run $PYTHON $RULE "$RAW" "$OUT/adult.hdf5"
    [ "$status" -eq 1 ]
    [ "$output" = "features: values differ" ]
}

# keep_rows FILE N: FILE with its first N complete rows only (the rows with '?' among them, the
# comment and blank lines kept): smaller files than fuel fixture writes.
keep_rows() {
    awk -v keep="$2" '/^\|/ || /^$/ || /\?/ { if (complete < keep || !/\?/) print; next }
        complete < keep { print; complete++ }' "$1" > "$1.kept"
    mv "$1.kept" "$1"
}

@test "raw fixtures of several sizes follow the rule; 41 training rows and more give 104 columns" {
    for counts in train=41,test=40 train=300,test=120 train=41,test=9 train=7,test=3 train=1,test=1; do
        rm -rf "$VARIANT" "$OUT"/*
        mkdir -p "$VARIANT"
        local train=${counts#train=} test=${counts#*test=}
        train=${train%%,*}
        fuel-fixture adult --raw -o "$VARIANT" -n "train=$((train > 41 ? train : 41)),test=$((test > 40 ? test : 40))" \
            --seed 3 > /dev/null
        keep_rows "$VARIANT/adult.data" "$train"
        keep_rows "$VARIANT/adult.test" "$test"
        follows_rule "$VARIANT"
    done
    run $PYTHON -c 'import sys, h5py; print(h5py.File(sys.argv[1], "r")["features"].shape)' \
        "$OUT/adult.hdf5"
    [ "$output" = "(2, 14)" ]
    fuel-fixture adult --raw -o "$VARIANT" -n train=41,test=40 > /dev/null
    fuel-convert adult -d "$VARIANT" -o "$OUT" > /dev/null
    run $PYTHON -c 'import sys, h5py; print(h5py.File(sys.argv[1], "r")["features"].shape)' \
        "$OUT/adult.hdf5"
    [ "$output" = "(81, 104)" ]
}

@test "fewer than 41 training or 40 test rows: exit 2, saying why (Python Fuel's one-hot encoding)" {
    for counts in 10 train=40 test=39 train=1,test=1; do
        run --separate-stderr fuel-fixture adult --raw -o "$VARIANT/short" -n "$counts"
        [ "$status" -eq 2 ]
        [[ "$stderr" == "fuel-fixture: adult needs at least train=41,test=40 examples (got "*"): Python Fuel's convert_adult one-hot encodes each split over the values it holds: train needs every value of each column, test every value but Holand-Netherlands; see 'fuel-fixture -h'" ]]
        [ ! -e "$VARIANT/short" ]
    done
    run fuel-fixture adult --raw -o "$VARIANT/default"
    [ "$status" -eq 0 ]
    grep -c -v -e '?' -e '^|' -e '^$' "$VARIANT/default/adult.data" | grep -qx 41
    grep -c -v -e '?' -e '^|' -e '^$' "$VARIANT/default/adult.test" | grep -qx 40
}

@test "the test rows hold every value but Holand-Netherlands, the training rows every value" {
    fuel-fixture adult --raw -o "$VARIANT" -n train=41,test=40 > /dev/null
    run $PYTHON - "$VARIANT" <<'PY'
import sys
def values(name):
    rows = [line.rstrip(".\n").split(", ") for line in open(sys.argv[1] + "/" + name)
            if line.strip() and not line.startswith("|") and "?" not in line]
    return [set(row[column] for row in rows) for column in (1, 3, 5, 6, 7, 8, 9, 13)]
train, test = values("adult.data"), values("adult.test")
print([len(column) for column in train], [len(column) for column in test])
print(sorted(set.union(*train) - set.union(*test)))
PY
    [ "${lines[0]}" = "[7, 16, 7, 14, 6, 5, 2, 41] [7, 16, 7, 14, 6, 5, 2, 40]" ]
    [ "${lines[1]}" = "['Holand-Netherlands']" ]
}

@test "the same files give the same bytes: the numbering depends on nothing else" {
    export SOURCE_DATE_EPOCH=1700000000
    fuel-convert adult -d "$RAW" -o "$OUT" > /dev/null
    mv "$OUT/adult.hdf5" "$BATS_TEST_TMPDIR/first.hdf5"
    PYTHONHASHSEED=7 fuel-convert adult -d "$RAW" -o "$OUT" > /dev/null
    cmp "$BATS_TEST_TMPDIR/first.hdf5" "$OUT/adult.hdf5"
}

@test "CRLF, no header, no blank last line, spaces and tabs around fields: the same values" {
    sed -i -e 's/, /,\t /g' -e 's/$/\r/' "$VARIANT/adult.data"
    sed -i -e '1d' -e '/^$/d' "$VARIANT/adult.test"
    printf '%s' "$(cat "$VARIANT/adult.test")" > "$VARIANT/adult.test.new"
    mv "$VARIANT/adult.test.new" "$VARIANT/adult.test"
    [ "$(tail -c 1 "$VARIANT/adult.test")" = "." ]
    follows_rule "$VARIANT"
    fuel-convert adult -d "$RAW" -o "$BATS_TEST_TMPDIR" > /dev/null
    $PYTHON tests/helpers/compare_hdf5.py "$OUT/adult.hdf5" "$BATS_TEST_TMPDIR/adult.hdf5"
}

@test "a row with the wrong field count is exit 4 naming the file and line" {
    sed -i '5s/, [^,]*, [^,]*$//' "$VARIANT/adult.data"
    fails_with adult.data "malformed Adult row: FILE:5: 13 fields, not 15"
    [ "$(sed -n 5p "$VARIANT/adult.data")" = "73, Local-gov, 1442233, 9th, 5, Widowed, Exec-managerial, Other-relative, Black, Female, 0, 1902, 11" ]
    cp "$RAW/adult.data" "$VARIANT/"
    sed -i '3s/$/, extra/' "$VARIANT/adult.test"
    fails_with adult.test "malformed Adult row: FILE:3: 16 fields, not 15"
}

@test "a test value adult.data never has is exit 4 naming it" {
    sed -i '2s/, [A-Za-z-]*, \(<=50K\|>50K\)\.$/, Atlantis, \1./' "$VARIANT/adult.test"
    fails_with adult.test "value unseen in adult.data: FILE:2: native-country 'Atlantis'"
}

@test "an unknown label or a malformed number is exit 4 naming the file and line" {
    sed -i '7s/50K$/50M/' "$VARIANT/adult.data"
    fails_with adult.data "malformed Adult row: FILE:7: the label is neither >50K nor <=50K: '<=50M'"
    cp "$RAW/adult.data" "$VARIANT/"
    sed -i '9s/^[0-9]*,/4O,/' "$VARIANT/adult.data"
    fails_with adult.data "malformed Adult row: FILE:9: age is not a decimal number: '4O'"
}

@test "a missing file is exit 3 with Fuel's hint, nothing written" {
    rm "$VARIANT/adult.test"
    run fuel-convert adult -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 3 ]
    [[ "$output" == *"$VARIANT/adult.test"* ]]
    [[ "$output" == *"Did you forget to run fuel-download?"* ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "rows with '?' are dropped wherever the '?' is, as Fuel drops them" {
    sed -i '52s/^\([^,]*, [^,]*, \)[^,]*/\1?/' "$VARIANT/adult.data"
    run fuel-convert adult -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 0 ]
    run $PYTHON -c 'import sys, h5py; print(h5py.File(sys.argv[1], "r")["features"].shape)' \
        "$OUT/adult.hdf5"
    [ "$output" = "(69, 104)" ]
    run $PYTHON $RULE "$VARIANT" "$OUT/adult.hdf5"
    [ "$status" -eq 0 ]
}

@test "the file exports to npy and hdf5-layer, preview refuses it as not an image, serve sends it" {
    fuel-convert adult -d "$RAW" -o "$OUT" > /dev/null
    run fuel export "$OUT/adult.hdf5" --to npy -o "$BATS_TEST_TMPDIR/npy"
    [ "$status" -eq 0 ]
    $PYTHON - "$BATS_TEST_TMPDIR/npy" "$OUT/adult.hdf5" <<'PY'
import sys, h5py, numpy
f = h5py.File(sys.argv[2], "r")
for split, part in (("train", slice(0, 48)), ("test", slice(48, 70))):
    for source in ("features", "targets"):
        array = numpy.load("%s/adult_%s_%s.npy" % (sys.argv[1], split, source))
        assert array.dtype == f[source].dtype and numpy.array_equal(array, f[source][part]), source
PY
    run fuel export "$OUT/adult.hdf5" --to hdf5-layer -o "$BATS_TEST_TMPDIR/layer"
    [ "$status" -eq 0 ]
    run fuel preview "$OUT/adult.hdf5" -o "$BATS_TEST_TMPDIR/grid.png"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-preview: source features is not an image (axes feature): images have (channel,) height and width axes" ]
    local port
    port=$($PYTHON tests/helpers/fuel_client.py free-port)
    fuel serve --bind "tcp://127.0.0.1:$port" --batch-size 20 --epochs 1 --split test \
        "$OUT/adult.hdf5" 2> "$BATS_TEST_TMPDIR/serve.err" 3>&- &
    local server=$!
    PYTHONPATH=tests/helpers $PYTHON - "tcp://127.0.0.1:$port" "$OUT/adult.hdf5" <<'PY'
import sys, h5py, numpy
from fuel_client import receive_epochs
batches = receive_epochs(sys.argv[1], 1)[0]
f = h5py.File(sys.argv[2], "r")
assert [len(b[0]) for b in batches] == [20, 2], [len(b[0]) for b in batches]
assert numpy.array_equal(numpy.concatenate([b[0] for b in batches]), f["features"][48:70])
targets = numpy.concatenate([b[1] for b in batches])
assert targets.dtype == numpy.bool_ and numpy.array_equal(targets, f["targets"][48:70])
PY
    wait_bounded "$server"
}
