#!/usr/bin/env bats
# fuel-convert caltech101_silhouettes 16|28: Fuel's own output, Fuel's rule computed from the
# MAT-file with scipy (stored types, C-order reshape), MAT-file variants, every malformed input,
# and the file through export, preview and serve.

bats_require_minimum_version 1.5.0

load ../helpers/processes

PYTHON=/usr/bin/python3
MAT=tests/helpers/mat_v5.py
RULE=tests/helpers/silhouettes_expected.py

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    OUT="$BATS_TEST_TMPDIR/out"
    FIXTURE="$BATS_TEST_TMPDIR/fixture"
    VARIANT="$BATS_TEST_TMPDIR/variant"
    mkdir -p "$OUT" "$FIXTURE" "$VARIANT"
}

teardown() {
    stop_jobs
}

# follows_rule SIDE DIRECTORY: converts DIRECTORY's MAT-file and checks it against Fuel's rule.
follows_rule() {
    local side=$1 directory=$2
    run fuel-convert caltech101_silhouettes "$side" -d "$directory" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "$OUT/caltech101_silhouettes$side.hdf5" ]
    run $PYTHON $RULE "$directory/caltech101_silhouettes_${side}_split1.mat" "$side" \
        "$OUT/caltech101_silhouettes$side.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# variant OPTIONS...: a 16x16 raw fixture (5/3/2 examples) rewritten by mat_v5.py with OPTIONS.
variant() {
    fuel-fixture caltech101_silhouettes 16 --raw -o "$FIXTURE" -n train=5,valid=3,test=2 > /dev/null
    $PYTHON $MAT rewrite "$FIXTURE/caltech101_silhouettes_16_split1.mat" \
        "$VARIANT/caltech101_silhouettes_16_split1.mat" "$@"
}

