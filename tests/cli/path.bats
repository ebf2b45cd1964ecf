#!/usr/bin/env bats
# fuel path: the first data path directory holding a name, exit 3 naming those searched.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/a:$BATS_TEST_TMPDIR/b"
}

@test "fuel path prints the first directory's file, for h5=\$(fuel path NAME)" {
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$BATS_TEST_TMPDIR/b/"
    h5=$(fuel path mnist.hdf5)
    [ "$h5" = "$BATS_TEST_TMPDIR/b/mnist.hdf5" ]
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$BATS_TEST_TMPDIR/a/"
    run --separate-stderr fuel-path mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/a/mnist.hdf5" ]
    [ -z "$stderr" ]
    run fuel path --json mnist.hdf5
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d == {"name": "mnist.hdf5", "path": sys.argv[1]}, d
' "$BATS_TEST_TMPDIR/a/mnist.hdf5"
}

@test "a name in no directory: exit 3, one line naming the directories searched" {
    run --separate-stderr fuel path cifar10.hdf5
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-path: not found in the data path: cifar10.hdf5: searched $BATS_TEST_TMPDIR/a, $BATS_TEST_TMPDIR/b" ]
}

@test "an empty data path: exit 3 saying how to set it" {
    unset FUEL_DATA_PATH
    run --separate-stderr fuel path mnist.hdf5
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-path: not found: mnist.hdf5: the data path is empty; set data_path"* ]]
}

@test "usage errors exit 2; -h prints the usage" {
    run --separate-stderr fuel path
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-path: missing NAME; see 'fuel-path -h'" ]
    run --separate-stderr fuel path a b
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-path: one NAME expected, got also: b; see 'fuel-path -h'" ]
    run --separate-stderr fuel path --bogus a
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-path: unknown option: --bogus; see 'fuel-path -h'" ]
    run fuel path -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-path [-h] [--json] NAME"* ]]
}
