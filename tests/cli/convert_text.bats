#!/usr/bin/env bats
# fuel-convert binarized_mnist and iris: Fuel's output, text variations, malformed lines as file:line.

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    OUT="$BATS_TEST_TMPDIR/out"
    RAW="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$RAW"
}

matches_fuel() {
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/$1.hdf5" "$EXPECTED/$1.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

nothing_written() {
    [ -z "$(ls -A "$OUT")" ] || { ls -la "$OUT"; false; }
}

copy_amat() {
    cp "$FUEL_FIXTURES"/raw/binarized_mnist/*.amat "$RAW/"
    chmod u+w "$RAW"/*.amat
}

@test "binarized_mnist matches Fuel's binarized_mnist.hdf5" {
    run fuel-convert binarized_mnist -d "$FUEL_FIXTURES/raw/binarized_mnist" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/binarized_mnist.hdf5" ]
    matches_fuel binarized_mnist
}

@test "binarized_mnist accepts CRLF, tabs, runs of spaces, trailing blanks and blank lines" {
    copy_amat
    for file in "$RAW"/*.amat; do
        sed -e 's/ /\t  /g' -e 's/$/   \r/' "$file" > "$file.new"
        printf '\r\n\n' >> "$file.new"
        mv "$file.new" "$file"
    done
    run fuel-convert binarized_mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    matches_fuel binarized_mnist
}

@test "binarized_mnist: a value other than 0/1 is exit 4 with file:line, nothing written" {
    copy_amat
    sed -i '2s/^0/2/; 2s/^1/2/' "$RAW/binarized_mnist_valid.amat"
    run fuel-convert binarized_mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed amat file: $RAW/binarized_mnist_valid.amat:2: value other than 0 or 1" ]
    nothing_written
}

@test "binarized_mnist: a line without 784 values is exit 4 with file:line" {
    copy_amat
    sed -i '7s/ [01]$//' "$RAW/binarized_mnist_train.amat"
    run fuel-convert binarized_mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed amat file: $RAW/binarized_mnist_train.amat:7: fewer values than 784" ]
    copy_amat
    sed -i '1s/$/ 1/' "$RAW/binarized_mnist_test.amat"
    run fuel-convert binarized_mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed amat file: $RAW/binarized_mnist_test.amat:1: more values than 784" ]
    nothing_written
}

@test "binarized_mnist: a missing file is exit 3 with Fuel's hint" {
    copy_amat
    rm "$RAW/binarized_mnist_valid.amat"
    run fuel-convert binarized_mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 3 ]
    [[ "$output" == *"$RAW/binarized_mnist_valid.amat"* ]]
    [[ "$output" == *"Did you forget to run fuel-download?"* ]]
    nothing_written
}

@test "iris matches Fuel's iris.hdf5" {
    run fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/iris.hdf5" ]
    matches_fuel iris
}

@test "iris accepts CRLF, blank lines and spaces around fields" {
    sed -e 's/,/ , /g' -e 's/$/\r/' "$FUEL_FIXTURES/raw/iris/iris.data" > "$RAW/iris.data"
    sed -i '40a\\' "$RAW/iris.data"
    run fuel-convert iris -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    matches_fuel iris
}

@test "iris: an unknown class is exit 4 with file:line, nothing written" {
    sed '7s/Iris-setosa/Iris-germanica/' "$FUEL_FIXTURES/raw/iris/iris.data" > "$RAW/iris.data"
    run fuel-convert iris -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: unknown class: $RAW/iris.data:7: 'Iris-germanica'" ]
    nothing_written
}

@test "iris: a malformed number is exit 4 with file:line" {
    sed '12s/^\([0-9]\)\.\([0-9]\)/\1;\2/' "$FUEL_FIXTURES/raw/iris/iris.data" > "$RAW/iris.data"
    run fuel-convert iris -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: malformed line: $RAW/iris.data:12: not a decimal number: '"*";"* ]] || { echo "$output"; false; }
    nothing_written
}
