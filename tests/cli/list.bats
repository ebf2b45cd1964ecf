#!/usr/bin/env bats
# fuel list: datasets, raw file states (missing, partial, present, wrong size, verified,
# corrupt, verified by content) and converted files found in the data path.

bats_require_minimum_version 1.5.0

load ../helpers/assertions

PYTHON=/usr/bin/python3

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    DATA="$BATS_TEST_TMPDIR/data"
    mkdir -p "$HOME" "$DATA" "$BATS_TEST_TMPDIR/empty"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/empty:$DATA"
    SUMS="$BATS_TEST_TMPDIR/sums"
    (cd "$FUEL_FIXTURES/raw/mnist" && md5sum *) > "$SUMS"
}

# The mnist entry of `fuel list --json ARGS` as "name state size" lines, then the converted file.
mnist_entry() {
    fuel list --json "$@" | $PYTHON -c '
import json, sys
for d in json.load(sys.stdin):
    if d["name"] == "mnist":
        for f in d["files"]:
            print(f["name"], f["state"], f["size"])
        c = d["converted"]
        print(c["name"], c["path"], c.get("size"), c.get("created"))
'
}

@test "every built-in dataset is listed, with its formats" {
    run --separate-stderr fuel list --json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
names = [(d["name"], d["variant"]) for d in json.load(sys.stdin)]
for expected in [("mnist", None), ("cifar10", None), ("cifar100", None), ("iris", None),
                 ("binarized_mnist", None), ("svhn", "1"), ("svhn", "2")]:
    assert expected in names, (expected, names)
'
}

@test "raw files missing, partial, present; the converted file with size and creation time" {
    cp "$FUEL_FIXTURES/raw/mnist/train-images-idx3-ubyte.gz" "$DATA/"
    head -c 10 "$FUEL_FIXTURES/raw/mnist/train-labels-idx1-ubyte.gz" > "$DATA/train-labels-idx1-ubyte.gz.part"
    SOURCE_DATE_EPOCH=1700000000 fuel-convert mnist -d "$FUEL_FIXTURES/raw/mnist" -o "$DATA" > /dev/null
    size=$(stat -c %s "$DATA/mnist.hdf5")
    run mnist_entry --checksums "$SUMS"
    [ "$status" -eq 0 ]
    [ "$output" = "train-images-idx3-ubyte.gz present 9447
train-labels-idx1-ubyte.gz partial 10
t10k-images-idx3-ubyte.gz missing None
t10k-labels-idx1-ubyte.gz missing None
mnist.hdf5 $DATA/mnist.hdf5 $size 2023-11-14T22:13:20Z" ]
    run --separate-stderr fuel list --checksums "$SUMS"
    [ "$status" -eq 0 ]
    [[ "$output" == *"mnist  handwritten digits"*"
    train-images-idx3-ubyte.gz       present     $DATA/train-images-idx3-ubyte.gz
    train-labels-idx1-ubyte.gz       partial     $DATA/train-labels-idx1-ubyte.gz.part  10 bytes so far
    t10k-images-idx3-ubyte.gz        missing
    t10k-labels-idx1-ubyte.gz        missing
    mnist.hdf5                       converted   $DATA/mnist.hdf5  "*"  created 2023-11-14T22:13:20Z"* ]]
}

@test "--verify hashes present files: verified or corrupt; without a replacement the published size decides" {
    cp "$FUEL_FIXTURES"/raw/mnist/* "$DATA/"
    chmod u+w "$DATA"/*
    printf 'X' | dd of="$DATA/t10k-labels-idx1-ubyte.gz" bs=1 seek=3 conv=notrunc 2>/dev/null
    run mnist_entry --verify --checksums "$SUMS"
    [ "${lines[0]}" = "train-images-idx3-ubyte.gz verified 9447" ]
    [ "${lines[2]}" = "t10k-images-idx3-ubyte.gz verified 1607" ]
    [ "${lines[3]}" = "t10k-labels-idx1-ubyte.gz corrupt 30" ]
    run mnist_entry
    [ "${lines[0]}" = "train-images-idx3-ubyte.gz wrong size 9447" ]
    [ "${lines[4]}" = "mnist.hdf5 None None None" ]
    # MNIST's labels have a published content too; the fixtures' content is another.
    [ "${lines[1]}" = "train-labels-idx1-ubyte.gz present 38" ]
    run mnist_entry --verify
    [ "${lines[0]}" = "train-images-idx3-ubyte.gz wrong size 9447" ]
    [ "${lines[1]}" = "train-labels-idx1-ubyte.gz wrong size 38" ]
}

@test "--verify: Debian's re-gzipped Fashion-MNIST files are verified by their content" {
    debian=/usr/share/datasets/fashion-mnist
    run --separate-stderr fuel list -d "$debian" --verify
    [ "$status" -eq 0 ]
    [[ "$output" == *"fashion_mnist  "*"
    train-images-idx3-ubyte.gz       verified by content  $debian/train-images-idx3-ubyte.gz
    train-labels-idx1-ubyte.gz       verified by content  $debian/train-labels-idx1-ubyte.gz
    t10k-images-idx3-ubyte.gz        verified by content  $debian/t10k-images-idx3-ubyte.gz
    t10k-labels-idx1-ubyte.gz        verified by content  $debian/t10k-labels-idx1-ubyte.gz
    fashion_mnist.hdf5 "* ]]
    run --separate-stderr fuel list -d "$debian"
    [[ "$output" == *"fashion_mnist  "*"
    train-images-idx3-ubyte.gz       present     $debian/train-images-idx3-ubyte.gz
"* ]]
    # Their md5s given: verified by their bytes.
    (cd "$debian" && md5sum *) > "$BATS_TEST_TMPDIR/debian-sums"
    run --separate-stderr fuel list -d "$debian" --verify --checksums "$BATS_TEST_TMPDIR/debian-sums"
    [[ "$output" == *"
    t10k-labels-idx1-ubyte.gz        verified    $debian/t10k-labels-idx1-ubyte.gz
    fashion_mnist.hdf5 "* ]]
}

@test "-d DIR looks for the raw files there only" {
    run mnist_entry -d "$FUEL_FIXTURES/raw/mnist" --checksums "$SUMS" --verify
    [ "${lines[1]}" = "train-labels-idx1-ubyte.gz verified 38" ]
}

@test "an empty data path: everything missing, nothing converted, exit 0" {
    unset FUEL_DATA_PATH
    run --separate-stderr fuel list
    [ "$status" -eq 0 ]
    [[ "$output" == *"    iris.data                        missing
    iris.hdf5                        not in the data path"* ]]
}

@test "errors: a missing --checksums file exits 3; usage errors exit 2" {
    run --separate-stderr fuel list --checksums "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel-list: "*"$BATS_TEST_TMPDIR/none"* ]]
    run --separate-stderr fuel list extra
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-list: unexpected argument: extra; see 'fuel-list -h'" ]
    run --separate-stderr fuel list --bogus
    assert_usage_error fuel-list "unknown option" "--bogus"
    run fuel list -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-list"* ]]
}

@test "a converted file that makes HDF5 itself fault: exit 4, one line naming it, no crash" {
    # One byte of mnist.hdf5's global heap changed: HDF5 1.10 reads out of bounds on it.
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$DATA/mnist.hdf5"
    chmod u+w "$DATA/mnist.hdf5"
    printf '\x4c' | dd of="$DATA/mnist.hdf5" bs=1 seek=1038 conv=notrunc 2>/dev/null
    run --separate-stderr fuel list
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-list: damaged HDF5 file: $DATA/mnist.hdf5: the HDF5 library failed reading it" ]
}
