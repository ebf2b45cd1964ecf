#!/usr/bin/env bats
# Durability under I/O faults: fsync, rename and write made to fail (EIO, ENOSPC) by the LD_PRELOAD
# shim tests/helpers/fail_io.c while fuel-convert publishes and fuel-download downloads: exit 7,
# one line naming the error, the previous file intact byte for byte, no temporary left; and the
# fsync calls that make a publication durable, seen in the shim's log.

bats_require_minimum_version 1.5.0

load ../helpers/download

SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"

setup() {
    [ -f "$SHIM" ] || { echo "missing $SHIM: run make check"; false; }
    RAW="$FUEL_FIXTURES/raw/mnist"
    OUT="$BATS_TEST_TMPDIR/out"
    LOG="$BATS_TEST_TMPDIR/io.log"
    mkdir -p "$OUT"
}

teardown() {
    stop_server
}

# Runs "$@" with the shim preloaded; FAIL_IO_* variables set by the caller choose the faults.
faulty() {
    LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}

# A good mnist.hdf5 in $OUT and a copy of it aside, to compare with after a failed run.
previous_conversion() {
    fuel-convert mnist -d "$RAW" -o "$OUT" > /dev/null
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
}

# Asserts that the last run exited 7 with the one line MESSAGE, and left $OUT as it was.
refused_and_intact() {
    [ "$status" -eq 7 ] || { echo "exit $status: $stderr"; false; }
    [ -z "$output" ]
    [ "$stderr" = "$1" ]
    cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    [ "$(ls -A "$OUT")" = mnist.hdf5 ]
}

@test "publishing: fsync of the temporary failing (EIO, ENOSPC) exits 7 and keeps the previous file" {
    previous_conversion
    FAIL_IO_CALLS=fsync FAIL_IO_PATH="$OUT/.fuel-staging-mnist.hdf5.*/mnist.hdf5" \
        run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
    refused_and_intact "fuel-convert: cannot write: $OUT/mnist.hdf5: Input/output error"
    FAIL_IO_CALLS=fsync FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="$OUT/.fuel-staging-mnist.hdf5.*/mnist.hdf5" \
        run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
    refused_and_intact "fuel-convert: cannot write: $OUT/mnist.hdf5: No space left on device"
}

@test "publishing: the rename failing exits 7, keeps the previous file and removes the temporary" {
    previous_conversion
    FAIL_IO_CALLS=rename FAIL_IO_PATH="$OUT/.fuel-staging-mnist.hdf5.*/mnist.hdf5" \
        run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
    refused_and_intact "fuel-convert: cannot write: $OUT/mnist.hdf5: Input/output error"
}

@test "publishing: writes failing at once or midway (ENOSPC, EIO) exit 7 and keep the previous file" {
    previous_conversion
    for after in 0 3; do
        for number in ENOSPC EIO; do
            rm -f "$LOG"
            FAIL_IO_CALLS=write FAIL_IO_AFTER=$after FAIL_IO_ERRNO=$number \
                FAIL_IO_PATH="$OUT/.fuel-staging-mnist.hdf5.*/mnist.hdf5" FAIL_IO_LOG="$LOG" \
                run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
            [ "$status" -eq 7 ] || { echo "after $after, $number: exit $status: $stderr"; false; }
            [ -z "$output" ]
            [ "${#stderr_lines[@]}" -eq 1 ]
            [[ "$stderr" == "fuel-convert: cannot write: $OUT/"*": $(errno_text "$number")" ]]
            cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
            [ "$(ls -A "$OUT")" = mnist.hdf5 ]
            # The fault was met on the temporary.
            grep -q "^write $OUT/\.fuel-staging-mnist\.hdf5\.[A-Za-z0-9]\{6\}/mnist\.hdf5 failed$" "$LOG"
        done
    done
}

@test "publishing with no previous file: a failing fsync leaves nothing under the final name" {
    FAIL_IO_CALLS=fsync FAIL_IO_PATH="$OUT/.fuel-staging-mnist.hdf5.*/mnist.hdf5" \
        run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-convert: cannot write: $OUT/mnist.hdf5: Input/output error" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "publishing fsyncs the temporary before renaming it over the final name, then the directory" {
    FAIL_IO_LOG="$LOG" run --separate-stderr faulty fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/mnist.hdf5" ]
    temporary=$(sed -n "s|^rename \($OUT/\.fuel-staging-mnist\.hdf5\.[A-Za-z0-9]\{6\}/mnist\.hdf5\) $OUT/mnist.hdf5 ok$|\1|p" "$LOG")
    [ -n "$temporary" ] || { cat "$LOG"; false; }
    order=$(grep -n -e "^fsync $temporary ok$" -e "^rename $temporary " -e "^fsync $OUT ok$" "$LOG" |
        sed 's/ .*//' | tr '\n' ' ')
    [[ "$order" =~ ^[0-9]+:fsync\ [0-9]+:rename\ [0-9]+:fsync\ $ ]] || { cat "$LOG"; false; }
}

