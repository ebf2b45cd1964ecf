#!/usr/bin/env bats
# fuel-info --check, --verify-inputs and several files: invariants broken with h5py, inputs
# changed or removed, one line per file.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    FILE="$BATS_TEST_TMPDIR/file.hdf5"
}

# Copies the reference file $1 to $FILE and runs the Python statements of stdin on it as `f`.
broken_copy() {
    cp "$EXPECTED/$1" "$FILE"
    chmod u+w "$FILE"
    $PYTHON -c '
import sys, h5py, numpy
f = h5py.File(sys.argv[1], "r+")
exec(sys.stdin.read())
f.close()
' "$FILE"
}

@test "every reference file and every file fuel-convert writes passes --check" {
    for file in "$EXPECTED"/*.hdf5; do
        run --separate-stderr fuel-info --check "$file"
        [ "$status" -eq 0 ]
        [ "$output" = "$file: ok" ]
        [ -z "$stderr" ]
    done
    mkdir "$BATS_TEST_TMPDIR/out"
    run fuel-convert mnist -d "$FUEL_FIXTURES/raw/mnist" -o "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 0 ]
    run fuel-convert svhn 1 -d "$FUEL_FIXTURES/raw/svhn1" -o "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel-info --check "$BATS_TEST_TMPDIR/out/mnist.hdf5" \
        "$BATS_TEST_TMPDIR/out/svhn_format_1.hdf5"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$BATS_TEST_TMPDIR/out/mnist.hdf5: ok" ]
    [ "${lines[1]}" = "$BATS_TEST_TMPDIR/out/svhn_format_1.hdf5: ok" ]
}

@test "a corrupted split attribute: a row repeated and a row missing, each a line, exit 4" {
    broken_copy mnist.hdf5 <<'PY'
rows = f.attrs["split"]
rows[3] = rows[2]
f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "$output" = "$FILE: split row repeated: split train, source features: 2 rows
$FILE: split row missing: split train, source targets" ]
    [ "$stderr" = "fuel-info: check failed: $FILE: 2 violations" ]
}

@test "a dangling indices reference fails --check with its line" {
    broken_copy iris.hdf5 <<'PY'
f["gone"] = numpy.arange(150)
rows = f.attrs["split"]
rows[0]["indices"] = f["gone"].ref
rows_type = rows.dtype
f.attrs["split"] = rows
del f["gone"]
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "$output" = "$FILE: dangling indices reference: split all, source features: it resolves to no dataset" ]
    [ "$stderr" = "fuel-info: check failed: $FILE: 1 violation" ]
}

@test "a span past the end fails --check with its line, and so do the unequal lengths" {
    broken_copy mnist.hdf5 <<'PY'
rows = f.attrs["split"]
rows[2]["stop"] = 100
f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "$output" = "$FILE: span outside the source: split train, source features: [0, 100) but features has 14 examples
$FILE: sources of unequal length in split train: features 100, targets 12" ]
}

@test "indices out of range and indices that are not 1-D integers fail --check" {
    broken_copy iris.hdf5 <<'PY'
f["picked"] = numpy.array([0, 5, 150, 7])
rows = f.attrs["split"]
rows[0]["indices"] = f["picked"].ref
f["floats"] = numpy.zeros(3)
rows[1]["indices"] = f["floats"].ref
f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "${lines[0]}" = "$FILE: sources of unequal length in split all: features 4, targets 3" ]
    [ "${lines[1]}" = "$FILE: index out of range: split all, source features: picked[2] = 150 but features has 150 examples" ]
    [ "${lines[2]}" = "$FILE: indices not a 1-D integer dataset: split all, source targets: floats" ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "more axis labels than dimensions fail --check" {
    broken_copy iris.hdf5 <<'PY'
dataset = f["targets"]
del dataset.attrs["DIMENSION_LABELS"]
dataset.attrs["DIMENSION_LABELS"] = numpy.array([b"batch", b"index", b"extra"])
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "$output" = "$FILE: axis labels of targets: 3 labels for 2 dimensions" ]
}

@test "vlen shapes that disagree with an example's element count fail --check" {
    broken_copy svhn_format_1.hdf5 <<'PY'
shapes = f["features_shapes"]
row = shapes[3]
row[1] += 1
shapes[3] = row
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [[ "$output" =~ ^"$FILE: shapes of features: example 3 has "[0-9]+" elements but its shape holds "[0-9]+$ ]]
}

@test "a shapes scale with a row too few fails --check" {
    # The shapes scale of bbox_labels replaced by one with 21 rows for its 22 examples.
    broken_copy svhn_format_1.hdf5 <<'PY'
labels = f["bbox_labels"]
old = f["bbox_labels_shapes"]
labels.dims[0].detach_scale(old)
rows = old[:21]
del f["bbox_labels_shapes"]
f["bbox_labels_shapes"] = rows
f["bbox_labels_shapes"].make_scale("shapes")
labels.dims[0].attach_scale(f["bbox_labels_shapes"])
PY
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ "$output" = "$FILE: shapes of bbox_labels: 21 rows for 22 examples" ]
}

@test "--check --json: one object with the violations" {
    broken_copy mnist.hdf5 <<'PY'
rows = f.attrs["split"]
rows[2]["start"] = -1
f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info --check --json "$FILE"
    [ "$status" -eq 4 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["file"] == sys.argv[1], d
assert d["ok"] is False, d
assert d["violations"][0] == "span outside the source: split train, source features: [-1, 12) but features has 14 examples", d
' "$FILE"
    run fuel-info --check --json "$EXPECTED/iris.hdf5"
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["ok"] is True and d["violations"] == [], d
'
}

# Converts the mnist fixture from a copy of its raw files, into the same directory.
converted_beside_inputs() {
    mkdir -p "$BATS_TEST_TMPDIR/data"
    cp "$FUEL_FIXTURES"/raw/mnist/* "$BATS_TEST_TMPDIR/data/"
    chmod u+w "$BATS_TEST_TMPDIR"/data/*
    run fuel-convert mnist -d "$BATS_TEST_TMPDIR/data" -o "$BATS_TEST_TMPDIR/data"
    [ "$status" -eq 0 ]
}

@test "--verify-inputs: every input beside the file matches" {
    converted_beside_inputs
    run --separate-stderr fuel-info --verify-inputs "$BATS_TEST_TMPDIR/data/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "${#lines[@]}" -eq 2 ]
    # One line for the matching ones: how many, the first names, where; then fuel-info's verdict
    # on them, the same line.
    [ "${lines[0]}" = "$BATS_TEST_TMPDIR/data/mnist.hdf5: 4 of 4 inputs matching: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, ...: found in $BATS_TEST_TMPDIR/data; --json lists every input" ]
    [ "${lines[1]}" = "$BATS_TEST_TMPDIR/data/mnist.hdf5: $(fuel-info "$BATS_TEST_TMPDIR/data/mnist.hdf5" | sed -n 's/^    \(inputs of .*\)/\1/p')" ]
    [[ "${lines[1]}" == *": inputs of mnist: not the published files: train-images-idx3-ubyte.gz ("*" bytes, published 9912422), "* ]]
}

@test "--verify-inputs: a changed input is different (exit 6), a removed one missing (exit 3)" {
    converted_beside_inputs
    data="$BATS_TEST_TMPDIR/data"
    rm "$data/t10k-labels-idx1-ubyte.gz"
    run --separate-stderr fuel-info --verify-inputs "$data/mnist.hdf5"
    [ "$status" -eq 3 ]
    # One line for the missing ones; the folder the file records is beside it: no hint.
    [ "${lines[0]}" = "$data/mnist.hdf5: 3 of 4 inputs matching: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz: found in $data" ]
    [ "${lines[1]}" = "$data/mnist.hdf5: 1 of 4 inputs missing: t10k-labels-idx1-ubyte.gz: not beside the file nor in the data path" ]
    [ "${#lines[@]}" -eq 2 ]
    [ "$stderr" = "fuel-info: inputs not found: $data/mnist.hdf5: 1 missing" ]
    printf 'x' >> "$data/train-labels-idx1-ubyte.gz"
    run --separate-stderr fuel-info --verify-inputs "$data/mnist.hdf5"
    [ "$status" -eq 6 ]
    [ "${lines[1]}" = "$data/mnist.hdf5: 1 of 4 inputs different: train-labels-idx1-ubyte.gz ($data/train-labels-idx1-ubyte.gz: 39 bytes; recorded 38 bytes, sha256 $(head -c 38 "$data/train-labels-idx1-ubyte.gz" | sha256sum | cut -d' ' -f1))" ]
    [ "$stderr" = "fuel-info: inputs differ from the provenance: $data/mnist.hdf5: 1 different, 1 missing" ]
}

@test "--verify-inputs looks in the data path for inputs not beside the file" {
    converted_beside_inputs
    mkdir "$BATS_TEST_TMPDIR/elsewhere" "$BATS_TEST_TMPDIR/raw"
    mv "$BATS_TEST_TMPDIR/data/mnist.hdf5" "$BATS_TEST_TMPDIR/elsewhere/"
    mv "$BATS_TEST_TMPDIR"/data/*.gz "$BATS_TEST_TMPDIR/raw/"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/nothing:$BATS_TEST_TMPDIR/raw" run --separate-stderr \
        fuel-info --verify-inputs --json "$BATS_TEST_TMPDIR/elsewhere/mnist.hdf5"
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert [i["state"] for i in d["inputs"]] == ["matching"] * 4, d
assert all(i["path"].startswith(sys.argv[1]) for i in d["inputs"]), d
' "$BATS_TEST_TMPDIR/raw/"
}

@test "--verify-inputs -d DIR looks in DIR first, without touching the data path" {
    converted_beside_inputs
    mkdir "$BATS_TEST_TMPDIR/elsewhere" "$BATS_TEST_TMPDIR/raw" "$BATS_TEST_TMPDIR/stale"
    mv "$BATS_TEST_TMPDIR/data/mnist.hdf5" "$BATS_TEST_TMPDIR/elsewhere/"
    mv "$BATS_TEST_TMPDIR"/data/*.gz "$BATS_TEST_TMPDIR/raw/"
    # A different copy of one input in the data path: -d wins over it.
    printf 'stale' > "$BATS_TEST_TMPDIR/stale/train-labels-idx1-ubyte.gz"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/stale" run --separate-stderr \
        fuel-info --verify-inputs -d "$BATS_TEST_TMPDIR/nothing" -d "$BATS_TEST_TMPDIR/raw" \
        "$BATS_TEST_TMPDIR/elsewhere/mnist.hdf5"
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [ "${#lines[@]}" -eq 2 ]
    [[ "${lines[0]}" == *": 4 of 4 inputs matching: "*": found in $BATS_TEST_TMPDIR/raw; --json lists every input" ]]
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/stale" run --separate-stderr \
        fuel-info --verify-inputs "$BATS_TEST_TMPDIR/elsewhere/mnist.hdf5"
    [ "$status" -eq 6 ]
    run --separate-stderr fuel-info -d "$BATS_TEST_TMPDIR/raw" "$BATS_TEST_TMPDIR/elsewhere/mnist.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: -d goes with --verify-inputs; see 'fuel-info -h'" ]
}

@test "--verify-inputs: a directory or a FIFO at an input's name is not a regular file (exit 4), as list and download say" {
    converted_beside_inputs
    raw="$BATS_TEST_TMPDIR/raw"
    mkdir "$raw"
    mv "$BATS_TEST_TMPDIR"/data/*.gz "$raw/"
    rm "$raw/t10k-labels-idx1-ubyte.gz"
    mkdir "$raw/t10k-labels-idx1-ubyte.gz"
    run --separate-stderr fuel-info --verify-inputs -d "$raw" "$BATS_TEST_TMPDIR/data/mnist.hdf5"
    [ "$status" -eq 4 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[1]}" = "$BATS_TEST_TMPDIR/data/mnist.hdf5: 1 of 4 inputs not a regular file: t10k-labels-idx1-ubyte.gz ($raw/t10k-labels-idx1-ubyte.gz: exists but is a directory)" ]
    [ "$stderr" = "fuel-info: not a regular file: $raw/t10k-labels-idx1-ubyte.gz: exists but is a directory" ]
    rm "$raw/train-labels-idx1-ubyte.gz"
    mkfifo "$raw/train-labels-idx1-ubyte.gz"
    run --separate-stderr fuel-info --verify-inputs -d "$raw" "$BATS_TEST_TMPDIR/data/mnist.hdf5"
    [ "$status" -eq 4 ]
    [ "${lines[1]}" = "$BATS_TEST_TMPDIR/data/mnist.hdf5: 2 of 4 inputs not a regular file: train-labels-idx1-ubyte.gz ($raw/train-labels-idx1-ubyte.gz: exists but is a FIFO), t10k-labels-idx1-ubyte.gz ($raw/t10k-labels-idx1-ubyte.gz: exists but is a directory)" ]
    [ "$stderr" = "fuel-info: not a regular file: $raw/train-labels-idx1-ubyte.gz: exists but is a FIFO" ]
    fuel-info --verify-inputs --json -d "$raw" "$BATS_TEST_TMPDIR/data/mnist.hdf5" >"$BATS_TEST_TMPDIR/info.json" || [ $? -eq 4 ]
    FUEL_DATA_PATH="$raw" run --separate-stderr fuel list
    [ "$status" -eq 0 ]
    [[ "$output" == *"    t10k-labels-idx1-ubyte.gz"*"not a regular file"*" $raw/t10k-labels-idx1-ubyte.gz"*"exists but is a directory"* ]]
    FUEL_DATA_PATH="$raw" fuel list --verify --json >"$BATS_TEST_TMPDIR/list.json"
    $PYTHON -c '
import json, sys
inputs = {i["name"]: i for i in json.load(open(sys.argv[2] + "/info.json"))["inputs"]}
raw = {f["name"]: f for d in json.load(open(sys.argv[2] + "/list.json")) if d["name"] == "mnist" for f in d["files"]}
for name, kind in [("train-labels-idx1-ubyte.gz", "a FIFO"), ("t10k-labels-idx1-ubyte.gz", "a directory")]:
    path = sys.argv[1] + "/" + name
    assert {k: inputs[name][k] for k in ("state", "path", "kind")} == {"state": "not a regular file", "path": path, "kind": kind}, inputs[name]
    assert (raw[name]["state"], raw[name]["path"], raw[name]["kind"], raw[name]["size"]) == ("not a regular file", path, kind, None), raw[name]
assert inputs["train-images-idx3-ubyte.gz"]["state"] == "matching", inputs
' "$raw" "$BATS_TEST_TMPDIR"
}

@test "--verify-inputs on a file without provenance: exit 4, one line" {
    run --separate-stderr fuel-info --verify-inputs "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: cannot verify inputs: $EXPECTED/mnist.hdf5: no fuel_provenance attribute" ]
}

@test "several files: one line each with dataset, split counts, dtypes, content digest, creation time and a fixture mark" {
    mkdir "$BATS_TEST_TMPDIR/out"
    SOURCE_DATE_EPOCH=1700000000 run fuel-convert mnist --dtype float32 -d "$FUEL_FIXTURES/raw/mnist" -o "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 0 ]
    cd "$BATS_TEST_TMPDIR/out"
    run --separate-stderr fuel-info mnist_float32.hdf5 "$EXPECTED/iris.hdf5" "$EXPECTED/svhn_format_2.hdf5"
    [ "$status" -eq 0 ]
    # The content digest of Python Fuel's own mnist_float32.hdf5 (d7d6f5e6cd47...): same content.
    [ "${lines[0]}" = "mnist_float32.hdf5  mnist   train 12, test 2           features float32, targets uint8  d7d6f5e6cd47  2023-11-14T22:13:20Z" ]
    [ "${lines[1]}" = "iris.hdf5           iris    all 150                    features float32, targets uint8  1828279823eb  -" ]
    [ "${lines[2]}" = "svhn_format_2.hdf5  svhn 2  test 4, extra 6, train 12  features uint8, targets float64  36efa20d6f31  -" ]
    [ "${#lines[@]}" -eq 3 ]
    mkdir "$BATS_TEST_TMPDIR/fixture"
    SOURCE_DATE_EPOCH=1700000000 run fuel-fixture iris -n 5 -o "$BATS_TEST_TMPDIR/fixture"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel-info mnist_float32.hdf5 "$BATS_TEST_TMPDIR/fixture/iris.hdf5"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "mnist_float32.hdf5  mnist  train 12, test 2  features float32, targets uint8  d7d6f5e6cd47  2023-11-14T22:13:20Z" ]
    [ "${lines[1]}" = "iris.hdf5           iris   all 5             features float32, targets uint8  431937eb4ad7  2023-11-14T22:13:20Z  fixture" ]
    run fuel-info --json mnist_float32.hdf5 "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/fixture/iris.hdf5"
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert [e["name"] for e in d] == ["mnist_float32.hdf5", "iris.hdf5", "iris.hdf5"], d
assert d[0]["dataset"] == "mnist" and d[0]["splits"] == {"train": 12, "test": 2}, d
assert d[0]["created"] == "2023-11-14T22:13:20Z" and d[1]["created"] is None, d
assert d[0]["dtypes"] == {"features": "float32", "targets": "uint8"}, d
assert [e["fixture"] for e in d] == [False, False, True], d
assert d[0]["content_digest"].startswith("d7d6f5e6cd47") and len(d[0]["content_digest"]) == 64, d
'
}

@test "several files, one missing: the others are listed, one error line, exit 3" {
    run --separate-stderr fuel-info "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/none.hdf5" "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 3 ]
    [ "${#lines[@]}" -eq 2 ]
    [[ "${lines[0]}" == "iris.hdf5 "* ]]
    [[ "${lines[1]}" == "mnist.hdf5 "* ]]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"$BATS_TEST_TMPDIR/none.hdf5"* ]]
}

@test "--check on a file that is not HDF5, or missing: one line each, exit 4 then 3" {
    printf 'plain text\n' > "$FILE"
    run --separate-stderr fuel-info --check "$FILE"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"$FILE"* ]]
    run --separate-stderr fuel-info --check "$BATS_TEST_TMPDIR/none.hdf5"
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-info: "*"$BATS_TEST_TMPDIR/none.hdf5"* ]]
}

@test "--check --json on several files: an array, one object per file, exit 4 for the broken one" {
    broken_copy iris.hdf5 <<'PY'
rows = f.attrs["split"]
rows[0]["stop"] = 151
f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info --check --json "$EXPECTED/mnist.hdf5" "$FILE"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: check failed: $FILE: 2 violations" ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert [(e["file"], e["ok"], len(e["violations"])) for e in d] == [
    (sys.argv[1], True, 0), (sys.argv[2], False, 2)], d
' "$EXPECTED/mnist.hdf5" "$FILE"
}

@test "--verify-inputs: a provenance of 2^18 inputs is walked one entry at a time, in bounded memory" {
    # Parsed whole with jansson, 2^18 inputs took 276 MiB, now 98 (2^20: 1,080 MiB, now 351).
    mkdir -p "$BATS_TEST_TMPDIR/data"
    cd "$BATS_TEST_TMPDIR"
    fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o data -q > /dev/null
    $PYTHON - <<'EOF'
import json, h5py
with h5py.File('data/iris.hdf5', 'r+') as f:
    p = json.loads(f.attrs['fuel_provenance'])
    p['inputs'] = [{'name': 'f%07d' % i, 'size': 1, 'sha256': '%064x' % i} for i in range(1 << 18)]
    f.attrs['fuel_provenance'] = json.dumps(p)
EOF
    # Under make check-sanitize: unwinding on every malloc (fast_unwind_on_malloc=0) made the walk,
    # a malloc an entry, overrun its timeout (10 million entries: over 300 s; 19 s unwound fast).
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:fast_unwind_on_malloc=1"
    run --separate-stderr /usr/bin/time -f 'peak %M' timeout 120 fuel-info --verify-inputs data/iris.hdf5
    [ "$status" -eq 3 ]
    [ "${stderr_lines[0]}" = "fuel-info: inputs not found: data/iris.hdf5: 262144 missing" ]
    [[ "$output" == "data/iris.hdf5: 262144 of 262144 inputs missing: f0000000, f0000001, f0000002, ..."* ]]
    peak=$(sed -n 's/^peak //p' <<< "$stderr")
    echo "# peak $((peak / 1024)) MiB" >&3
    [ "$peak" -lt $((160 * 1024)) ]
}
