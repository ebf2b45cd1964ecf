#!/usr/bin/env bats
# fuel-diff: the same content under other names, directories and provenance; one changed value;
# splits and sources in one file only; JSON; exit codes as diff(1); bounded memory.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
}

# A writable copy of the reference file NAME as $BATS_TEST_TMPDIR/COPY, changed by the Python
# lines on stdin (f: the open h5py file).
changed_copy() {
    cp "$EXPECTED/$1" "$BATS_TEST_TMPDIR/$2"
    chmod u+w "$BATS_TEST_TMPDIR/$2"
    $PYTHON -c "import sys, h5py, numpy
f = h5py.File(sys.argv[1], 'r+')
exec(sys.stdin.read())
f.close()" "$BATS_TEST_TMPDIR/$2"
}

@test "the same content converted under another name into another directory: exit 0, provenance listed" {
    mkdir "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    SOURCE_DATE_EPOCH=1700000000 fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o "$BATS_TEST_TMPDIR/a" >/dev/null
    SOURCE_DATE_EPOCH=1700000001 fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o "$BATS_TEST_TMPDIR/b" -r other >/dev/null
    A="$BATS_TEST_TMPDIR/a/iris.hdf5" B="$BATS_TEST_TMPDIR/b/other.hdf5"
    run --separate-stderr fuel-diff "$A" "$B"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "${lines[0]}" = "the content of $A and $B is the same" ]
    [ "${lines[1]}" = "provenance differences, not counted:" ]
    [ "${lines[2]}" = "  command: fuel-convert iris -d $FUEL_FIXTURES/raw/iris -o $BATS_TEST_TMPDIR/a -> fuel-convert iris -d $FUEL_FIXTURES/raw/iris -o $BATS_TEST_TMPDIR/b -r other" ]
    [ "${lines[3]}" = "  created: 2023-11-14T22:13:20Z -> 2023-11-14T22:13:21Z" ]
    [ "${lines[4]}" = "  attribute fuel_convert_command: fuel-convert iris -d $FUEL_FIXTURES/raw/iris -o $BATS_TEST_TMPDIR/a -> fuel-convert iris -d $FUEL_FIXTURES/raw/iris -o $BATS_TEST_TMPDIR/b -r other" ]
    [ "${#lines[@]}" -eq 5 ]
    # Python Fuel's own file, without fuel's provenance, holds the same content too.
    run --separate-stderr fuel diff "$EXPECTED/iris.hdf5" "$A"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "the content of $EXPECTED/iris.hdf5 and $A is the same" ]
    [ "${lines[2]}" = "  command: (none) -> fuel-convert iris -d $FUEL_FIXTURES/raw/iris -o $BATS_TEST_TMPDIR/a" ]
}

@test "a file and itself: the same, and nothing else" {
    run --separate-stderr fuel-diff "$EXPECTED/svhn_format_1.hdf5" "$EXPECTED/svhn_format_1.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "the content of $EXPECTED/svhn_format_1.hdf5 and $EXPECTED/svhn_format_1.hdf5 is the same" ]
}

@test "one changed value: exit 1 naming the source, the index, the split and the position" {
    changed_copy mnist.hdf5 changed.hdf5 <<<'f["features"][13, 0, 5, 5] = 7'
    run --separate-stderr fuel-diff "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/changed.hdf5"
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    [ "${lines[0]}" = "the content of $EXPECTED/mnist.hdf5 and $BATS_TEST_TMPDIR/changed.hdf5 differs" ]
    [ "${lines[1]}" = "source features: 1 of 14 examples differ: indices 13" ]
    [ "${lines[2]}" = "split test, source features: 1 of 2 examples differ: positions 1" ]
    [ "${#lines[@]}" -eq 3 ]
    run --separate-stderr fuel-diff --json "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/changed.hdf5"
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["same_content"] is False and d["only"] == [] and d["structure"] == [], d
assert d["values"] == [
    {"source": "features", "split": None, "examples": 14, "left_examples": 14,
     "right_examples": 14, "differing": 1, "first": [13]},
    {"source": "features", "split": "test", "examples": 2, "left_examples": 2,
     "right_examples": 2, "differing": 1, "first": [1]}], d
assert d["provenance"] == [] and d["right"] == sys.argv[1], d
' "$BATS_TEST_TMPDIR/changed.hdf5"
}

