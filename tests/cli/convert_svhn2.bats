#!/usr/bin/env bats
# fuel-convert svhn 2: Fuel's output, MAT-file variants (uncompressed, big-endian, narrow y), the
# splits inflated side by side, errors.

PYTHON=/usr/bin/python3
MAT=tests/helpers/mat_v5.py

setup() {
    RAW="$FUEL_FIXTURES/raw/svhn2"
    EXPECTED="$FUEL_FIXTURES/expected/svhn_format_2.hdf5"
    OUT="$BATS_TEST_TMPDIR/out"
    VARIANT="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$VARIANT"
}

# rewrite OPTIONS...: re-encodes the three fixture files into $VARIANT with mat_v5.py's OPTIONS.
rewrite() {
    for split in train test extra; do
        $PYTHON $MAT rewrite "$RAW/${split}_32x32.mat" "$VARIANT/${split}_32x32.mat" "$@"
    done
}

# rewrite_one SPLIT OPTIONS...: copies the fixtures, re-encoding only SPLIT.
rewrite_one() {
    local split=$1
    shift
    cp "$RAW"/*.mat "$VARIANT/"
    chmod u+w "$VARIANT"/*.mat
    $PYTHON $MAT rewrite "$RAW/${split}_32x32.mat" "$VARIANT/${split}_32x32.mat" "$@"
}

matches_fuel() {
    run fuel-convert svhn 2 -d "$1" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "$OUT/svhn_format_2.hdf5" ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/svhn_format_2.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# fails_with SPLIT MESSAGE: the conversion of $VARIANT exits 4 naming SPLIT's file and MESSAGE,
# leaving no output and no temporary file behind.
fails_with() {
    run fuel-convert svhn 2 -d "$VARIANT" -o "$OUT"
    echo "$output"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: "*"$VARIANT/$1_32x32.mat: "*"$2"* ]]
    [ "${#lines[@]}" -eq 1 ]
    [ -z "$(ls -A "$OUT")" ]
}

# values_match: the conversion of $VARIANT holds each split's X transposed and y with 10 as 0,
# in the rows its split names.
values_match() {
    run fuel-convert svhn 2 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON - "$OUT/svhn_format_2.hdf5" "$VARIANT" <<'PY'
import sys, h5py, numpy
sys.path.insert(0, "tests/helpers")
import mat_v5
handle = h5py.File(sys.argv[1], "r")
features, targets = handle["features"][...], handle["targets"][...]
start = 0
for split in ("train", "test", "extra"):
    variables = {v.name: v for v in mat_v5.read_file("%s/%s_32x32.mat" % (sys.argv[2], split))[0]}
    images = variables["X"].data.reshape(variables["X"].dims, order="F")
    labels = variables["y"].data.astype("f8")
    count = images.shape[3]
    assert numpy.array_equal(features[start:start + count], images.transpose(3, 2, 0, 1)), split
    assert numpy.array_equal(targets[start:start + count, 0], numpy.where(labels == 10, 0, labels))
    assert 10 in labels and 0 in targets[start:start + count]
    rows = {(r["split"], r["source"]): (r["start"], r["stop"]) for r in handle.attrs["split"]}
    assert rows[(split.encode(), b"features")] == (start, start + count), rows
    start += count
assert features.shape == (start, 3, 32, 32) and targets.shape == (start, 1), features.shape
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$(ls -A "$OUT")" = svhn_format_2.hdf5 ]
}

@test "svhn 2 matches Fuel's svhn_format_2.hdf5" {
    matches_fuel "$RAW"
}

@test "uncompressed MAT-files give the same file" {
    rewrite --uncompressed
    matches_fuel "$VARIANT"
}

@test "big-endian MAT-files, compressed and not, give the same file" {
    rewrite --big-endian
    $PYTHON $MAT rewrite "$RAW/test_32x32.mat" "$VARIANT/test_32x32.mat" --big-endian --uncompressed
    matches_fuel "$VARIANT"
}

@test "y stored narrower than double (uint8, int16, single) is widened" {
    $PYTHON $MAT rewrite "$RAW/train_32x32.mat" "$VARIANT/train_32x32.mat" --store y=uint8
    $PYTHON $MAT rewrite "$RAW/test_32x32.mat" "$VARIANT/test_32x32.mat" --store y=int16 --big-endian
    $PYTHON $MAT rewrite "$RAW/extra_32x32.mat" "$VARIANT/extra_32x32.mat" --store y=single \
        --uncompressed
    run $PYTHON $MAT show "$VARIANT/train_32x32.mat"
    [[ "$output" == *"y 6 [12, 1] u1"* ]]
    matches_fuel "$VARIANT"
}

@test "features[n][c][r][k] = X[r][k][c][n] and targets map 10 to 0, across block boundaries" {
    $PYTHON $MAT synthetic "$VARIANT/train_32x32.mat" 700
    $PYTHON $MAT rewrite "$RAW/test_32x32.mat" "$VARIANT/test_32x32.mat"
    $PYTHON $MAT synthetic "$VARIANT/extra_32x32.mat" 257
    values_match
    run $PYTHON -c 'import h5py, sys; print(h5py.File(sys.argv[1], "r")["features"].shape[0])' \
        "$OUT/svhn_format_2.hdf5"
    [ "$output" = 961 ]
}

@test "extra, the largest, inflated beside train and test: values in place; a corrupt train refused" {
    $PYTHON $MAT synthetic "$VARIANT/train_32x32.mat" 300
    $PYTHON $MAT rewrite "$RAW/test_32x32.mat" "$VARIANT/test_32x32.mat"
    $PYTHON $MAT synthetic "$VARIANT/extra_32x32.mat" 1100
    values_match
    rm "$OUT/svhn_format_2.hdf5"
    printf 'previous' > "$OUT/svhn_format_2.hdf5"
    $PYTHON - "$VARIANT/train_32x32.mat" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for offset in range(len(data) // 2, len(data) // 2 + 64):
    data[offset] ^= 0xA5
open(sys.argv[1], "wb").write(bytes(data))
PY
    run fuel-convert svhn 2 -d "$VARIANT" -o "$OUT"
    echo "$output"
    [ "$status" -eq 4 ]
    [ "${#lines[@]}" -eq 1 ]
    [ "$output" = "fuel-convert: cannot read MATLAB file: $VARIANT/train_32x32.mat: a compressed element holds more than its matrix declares" ]
    [ "$(cat "$OUT/svhn_format_2.hdf5")" = previous ]
    [ "$(ls -A "$OUT")" = svhn_format_2.hdf5 ]
}

@test "a missing X is refused, naming the file" {
    rewrite_one test --rename X=images
    fails_with test "no variable X"
}

@test "a missing y is refused, naming the file" {
    rewrite_one train --drop y
    fails_with train "no variable y"
}

@test "X that is not uint8 is refused" {
    rewrite_one extra --class X=double
    fails_with extra "not a real uint8 array: X"
}

@test "X whose dimensions are not 32x32x3xN is refused" {
    rewrite_one train --reshape X=32,32,1,36
    fails_with train "X is not 32x32x3xN (rank 4, 32x32x1...)"
    rewrite_one train --reshape X=32,32,36
    fails_with train "X is not 32x32x3xN (rank 3"
}

@test "a y whose N differs from X's is refused" {
    rewrite_one extra --drop-last y
    fails_with extra "y is 5x1 (rank 2), expected 6x1 to match X"
}

@test "a truncated file is refused before anything is written" {
    rewrite_one extra
    head -c 9000 "$RAW/extra_32x32.mat" > "$VARIANT/extra_32x32.mat"
    fails_with extra "truncated: the element at byte 128 declares"
}

@test "a corrupt zlib stream is refused and no output is published" {
    rewrite_one extra
    printf 'previous' > "$OUT/svhn_format_2.hdf5"
    $PYTHON - "$VARIANT/extra_32x32.mat" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for offset in range(6000, 6064):
    data[offset] ^= 0xA5
open(sys.argv[1], "wb").write(bytes(data))
PY
    run fuel-convert svhn 2 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"$VARIANT/extra_32x32.mat: corrupt zlib stream"* ]]
    [ "$(cat "$OUT/svhn_format_2.hdf5")" = previous ]
    [ "$(ls -A "$OUT")" = svhn_format_2.hdf5 ]
}

@test "a file that is not a MAT-file is refused" {
    rewrite_one test
    head -c 4096 /dev/zero | tr '\0' 'x' > "$VARIANT/test_32x32.mat"
    fails_with test "not a MATLAB level-5 MAT-file"
}

@test "a missing input exits 3 and lists it" {
    rewrite_one test
    rm "$VARIANT/extra_32x32.mat"
    run fuel-convert svhn 2 -d "$VARIANT" -o "$OUT"
    [ "$status" -eq 3 ]
    [[ "$output" == *extra_32x32.mat* ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "svhn -h without a format shows the help of both formats; no format is still a usage error" {
    run fuel-convert svhn -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-convert svhn 1 "*"train.tar.gz"*"usage: fuel-convert svhn 2 "*"train_32x32.mat"* ]] ||
        { echo "$output"; false; }
    run fuel-convert svhn -d "$RAW" -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-convert: svhn needs a format, 1 or 2: none given; see 'fuel-convert -h'" ]
}
