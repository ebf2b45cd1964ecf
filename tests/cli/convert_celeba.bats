#!/usr/bin/env bats
# fuel-convert celeba 64 and aligned_cropped: Fuel's output from img_align_celeba.zip and
# list_attr_celeba.txt (PIL's pixels, PIL's resize and crop for 64, the attributes as 0/1, the
# splits in Fuel's proportions), a partial archive, exports of the file, and every refusal.

bats_require_minimum_version 1.5.0

load ../helpers/processes

PYTHON=/usr/bin/python3
CHECK=tests/helpers/jpeg_datasets.py

setup() {
    RAW="$FUEL_FIXTURES/raw/celeba"
    OUT="$BATS_TEST_TMPDIR/out"
    WORK="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$WORK"
    cp "$RAW"/* "$WORK/"
    chmod u+w "$WORK"/*
    ZIP="$WORK/img_align_celeba.zip"
    LIST="$WORK/list_attr_celeba.txt"
}

teardown() {
    stop_jobs
}

# remake OPERATION...: rewrites $ZIP from the reference archive (remake_zip.py).
remake() {
    $PYTHON tests/helpers/remake_zip.py "$RAW/img_align_celeba.zip" "$ZIP" "$@"
}

convert() {
    local format=$1
    shift
    run --separate-stderr fuel-convert celeba "$format" -d "$WORK" -o "$OUT" "$@"
}

# refused FORMAT CODE MESSAGE: the conversion exits CODE with MESSAGE alone on stderr, writing
# nothing.
refused() {
    convert "$1"
    [ "$status" -eq "$2" ] || { echo "exit $status: $stderr"; false; }
    [ "$stderr" = "fuel-convert: $3" ] || { echo "$stderr"; false; }
    [ -z "$output" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "celeba 64 matches Fuel's celeba_64.hdf5 and prints the output path" {
    run fuel-convert celeba 64 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/celeba_64.hdf5" ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/celeba_64.hdf5" "$FUEL_FIXTURES/expected/celeba_64.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$(ls -A "$OUT")" = "celeba_64.hdf5" ]
}

@test "both formats: PIL's pixels (resized and cropped for 64), the attributes, Fuel's split stops" {
    for format in aligned_cropped 64; do
        convert $format
        [ "$status" -eq 0 ]
        [ "$output" = "$OUT/celeba_$format.hdf5" ]
        run $PYTHON "$CHECK" celeba $format "$WORK" "$OUT/celeba_$format.hdf5"
        [ "$status" -eq 0 ] || { echo "$output"; false; }
        # 10 faces: train [0, 8), valid [8, 9), test [9, 10).
        [ "$output" = "8 9 10" ]
    done
}

@test "the raw fixture, on one thread and on three: the same values, PIL's" {
    fuel-fixture celeba 64 --raw -o "$WORK" -n 23 --seed 2 > /dev/null
    for threads in 1 3; do
        convert 64 --threads $threads
        [ "$status" -eq 0 ]
        mv "$OUT/celeba_64.hdf5" "$BATS_TEST_TMPDIR/threads$threads.hdf5"
        run $PYTHON "$CHECK" celeba 64 "$WORK" "$BATS_TEST_TMPDIR/threads$threads.hdf5"
        [ "$status" -eq 0 ] || { echo "$output"; false; }
        [ "$output" = "18 20 23" ]
    done
    run $PYTHON tests/helpers/compare_hdf5.py "$BATS_TEST_TMPDIR/threads1.hdf5" "$BATS_TEST_TMPDIR/threads3.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    fuel-info --check "$BATS_TEST_TMPDIR/threads3.hdf5"
}

@test "a partial archive: its N faces take the first N rows of the attribute list" {
    remake drop=img_align_celeba/000009.jpg drop=img_align_celeba/000010.jpg
    convert aligned_cropped
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" celeba aligned_cropped "$WORK" "$OUT/celeba_aligned_cropped.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "6 7 8" ]
}

@test "celeba 64 resizes a face of another size as PIL does; aligned_cropped refuses it" {
    remake resize=img_align_celeba/000003.jpg:150x190
    convert 64
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" celeba 64 "$WORK" "$OUT/celeba_64.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    rm "$OUT/celeba_64.hdf5"
    refused aligned_cropped 4 "not a CelebA face: $ZIP: img_align_celeba/000003.jpg: 150x190 pixels of 3 channels, expected 178x218 pixels of 3 channels"
}

@test "a grayscale face: exit 4 (Fuel's transpose needs three channels)" {
    remake grey=img_align_celeba/000005.jpg
    refused 64 4 "not a CelebA face: $ZIP: img_align_celeba/000005.jpg: 178x218 pixels of 1 channel, expected 3 channels"
}

@test "an attribute row with the wrong column count: exit 4 naming the file and line, nothing left" {
    sed -i '6s/ -1$//; 6s/  1$//' "$LIST"
    refused aligned_cropped 4 "malformed attribute list: $LIST:6: 39 values after the image name, expected 40"
}

@test "attribute lists that do not fit the archive: exit 4 naming the file" {
    sed -i '3,4d' "$LIST"
    sed -i '1s/.*/8/' "$LIST"
    refused 64 4 "malformed attribute list: $LIST:3: 000003.jpg where 000001.jpg was expected"
    cp "$RAW/list_attr_celeba.txt" "$LIST"
    sed -i '11,12d' "$LIST"
    sed -i '1s/.*/8/' "$LIST"
    refused 64 4 "missing attributes: $LIST: 8 faces listed, the archive holds 10"
    cp "$RAW/list_attr_celeba.txt" "$LIST"
    sed -i '1s/.*/11/' "$LIST"
    refused 64 4 "malformed attribute list: $LIST: 10 images listed, the first line declares 11"
    sed -i '1s/.*/10/; 2s/ Young//' "$LIST"
    refused 64 4 "malformed attribute list: $LIST:2: 39 attribute names, expected 40"
    cp "$RAW/list_attr_celeba.txt" "$LIST"
    sed -i '7s/ -1/  0/' "$LIST"
    refused 64 4 "malformed attribute list: $LIST:7: value other than -1 or 1: '0'"
}