@test "on a terminal a progress line per source on stderr, the report alone on stdout" {
    changed_copy mnist.hdf5 changed.hdf5 <<<'f["features"][13, 0, 5, 5] = 7'
    script -qec "fuel-diff $EXPECTED/mnist.hdf5 $BATS_TEST_TMPDIR/changed.hdf5 > $BATS_TEST_TMPDIR/stdout" \
        "$BATS_TEST_TMPDIR/typescript" > /dev/null || true
    grep -qF "features  0 of 14 examples" "$BATS_TEST_TMPDIR/typescript"
    grep -qF "targets  0 of 14 examples" "$BATS_TEST_TMPDIR/typescript"
    [ "$(sed -n 2p "$BATS_TEST_TMPDIR/stdout")" = "source features: 1 of 14 examples differ: indices 13" ]
    [ "$(grep -c examples "$BATS_TEST_TMPDIR/stdout")" -eq 2 ]
}

@test "a variable-length example changed: its index in the source and its position in the split" {
    changed_copy svhn_format_1.hdf5 boxes.hdf5 <<<'b = f["bbox_lefts"][17]; b[0] += 1; f["bbox_lefts"][17] = b'
    run --separate-stderr fuel-diff "$EXPECTED/svhn_format_1.hdf5" "$BATS_TEST_TMPDIR/boxes.hdf5"
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "source bbox_lefts: 1 of 22 examples differ: indices 17" ]
    [ "${lines[2]}" = "split extra, source bbox_lefts: 1 of 6 examples differ: positions 1" ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "different sources and splits: each one file only has, then shapes and rows" {
    run --separate-stderr fuel diff "$EXPECTED/cifar10.hdf5" "$EXPECTED/cifar100.hdf5"
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "only in $EXPECTED/cifar10.hdf5: source targets" ]
    [ "${lines[2]}" = "only in $EXPECTED/cifar100.hdf5: source coarse_labels" ]
    [ "${lines[3]}" = "only in $EXPECTED/cifar100.hdf5: source fine_labels" ]
    [ "${lines[4]}" = "source features: shape: 62x3x32x32 -> 14x3x32x32" ]
    [ "${lines[5]}" = "split test, source features: start: 60 -> 12" ]
    changed_copy mnist.hdf5 valid.hdf5 <<<'rows = f.attrs["split"]; rows["split"] = [b"valid" if s == b"test" else s for s in rows["split"]]; f.attrs["split"] = rows'
    run --separate-stderr fuel diff "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/valid.hdf5"
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "only in $EXPECTED/mnist.hdf5: split test" ]
    [ "${lines[2]}" = "only in $BATS_TEST_TMPDIR/valid.hdf5: split valid" ]
    [ "${#lines[@]}" -eq 3 ]
    run --separate-stderr fuel diff "$EXPECTED/mnist.hdf5" "$EXPECTED/mnist_float32.hdf5"
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "source features: dtype: uint8 -> float32" ]
}

# Rewrites the split rows of FILE: each split named on the command line (SPLIT=EXPRESSION, a
# Python expression of the row's old start and stop) becomes an indices dataset SPLIT_indices.
indices_rows() {
    $PYTHON - "$@" <<'PY'
import sys, h5py, numpy
with h5py.File(sys.argv[1], "r+") as f:
    rows = f.attrs["split"]
    for argument in sys.argv[2:]:
        split, expression = argument.split("=", 1)
        for row in rows:
            if row["split"].decode() != split:
                continue
            name = split + "_indices"
            if name not in f:
                f[name] = numpy.array(eval(expression, {"start": int(row["start"]),
                                                        "stop": int(row["stop"])}), dtype="i8")
            row["indices"], row["start"], row["stop"] = f[name].ref, -1, -1
    f.attrs["split"] = rows
PY
}

