#!/usr/bin/env bats
# fuel-clean: removes the stagings .fuel-staging-WHAT.XXXXXX that killed runs left, never a live
# one.

bats_require_minimum_version 1.5.0

load ../helpers/processes

PYTHON=/usr/bin/python3
FASHION=/usr/share/datasets/fashion-mnist

setup() {

    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    export HOME="$BATS_TEST_TMPDIR/home" TMPDIR="$BATS_TEST_TMPDIR/tmp"
    mkdir -p "$HOME" "$TMPDIR"
    unset FUEL_DATA_PATH FUEL_LOCAL_DATA_PATH FUEL_CONFIG
}

# A test that failed midway leaves no lock holder or conversion running.
teardown() {
    stop_jobs
}

# Waits up to 5 s for the lock holder started in the background to create PATH.
wait_for() {
    for attempt in $(seq 1 500); do
        [ ! -e "$1" ] || break
        sleep 0.01
    done
    [ -e "$1" ]
}

# The staging DIR/.fuel-staging-FILE.SUFFIX a killed conversion into FILE leaves: its lock file,
# nobody holding it, and the partial file.
dead_staging() {
    mkdir "$1/.fuel-staging-$2.$3"
    : > "$1/.fuel-staging-$2.$3/.lock"
    printf 'partial' > "$1/.fuel-staging-$2.$3/$2"
}

# Leftovers of three shapes, and entries that only look alike: a file and a symbolic link named
# as stagings are, a staging's shape with a five-letter suffix, an old-style temporary.
make_leftovers() {
    dead_staging "$1" mnist.hdf5 a1B2c3
    dead_staging "$1" cifar10.hdf5 ZZZZZZ
    dead_staging "$1" svhn_format_1.h5 000000
    printf 'kept' > "$1/mnist.hdf5"
    printf 'kept' > "$1/.bashrc"
    printf 'kept' > "$1/train.tar.gz.part"
    printf 'kept' > "$1/.mnist.hdf5.part"
    printf 'kept' > "$1/.mnist.hdf5.a1B2c3"
    printf 'kept' > "$1/.fuel-staging-iris.hdf5.fileXX"
    dead_staging "$1" notes.txt a1B2c
    mkdir "$1/elsewhere"
    ln -s "$1/elsewhere" "$1/.fuel-staging-link.hdf5.qwerty"
}

kept_files() {
    (cd "$1" && ls -A | sort | tr '\n' ' ')
}