@test "faces not numbered from 000001, or twice: exit 4 naming them" {
    remake drop=img_align_celeba/000002.jpg
    refused 64 4 "missing faces: $ZIP: img_align_celeba/000010.jpg: the archive holds 9 faces, which must be numbered from 000001"
    remake add=img_align_celeba/000001.jpg:"$LIST"
    refused 64 4 "duplicate face: $ZIP: img_align_celeba/000001.jpg"
    remake $(for n in 01 02 03 04 05 06 07 08 09 10; do printf 'drop=img_align_celeba/0000%s.jpg ' $n; done)
    refused 64 4 "no faces: $ZIP: no member img_align_celeba/NNNNNN.jpg"
}

@test "a truncated zip, a face that does not decode: exit 4 naming the archive or the member" {
    head -c 50000 "$RAW/img_align_celeba.zip" > "$ZIP"
    refused 64 4 "cannot read zip directory: $ZIP: no end of central directory record at its end: truncated or followed by other bytes"
    remake truncate=img_align_celeba/000007.jpg
    convert aligned_cropped
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-convert: cannot decode JPEG: $ZIP: img_align_celeba/000007.jpg: "* ]] || { echo "$stderr"; false; }
    [ -z "$(ls -A "$OUT")" ]
}

@test "export, preview and serve read celeba_64.hdf5" {
    run fuel-convert celeba 64 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    FILE="$OUT/celeba_64.hdf5"
    run fuel export "$FILE" --to npy -o "$BATS_TEST_TMPDIR/npy"
    [ "$status" -eq 0 ]
    $PYTHON - "$BATS_TEST_TMPDIR/npy" "$FILE" <<'PY'
import sys, h5py, numpy
handle = h5py.File(sys.argv[2], "r")
for split, start, stop in (("train", 0, 8), ("valid", 8, 9), ("test", 9, 10)):
    for source in ("features", "targets"):
        array = numpy.load(f"{sys.argv[1]}/celeba_64_{split}_{source}.npy", mmap_mode="r")
        assert numpy.array_equal(array, handle[source][start:stop]), (split, source)
PY
    run --separate-stderr fuel preview "$FILE" -n 2 -o "$BATS_TEST_TMPDIR/grid.png"
    [ "$status" -eq 0 ]
    [ "$output" = "$($PYTHON -c 'import h5py,sys; t=h5py.File(sys.argv[1])["targets"]; print(" ".join(",".join(map(str, t[i])) for i in range(2)))' "$FILE")" ]
    PORT=$($PYTHON tests/helpers/fuel_client.py free-port)
    timeout 60 fuel serve "$FILE" --bind "tcp://127.0.0.1:$PORT" --batch-size 3 --epochs 1 2> /dev/null 3>&- &
    SERVER=$!
    PYTHONPATH=tests/helpers $PYTHON - "tcp://127.0.0.1:$PORT" "$FILE" <<'PY'
import sys, h5py, numpy
from fuel_client import receive_epochs
batches = receive_epochs(sys.argv[1], 1)[0]
handle = h5py.File(sys.argv[2], "r")
assert [len(batch[0]) for batch in batches] == [3, 3, 2]
assert numpy.array_equal(numpy.concatenate([batch[0] for batch in batches]), handle["features"][0:8])
assert numpy.array_equal(numpy.concatenate([batch[1] for batch in batches]), handle["targets"][0:8])
PY
    wait_bounded "$SERVER"
}
