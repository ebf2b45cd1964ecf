#!/usr/bin/env bats
# gzip as gzip reads it, in every reader of gzip data (IDX files, tar.gz archives): concatenated
# members and trailing zeros are read; trailing garbage, a wrong CRC-32 or ISIZE, a cut member are
# exit 4 naming the file (common/formats/inflate.h says what gzip does with each).

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    OUT="$BATS_TEST_TMPDIR/out"
    RAW="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$RAW"
}

# variant MODE DATASET FILE: copies DATASET's fixture to $RAW with FILE rewritten by gzip_variant.py.
variant() {
    cp "$FUEL_FIXTURES/raw/$2"/* "$RAW/"
    $PYTHON tests/helpers/gzip_variant.py "$1" "$FUEL_FIXTURES/raw/$2/$3" "$RAW/$3"
}

matches_fuel() {
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/$1.hdf5" "$EXPECTED/$1.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

nothing_written() {
    [ -z "$(ls -A "$OUT")" ] || { ls -la "$OUT"; false; }
}

@test "IDX files of several gzip members followed by zeros are read whole, as gzip -dc reads them" {
    cp "$FUEL_FIXTURES/raw/mnist"/* "$RAW/"
    for file in "$RAW"/*.gz; do
        $PYTHON tests/helpers/gzip_variant.py members "$FUEL_FIXTURES/raw/mnist/${file##*/}" "$file"
    done
    run gzip -t "$RAW/train-images-idx3-ubyte.gz"
    [ "$status" -eq 0 ]
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    matches_fuel mnist
}

# refused DATASET FILE MESSAGE: fuel-convert exits 4 with MESSAGE and writes nothing.
refused() {
    run fuel-convert "$1" -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: $2" ]
    nothing_written
}

@test "an IDX file with trailing garbage is refused (gzip: decompression OK, trailing garbage ignored, exit 2)" {
    variant garbage mnist train-images-idx3-ubyte.gz
    run gzip -t "$RAW/train-images-idx3-ubyte.gz"
    [ "$status" -eq 2 ]
    refused mnist "cannot read IDX data: $RAW/train-images-idx3-ubyte.gz: trailing garbage after the gzip data"
}

@test "an IDX file with a wrong CRC-32 is refused" {
    variant crc mnist t10k-labels-idx1-ubyte.gz
    run gzip -t "$RAW/t10k-labels-idx1-ubyte.gz"
    [ "$status" -eq 1 ]
    refused mnist "cannot read IDX data: $RAW/t10k-labels-idx1-ubyte.gz: invalid compressed data--crc error"
}

@test "an IDX file with a wrong ISIZE is refused" {
    variant length mnist train-labels-idx1-ubyte.gz
    run gzip -t "$RAW/train-labels-idx1-ubyte.gz"
    [ "$status" -eq 1 ]
    refused mnist "cannot read IDX data: $RAW/train-labels-idx1-ubyte.gz: invalid compressed data--length error"
}

@test "an IDX file whose second member stops after 1f 8b is refused" {
    variant cut_member mnist t10k-images-idx3-ubyte.gz
    run gzip -t "$RAW/t10k-images-idx3-ubyte.gz"
    [ "$status" -eq 1 ]
    refused mnist "cannot read IDX data: $RAW/t10k-images-idx3-ubyte.gz: unexpected end of file"
}

@test "a tar.gz of several gzip members followed by zeros gives Fuel's file" {
    variant members cifar10 cifar-10-python.tar.gz
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    matches_fuel cifar10
}

@test "a tar.gz with a wrong CRC-32, a wrong ISIZE or trailing garbage is refused, naming it" {
    variant crc cifar10 cifar-10-python.tar.gz
    refused cifar10 "cannot read archive: $RAW/cifar-10-python.tar.gz: after the last member: invalid compressed data--crc error"
    variant length cifar10 cifar-10-python.tar.gz
    refused cifar10 "cannot read archive: $RAW/cifar-10-python.tar.gz: after the last member: invalid compressed data--length error"
    variant garbage cifar10 cifar-10-python.tar.gz
    refused cifar10 "cannot read archive: $RAW/cifar-10-python.tar.gz: after the last member: trailing garbage after the gzip data"
}

@test "a tar.gz cut inside a member is refused naming the archive and the member" {
    cp "$FUEL_FIXTURES/raw/cifar10/cifar-10-python.tar.gz" "$BATS_TEST_TMPDIR/whole"
    size=$(stat -c %s "$BATS_TEST_TMPDIR/whole")
    head -c $((size / 2)) "$BATS_TEST_TMPDIR/whole" > "$RAW/cifar-10-python.tar.gz"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot read archive: $RAW/cifar-10-python.tar.gz: cifar-10-batches-py/"*": unexpected end of file" ]]
    nothing_written
}
