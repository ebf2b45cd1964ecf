#!/usr/bin/env bats
# The conversion's progress line: on a terminal (script(1) gives the command one), fuel-convert
# and the conversion inside fuel-fetch redraw one line on stderr with the dataset, the input,
# the examples done of the total and the rate; nothing with -q, nothing when stderr is not a
# terminal, never anything on stdout.

bats_require_minimum_version 1.5.0

setup() {
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    TYPESCRIPT="$BATS_TEST_TMPDIR/typescript"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
}

# on_terminal COMMAND: runs COMMAND (a shell line, its stdout sent to $OUT/stdout) with a
# terminal for stderr; the terminal's bytes land in $TYPESCRIPT without script's own lines.
on_terminal() {
    script -qec "$1 > $OUT/stdout" "$BATS_TEST_TMPDIR/raw-typescript" > /dev/null
    # script ends the session with a newline of its own before its closing line.
    sed '1d;$d' "$BATS_TEST_TMPDIR/raw-typescript" | head -c -1 | tr -d '\r' > "$TYPESCRIPT"
}

@test "svhn 1 on a terminal: one line per stage redrawn in place, the path alone on stdout" {
    raw="$FUEL_FIXTURES/raw/svhn1"
    on_terminal "fuel-convert svhn 1 -d $raw -o $OUT"
    [ "$(cat "$OUT/stdout")" = "$OUT/svhn_format_1.hdf5" ]
    # The first drawing: the first stage, nothing done yet; the images of train come later.
    [ "$(head -n 1 "$TYPESCRIPT")" = "svhn 1: $raw/train.tar.gz: looking for train/digitStruct.mat  0 of ?  0 examples/s"$'\033[K' ]
    grep -qF "svhn 1: $raw/train.tar.gz  0 of 12 examples   0%  0 examples/s" "$TYPESCRIPT"
    # Each redraw goes back up over the line before and clears it.
    grep -qF $'\033[1A\033[J' "$TYPESCRIPT"
    # The line is cleared at the end: the last thing written is the clearing sequence.
    [ "$(tail -c 8 "$TYPESCRIPT" | od -An -c | tr -d ' \n')" = '\n033[1A033[J' ]
}

@test "mnist on a terminal names the images stage with its total" {
    on_terminal "fuel-convert mnist -d $FUEL_FIXTURES/raw/mnist -o $OUT --threads 2"
    grep -qF "mnist: images  0 of 14 examples" "$TYPESCRIPT"
    [ "$(cat "$OUT/stdout")" = "$OUT/mnist.hdf5" ]
}

@test "-q on a terminal draws nothing" {
    on_terminal "fuel-convert svhn 1 -d $FUEL_FIXTURES/raw/svhn1 -o $OUT -q"
    [ ! -s "$TYPESCRIPT" ]
    [ "$(cat "$OUT/stdout")" = "$OUT/svhn_format_1.hdf5" ]
}

@test "stderr not a terminal: nothing drawn" {
    run --separate-stderr fuel-convert svhn 1 -d "$FUEL_FIXTURES/raw/svhn1" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/svhn_format_1.hdf5" ]
    [ -z "$stderr" ]
}

@test "fuel-fetch on a terminal draws the conversion too, and nothing with -q" {
    raw="$FUEL_FIXTURES/raw/mnist"
    (cd "$raw" && md5sum *) > "$BATS_TEST_TMPDIR/sums"
    on_terminal "fuel-fetch mnist -d $OUT/data --url-prefix file://$raw --checksums $BATS_TEST_TMPDIR/sums"
    grep -qF "mnist: images  0 of 14 examples" "$TYPESCRIPT"
    [ "$(cat "$OUT/stdout")" = "$OUT/data/mnist.hdf5" ]
    rm -r "$OUT/data"
    on_terminal "fuel-fetch mnist -d $OUT/data --url-prefix file://$raw --checksums $BATS_TEST_TMPDIR/sums -q"
    [ ! -s "$TYPESCRIPT" ]
    [ "$(cat "$OUT/stdout")" = "$OUT/data/mnist.hdf5" ]
}