# fails_with MESSAGE: converting $VARIANT exits 4 with exactly MESSAGE (FILE: the MAT-file),
# leaving nothing in the output directory.
fails_with() {
    run fuel-convert caltech101_silhouettes 16 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 4 ] || { echo "$output"; false; }
    [ "$output" = "fuel-convert: ${1//FILE/$VARIANT/caltech101_silhouettes_16_split1.mat}" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "16 and 28 match Fuel's caltech101_silhouettes16.hdf5 and 28 (scipy's file, a cell skipped)" {
    for side in 16 28; do
        run fuel-convert caltech101_silhouettes $side -d "$FUEL_FIXTURES/raw/caltech101_silhouettes$side" -o "$OUT"
        [ "$status" -eq 0 ]
        [ "$output" = "$OUT/caltech101_silhouettes$side.hdf5" ]
        $PYTHON tests/helpers/compare_hdf5.py "$OUT/caltech101_silhouettes$side.hdf5" \
            "$FUEL_FIXTURES/expected/caltech101_silhouettes$side.hdf5"
        fuel-info --check "$OUT/caltech101_silhouettes$side.hdf5"
        follows_rule $side "$FUEL_FIXTURES/raw/caltech101_silhouettes$side"
    done
}

@test "raw fixtures (doubles stored as uint8, as MATLAB saves them) follow the rule, uint8 out" {
    for side in 16 28; do
        for counts in train=30,valid=7,test=5 train=1,valid=1,test=1; do
            rm -rf "$FIXTURE"/*
            fuel-fixture caltech101_silhouettes $side --raw -o "$FIXTURE" -n "$counts" > /dev/null
            follows_rule $side "$FIXTURE"
        done
    done
    run $PYTHON -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); print(f["features"].dtype, f["targets"].dtype)' \
        "$OUT/caltech101_silhouettes28.hdf5"
    [ "$output" = "uint8 uint8" ]
}

@test "uncompressed, big-endian, and other stored types: the rule, with the stored dtypes" {
    variant --uncompressed
    follows_rule 16 "$VARIANT"
    variant --big-endian --store train_labels=int16 --store val_labels=int16 --store test_labels=int16
    follows_rule 16 "$VARIANT"
    variant --store train_data=double --store val_data=double --store test_data=double
    follows_rule 16 "$VARIANT"
    run $PYTHON -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); print(f["features"].dtype, f["targets"].dtype)' \
        "$OUT/caltech101_silhouettes16.hdf5"
    [ "$output" = "float64 uint8" ]
}

@test "the rule check fails on a transposed picture" {
    variant
    follows_rule 16 "$VARIANT"
    $PYTHON -c '
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f["features"][0, 0] = f["features"][0, 0].T.copy()' "$OUT/caltech101_silhouettes16.hdf5"
    run $PYTHON $RULE "$VARIANT/caltech101_silhouettes_16_split1.mat" 16 "$OUT/caltech101_silhouettes16.hdf5"
    [ "$status" -eq 1 ]
    [ "$output" = "features: values differ" ]
}

@test "a missing variable is exit 4 naming the file and the variable" {
    variant --drop val_labels
    fails_with "cannot convert CalTech 101 Silhouettes: FILE: no variable val_labels"
    variant --rename test_data=test_images
    fails_with "cannot convert CalTech 101 Silhouettes: FILE: no variable test_data"
}

@test "wrong shapes and splits of different dtypes are exit 4 naming the variable" {
    variant --reshape test_data=256,2
    fails_with "cannot convert CalTech 101 Silhouettes: FILE: test_data is 256x2 (rank 2), expected Nx256"
    variant --drop-last val_labels
    fails_with "cannot convert CalTech 101 Silhouettes: FILE: val_labels is 2x1 (rank 2), expected 3x1"
    variant --store val_data=int16
    fails_with "cannot convert CalTech 101 Silhouettes: FILE: val_data is stored as int16 but train_data as uint8: the splits of a source share one dtype"
    run fuel-convert caltech101_silhouettes 28 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 3 ]
    [[ "$output" == *"caltech101_silhouettes_28_split1.mat"*"Did you forget to run fuel-download?"* ]]
}

@test "a truncated or foreign file is exit 4 from the MAT-file reader" {
    variant
    size=$(stat -c %s "$VARIANT/caltech101_silhouettes_16_split1.mat")
    truncate -s $((size - 40)) "$VARIANT/caltech101_silhouettes_16_split1.mat"
    run fuel-convert caltech101_silhouettes 16 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot read MATLAB file: $VARIANT/caltech101_silhouettes_16_split1.mat: truncated: the element at byte "* ]]
    [ -z "$(ls -A "$OUT")" ]
    printf 'not a MAT-file at all\n' > "$VARIANT/caltech101_silhouettes_16_split1.mat"
    fails_with "cannot read MATLAB file: FILE: shorter than the 128-byte MAT-file header"
}

@test "the file exports as an image list, previews in black and white, and serves" {
    fuel-convert caltech101_silhouettes 28 -d "$FUEL_FIXTURES/raw/caltech101_silhouettes28" -o "$OUT" > /dev/null
    local file=$OUT/caltech101_silhouettes28.hdf5
    run fuel export "$file" --to image-list -o "$BATS_TEST_TMPDIR/list"
    [ "$status" -eq 0 ]
    for split in train valid test; do
        $PYTHON tests/helpers/export_check.py image-list "$BATS_TEST_TMPDIR/list" \
            caltech101_silhouettes28 "$file" $split
    done
    fuel preview "$file" -o "$BATS_TEST_TMPDIR/grid.png" -n 4 > "$BATS_TEST_TMPDIR/labels"
    run $PYTHON -c '
import sys, numpy as np, h5py
from PIL import Image
grid = np.asarray(Image.open(sys.argv[1]))
f = h5py.File(sys.argv[2])
labels = open(sys.argv[3]).read().split() == ["%d:class_%03d" % (t, t) for t in f["targets"][0:4, 0]]
print(np.array_equal(grid[2:30, 2:30], f["features"][0, 0] * 255),
      sorted(set(np.unique(grid[2:30, 2:30]))), labels)' "$BATS_TEST_TMPDIR/grid.png" "$file" "$BATS_TEST_TMPDIR/labels"
    [ "$output" = "True [0, 255] True" ]
    local port
    port=$($PYTHON tests/helpers/fuel_client.py free-port)
    fuel serve --bind "tcp://127.0.0.1:$port" --batch-size 3 --epochs 1 --split valid "$file" \
        2> "$BATS_TEST_TMPDIR/serve.err" 3>&- &
    local server=$!
    PYTHONPATH=tests/helpers $PYTHON - "tcp://127.0.0.1:$port" "$file" <<'PY'
import sys, h5py, numpy
from fuel_client import receive_epochs
batches = receive_epochs(sys.argv[1], 1)[0]
f = h5py.File(sys.argv[2], "r")
assert [len(b[0]) for b in batches] == [3, 1], [len(b[0]) for b in batches]
assert numpy.array_equal(numpy.concatenate([b[0] for b in batches]), f["features"][10:14])
assert numpy.array_equal(numpy.concatenate([b[1] for b in batches]), f["targets"][10:14])
PY
    wait_bounded "$server"
}
