#!/usr/bin/env bats
# fuel fetch: download, convert and remove the raw files, into -d DIR or the first writable data
# path directory; idempotent; download options pass through.

bats_require_minimum_version 1.5.0

load ../helpers/download

PYTHON=/usr/bin/python3

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR
    DATA="$BATS_TEST_TMPDIR/data"
    mkdir -p "$HOME" "$DATA"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/absent:$DATA"
    RAW="$FUEL_FIXTURES/raw/mnist"
    RAW_SUMS="$BATS_TEST_TMPDIR/raw-sums"
    (cd "$RAW" && md5sum *) > "$RAW_SUMS"
}

teardown() {
    stop_server
}

# Asserts that DIR holds none of MNIST's raw files nor their .part files.
assert_no_raw_files() {
    for name in "${MNIST_FILES[@]}"; do
        [ ! -e "$1/$name" ]
        [ ! -e "$1/$name.part" ]
    done
}

# Asserts that FILE holds, value for value, what Python Fuel converted from the same raw fixture
# (EXPECTED, default mnist.hdf5), besides passing fuel-info --check.
assert_fuel_values() {
    run fuel-info --check "$1"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON "$HELPERS/compare_hdf5.py" "$1" "$FUEL_FIXTURES/expected/${2:-mnist.hdf5}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "fetch mnist: into the first writable data path directory, raw files removed" {
    SOURCE_DATE_EPOCH=1700000000 run --separate-stderr fuel fetch mnist --url-prefix "file://$RAW" --checksums "$RAW_SUMS"
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist.hdf5" ]
    assert_no_raw_files "$DATA"
    assert_fuel_values "$DATA/mnist.hdf5"
    # The same file fuel-convert writes from the same raw files.
    mkdir "$BATS_TEST_TMPDIR/converted"
    fuel-convert mnist -d "$RAW" -o "$BATS_TEST_TMPDIR/converted" > /dev/null
    $PYTHON "$HELPERS/compare_hdf5.py" "$BATS_TEST_TMPDIR/converted/mnist.hdf5" "$DATA/mnist.hdf5"
    run fuel-info "$DATA/mnist.hdf5" "$BATS_TEST_TMPDIR/converted/mnist.hdf5"
    [ "${lines[0]}" = "mnist.hdf5  mnist  train 12, test 2  features uint8, targets uint8  79cc629d7d12  2023-11-14T22:13:20Z" ]
}

