#!/usr/bin/env bats
# fuel-clean: removes the .NAME.XXXXXX leftovers of killed conversions, never a live one.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
FASHION=/usr/share/datasets/fashion-mnist

setup() {
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH FUEL_LOCAL_DATA_PATH FUEL_CONFIG
}

# Leftovers of three shapes, and files that only look alike.
make_leftovers() {
    for name in .mnist.hdf5.a1B2c3 .cifar10.hdf5.ZZZZZZ .svhn_format_1.h5.000000; do
        printf 'partial' > "$1/$name"
    done
    printf 'kept' > "$1/mnist.hdf5"
    printf 'kept' > "$1/.bashrc"
    printf 'kept' > "$1/train.tar.gz.part"
    printf 'kept' > "$1/.mnist.hdf5.part"
    printf 'kept' > "$1/.notes.txt.a1B2c3"
    mkdir "$1/.iris.hdf5.dirdir"
    ln -s "$1/mnist.hdf5" "$1/.link.hdf5.qwerty"
}

kept_files() {
    (cd "$1" && ls -A | sort | tr '\n' ' ')
}

@test "--dry-run lists the leftovers and removes nothing; then they are removed, nothing else" {
    make_leftovers "$OUT"
    before=$(kept_files "$OUT")
    run fuel-clean -d "$OUT" --dry-run
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | sort | tr '\n' ' ')" = "would remove $OUT/.cifar10.hdf5.ZZZZZZ would remove $OUT/.mnist.hdf5.a1B2c3 would remove $OUT/.svhn_format_1.h5.000000 " ]
    [ "$(kept_files "$OUT")" = "$before" ]
    run fuel clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "$output" == *"removed $OUT/.mnist.hdf5.a1B2c3"* ]]
    [ "$(kept_files "$OUT")" = ".bashrc .iris.hdf5.dirdir .link.hdf5.qwerty .mnist.hdf5.part .notes.txt.a1B2c3 mnist.hdf5 train.tar.gz.part " ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "a temporary whose lock a live process holds is left alone, then removed once it is gone" {
    printf 'being written' > "$OUT/.mnist.hdf5.Live01"
    # Hold the lock publish.c takes (an open file description write lock) until killed.
    $PYTHON -c '
import fcntl, struct, sys, time
fd = open(sys.argv[1], "r+")
fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
open(sys.argv[2], "w").close()
time.sleep(600)' "$OUT/.mnist.hdf5.Live01" "$BATS_TEST_TMPDIR/locked" &
    holder=$!
    for attempt in $(seq 1 500); do
        [ ! -e "$BATS_TEST_TMPDIR/locked" ] || break
        sleep 0.01
    done
    [ -e "$BATS_TEST_TMPDIR/locked" ]
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -f "$OUT/.mnist.hdf5.Live01" ]
    kill "$holder"
    wait "$holder" || true
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "removed $OUT/.mnist.hdf5.Live01" ]
}

@test "fuel clean during a real conversion never removes its temporary" {
    fuel-convert mnist -d "$FASHION" -o "$OUT" > "$BATS_TEST_TMPDIR/stdout" &
    pid=$!
    for attempt in $(seq 1 500); do
        [ -z "$(find "$OUT" -name '.mnist.hdf5.*')" ] || break
        sleep 0.01
    done
    seen=$(find "$OUT" -name '.mnist.hdf5.*' | wc -l)
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    wait "$pid"
    [ "$(cat "$BATS_TEST_TMPDIR/stdout")" = "$OUT/mnist.hdf5" ]
    [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
    [ "$seen" -eq 1 ]
}

@test "without -d: the current directory and every data path directory" {
    mkdir -p "$BATS_TEST_TMPDIR/one" "$BATS_TEST_TMPDIR/two" "$BATS_TEST_TMPDIR/work"
    make_leftovers "$BATS_TEST_TMPDIR/one"
    printf 'x' > "$BATS_TEST_TMPDIR/two/.iris.hdf5.abcdef"
    printf 'x' > "$BATS_TEST_TMPDIR/work/.mnist_float32.hdf5.xyzXYZ"
    cd "$BATS_TEST_TMPDIR/work"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/missing:$BATS_TEST_TMPDIR/one:$BATS_TEST_TMPDIR/two" \
        run fuel-clean
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 5 ]
    [ "${lines[0]}" = "removed ./.mnist_float32.hdf5.xyzXYZ" ]
    [ "${lines[4]}" = "removed $BATS_TEST_TMPDIR/two/.iris.hdf5.abcdef" ]
    [ -z "$(find "$BATS_TEST_TMPDIR" -name '.*.hdf5.??????' -type f)" ]
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
    [ "$stderr" = "fuel-clean: unexpected argument: extra; see 'fuel-clean -h'" ]
    printf 'data_path: [unclosed\n' > "$HOME/.fuelrc"
    run --separate-stderr fuel-clean
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-clean: malformed config: $HOME/.fuelrc:"* ]]
    run fuel-clean -h
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "usage: fuel-clean [-h] [-d DIRECTORY]... [--dry-run]" ]]
}

@test "fuel list shows a dataset's leftovers until fuel clean removes them" {
    printf 'partial' > "$OUT/.mnist.hdf5.a1B2c3"
    printf 'partial' > "$OUT/.mnist_float32.hdf5.Zz9Zz9"
    export FUEL_DATA_PATH="$OUT"
    run fuel list
    [ "$status" -eq 0 ]
    [[ "$output" == *"mnist.hdf5"*"leftover"*"$OUT/.mnist.hdf5.a1B2c3  (left by a killed conversion; fuel clean removes it)"* ]]
    run fuel list --json
    [ "$status" -eq 0 ]
    leftovers=$(printf '%s' "$output" | $PYTHON -c '
import json, sys
for dataset in json.load(sys.stdin):
    converted = dataset.get("converted")
    if converted and converted["leftovers"]:
        print(dataset["name"], *converted["leftovers"])')
    [ "$leftovers" = "mnist $OUT/.mnist.hdf5.a1B2c3" ]
    run fuel clean
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ]
    run fuel list
    [[ "$output" != *leftover* ]]
}
