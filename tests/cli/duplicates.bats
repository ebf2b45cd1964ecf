#!/usr/bin/env bats
# fuel-duplicates: planted copies within a split, across splits (with a conflicting label) and
# across files found and reported with labels and class names; none among distinct examples;
# variable-length sources; JSON; exit 0 none, 1 found; bad inputs.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    cd "$BATS_TEST_TMPDIR"
}

# edit FILE: runs the Python lines on stdin with f, the open h5py file FILE.
edit() {
    $PYTHON -c "import sys, h5py, numpy
f = h5py.File(sys.argv[1], 'r+')
exec(sys.stdin.read())
f.close()" "$1"
}

# An MNIST fixture of 20 + 10 examples with train 7 a copy of train 3 (both label 4), and test 2
# (label 1) a copy of train 5 (label 6): train's first 20 examples are features[0:20].
planted() {
    fuel-fixture mnist -n train=20,test=10 -r "$1" > /dev/null
    edit "$1.hdf5" <<'PYTHON'
x, y = f['features'], f['targets']
x[7] = x[3]
y[3] = y[7] = 4
x[22] = x[5]
y[5] = 6
y[22] = 1
PYTHON
}

@test "a copy within train and a test example equal to a train one under another label: exit 1" {
    planted a
    run --separate-stderr fuel-duplicates a.hdf5
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    [ "${lines[0]}" = "2 groups of equal examples of source features among 30 (2 beyond the first of each): 1 within a split, 1 across splits, 0 across files; 1 with conflicting labels (a.hdf5: train 20, test 10)" ]
    [ "${lines[1]}" = "within train: train 3 (targets 4), train 7 (targets 4)" ] ||
        [ "${lines[2]}" = "within train: train 3 (targets 4), train 7 (targets 4)" ]
    grep -qxF "across splits: train 5 (targets 6), test 2 (targets 1): conflicting labels" <<< "$output"
    [ "${#lines[@]}" -eq 3 ]
}

@test "distinct examples: exit 0 and the count compared, on real Fashion-MNIST too" {
    fuel-fixture mnist -n train=20,test=10 -r a > /dev/null
    run --separate-stderr fuel-duplicates a.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "no two of the 30 examples of source features are equal (a.hdf5: train 20, test 10)" ]
    fuel-convert fashion_mnist -d /usr/share/datasets/fashion-mnist -o . -q
    run --separate-stderr fuel-duplicates -q fashion_mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "no two of the 70000 examples of source features are equal (fashion_mnist.hdf5: train 60000, test 10000)" ]
    # numpy agrees: every row of the 70,000 distinct
    $PYTHON -c "import h5py; x = h5py.File('fashion_mnist.hdf5', 'r')['features'][:]
assert len({row.tobytes() for row in x}) == 70000"
}

@test "my train against your test: groups across files name the file of each member" {
    fuel-fixture mnist -n train=20,test=10 -r mine --seed 1 > /dev/null
    fuel-fixture mnist -n train=20,test=10 -r yours --seed 2 > /dev/null
    $PYTHON -c "import h5py
a = h5py.File('mine.hdf5', 'r'); b = h5py.File('yours.hdf5', 'r+')
b['features'][21] = a['features'][4]; b['targets'][21] = a['targets'][4]"
    label=$($PYTHON -c "import h5py; print(int(h5py.File('mine.hdf5', 'r')['targets'][4][0]))")
    run --separate-stderr fuel-duplicates mine.hdf5 yours.hdf5
    [ "$status" -eq 1 ]
    [[ "${lines[0]}" == "1 group of equal examples of source features among 60 (1 beyond the first of each): 0 within a split, 0 across splits, 1 across files; 0 with conflicting labels (mine.hdf5: train 20, test 10; yours.hdf5: train 20, test 10)" ]]
    [ "${lines[1]}" = "across files: mine.hdf5 train 4 (targets $label), yours.hdf5 test 1 (targets $label)" ]
}

@test "class names from the file's SOURCE_classes are shown with the labels, and in --json" {
    planted a
    edit a.hdf5 <<'PYTHON'
f['targets_classes'] = numpy.array([b'zero', b'one', b'two', b'three', b'four', b'five', b'six',
                                    b'seven', b'eight', b'nine'])
PYTHON
    run --separate-stderr fuel-duplicates a.hdf5
    [ "$status" -eq 1 ]
    grep -qxF "within train: train 3 (targets 4 four), train 7 (targets 4 four)" <<< "$output"
    grep -qxF "across splits: train 5 (targets 6 six), test 2 (targets 1 one): conflicting labels" <<< "$output"
    run --separate-stderr fuel-duplicates --json a.hdf5
    [ "$status" -eq 1 ]
    $PYTHON -c "import json, sys
d = json.loads(sys.argv[1])
assert d['source'] == 'features' and d['labels'] == 'targets' and d['examples'] == 30
assert d['group_count'] == 2 and d['beyond_first'] == 2 and d['label_conflicts'] == 1
assert d['kinds'] == {'within_split': 1, 'across_splits': 1, 'across_files': 0}
assert d['files'] == [{'path': 'a.hdf5', 'splits': {'train': 20, 'test': 10}}]
groups = {g['kind']: g for g in d['groups']}
assert groups['within_split']['members'] == [
    {'file': 0, 'split': 'train', 'index': 3, 'label': 4, 'class': 'four'},
    {'file': 0, 'split': 'train', 'index': 7, 'label': 4, 'class': 'four'}], groups
assert groups['across_splits']['label_conflict'] is True
assert [(m['split'], m['index'], m['class']) for m in groups['across_splits']['members']] == [
    ('train', 5, 'six'), ('test', 2, 'one')]" "$output"
}

