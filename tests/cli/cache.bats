#!/usr/bin/env bats
# fuel cache: Fuel's local_data_path copy, made once under a lock, atomically, reused while the
# original's size and modification time match.

bats_require_minimum_version 1.5.0

load ../helpers/processes

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    DATA="$BATS_TEST_TMPDIR/data" LOCAL="$BATS_TEST_TMPDIR/local/cache"
    mkdir -p "$HOME" "$DATA"
    export FUEL_DATA_PATH="$DATA" FUEL_LOCAL_DATA_PATH="$LOCAL"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$DATA/"
}

@test "the first call copies, prints the local path; the copy keeps the original's time" {
    run --separate-stderr fuel cache mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "$LOCAL/mnist.hdf5" ]
    [ "$stderr" = "fuel-cache: copied $DATA/mnist.hdf5" ]
    cmp "$DATA/mnist.hdf5" "$LOCAL/mnist.hdf5"
    [ "$(stat -c %Y.%y "$DATA/mnist.hdf5")" = "$(stat -c %Y.%y "$LOCAL/mnist.hdf5")" ]
    [ -z "$(find "$LOCAL" -name '.fuel-staging-*')" ]
}

@test "a second call reuses the copy; a changed original is copied again" {
    fuel cache -q mnist.hdf5
    echo marker > "$LOCAL/marker"
    run --separate-stderr fuel-cache mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-cache: reusing the copy of $DATA/mnist.hdf5" ]
    touch -d '2001-01-01' "$DATA/mnist.hdf5"
    run --separate-stderr fuel cache --json mnist.hdf5
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["copied"] is True and d["path"] == sys.argv[1] + "/mnist.hdf5", d
assert d["original"] == sys.argv[2] + "/mnist.hdf5", d
' "$LOCAL" "$DATA"
    [ "$(stat -c %Y "$LOCAL/mnist.hdf5")" = "$(stat -c %Y "$DATA/mnist.hdf5")" ]
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$DATA/mnist.hdf5"
    touch -d '2001-01-01' "$DATA/mnist.hdf5"
    run --separate-stderr fuel cache mnist.hdf5
    [ "$stderr" = "fuel-cache: copied $DATA/mnist.hdf5" ]
    cmp "$DATA/mnist.hdf5" "$LOCAL/mnist.hdf5"
}

@test "concurrent calls copy once" {
    head -c 50000000 /dev/zero > "$DATA/big.bin"
    pids=()
    for index in 1 2 3 4 5 6; do
        fuel cache big.bin > "$BATS_TEST_TMPDIR/out.$index" 2> "$BATS_TEST_TMPDIR/err.$index" 3>&- &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait_bounded "$pid"
    done
    [ "$(cat "$BATS_TEST_TMPDIR"/err.* | grep -c '^fuel-cache: copied ')" -eq 1 ]
    [ "$(cat "$BATS_TEST_TMPDIR"/err.* | grep -c '^fuel-cache: reusing the copy of ')" -eq 5 ]
    for index in 1 2 3 4 5 6; do
        [ "$(cat "$BATS_TEST_TMPDIR/out.$index")" = "$LOCAL/big.bin" ]
    done
    cmp "$DATA/big.bin" "$LOCAL/big.bin"
}

@test "a name in no data path directory: exit 3; no local data path: exit 2" {
    run --separate-stderr fuel cache cifar10.hdf5
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-cache: not found in the data path: cifar10.hdf5: searched $DATA" ]
    [ ! -e "$LOCAL/cifar10.hdf5" ]
    unset FUEL_LOCAL_DATA_PATH
    run --separate-stderr fuel cache mnist.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-cache: no local data path: mnist.hdf5: set FUEL_LOCAL_DATA_PATH or local_data_path in $FUEL_CONFIG" ]
}

@test "the local_data_path of the config file is used" {
    unset FUEL_LOCAL_DATA_PATH
    printf 'local_data_path: %s\n' "$BATS_TEST_TMPDIR/fromrc" > "$BATS_TEST_TMPDIR/fuelrc"
    FUEL_CONFIG="$BATS_TEST_TMPDIR/fuelrc" run --separate-stderr fuel cache mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/fromrc/mnist.hdf5" ]
}

@test "a local data path that cannot be made a directory: exit 7, one line" {
    FUEL_LOCAL_DATA_PATH="$DATA/mnist.hdf5/local" run --separate-stderr fuel cache mnist.hdf5
    [ "$status" -eq 7 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [ "$stderr" = "fuel-cache: cannot create directory: $DATA/mnist.hdf5: not a directory" ]
}

@test "a copy that would pass the file size limit: exit 7 before copying, nothing left" {
    run --separate-stderr bash -c 'ulimit -f 10 && exec fuel cache mnist.hdf5'
    [ "$status" -eq 7 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-cache: cannot write: $LOCAL/mnist.hdf5: needs a file of $(stat -c %s "$DATA/mnist.hdf5") bytes, over the file size limit of 10240 bytes (ulimit -f)" ]
    [ -z "$(ls -A "$LOCAL")" ]
}

@test "usage errors exit 2; -h prints the usage" {
    run --separate-stderr fuel cache
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-cache: missing NAME; see 'fuel-cache -h'" ]
    run fuel cache -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-cache [-h] [-q] [--json] [options] NAME"* ]]
}

@test "a name that is a directory of the data path: exit 4 in download's words, nothing copied" {
    mkdir "$DATA/folder"
    run --separate-stderr fuel cache folder
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-cache: not a regular file: $DATA/folder: exists but is a directory" ]
    [ ! -e "$LOCAL/folder" ]
}

@test "a FIFO at a name of the data path: not a regular file (exit 4) in cache and info, never opened blocking" {
    mkfifo "$DATA/piped.hdf5"
    run --separate-stderr timeout 20 fuel cache piped.hdf5
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-cache: not a regular file: $DATA/piped.hdf5: exists but is a FIFO" ]
    [ ! -e "$LOCAL/piped.hdf5" ]
    run --separate-stderr timeout 20 fuel info piped.hdf5
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: not a regular file: $DATA/piped.hdf5: exists but is a FIFO" ]
}

@test "a NAME in a subdirectory is copied there; one leaving the local data path is refused" {
    mkdir "$DATA/sub"
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$DATA/sub/"
    run --separate-stderr fuel cache -q sub/iris.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = "$LOCAL/sub/iris.hdf5" ]
    cmp "$DATA/sub/iris.hdf5" "$LOCAL/sub/iris.hdf5"
    for name in ../iris.hdf5 sub/../../x /etc/passwd ..; do
        run --separate-stderr fuel cache "$name"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-cache: NAME must stay inside the data path, no '/' first nor '..': $name; see 'fuel-cache -h'" ]
    done
    run fuel cache -q ..iris.hdf5
    [ "$status" -eq 3 ]
}