@test "--dry-run lists the leftovers and removes nothing; then they are removed, nothing else" {
    make_leftovers "$OUT"
    before=$(kept_files "$OUT")
    run fuel-clean -d "$OUT" --dry-run
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | sort | tr '\n' ' ')" = "would remove $OUT/.fuel-staging-cifar10.hdf5.ZZZZZZ would remove $OUT/.fuel-staging-mnist.hdf5.a1B2c3 would remove $OUT/.fuel-staging-svhn_format_1.h5.000000 " ]
    [ "$(kept_files "$OUT")" = "$before" ]
    run fuel clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "$output" == *"removed $OUT/.fuel-staging-mnist.hdf5.a1B2c3"* ]]
    [ "$(kept_files "$OUT")" = ".bashrc .fuel-staging-iris.hdf5.fileXX .fuel-staging-link.hdf5.qwerty .fuel-staging-notes.txt.a1B2c .mnist.hdf5.a1B2c3 .mnist.hdf5.part elsewhere mnist.hdf5 train.tar.gz.part " ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "a staging whose lock a live process holds is left alone, then removed once it is gone" {
    # Hold the lock publish.c takes (an open file description write lock) until killed.
    hold_stagings "$OUT" .fuel-staging-mnist.hdf5.Live01
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -f "$OUT/.fuel-staging-mnist.hdf5.Live01/part" ]
    kill "$HOLDER"
    wait_bounded "$HOLDER" || true
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "removed $OUT/.fuel-staging-mnist.hdf5.Live01" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "fuel clean during a real conversion never removes its temporary" {
    fuel-convert mnist -d "$FASHION" -o "$OUT" > "$BATS_TEST_TMPDIR/stdout" 3>&- &
    pid=$!
    for attempt in $(seq 1 500); do
        [ -z "$(find "$OUT" -name '.fuel-staging-mnist.hdf5.*')" ] || break
        sleep 0.01
    done
    seen=$(find "$OUT" -name '.fuel-staging-mnist.hdf5.*' | wc -l)
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    wait_bounded "$pid"
    [ "$(cat "$BATS_TEST_TMPDIR/stdout")" = "$OUT/mnist.hdf5" ]
    [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
    [ "$seen" -eq 1 ]
}

SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"
EXPECTED="$FUEL_FIXTURES/expected"

# Runs COMMAND..., killed (SIGKILL) at its rename number AFTER (from 0) of a path in $OUT.
killed_at_rename() {
    local after=$1
    shift
    LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" FAIL_IO_CALLS=rename FAIL_IO_ACTION=kill FAIL_IO_AFTER=$after \
        FAIL_IO_PATH="$OUT/*" "$@" > /dev/null 2>&1 || [ $? -eq 137 ]
}

# Makes the staging directories DIR/NAME... holding a lock file and a file, then holds their locks
# (open file description write locks, as a running fuel export or fuel fixture does) until killed;
# sets HOLDER to its process id.
hold_stagings() {
    local directory=$1 name
    shift
    for name in "$@"; do
        mkdir "$directory/$name"
        : > "$directory/$name/.lock"
        printf 'being written' > "$directory/$name/part"
    done
    (cd "$directory" && exec $PYTHON -c '
import fcntl, struct, sys, time
held = []
for name in sys.argv[2:]:
    lock = open(name + "/.lock", "r+")
    fcntl.fcntl(lock, fcntl.F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
    held.append(lock)
open(sys.argv[1], "w").close()
time.sleep(600)' "$BATS_TEST_TMPDIR/locked" "$@") 3>&- &
    HOLDER=$!
    wait_for "$BATS_TEST_TMPDIR/locked"
}

# Every entry of DIR with the sha256 of each file below it, hidden ones included.
tree_listing() {
    (cd "$1" && find . -print | LC_ALL=C sort && find . -type f -print0 | xargs -0r sha256sum | LC_ALL=C sort)
}

@test "stagings of killed fuel export and fuel fixture --raw runs removed, a committed set finished; live ones kept; --dry-run removes nothing" {
    fuel export "$EXPECTED/mnist.hdf5" --to npy --split train -o "$BATS_TEST_TMPDIR/reference" > /dev/null
    killed_at_rename 0 fuel export "$EXPECTED/mnist.hdf5" --to npy --split test -o "$OUT"
    fuel export "$EXPECTED/mnist.hdf5" --to recordio --split train -o "$OUT" > /dev/null
    killed_at_rename 3 fuel export "$EXPECTED/mnist.hdf5" --to npy --split train -o "$OUT"
    killed_at_rename 0 fuel-fixture mnist --raw -o "$OUT"
    hold_stagings "$OUT" .fuel-staging-mnist_valid.Live01 .fuel-staging-fixture.Live02 \
        .fuel-staging-mnist_valid.publishing
    export_staging=$(cd "$OUT" && ls -d .fuel-staging-mnist_test.??????)
    fixture_staging=$(cd "$OUT" && ls -d .fuel-staging-fixture.?????? | grep -v Live02)
    [ -e "$OUT/$fixture_staging/.lock" ]
    [ -d "$OUT/.fuel-staging-mnist_train.publishing" ]
    before=$(tree_listing "$OUT")
    run fuel-clean -d "$OUT" --dry-run
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort | tr '\n' '|')" = "would finish publishing $OUT/.fuel-staging-mnist_train.publishing|would remove $OUT/$fixture_staging|would remove $OUT/$export_staging|" ]
    [ "$(tree_listing "$OUT")" = "$before" ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort | tr '\n' '|')" = "finished publishing $OUT/.fuel-staging-mnist_train.publishing|removed $OUT/$fixture_staging|removed $OUT/$export_staging|" ]
    [ "$(cd "$OUT" && ls -A | LC_ALL=C sort | tr '\n' ' ')" = ".fuel-staging-fixture.Live02 .fuel-staging-mnist_valid.Live01 .fuel-staging-mnist_valid.publishing mnist_train.provenance.json mnist_train_features.npy mnist_train_targets.npy " ]
    cmp "$OUT/mnist_train_features.npy" "$BATS_TEST_TMPDIR/reference/mnist_train_features.npy"
    cmp "$OUT/mnist_train_targets.npy" "$BATS_TEST_TMPDIR/reference/mnist_train_targets.npy"
    [ "$(cat "$OUT/.fuel-staging-fixture.Live02/part")" = "being written" ]
    kill "$HOLDER"
    wait_bounded "$HOLDER" || true
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | LC_ALL=C sort | tr '\n' '|')" = "finished publishing $OUT/.fuel-staging-mnist_valid.publishing|removed $OUT/.fuel-staging-fixture.Live02|removed $OUT/.fuel-staging-mnist_valid.Live01|" ]
    [ "$(cd "$OUT" && ls -A | LC_ALL=C sort | tr '\n' ' ')" = "mnist_train.provenance.json mnist_train_features.npy mnist_train_targets.npy " ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "a staging without a lock file (killed before taking it) is removed when empty, kept otherwise" {
    mkdir "$OUT/.fuel-staging-mnist_train.a1B2c3" "$OUT/.fuel-staging-fixture.d4E5f6"
    printf 'not ours' > "$OUT/.fuel-staging-fixture.d4E5f6/notes"
    run fuel-clean -d "$OUT" --dry-run
    [ "$status" -eq 0 ]
    [ "$output" = "would remove $OUT/.fuel-staging-mnist_train.a1B2c3" ]
    [ -d "$OUT/.fuel-staging-mnist_train.a1B2c3" ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "removed $OUT/.fuel-staging-mnist_train.a1B2c3" ]
    [ "$(ls -A "$OUT")" = ".fuel-staging-fixture.d4E5f6" ]
    [ "$(cat "$OUT/.fuel-staging-fixture.d4E5f6/notes")" = "not ours" ]
}

@test "without -d: the current directory and every data path directory" {
    mkdir -p "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/two" "$BATS_TEST_TMPDIR/work"
    make_leftovers "$BATS_TEST_TMPDIR/one"
    dead_staging "$BATS_TEST_TMPDIR/two" iris.hdf5 abcdef
    dead_staging "$BATS_TEST_TMPDIR/work" mnist_float32.hdf5 xyzXYZ
    cd "$BATS_TEST_TMPDIR/work"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/missing:$BATS_TEST_TMPDIR/one:$BATS_TEST_TMPDIR/two" \
        run fuel-clean
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 5 ]
    [ "${lines[0]}" = "removed ./.fuel-staging-mnist_float32.hdf5.xyzXYZ" ]
    [ "${lines[4]}" = "removed $BATS_TEST_TMPDIR/two/.fuel-staging-iris.hdf5.abcdef" ]
    [ -z "$(find "$BATS_TEST_TMPDIR" -name '.fuel-staging-*.??????' -type d)" ]
}

@test "errors: a missing directory exits 3, usage errors exit 2, a malformed config exits 2" {
    run --separate-stderr fuel-clean -d "$BATS_TEST_TMPDIR/missing"
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-clean: cannot read directory: $BATS_TEST_TMPDIR/missing: No such file or directory" ]
    run --separate-stderr fuel-clean --bogus
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-clean: unknown option: --bogus; see 'fuel-clean -h'" ]
    run --separate-stderr fuel-clean -d
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-clean: option -d needs a value; see 'fuel-clean -h'" ]
    run --separate-stderr fuel-clean extra
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-clean: not an s3:// prefix: extra (directories go with -d); see 'fuel-clean -h'" ]
    printf 'data_path: [unclosed\n' > "$HOME/.fuelrc"
    run --separate-stderr fuel-clean
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-clean: malformed config: $HOME/.fuelrc:"* ]]
    run fuel-clean -h
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "usage: fuel-clean [-h] [-d DIR]... [--dry-run] [s3://BUCKET/PREFIX]..." ]]
}

@test "fuel list shows a dataset's leftovers until fuel clean removes them" {
    dead_staging "$OUT" mnist.hdf5 a1B2c3
    dead_staging "$OUT" mnist_float32.hdf5 Zz9Zz9
    export FUEL_DATA_PATH="$OUT"
    run fuel list
    [ "$status" -eq 0 ]
    [[ "$output" == *"mnist.hdf5"*"leftover"*"$OUT/.fuel-staging-mnist.hdf5.a1B2c3  (left by a killed conversion; fuel clean removes it)"* ]]
    run fuel list --json
    [ "$status" -eq 0 ]
    leftovers=$(printf '%s' "$output" | $PYTHON -c '
import json, sys
for dataset in json.load(sys.stdin):
    converted = dataset.get("converted")
    if converted and converted["leftovers"]:
        print(dataset["name"], *converted["leftovers"])')
    [ "$leftovers" = "mnist $OUT/.fuel-staging-mnist.hdf5.a1B2c3" ]
    run fuel clean
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ]
    run fuel list
    [[ "$output" != *leftover* ]]
}

@test "without -d: dead fuel-fixture scratch directories in \$TMPDIR removed, a live one and everything else there kept" {
    killed_at_rename 0 fuel-fixture mnist -o "$OUT"
    [ ! -e "$OUT/mnist.hdf5" ]
    dead=$(cd "$TMPDIR" && ls -d .fuel-staging-fixture.??????)
    [ -e "$TMPDIR/$dead/.lock" ]
    [ -e "$TMPDIR/$dead/train-images-idx3-ubyte.gz" ]
    hold_stagings "$TMPDIR" .fuel-staging-fixture.Live03
    printf 'not ours' > "$TMPDIR/.mnist.hdf5.a1B2c3"
    mkdir "$BATS_TEST_TMPDIR/work"
    cd "$BATS_TEST_TMPDIR/work"
    run fuel-clean --dry-run
    [ "$status" -eq 0 ]
    [ "$output" = "would remove $TMPDIR/$dead" ]
    [ -d "$TMPDIR/$dead" ]
    run fuel-clean
    kill "$HOLDER"
    [ "$status" -eq 0 ]
    [ "$output" = "removed $TMPDIR/$dead" ]
    [ "$(ls -A "$TMPDIR" | LC_ALL=C sort | tr '\n' ' ')" = ".fuel-staging-fixture.Live03 .mnist.hdf5.a1B2c3 " ]
    [ "$(cat "$TMPDIR/.fuel-staging-fixture.Live03/part")" = "being written" ]
}
