#!/usr/bin/env bats
# One name resolution for every command taking FILE|NAME: a path, a data path file, a dataset's file.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    export SOURCE_DATE_EPOCH=1700000000
    DATA="$BATS_TEST_TMPDIR/data"
    mkdir -p "$HOME" "$DATA"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/empty:$DATA"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$DATA/"
}

@test "a dataset name finds its converted file in info, path, cache, export, preview, fixture --from" {
    run --separate-stderr fuel path mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist.hdf5" ]
    run --separate-stderr fuel info mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$(fuel info "$DATA/mnist.hdf5")" ]
    run --separate-stderr fuel info --check mnist
    [ "$status" -eq 0 ]
    export FUEL_LOCAL_DATA_PATH="$BATS_TEST_TMPDIR/local"
    run --separate-stderr fuel cache mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/local/mnist.hdf5" ]
    cmp "$DATA/mnist.hdf5" "$BATS_TEST_TMPDIR/local/mnist.hdf5"
    run --separate-stderr fuel export mnist --to npy -o "$BATS_TEST_TMPDIR/npy" -q
    [ "$status" -eq 0 ]
    [ -s "$BATS_TEST_TMPDIR/npy/mnist_train_features.npy" ] || ls -R "$BATS_TEST_TMPDIR/npy"
    [ -s "$BATS_TEST_TMPDIR/npy/mnist_train_features.npy" ]
    run --separate-stderr fuel preview mnist -o "$BATS_TEST_TMPDIR/grid.png" -n 4
    [ "$status" -eq 0 ]
    [ -s "$BATS_TEST_TMPDIR/grid.png" ]
    run --separate-stderr fuel fixture --from mnist -n 2 -o "$BATS_TEST_TMPDIR/cut"
    [ "$status" -eq 0 ]
    [ -s "$BATS_TEST_TMPDIR/cut/mnist.hdf5" ]
}

@test "fuel serve NAME finds the dataset's file (a bad split proves it opened the file)" {
    run --separate-stderr timeout 20 fuel serve mnist --split nosuch --bind tcp://127.0.0.1:0
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"nosuch"* ]] || { echo "$stderr"; false; }
    [[ "$stderr" != *"not found in the data path"* ]] || { echo "$stderr"; false; }
}

@test "a path wins over the data path, and a file named as typed wins over a dataset's file" {
    mkdir "$BATS_TEST_TMPDIR/here"
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$BATS_TEST_TMPDIR/here/mnist"
    cd "$BATS_TEST_TMPDIR/here"
    run --separate-stderr fuel info --json mnist
    [ "$status" -eq 0 ]
    [[ "$output" == *'"all"'* ]] || { echo "$output"; false; }
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$DATA/mnist"
    run --separate-stderr fuel path mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist" ]
}

@test "svhn with both formats converted is ambiguous: exit 2 listing both; one format resolves" {
    fuel fixture svhn 1 -o "$DATA" -n 2 >/dev/null
    fuel fixture svhn 2 -o "$DATA" -n 2 >/dev/null
    for command in info path serve "export --to npy -o out" "preview -o grid.png"; do
        # shellcheck disable=SC2086
        run --separate-stderr fuel $command svhn
        command=${command%% *}
        [ "$status" -eq 2 ] || { echo "$command: $status $stderr"; false; }
        [ "$stderr" = "fuel-$command: ambiguous: svhn names several files in the data path: svhn_format_1.hdf5, svhn_format_2.hdf5" ] || { echo "$command: $stderr"; false; }
    done
    rm "$DATA/svhn_format_2.hdf5"
    run --separate-stderr fuel path svhn
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/svhn_format_1.hdf5" ]
}

@test "a name that resolves nowhere: exit 3, one line naming what was looked for and where" {
    run --separate-stderr fuel info cifar10
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: not found in the data path: cifar10: searched $BATS_TEST_TMPDIR/empty, $DATA (also looked for cifar10.hdf5)" ]
    run --separate-stderr fuel export nothing --to npy -o "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-export: not found in the data path: nothing: searched $BATS_TEST_TMPDIR/empty, $DATA (also looked for nothing.hdf5)" ]
    [ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "a name that resolves nowhere ends with the closest names that do: did you mean" {
    run --separate-stderr fuel info mnsit
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-info: not found in the data path: mnsit: searched $BATS_TEST_TMPDIR/empty, $DATA (also looked for mnsit.hdf5); did you mean \`mnist\`?" ]
    run --separate-stderr fuel serve mnist.hdf
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-serve: no such file: mnist.hdf, nor in the data path: searched $BATS_TEST_TMPDIR/empty, $DATA; did you mean \`mnist.hdf5\`?" ]
    # A dataset that is not converted there is not offered.
    run --separate-stderr fuel path cifar-10
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-path: not found in the data path: cifar-10: searched $BATS_TEST_TMPDIR/empty, $DATA (also looked for cifar-10.hdf5)" ]
}
