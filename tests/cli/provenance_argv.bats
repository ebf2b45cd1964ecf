#!/usr/bin/env bats
# The command line a converted file records (fuel_convert_command and fuel_provenance's argv) is
# exactly the one typed, --name=value options included, through fuel fetch and fuel convert.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
FASHION=/usr/share/datasets/fashion-mnist

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR FUEL_DATA_PATH
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$HOME" "$OUT"
    SUMS="$BATS_TEST_TMPDIR/sums"
    (cd "$FASHION" && md5sum *) > "$SUMS"
}

# Asserts that FILE records the command ARGUMENTS... as typed, in both attributes.
assert_recorded() {
    run $PYTHON - "$@" <<'PY'
import json, sys, h5py
path, typed = sys.argv[1], sys.argv[2:]
with h5py.File(path, "r") as handle:
    command = handle.attrs["fuel_convert_command"]
    argv = json.loads(handle.attrs["fuel_provenance"])["argv"]
assert command == " ".join(typed), (command, typed)
assert argv == typed, (argv, typed)
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "fuel fetch fashion_mnist --dtype=float32 records the argv as typed" {
    typed=(fuel fetch fashion_mnist --dtype=float32 -d "$OUT" "--url-prefix=file://$FASHION"
           --checksums "$SUMS" -q)
    run --separate-stderr "${typed[@]}"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/fashion_mnist_float32.hdf5" ]
    assert_recorded "$OUT/fashion_mnist_float32.hdf5" "${typed[@]}"
    run $PYTHON -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); print(f["features"].dtype, f["features"].shape)' \
        "$OUT/fashion_mnist_float32.hdf5"
    [ "$output" = "float32 (70000, 1, 28, 28)" ]
}

@test "fuel convert fashion_mnist --dtype=float32 records the argv as typed" {
    typed=(fuel convert fashion_mnist "--directory=$FASHION" --dtype=float32 -o "$OUT"
           --output_filename=typed)
    run --separate-stderr "${typed[@]}"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/typed.hdf5" ]
    assert_recorded "$OUT/typed.hdf5" "${typed[@]}"
}

@test "fuel-convert NAME --dtype value and -- are recorded as typed too" {
    typed=(fuel-convert mnist -d "$FUEL_FIXTURES/raw/mnist" --dtype float64 -o"$OUT" -- )
    run --separate-stderr "${typed[@]}"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/mnist_float64.hdf5" ]
    assert_recorded "$OUT/mnist_float64.hdf5" "${typed[@]}"
}