@test "--labels '' shows no labels; --source compares another source" {
    planted a
    run --separate-stderr fuel-duplicates --labels '' a.hdf5
    [ "$status" -eq 1 ]
    grep -qxF "within train: train 3, train 7" <<< "$output"
    [[ "${lines[0]}" != *"conflicting"* ]]
    # targets has 10 values over 30 examples: many equal labels
    run --separate-stderr fuel-duplicates --source targets a.hdf5
    [ "$status" -eq 1 ]
    [[ "${lines[0]}" == *"of source targets among 30"* ]]
}

@test "a variable-length source: equal shapes and elements found, the shape counts" {
    fuel-fixture svhn 1 -n 6 -o . > /dev/null
    edit svhn_format_1.hdf5 <<'PYTHON'
x, s = f['features'], f['features_shapes']
x[9] = x[1]
s[9] = s[1]
PYTHON
    run --separate-stderr fuel-duplicates --labels '' svhn_format_1.hdf5
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "across splits: train 1, test 3" ]
    [ "${#lines[@]}" -eq 2 ]
}

@test "bad inputs: one line on stderr and the documented exit code" {
    fuel-fixture mnist -n 5 -r a > /dev/null
    fuel-fixture mnist -n 5 -r b --dtype float32 > /dev/null
    run --separate-stderr fuel-duplicates
    [ "$status" -eq 2 ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    run --separate-stderr fuel-duplicates missing.hdf5
    [ "$status" -eq 3 ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    printf 'not hdf5' > bad.hdf5
    run --separate-stderr fuel-duplicates bad.hdf5
    [ "$status" -eq 4 ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    run --separate-stderr fuel-duplicates --source nothing a.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-duplicates: no source nothing: a.hdf5" ]
    run --separate-stderr fuel-duplicates --labels nothing a.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-duplicates: no source nothing: a.hdf5" ]
    run --separate-stderr fuel-duplicates a.hdf5 b.hdf5
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-duplicates: source features is uint8 (1, 28, 28) in a.hdf5 but float32 (1, 28, 28) in b.hdf5: their examples are never equal" ]
    [ -z "$output" ]
}

@test "beyond the digests held in memory: sorted runs spilled and merged, the same report" {
    planted a
    fuel-fixture mnist -n train=20,test=10 -r b --seed 3 > /dev/null
    for source in features targets; do
        run --separate-stderr fuel-duplicates --json --source "$source" a.hdf5 b.hdf5
        [ "$status" -eq 1 ]
        whole=$output
        # 60 examples, 4 held at once: 15 runs
        FUEL_DUPLICATES_MEMORY_EXAMPLES=4 run --separate-stderr fuel-duplicates --json --source "$source" a.hdf5 b.hdf5
        [ "$status" -eq 1 ]
        [ -z "$stderr" ]
        [ "$output" = "$whole" ]
    done
    [[ "$whole" == *'"group_count": 10,'* ]]
}

@test "spilled runs: in TMPDIR under no name, gone after; a TMPDIR that cannot hold them: exit 7" {
    planted a
    fuel-fixture mnist -n train=20,test=10 -r b --seed 3 > /dev/null
    mkdir scratch
    TMPDIR=$PWD/scratch FUEL_DUPLICATES_MEMORY_EXAMPLES=4 run --separate-stderr fuel-duplicates a.hdf5 b.hdf5
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    [ -z "$(ls -A scratch)" ]
    TMPDIR=$PWD/missing FUEL_DUPLICATES_MEMORY_EXAMPLES=4 run --separate-stderr fuel-duplicates a.hdf5 b.hdf5
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-duplicates: cannot create scratch file: $PWD/missing: No such file or directory" ]
    [ -z "$output" ]
    # the disk fills at the third run spilled: the same exit, nothing left behind
    run --separate-stderr env TMPDIR="$PWD/scratch" FUEL_DUPLICATES_MEMORY_EXAMPLES=4 \
        FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="$PWD/scratch/*" FAIL_IO_AFTER=2 \
        LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        fuel-duplicates a.hdf5 b.hdf5
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-duplicates: cannot write scratch file: $PWD/scratch: No space left on device" ]
    [ -z "$output" ]
    [ -z "$(ls -A scratch)" ]
}

@test "on a terminal a progress line per file on stderr, cleared; the report alone on stdout" {
    fuel-fixture mnist -n train=20,test=10 -r a > /dev/null
    script -qec "fuel-duplicates a.hdf5 > stdout" typescript > /dev/null
    grep -qF "a.hdf5  0 of 30 examples" typescript
    grep -qF $'\e[1A\r\e[J' typescript
    [ "$(cat stdout)" = "no two of the 30 examples of source features are equal (a.hdf5: train 20, test 10)" ]
    script -qec "fuel-duplicates -q a.hdf5 > /dev/null" quiet > /dev/null
    ! grep -qF "examples" quiet
}