# fuel diff --json A B's "values" against tests/helpers/split_diff.py's, computed with numpy.
values_as_numpy() {
    run --separate-stderr fuel-diff --json "$1" "$2"
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" | $PYTHON -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["values"], sort_keys=True))' >"$BATS_TEST_TMPDIR/fuel.json"
    $PYTHON "$BATS_TEST_DIRNAME/../helpers/split_diff.py" "$1" "$2" >"$BATS_TEST_TMPDIR/numpy.json"
    diff "$BATS_TEST_TMPDIR/numpy.json" "$BATS_TEST_TMPDIR/fuel.json"
}

@test "splits of other sizes: compared position for position, the longer one's tail only in one file" {
    cd "$BATS_TEST_TMPDIR"
    fuel fixture mnist -n train=20,test=20 -r a -o . >/dev/null
    fuel fixture mnist -n train=50,test=10 -r b -o . >/dev/null
    run --separate-stderr fuel diff a.hdf5 b.hdf5
    [ "$status" -eq 1 ]
    printf '%s\n' "${lines[@]}" | grep 'examples differ' >values.txt
    cat >expected.txt <<'TEXT'
source features: 40 of 60 examples differ (20 only in b.hdf5): indices 20, 21, 22, 23, 24, ...
split train, source features: 30 of 50 examples differ (30 only in b.hdf5): positions 20, 21, 22, 23, 24, ...
split test, source features: 10 of 20 examples differ (10 only in a.hdf5): positions 10, 11, 12, 13, 14, ...
source targets: 39 of 60 examples differ (20 only in b.hdf5): indices 20, 21, 22, 23, 24, ...
split train, source targets: 30 of 50 examples differ (30 only in b.hdf5): positions 20, 21, 22, 23, 24, ...
split test, source targets: 10 of 20 examples differ (10 only in a.hdf5): positions 10, 11, 12, 13, 14, ...
TEXT
    diff expected.txt values.txt
    values_as_numpy a.hdf5 b.hdf5
    values_as_numpy b.hdf5 a.hdf5
    # The same splits by indices: the same examples selected, nothing differs.
    cp a.hdf5 a_indices.hdf5
    indices_rows a_indices.hdf5 'test=range(start, stop)' 'train=range(start, stop)'
    run --separate-stderr fuel diff a.hdf5 a_indices.hdf5
    [ "$status" -eq 1 ]
    [ "$(printf '%s\n' "${lines[@]}" | grep -c 'examples differ')" -eq 0 ]
    # Reversed, picked and shuffled indices, against contiguous splits and each other.
    cp b.hdf5 b_reversed.hdf5
    indices_rows b_reversed.hdf5 'test=range(stop - 1, start - 1, -1)' 'train=[7, 3] + list(range(10, 40))'
    values_as_numpy a.hdf5 b_reversed.hdf5
    values_as_numpy b_reversed.hdf5 a_indices.hdf5
    values_as_numpy b_reversed.hdf5 b.hdf5
    cp b.hdf5 b_shuffled.hdf5
    indices_rows b_shuffled.hdf5 'test=__import__("random").Random(1).sample(range(stop), 25)'
    values_as_numpy b_shuffled.hdf5 b_reversed.hdf5
    values_as_numpy a_indices.hdf5 b_shuffled.hdf5
}

@test "names resolve through the data path as fuel-info's do" {
    mkdir "$BATS_TEST_TMPDIR/data"
    cp "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/data/"
    cd "$BATS_TEST_TMPDIR"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/data" run --separate-stderr fuel diff mnist "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "the content of $BATS_TEST_TMPDIR/data/mnist.hdf5 and $EXPECTED/mnist.hdf5 is the same" ]
}

@test "errors: one file, a missing file, not HDF5, no canonical form, stdout full" {
    run --separate-stderr fuel-diff "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-diff: missing B: two files to compare; see 'fuel-diff -h'" ]
    run --separate-stderr fuel-diff "$EXPECTED/mnist.hdf5" a b
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-diff: unexpected argument: b; see 'fuel-diff -h'" ]
    run --separate-stderr fuel-diff "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/absent.hdf5"
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-diff: no such file: $BATS_TEST_TMPDIR/absent.hdf5" ]
    printf 'text\n' >"$BATS_TEST_TMPDIR/text.hdf5"
    run --separate-stderr fuel-diff "$BATS_TEST_TMPDIR/text.hdf5" "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-diff: not an HDF5 file: $BATS_TEST_TMPDIR/text.hdf5: it does not start with the HDF5 signature" ]
    $PYTHON - "$BATS_TEST_TMPDIR/words.hdf5" <<'PY'
