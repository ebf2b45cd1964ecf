#!/usr/bin/env bats
# fuel-convert under failure: kill -9 at random points, SIGINT/SIGTERM/SIGHUP mid-conversion, a
# full file system, a file size limit, and eight conversions racing into one output path. Uses
# Debian's Fashion-MNIST (70,000 images, long enough to be interrupted anywhere).

load ../helpers/processes

FASHION=/usr/share/datasets/fashion-mnist
PYTHON=/usr/bin/python3

setup() {
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    # Byte-identical outputs from run to run, so "the previous file intact" is a cmp.
    export SOURCE_DATE_EPOCH=1700000000
}

# A test that failed midway leaves no conversion or cleaner loop running.
teardown() {
    touch "$BATS_TEST_TMPDIR/stop"
    stop_jobs
}

temporaries() {
    find "$1" -maxdepth 1 -name '.fuel-staging-mnist.hdf5.*' | sort
}

# The file loads as H5PYDataset expects: both splits, all examples.
assert_valid() {
    fuel-info "$1" >/dev/null
    $PYTHON - "$1" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert f["features"].shape == (70000, 1, 28, 28), f["features"].shape
    assert f["targets"].shape == (70000, 1)
    assert len(f.attrs["split"]) == 4
PY
}

@test "kill -9 at 25 random points never leaves a partial file under the final name" {
    fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    start=$(date +%s%N)
    fuel-convert mnist -d "$FASHION" -o "$BATS_TEST_TMPDIR" -r timing >/dev/null
    duration_ms=$(( ($(date +%s%N) - start) / 1000000 + 50 ))
    killed=0
    for round in $(seq 1 25); do
        fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null 2>&1 3>&- &
        pid=$!
        delay_ms=$(( RANDOM % duration_ms ))
        sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
        kill -9 "$pid" 2>/dev/null || true
        status=0
        wait_bounded "$pid" 2>/dev/null || status=$?
        [ "$status" -eq 0 ] || [ "$status" -eq 137 ]
        [ "$status" -eq 0 ] || killed=$((killed + 1))
        # Under the final name: the previous file, or a complete new one (identical bytes).
        cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
        [ "$(find "$OUT" -mindepth 1 -maxdepth 1 ! -name '.fuel-staging-mnist.hdf5.*' | wc -l)" -eq 1 ]
    done
    echo "# $killed of 25 runs killed while running" >&3
    [ "$killed" -ge 10 ]
    assert_valid "$OUT/mnist.hdf5"
    # What the killed runs left is named .fuel-staging-mnist.hdf5.XXXXXX, and fuel clean removes
    # exactly that.
    left=$(temporaries "$OUT" | wc -l)
    [ "$left" -ge 1 ]
    run fuel clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq "$left" ]
    [[ "${lines[0]}" == "removed $OUT/.fuel-staging-mnist.hdf5."?????? ]]
    [ -z "$(temporaries "$OUT")" ]
    cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
}

# Starts fuel-convert mnist into $OUT in the background as $pid, with the default action for
# SIGINT, SIGTERM and SIGHUP (a script's background job would otherwise ignore SIGINT).
convert_in_background() {
    $PYTHON -c 'import os, signal, sys
for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null 2>&1 3>&- &
    pid=$!
}

