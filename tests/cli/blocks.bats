#!/usr/bin/env bats
# Converters that work in blocks, at sizes past two whole blocks and a remainder: raw inputs made
# here (tests/helpers/block_inputs.py), converted by fuel, every value compared with what the
# helper's own Python readers make of the same raw files.
#
# Block sizes, as the converters have them: binarized MNIST BLOCK_ROWS 1,024 rows; Iris grows its
# rows in doubling arrays from 256 (the 1,024-row boundary is crossed too); MNIST BLOCK_BYTES 1 MiB,
# i.e. 1,337 images of 28x28 and 1,048,576 labels (or 1x1 images); CIFAR batches spooled and
# copied back in blocks of rows (batches of different sizes, past two 1 MiB blocks of 341 rows);
# SVHN format 2 BLOCK_IMAGES 256 images and BLOCK_LABELS 4,096 labels; fuel fixture --from
# (fixtures/h5py_cut.c) CUT_BLOCK_EXAMPLES 65,536 examples.

PYTHON=/usr/bin/python3
HELPER=tests/helpers/block_inputs.py

setup() {
    RAW="$BATS_TEST_TMPDIR/raw"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$RAW" "$OUT"
}

# make_and_check DATASET "FUEL ARGUMENTS" COUNT...: makes the raw files, converts, compares.
make_and_check() {
    local dataset=$1 arguments=$2
    shift 2
    $PYTHON "$HELPER" make "$dataset" "$RAW" "$@"
    # shellcheck disable=SC2086
    run fuel-convert $arguments -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    converted=$output
    compare "$dataset" "$converted"
}

# compare DATASET FILE [DTYPE]: every value of FILE against the helper's reading of $RAW.
compare() {
    run $PYTHON "$HELPER" check "$1" "$RAW" "$2" "${3:-uint8}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "binarized MNIST: 2x1024+7, exactly 1024 and 2x1024+1 rows, every pixel" {
    make_and_check binarized_mnist binarized_mnist 2055 1024 2049
    [ "$converted" = "$OUT/binarized_mnist.hdf5" ]
}

@test "iris: 2x1024+5 rows, every measurement and class" {
    make_and_check iris iris 2053
    [ "$converted" = "$OUT/iris.hdf5" ]
}

@test "mnist: 2x1337+3 train and 1337+3 test images, uint8, float32, float64 and bool" {
    $PYTHON "$HELPER" make mnist "$RAW" 2677 1340
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "$OUT/mnist.hdf5" ]
    for dtype in float32 float64 bool; do
        run fuel-convert mnist -d "$RAW" -o "$OUT" --dtype "$dtype"
        [ "$status" -eq 0 ] || { echo "$output"; false; }
        [ "$output" = "$OUT/mnist_$dtype.hdf5" ]
    done
    # Every file compared in one start.
    run $PYTHON "$HELPER" check mnist "$RAW" "$OUT/mnist.hdf5" uint8 "$OUT/mnist_float32.hdf5" float32 \
        "$OUT/mnist_float64.hdf5" float64 "$OUT/mnist_bool.hdf5" bool
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "mnist: 2x1048576+3 labels (1x1 images) cross the label blocks" {
    make_and_check mnist mnist 2097155 3 1
}

@test "cifar10: batches of 1100, 7, 2100, 1, 513 and a test batch of 1500, every value" {
    make_and_check cifar10 cifar10 1100 7 2100 1 513 1500
}

@test "cifar100: 2100 train and 1100 test rows, fine and coarse labels" {
    make_and_check cifar100 cifar100 2100 1100
}

@test "svhn 2: 2x4096+3 train, 2x256+5 test and exactly 256 extra images, every value" {
    make_and_check svhn2 "svhn 2" 8195 517 256
    [ "$converted" = "$OUT/svhn_format_2.hdf5" ]
}

@test "fuel fixture --from: 2x65536+5 examples cut in blocks, the first N and a shuffled N" {
    $PYTHON "$HELPER" make iris "$RAW" 131077
    fuel-convert iris -d "$RAW" -o "$RAW" > /dev/null
    # Every example made unique, so that a cut's examples can be found in the parent.
    $PYTHON -c 'import sys, h5py, numpy
with h5py.File(sys.argv[1], "r+") as handle:
    handle["features"][:, 0] = numpy.arange(len(handle["features"]), dtype=numpy.float32)' \
        "$RAW/iris.hdf5"
    run fuel-fixture --from "$RAW/iris.hdf5" -n 131076 -o "$OUT" -r first
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run fuel-fixture --from "$RAW/iris.hdf5" -n 131074 --shuffle --seed 5 -o "$OUT" -r shuffled
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON - "$RAW/iris.hdf5" "$OUT/first.hdf5" "$OUT/shuffled.hdf5" <<'PY'
import sys, h5py, numpy
parent, first, shuffled = (h5py.File(path, "r") for path in sys.argv[1:])
for name in ("features", "targets"):
    assert numpy.array_equal(first[name][...], parent[name][:131076]), name
picked = shuffled["features"][:, 0].astype(numpy.int64)
assert len(picked) == 131074 and numpy.all(numpy.diff(picked) > 0), picked
for name in ("features", "targets"):
    assert numpy.array_equal(shuffled[name][...], parent[name][...][picked]), name
for handle, count in ((first, 131076), (shuffled, 131074)):
    rows = [(r["split"], int(r["start"]), int(r["stop"])) for r in handle.attrs["split"]]
    assert rows == [(b"all", 0, count)] * 2, rows
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the comparison fails on a file missing one row of a block" {
    $PYTHON "$HELPER" make binarized_mnist "$RAW" 2055 3 2
    fuel-convert binarized_mnist -d "$RAW" -o "$OUT" > /dev/null
    # The converter's file with row 1023 (the last of the first block) replaced by row 1024.
    $PYTHON -c 'import sys, h5py
with h5py.File(sys.argv[1], "r+") as handle:
    features = handle["features"]
    features[1023] = features[1024]' "$OUT/binarized_mnist.hdf5"
    run $PYTHON "$HELPER" check binarized_mnist "$RAW" "$OUT/binarized_mnist.hdf5"
    [ "$status" -eq 1 ]
    [[ "$output" == "features: "*" values differ, first at (1023, 0, "* ]]
}