@test "a second fetch does nothing and says so: no request reaches the server" {
    make_served_files
    cp "$RAW"/* "$SERVED/"
    start_server
    run --separate-stderr fuel fetch mnist --url-prefix "$URL" --checksums "$RAW_SUMS" -q
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$(requests /train-images-idx3-ubyte.gz | wc -l)" -eq 1 ]
    before=$(stat -c %Y.%i "$DATA/mnist.hdf5")
    run --separate-stderr fuel fetch mnist --url-prefix "$URL" --checksums "$RAW_SUMS" --json
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fetch: nothing to do: $DATA/mnist.hdf5 is there and passes fuel-info --check" ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d == {"name": "mnist", "path": sys.argv[1], "fetched": False}, d
' "$DATA/mnist.hdf5"
    [ "$(stat -c %Y.%i "$DATA/mnist.hdf5")" = "$before" ]
    [ "$(requests /train-images-idx3-ubyte.gz | wc -l)" -eq 1 ]
}

@test "--force makes a sound file again, using the raw files kept and verified" {
    make_served_files
    cp "$RAW"/* "$SERVED/"
    start_server
    run fuel fetch mnist --url-prefix "$URL" --checksums "$RAW_SUMS" --keep-raw -q
    [ "$status" -eq 0 ]
    before=$(stat -c %i "$DATA/mnist.hdf5")
    run --separate-stderr fuel fetch mnist --url-prefix "$URL" --checksums "$RAW_SUMS" --force \
        --json
    [ "$status" -eq 0 ]
    [[ "$stderr" == "fuel-fetch: --force: making $DATA/mnist.hdf5 again"* ]]
    [[ "$output" == *'"fetched": true'* ]]
    [ "$(stat -c %i "$DATA/mnist.hdf5")" != "$before" ]
    [ "$(requests /train-images-idx3-ubyte.gz | wc -l)" -eq 1 ]
    assert_no_raw_files "$DATA"
    assert_fuel_values "$DATA/mnist.hdf5"
}

@test "a converted file that fails --check is fetched again" {
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$DATA/mnist.hdf5"
    chmod u+w "$DATA/mnist.hdf5"
    $PYTHON -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r+")
rows = f.attrs["split"]
rows[0]["stop"] = 99
f.attrs["split"] = rows
' "$DATA/mnist.hdf5"
    run --separate-stderr fuel fetch mnist --url-prefix "file://$RAW" --checksums "$RAW_SUMS"
    [ "$status" -eq 0 ]
    [ "${stderr%%$'\n'*}" = "fuel-fetch: $DATA/mnist.hdf5 fails fuel-info --check: making it again" ]
    assert_fuel_values "$DATA/mnist.hdf5"
}

@test "a converted file so damaged that HDF5 faults reading it is fetched again" {
    # One byte of mnist.hdf5's global heap changed: HDF5 1.10 reads out of bounds on it.
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$DATA/mnist.hdf5"
    chmod u+w "$DATA/mnist.hdf5"
    printf '\x4c' | dd of="$DATA/mnist.hdf5" bs=1 seek=1038 conv=notrunc 2>/dev/null
    # The check's child dying of SIGSEGV inside libhdf5 is the case under test: under make
    # check-sanitize, AddressSanitizer must let it die rather than report it on stderr.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
        run --separate-stderr fuel fetch mnist --url-prefix "file://$RAW" --checksums "$RAW_SUMS"
    [ "$status" -eq 0 ]
    [ "${stderr%%$'\n'*}" = "fuel-fetch: $DATA/mnist.hdf5 fails fuel-info --check: making it again" ]
    [ "$output" = "$DATA/mnist.hdf5" ]
    assert_fuel_values "$DATA/mnist.hdf5"
}

@test "the mirror of FUEL_MIRROR or of the config's mirrors list is used" {
    FUEL_MIRROR="file://$RAW" run --separate-stderr fuel fetch mnist --checksums "$RAW_SUMS" -q
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist.hdf5" ]
    rm "$DATA/mnist.hdf5"
    printf 'mirrors:\n  - file://%s/absent/\n  - file://%s/\n' "$BATS_TEST_TMPDIR" "$RAW" \
        > "$FUEL_CONFIG"
    run --separate-stderr fuel fetch mnist --checksums "$RAW_SUMS" -q --retries 0
    [ "$status" -eq 0 ]
    assert_fuel_values "$DATA/mnist.hdf5"
}

@test "-d DIR, --keep-raw and a dataset option: mnist --dtype float32" {
    run --separate-stderr fuel-fetch mnist --dtype float32 -d "$BATS_TEST_TMPDIR/new/dir" --keep-raw \
        --url-prefix "file://$RAW" --checksums "$RAW_SUMS" -j 2 --retries 0 --timeout 5 --retry-delay 0
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/new/dir/mnist_float32.hdf5" ]
    for name in "${MNIST_FILES[@]}"; do
        cmp "$RAW/$name" "$BATS_TEST_TMPDIR/new/dir/$name"
    done
    [ ! -e "$DATA/mnist_float32.hdf5" ]
    assert_fuel_values "$output" mnist_float32.hdf5
}

@test "iris from a local HTTP server, checksum given as sha256" {
    make_served_files
    cp "$FUEL_FIXTURES/raw/iris/iris.data" "$SERVED/"
    (cd "$SERVED" && sha256sum iris.data) > "$BATS_TEST_TMPDIR/sha"
    start_server
    run --separate-stderr fuel fetch iris --url-prefix "$URL" --checksums "$BATS_TEST_TMPDIR/sha"
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/iris.hdf5" ]
    [ "$stderr" = "$(printf '%s\n' "$stderr" | grep '^iris.data: ')" ]
    [ ! -e "$DATA/iris.data" ]
    assert_fuel_values "$DATA/iris.hdf5" iris.hdf5
}

@test "a checksum mismatch: exit 6, no converted file, no raw file under its final name" {
    run --separate-stderr fuel fetch mnist --url-prefix "file://$RAW" -q -j 1
    [ "$status" -eq 6 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-fetch: size mismatch: train-images-idx3-ubyte.gz: expected 9912422 bytes, got 9447; other files on purpose? give their sums with --checksums FILE (fixtures), or convert files on disk with fuel convert -d DIR" ]
    [ ! -e "$DATA/mnist.hdf5" ]
    [ -z "$(ls -A "$DATA" | grep -v '^\.fuel-download\.lock$' | grep -v '\.part$')" ]
}

@test "Debian's Fashion-MNIST: verified by content, converted to the values a direct convert gives" {
    debian=/usr/share/datasets/fashion-mnist
    run --separate-stderr fuel fetch fashion_mnist --url-prefix "file://$debian/"
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/fashion_mnist.hdf5" ]
    [ "$(grep -c '^[a-z0-9-]*-ubyte.gz: verified by content: other bytes than published, the same [0-9]* bytes once decompressed (sha256 [0-9a-f]*)$' <<< "$stderr")" -eq 4 ]
    grep -qxF "train-images-idx3-ubyte.gz: verified by content: other bytes than published, the same 47040016 bytes once decompressed (sha256 $(zcat "$debian/train-images-idx3-ubyte.gz" | sha256sum | cut -d' ' -f1))" <<< "$stderr"
    assert_no_raw_files "$DATA"
    mkdir "$BATS_TEST_TMPDIR/direct"
    fuel-convert fashion_mnist -d "$debian" -o "$BATS_TEST_TMPDIR/direct" > /dev/null
    $PYTHON "$HELPERS/compare_hdf5.py" "$BATS_TEST_TMPDIR/direct/fashion_mnist.hdf5" "$DATA/fashion_mnist.hdf5"
}

@test "--url-prefix DIR without file://, relative or absolute" {
    cd "$RAW/.."
    run --separate-stderr fuel fetch mnist --url-prefix mnist --checksums "$RAW_SUMS" -q
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist.hdf5" ]
    assert_fuel_values "$DATA/mnist.hdf5"
    run --separate-stderr fuel fetch mnist --dtype float32 --url-prefix "$RAW/" --checksums "$RAW_SUMS" -q
    [ "$status" -eq 0 ]
    [ "$output" = "$DATA/mnist_float32.hdf5" ]
    assert_fuel_values "$DATA/mnist_float32.hdf5" mnist_float32.hdf5
}

@test "no network: a host that does not resolve fails in seconds, one line, exit 5" {
    SECONDS=0
    run --separate-stderr timeout 20 fuel fetch iris --url-prefix http://nohost.invalid/
    [ "$status" -eq 5 ]
    [ "$SECONDS" -lt 5 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-fetch: cannot download: iris.data: cannot resolve host nohost.invalid; no network? for files on disk give --url-prefix file://DIR/" ]
    [ ! -e "$DATA/iris.hdf5" ]
}

@test "a server that refuses connections: exit 5" {
    run --separate-stderr fuel fetch iris --url-prefix "http://127.0.0.1:9" --retries 0 --timeout 2 -q
    [ "$status" -eq 5 ]
    [[ "$stderr" == "fuel-fetch: "* ]]
    [ ! -e "$DATA/iris.hdf5" ]
}

@test "no writable directory in the data path: exit 7 saying to give -d" {
    unset FUEL_DATA_PATH
    run --separate-stderr fuel fetch iris --url-prefix "file://$FUEL_FIXTURES/raw/iris"
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-fetch: no writable directory in the data path: iris: give -d DIR, or set data_path in $FUEL_CONFIG or FUEL_DATA_PATH" ]
}

@test "usage errors exit 2 with one line; -h prints the usage" {
    run --separate-stderr fuel fetch
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: missing dataset name; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch nosuch
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: unknown dataset: nosuch; datasets: adult, binarized_mnist, caltech101_silhouettes, celeba, cifar10, cifar100, dogs_vs_cats, fashion_mnist, ilsvrc2010, ilsvrc2012, iris, mnist, svhn" ]
    run --separate-stderr fuel fetch svhn
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: svhn needs a format, 1 or 2: none given; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch svhn 3
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: svhn needs a format, 1 or 2: 3; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch mnist --dtype int7
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: invalid --dtype: int7; expected one of uint8, float32, float64, bool" ]
    run --separate-stderr fuel fetch mnist --bogus 1
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: unknown option: --bogus; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch mnist -j 0
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: invalid -j: 0: expected a whole number from 1 to 64; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch mnist -d
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: option -d needs a value; see 'fuel-fetch -h'" ]
    run fuel fetch -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-fetch [-h] NAME [FORMAT]"* ]]
    [[ "$output" == *"
datasets:
"*"
  mnist                      handwritten digits"* ]]
}

@test "raw files that do not convert: exit 4, raw files kept for a later run, no HDF5 file" {
    mkdir "$BATS_TEST_TMPDIR/served"
    printf 'not,an,iris,row\n' > "$BATS_TEST_TMPDIR/served/iris.data"
    (cd "$BATS_TEST_TMPDIR/served" && md5sum iris.data) > "$BATS_TEST_TMPDIR/iris-sums"
    run --separate-stderr fuel fetch iris --url-prefix "file://$BATS_TEST_TMPDIR/served" \
        --checksums "$BATS_TEST_TMPDIR/iris-sums" -q
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-fetch: "*"iris.data"* ]]
    cmp "$BATS_TEST_TMPDIR/served/iris.data" "$DATA/iris.data"
    [ ! -e "$DATA/iris.hdf5" ]
    [ -z "$(find "$DATA" -name '.fuel-staging-*')" ]
}

@test "concurrent fetches: one makes the file, the other waits and finds it there" {
    for index in 1 2 3; do
        fuel fetch mnist --url-prefix "file://$RAW" --checksums "$RAW_SUMS" \
            > "$BATS_TEST_TMPDIR/out.$index" 2> "$BATS_TEST_TMPDIR/err.$index" 3>&- &
        pids[$index]=$!
    done
    for index in 1 2 3; do
        wait_bounded "${pids[$index]}"
        [ "$(cat "$BATS_TEST_TMPDIR/out.$index")" = "$DATA/mnist.hdf5" ]
    done
    [ "$(cat "$BATS_TEST_TMPDIR"/err.* | grep -c '^fuel-fetch: nothing to do: ')" -eq 2 ]
    [ "$(cat "$BATS_TEST_TMPDIR"/err.* | grep -c '^train-images-idx3-ubyte.gz: ')" -eq 1 ]
    assert_no_raw_files "$DATA"
    assert_fuel_values "$DATA/mnist.hdf5"
}