@test "SIGINT, SIGTERM or SIGHUP mid-conversion: the temporary goes, the previous file stays" {
    fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    for signal in INT TERM HUP; do
        convert_in_background
        for _ in $(seq 2000); do
            [ -n "$(temporaries "$OUT")" ] && break
            sleep 0.002
        done
        kill -STOP "$pid"
        # Stopped while converting: the temporary is there, not yet renamed.
        [ -n "$(temporaries "$OUT")" ]
        kill -"$signal" "$pid"
        kill -CONT "$pid"
        status=0
        wait_bounded "$pid" || status=$?
        [ "$status" -eq $((128 + $(kill -l "$signal"))) ]
        [ -z "$(temporaries "$OUT")" ]
        [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
        cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    done
}

@test "a full file system: exit 7 naming ENOSPC, temporary removed, previous file intact" {
    command -v unshare >/dev/null
    fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    # A 24 MiB tmpfs in a private mount namespace (a user namespace when not root): room enough
    # for the check before writing (half the inputs' bytes), not for the 55 MB output. The
    # previous file is copied in first and must survive.
    run unshare -rm bash -c '
        mount -t tmpfs -o size=24m tmpfs "$1" || exit 90
        head -c 4000000 "$2" > "$1/mnist.hdf5"
        fuel-convert mnist -d "$3" -o "$1"
        echo "status $?"
        ls -A "$1"
        cmp <(head -c 4000000 "$2") "$1/mnist.hdf5" && echo intact' _ "$OUT" \
        "$BATS_TEST_TMPDIR/previous.hdf5" "$FASHION"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "fuel-convert: cannot write: $OUT/"*": No space left on device" ]]
    [ "${lines[1]}" = "status 7" ]
    [ "${lines[2]}" = "mnist.hdf5" ]
    [ "${lines[3]}" = "intact" ]
    [ "${#lines[@]}" -eq 4 ]
    # 8 MiB: refused before anything is written, naming what it needs.
    run unshare -rm bash -c '
        mount -t tmpfs -o size=8m tmpfs "$1" || exit 90
        fuel-convert mnist -d "$2" -o "$1"
        echo "status $?"
        ls -A "$1"' _ "$OUT" "$FASHION"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "fuel-convert: cannot write: $OUT/mnist.hdf5: needs "*" bytes, "*" free" ]]
    [ "${lines[1]}" = "status 7" ]
    [ "${#lines[@]}" -eq 2 ]
}

@test "a file size limit (ulimit -f): exit 7 naming EFBIG, not SIGXFSZ; temporary removed" {
    run bash -c 'ulimit -f 20000; fuel-convert mnist -d "$1" -o "$2"' _ "$FASHION" "$OUT"
    [ "$status" -eq 7 ]
    [[ "$output" == "fuel-convert: cannot write: $OUT/"*": File too large" ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "8 concurrent conversions into one output path all succeed and leave one valid file" {
    pids=()
    for index in $(seq 1 8); do
        fuel-convert mnist -d "$FASHION" -o "$OUT" > "$BATS_TEST_TMPDIR/stdout.$index" \
            2> "$BATS_TEST_TMPDIR/stderr.$index" 3>&- &
        pids+=($!)
    done
    for index in $(seq 1 8); do
        wait_bounded "${pids[$((index - 1))]}"
        [ "$(cat "$BATS_TEST_TMPDIR/stdout.$index")" = "$OUT/mnist.hdf5" ]
        [ ! -s "$BATS_TEST_TMPDIR/stderr.$index" ]
    done
    [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
    assert_valid "$OUT/mnist.hdf5"
}

@test "fuel clean looping beside 8 concurrent conversions never removes a live temporary" {
    ( while [ ! -e "$BATS_TEST_TMPDIR/stop" ]; do
          fuel-clean -d "$OUT" >> "$BATS_TEST_TMPDIR/cleaned" || echo "clean failed: $?"
      done ) > "$BATS_TEST_TMPDIR/cleaner" 2>&1 3>&- &
    cleaner=$!
    pids=()
    for index in $(seq 1 8); do
        fuel-convert mnist -d "$FASHION" -o "$OUT" > /dev/null 2> "$BATS_TEST_TMPDIR/stderr.$index" 3>&- &
        pids+=($!)
    done
    failed=0
    for pid in "${pids[@]}"; do
        wait_bounded "$pid" || failed=$((failed + 1))
    done
    touch "$BATS_TEST_TMPDIR/stop"
    wait_bounded "$cleaner"
    cat "$BATS_TEST_TMPDIR"/stderr.* >&2
    # A temporary caught between mkostemp and its lock may go (its writer takes another name);
    # a locked one never: every conversion succeeds.
    [ "$failed" -eq 0 ]
    [ ! -s "$BATS_TEST_TMPDIR/cleaner" ]
    [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
    assert_valid "$OUT/mnist.hdf5"
}

@test "signals while the handler cleans up: nothing is left behind, the previous file stays" {
    fuel-convert mnist -d "$FASHION" -o "$OUT" >/dev/null
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    # Each unlink in the staging directory takes 150 ms: the signals after the first arrive while
    # its handler is removing the temporary, as a second SIGTERM of timeout(1) or Ctrl-C may.
    export LD_PRELOAD="$BUILD/tests/slow_unlink.so" SLOW_UNLINK_MS=150
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
    export SLOW_UNLINK_PATH="$OUT/.fuel-staging-mnist.hdf5.*/*"
    for signals in "TERM TERM TERM INT TERM" "INT INT TERM INT INT" "TERM HUP TERM INT TERM"; do
        convert_in_background
        for _ in $(seq 2000); do
            [ -n "$(temporaries "$OUT")" ] && break
            sleep 0.002
        done
        for signal in $signals; do
            kill -"$signal" "$pid" 2>/dev/null || break
            sleep 0.03
        done
        status=0
        wait_bounded "$pid" || status=$?
        first=${signals%% *}
        [ "$status" -eq $((128 + $(kill -l "$first"))) ] || { echo "$signals: exit $status"; false; }
        [ -z "$(temporaries "$OUT")" ] || { echo "$signals: left $(temporaries "$OUT")"; false; }
        [ "$(ls -A "$OUT")" = "mnist.hdf5" ]
        cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    done
}