# The text strerror gives for NUMBER (EIO or ENOSPC).
errno_text() {
    case "$1" in
        EIO) echo "Input/output error" ;;
        ENOSPC) echo "No space left on device" ;;
    esac
}

# Serves a 9,000,000-byte iris.data (more than two 4 MiB rings of the download pipeline, so more
# than one write); $TARGET holds an older iris.data, kept aside for comparison.
serve_iris() {
    make_served_files
    head -c 9000000 /dev/urandom > "$SERVED/iris.data"
    (cd "$SERVED" && md5sum iris.data) > "$SUMS"
    start_server
    mkdir -p "$TARGET"
    echo "an older iris.data" > "$TARGET/iris.data"
    cp "$TARGET/iris.data" "$BATS_TEST_TMPDIR/previous.data"
}

download_iris() {
    fuel-download iris -d "$TARGET" --url-prefix "$URL" --checksums "$SUMS" --retries 0 \
        --retry-delay 0.05 --timeout 5
}

# Asserts that the last run exited 7 with the one line MESSAGE and kept the older iris.data.
download_refused() {
    [ "$status" -eq 7 ] || { echo "exit $status: $stderr"; false; }
    [ "${#stderr_lines[@]}" -eq 1 ]
    [ "$stderr" = "$1" ]
    cmp "$TARGET/iris.data" "$BATS_TEST_TMPDIR/previous.data"
}

# Asserts that $TARGET holds only a served iris.data, after a run without faults.
download_completes() {
    run --separate-stderr download_iris
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    cmp "$SERVED/iris.data" "$TARGET/iris.data"
    [ "$(ls -A "$TARGET" | tr '\n' ' ')" = "iris.data " ]
}

@test "download: fsync of the .part failing (EIO, ENOSPC) exits 7, keeps the older file, drops the .part" {
    serve_iris
    for number in EIO ENOSPC; do
        FAIL_IO_CALLS=fsync FAIL_IO_ERRNO=$number FAIL_IO_PATH="$TARGET/iris.data.part" \
            run --separate-stderr faulty download_iris
        download_refused "fuel-download: cannot write: $TARGET/iris.data.part: $(errno_text "$number")"
        # Pages a failed fsync could not write may be gone: the .part is not kept for a resume.
        [ ! -e "$TARGET/iris.data.part" ]
    done
    download_completes
}

@test "download: the rename failing exits 7, keeps the older file and a verified .part to publish" {
    serve_iris
    FAIL_IO_CALLS=rename FAIL_IO_PATH="$TARGET/iris.data.part" \
        run --separate-stderr faulty download_iris
    download_refused "fuel-download: cannot rename: $TARGET/iris.data.part: Input/output error"
    cmp "$SERVED/iris.data" "$TARGET/iris.data.part"
    download_completes
    [[ "$stderr" == *"iris.data: completed from its verified .part"* ]]
}

@test "download: writes failing at once or midway exit 7, keep the older file, no empty .part" {
    serve_iris
    FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="$TARGET/iris.data.part" \
        run --separate-stderr faulty download_iris
    download_refused "fuel-download: cannot write: $TARGET/iris.data.part: No space left on device"
    [ ! -e "$TARGET/iris.data.part" ]
    FAIL_IO_CALLS=write FAIL_IO_AFTER=1 FAIL_IO_PATH="$TARGET/iris.data.part" \
        run --separate-stderr faulty download_iris
    download_refused "fuel-download: cannot write: $TARGET/iris.data.part: Input/output error"
    # What was written is a prefix of the file, for the next run to resume from.
    size=$(stat -c %s "$TARGET/iris.data.part")
    [ "$size" -gt 0 ]
    [ "$size" -lt 9000000 ]
    cmp -n "$size" "$SERVED/iris.data" "$TARGET/iris.data.part"
    download_completes
}

@test "download fsyncs the .part before renaming it over the final name, then the directory" {
    serve_iris
    FAIL_IO_LOG="$LOG" run --separate-stderr faulty download_iris
    [ "$status" -eq 0 ]
    cmp "$SERVED/iris.data" "$TARGET/iris.data"
    order=$(grep -n -e "^fsync $TARGET/iris.data.part ok$" \
        -e "^rename $TARGET/iris.data.part $TARGET/iris.data ok$" -e "^fsync $TARGET ok$" "$LOG" |
        sed 's/ .*//' | tr '\n' ' ')
    [[ "$order" =~ ^[0-9]+:fsync\ [0-9]+:rename\ [0-9]+:fsync\ $ ]] || { cat "$LOG"; false; }
}
