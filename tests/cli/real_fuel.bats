#!/usr/bin/env bats
# Python Fuel's own converters (fuel-convert, run from the source trees FUEL_PYTHON_PATH names, by
# tests/helpers/real_fuel_convert.py) accept every dataset's raw fixture at the smallest counts
# fuel fixture takes and at its defaults; with --quirks, dogs_vs_cats is the file Fuel cannot read.
# Without FUEL_PYTHON_PATH (Fuel is not a Debian package) each test says it skipped and why.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    [ -n "${FUEL_PYTHON_PATH:-}" ] ||
        skip "FUEL_PYTHON_PATH names no Python Fuel source tree (e.g. fuel:picklable-itertools)"
    RAW="$BATS_TEST_TMPDIR/raw"
    OUT="$BATS_TEST_TMPDIR/out"
}

# accepted NAME [FORMAT] -- [FIXTURE OPTION...]: Fuel converts `fuel fixture NAME [FORMAT] --raw
# OPTIONS` output, and its H5PYDataset opens each split of the file with the counts fuel-convert's file has.
accepted() {
    local words=() options=() expected
    while [ "$1" != -- ]; do words+=("$1"); shift; done
    shift
    options=("$@")
    rm -rf "$RAW" "$OUT"
    mkdir -p "$RAW" "$OUT"
    fuel-fixture "${words[@]}" --raw -o "$RAW" "${options[@]}" > /dev/null
    run --separate-stderr timeout 120 $PYTHON tests/helpers/real_fuel_convert.py "$RAW" "$OUT" \
        "${words[@]}"
    [ "$status" -ne 77 ] || skip "$stderr"
    [ "$status" -eq 0 ] || { echo "fuel fixture ${words[*]} --raw ${options[*]}: $stderr" | tail -3; false; }
    rm -rf "$BATS_TEST_TMPDIR/fuel"
    mkdir -p "$BATS_TEST_TMPDIR/fuel"
    expected=$(fuel-convert "${words[@]}" -d "$RAW" -o "$BATS_TEST_TMPDIR/fuel" |
        xargs fuel-info --json | $PYTHON -c '
import json, sys
counts = {}
for row in json.load(sys.stdin)["split_rows"]:
    if row["available"]:
        counts[row["split"]] = max(counts.get(row["split"], 0), row["count"])
for split, count in counts.items():
    print(split, count)')
    [ "$(echo "$output" | sed -n 's/^[^ :]*\.hdf5: \([^:]*\): \([0-9]*\) examples.*/\1 \2/p' | sort)" = \
        "$(echo "$expected" | sort)" ] || { echo "Fuel: $output; fuel: $expected"; false; }
}

@test "mnist" { accepted mnist -- -n 1; accepted mnist -- -n train=3,test=2; }
@test "fashion_mnist" { accepted fashion_mnist -- -n 1; }
@test "binarized_mnist" { accepted binarized_mnist -- -n 1; accepted binarized_mnist --; }
@test "cifar10" { accepted cifar10 -- -n 1; accepted cifar10 -- -n train=7,test=2; }
@test "cifar100" { accepted cifar100 -- -n 1; accepted cifar100 --; }
@test "iris: its fewest (2 lines)" { accepted iris -- -n 2; accepted iris --; }
@test "svhn 1" { accepted svhn 1 -- -n 1; accepted svhn 1 --; }
@test "svhn 2" { accepted svhn 2 -- -n 1; accepted svhn 2 --; }
@test "caltech101_silhouettes 16" {
    accepted caltech101_silhouettes 16 -- -n 1
    accepted caltech101_silhouettes 16 --
}
@test "caltech101_silhouettes 28" { accepted caltech101_silhouettes 28 -- -n 1; }
@test "adult: its fewest (41 train, 40 test) and its default" {
    accepted adult -- -n train=41,test=40
    accepted adult --
    accepted adult -- -n train=60,test=45 --seed 5
}
@test "ilsvrc2010: its fewest (2 valid, 2 test ground truth lines)" {
    accepted ilsvrc2010 -- -n train=1,valid=2,test=2
    accepted ilsvrc2010 -- -n 5
}
@test "ilsvrc2012: its fewest (2 valid ground truth lines)" {
    accepted ilsvrc2012 -- -n train=1,valid=2,test=1
    accepted ilsvrc2012 --
}
@test "celeba aligned_cropped" { accepted celeba aligned_cropped -- -n 1; accepted celeba aligned_cropped -- -n 12; }
@test "celeba 64" { accepted celeba 64 -- -n 1; accepted celeba 64 --; }
@test "dogs_vs_cats: RGB by default" {
    accepted dogs_vs_cats -- -n 1
    accepted dogs_vs_cats -- -n 12
}

@test "dogs_vs_cats --quirks: the grayscale member Python Fuel's converter cannot transpose" {
    mkdir -p "$RAW" "$OUT"
    fuel-fixture dogs_vs_cats --raw --quirks -n 2 -o "$RAW" > /dev/null
    run --separate-stderr timeout 120 $PYTHON tests/helpers/real_fuel_convert.py "$RAW" "$OUT" dogs_vs_cats
    [ "$status" -eq 1 ]
    [ "${stderr##*$'\n'}" = "ValueError: axes don't match array" ]
}
