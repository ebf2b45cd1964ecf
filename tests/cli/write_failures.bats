#!/usr/bin/env bats
# Outputs that cannot be written: a read-only directory, a full file system, a write failing
# midway. Every command says it cannot write in the directory (or the file as the user named it,
# never a staging name) and why, in errno's words, with exit 7. The file systems are tmpfs
# mounts in a private mount namespace (a user namespace when not root).

bats_require_minimum_version 1.5.0

FASHION=/usr/share/datasets/fashion-mnist

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG=/dev/null
    unset FUEL_DATA_PATH
    mkdir -p "$HOME" "$BATS_TEST_TMPDIR/work"
    cd "$BATS_TEST_TMPDIR/work"
    command -v unshare >/dev/null
}

# mounted OPTIONS SCRIPT: runs SCRIPT (bash, cwd the work directory) with a tmpfs mounted with
# OPTIONS on ./out; the script's output, then "status N" of its last command.
mounted() {
    mkdir -p out
    run unshare -rm bash -c 'mount -t tmpfs -o "$1" tmpfs out || exit 90
        '"$2"'
        echo "status $?"' _ "$1"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "a read-only output directory: cannot write in DIR and errno's words, exit 7, everywhere" {
    fuel fixture mnist --raw -o raw >/dev/null
    expected="cannot write in out: Read-only file system"
    mounted ro 'fuel convert mnist -d raw -o out 2>&1'
    [ "$output" = "$(printf 'fuel-convert: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel download iris -d out --url-prefix file:///nonexist 2>&1'
    [ "$output" = "$(printf 'fuel-download: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel fetch iris -d out --url-prefix file:///nonexist 2>&1'
    [ "$output" = "$(printf 'fuel-fetch: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel export "$FUEL_FIXTURES/expected/mnist.hdf5" --to npy -o out 2>&1'
    [ "$output" = "$(printf 'fuel-export: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel fixture mnist --raw -o out 2>&1'
    [ "$output" = "$(printf 'fuel-fixture: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel preview "$FUEL_FIXTURES/expected/mnist.hdf5" -o out/grid.png 2>&1 >/dev/null'
    [ "$output" = "$(printf 'fuel-preview: %s\nstatus 7' "$expected")" ]
    mounted ro 'fuel fixture --from "$FUEL_FIXTURES/expected/mnist.hdf5" -n 2 -o out 2>&1'
    [ "$output" = "$(printf 'fuel-fixture: %s\nstatus 7' "$expected")" ]
    /usr/bin/python3 -c 'import numpy; numpy.save("a.npy", numpy.zeros((4, 3), numpy.uint8))'
    printf 'splits:\n  train: {examples: 4}\nsources:\n  features: {from: [a.npy]}\n' > a.yaml
    mounted ro 'fuel pack a.yaml -o out 2>&1'
    [ "$output" = "$(printf 'fuel-pack: %s\nstatus 7' "$expected")" ]
}

@test "convert checks the free space before it writes: exit 7 naming the file as given" {
    mounted size=8m 'fuel convert mnist -d "'"$FASHION"'" -o out 2>&1; ls -A out'
    [[ "${lines[0]}" =~ ^"fuel-convert: cannot write: out/mnist.hdf5: needs "[0-9]+" bytes, "[0-9]+" free"$ ]]
    [ "${lines[1]}" = "status 0" ]
    [ "${#lines[@]}" -eq 2 ]
}

@test "a write failing midway names the file as given, never the staging directory" {
    SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"
    [ -f "$SHIM" ] || { echo "missing $SHIM: run make check"; false; }
    fuel fixture mnist --raw -o raw >/dev/null
    mkdir out
    for after in 0 3; do
        FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_AFTER=$after FAIL_IO_PATH="*/.fuel-staging-*" \
            LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
            run --separate-stderr fuel convert mnist -d raw -o out
        [ "$status" -eq 7 ]
        [ "$stderr" = "fuel-convert: cannot write: out/mnist.hdf5: No space left on device" ]
    done
    FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="*/.fuel-staging-*" \
        LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        run --separate-stderr fuel fixture mnist --raw -o out
    [ "$status" -eq 7 ]
    [[ "$stderr" =~ ^"fuel-fixture: cannot write: out/"[a-z0-9-]+".gz: No space left on device"$ ]]
    [ -z "$(ls -A out)" ]
}

@test "preview on a full file system gives the cause" {
    mounted size=64k 'head -c 1M /dev/zero >out/filler 2>/dev/null
        fuel preview "$FUEL_FIXTURES/expected/cifar10.hdf5" -o out/grid.png 2>&1 >/dev/null'
    [ "$output" = "$(printf 'fuel-preview: cannot write: out/grid.png: No space left on device\nstatus 7')" ]
}

@test "download, fetch and cache leave no lock file behind, on success or failure, nor a folder they made" {
    mkdir raw
    run --separate-stderr fuel download iris -d raw --url-prefix file:///nonexist --retries 0
    [ "$status" -eq 5 ]
    [ -z "$(ls -A raw)" ]
    run --separate-stderr fuel fetch iris -d raw --url-prefix file:///nonexist --retries 0
    [ "$status" -eq 5 ]
    [ -z "$(ls -A raw)" ]
    for command in download fetch; do
        run --separate-stderr fuel $command iris -d raw/new/iris --url-prefix file:///nonexist --retries 0
        [ "$status" -eq 5 ]
        [ -z "$(ls -A raw)" ]
    done
    fuel fixture iris --raw -o served >/dev/null
    fuel download iris -d raw --url-prefix "file://$PWD/served/" -q
    [ "$(ls -A raw)" = iris.data ]
    mkdir local
    FUEL_DATA_PATH="$FUEL_FIXTURES/expected" FUEL_LOCAL_DATA_PATH="$PWD/local" fuel cache mnist.hdf5 >/dev/null
    [ "$(ls -A local)" = mnist.hdf5 ]
}

@test "an export that fails leaves no empty output directory it created" {
    SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"
    [ -f "$SHIM" ] || { echo "missing $SHIM: run make check"; false; }
    mkdir out
    FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="*/.fuel-staging-*" \
        LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        run --separate-stderr fuel export "$FUEL_FIXTURES/expected/mnist.hdf5" --to webdataset -o out/a/b
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-export: cannot write: out/a/b/test-000000.tar: No space left on device" ]
    [ -z "$(ls -A out)" ]
}

@test "download, pack and fixture --raw check the space first, name the output as given, leave no directory" {
    # download: the published sizes over the file size limit, refused before any transfer.
    run bash -c 'ulimit -f 2; fuel download mnist -d out/d --url-prefix file:///nonexist/ 2>&1; echo "status $?"'
    [ "$output" = "$(printf 'fuel-download: cannot write: out/d: needs a file of 9912422 bytes, over the file size limit of 2048 bytes (ulimit -f)\nstatus 7')" ]
    /usr/bin/python3 -c 'import numpy; numpy.save("a.npy", numpy.zeros((100, 100), numpy.uint8))'
    printf 'splits:\n  train: {examples: 100}\nsources:\n  features: {from: [a.npy]}\n' > a.yaml
    run bash -c 'ulimit -f 2; fuel pack a.yaml -o out/p 2>&1; echo "status $?"'
    [ "$output" = "$(printf 'fuel-pack: cannot write: out/p/a.hdf5: needs a file of 10000 bytes, over the file size limit of 2048 bytes (ulimit -f)\nstatus 7')" ]
    # fixture --raw: its files' floor (1,000 CIFAR examples of at least 1,024 bytes) refused first.
    run bash -c 'ulimit -f 20; fuel fixture cifar10 --raw -n 500 -o out/f 2>&1; echo "status $?"'
    [ "$output" = "$(printf 'fuel-fixture: cannot write: out/f: needs a file of 512000 bytes, over the file size limit of 20480 bytes (ulimit -f)\nstatus 7')" ]
    # Past the floor, the file being written, never its scratch (OUT/.batch, .digitStruct.mat).
    for dataset in cifar10:cifar-10-python.tar.gz:1000 "svhn 1:train.tar.gz:1000" \
        ilsvrc2012:ILSVRC2012_img_train.tar:600; do
        file=${dataset#*:}
        # Under make check-sanitize: HDF5 keeps what it allocated for a file whose close failed,
        # and libarchive in its fatal state does not free its 10,240-byte block buffer.
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
            run bash -c 'ulimit -f '"${file#*:}"'; fuel fixture '"${dataset%%:*}"' --raw -n 500 -o out/f 2>&1; echo "status $?"'
        file=${file%:*}
        [ "$output" = "$(printf 'fuel-fixture: cannot write: out/f/%s: File too large\nstatus 7' "$file")" ] || [[ "$output" == "fuel-fixture: cannot write archive: out/f/$file: "*": File too large"$'\n'"status 7" ]]
    done
    [ ! -e out ]
}

@test "fixture --raw checks the free space before it writes: exit 7 naming the directory, nothing left" {
    mounted size=1m 'fuel fixture cifar10 --raw -n 1000 -o out/f 2>&1; ls -A out'
    [[ "${lines[0]}" =~ ^"fuel-fixture: cannot write: out/f: needs 2048000 bytes, "[0-9]+" free"$ ]]
    [ "${lines[1]}" = "status 0" ]
    [ "${#lines[@]}" -eq 2 ]
}