import sys, h5py, numpy
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("words", data=numpy.array(["a", "bc"], dtype=object), dtype=h5py.string_dtype())
    f.attrs["split"] = numpy.array([(b"all", b"words", 0, 2, None, True, b".")],
        dtype=[("split", "S3"), ("source", "S5"), ("start", "i8"), ("stop", "i8"),
               ("indices", h5py.ref_dtype), ("available", "?"), ("comment", "S1")])
PY
    run --separate-stderr fuel-diff "$BATS_TEST_TMPDIR/words.hdf5" "$BATS_TEST_TMPDIR/words.hdf5"
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-diff: cannot read source words: its element type has no canonical form (only numbers, enums and fixed-length strings have)" ]
    run --separate-stderr bash -c 'fuel-diff "$1" "$1" >/dev/full' _ "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 7 ]
    [[ "$stderr" == "fuel-diff: cannot write the comparison: "* ]]
}

@test "two 64 MiB files differing in their last value: found, in bounded memory" {
    $PYTHON - "$BATS_TEST_TMPDIR" <<'PY'
import sys, h5py, numpy
for name, last in (("big_a.hdf5", 0.0), ("big_b.hdf5", 1.0)):
    with h5py.File(sys.argv[1] + "/" + name, "w") as f:
        features = f.create_dataset("features", shape=(1024, 16384), dtype="float32")
        block = numpy.arange(16384 * 64, dtype="float32").reshape(64, 16384)
        for start in range(0, 1024, 64):
            features[start:start + 64] = block
        features[1023, 16383] = last
        f.attrs["split"] = numpy.array([(b"train", b"features", 0, 1024, None, True, b".")],
            dtype=[("split", "S5"), ("source", "S8"), ("start", "i8"), ("stop", "i8"),
                   ("indices", h5py.ref_dtype), ("available", "?"), ("comment", "S1")])
PY
    run --separate-stderr /usr/bin/time -f '%M' fuel-diff "$BATS_TEST_TMPDIR/big_a.hdf5" "$BATS_TEST_TMPDIR/big_b.hdf5"
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "source features: 1 of 1024 examples differ: indices 1023" ]
    # Peak resident memory in KiB: far below one file's 64 MiB.
    [ "$(tail -n 1 <<<"$stderr")" -lt 49152 ]
}

@test "provenances of 2^20 inputs: walked side by side in bounded memory, one line when they differ" {
    # Parsed whole and compared by name, two such lists took 460 MiB (10 million: 4.6 GiB).
    for pair in "left {}" "right {\"a\":1}" "same {}"; do
        set -- $pair
        changed_copy iris.hdf5 "$1.hdf5" <<PY
f.attrs['fuel_provenance'] = '{"tool": "fuel", "inputs": [' + '{},' * ((1 << 20) - 1) + '$2]}'
PY
    done
    # Under make check-sanitize: unwinding on every malloc (fast_unwind_on_malloc=0) made the walk,
    # a malloc an entry, overrun its timeout (2^20 entries a side: over 120 s).
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:fast_unwind_on_malloc=1"
    cd "$BATS_TEST_TMPDIR"
    run --separate-stderr /usr/bin/time -f 'peak %M' timeout 120 fuel-diff left.hdf5 right.hdf5
    [ "$status" -eq 0 ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    [ "${lines[1]}" = "provenance differences, not counted:" ]
    [ "${lines[2]}" = "  input: 1048576 entries -> 1048576 other entries" ]
    [ "${#lines[@]}" -eq 3 ]
    run --separate-stderr fuel-diff left.hdf5 same.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "the content of left.hdf5 and same.hdf5 is the same" ]
}
