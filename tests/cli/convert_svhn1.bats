#!/usr/bin/env bats
# fuel-convert svhn 1: Fuel's output from the PNG + digitStruct.mat archives, in any member order,
# and every refusal (hostile members, absurd or broken PNGs, missing images or rows, bad references).

PYTHON=/usr/bin/python3

# The synthetic archives of the --threads tests (120, 30 and 9 images), made once for the file.
setup_file() {
    mkdir "$BATS_FILE_TMPDIR/threads"
    /usr/bin/python3 bench/make_svhn1.py "$BATS_FILE_TMPDIR/threads" 120 30 9 7
}

setup() {
    RAW="$FUEL_FIXTURES/raw/svhn1"
    EXPECTED="$FUEL_FIXTURES/expected/svhn_format_1.hdf5"
    OUT="$BATS_TEST_TMPDIR/out"
    WORK="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$WORK"
    cp "$RAW"/*.tar.gz "$WORK/"
    chmod u+w "$WORK"/*.tar.gz
}

# remake SPLIT OPERATION...: rewrites $WORK/SPLIT.tar.gz from the fixture (see remake_tar.py).
remake() {
    local split=$1
    shift
    $PYTHON tests/helpers/remake_tar.py "$RAW/$split.tar.gz" "$WORK/$split.tar.gz" "$@"
}

# extract SPLIT MEMBER FILE: copies one member of the fixture archive to FILE.
extract() {
    tar -xzOf "$RAW/$1.tar.gz" "$2" > "$3"
}

convert() {
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT"
}

nothing_written() {
    [ ! -e "$OUT/svhn_format_1.hdf5" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "svhn 1 matches Fuel's svhn_format_1.hdf5 and prints the output path" {
    run fuel-convert svhn 1 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/svhn_format_1.hdf5" ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/svhn_format_1.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$(ls -A "$OUT")" = "svhn_format_1.hdf5" ]
}

@test "members in reverse order, digitStruct.mat first, give the same file" {
    for split in train test extra; do remake $split reverse; done
    [ "$(tar -tzf "$WORK/train.tar.gz" | sed -n 2p)" = "train/digitStruct.mat" ]
    [ "$(tar -tzf "$WORK/train.tar.gz" | sed -n 3p)" = "train/12.png" ]
    convert
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/svhn_format_1.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "harmless extra members are ignored" {
    printf 'notes\n' > "$BATS_TEST_TMPDIR/notes"
    remake test add=README:"$BATS_TEST_TMPDIR/notes" add=test/notes.txt:"$BATS_TEST_TMPDIR/notes" \
        add=other/1.png:"$BATS_TEST_TMPDIR/notes"
    convert
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/svhn_format_1.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "box values as Fuel stores them: label 10 becomes 0, negative values become 0" {
    convert
    [ "$status" -eq 0 ]
    run $PYTHON - "$OUT/svhn_format_1.hdf5" "$WORK" <<'PY'
import io, sys, tarfile, h5py
output = h5py.File(sys.argv[1], "r")
fields = {"label": "bbox_labels", "height": "bbox_heights", "width": "bbox_widths",
          "left": "bbox_lefts", "top": "bbox_tops"}
row, raw_values = 0, []
for split in ("train", "test", "extra"):
    archive = tarfile.open(f"{sys.argv[2]}/{split}.tar.gz")
    mat = h5py.File(io.BytesIO(archive.extractfile(f"{split}/digitStruct.mat").read()), "r")
    for reference in mat["digitStruct/bbox"][:, 0]:
        group = mat[reference]
        for field, source in fields.items():
            column = group[field][:, 0]
            values = [mat[r][0, 0] for r in column] if len(column) > 1 else [column[0]]
            raw_values += values
            stored = [max(0, int(v)) for v in values]
            if field == "label":
                stored = [0 if v == 10 else v for v in stored]
            assert list(output[source][row]) == stored, (row, field, values)
            assert list(output[source + "_shapes"][row]) == [len(values), 1]
        row += 1
assert row == 22 and 10 in raw_values and min(raw_values) < 0, raw_values
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "grayscale and palette PNGs become three identical or looked-up channels" {
    $PYTHON - "$BATS_TEST_TMPDIR" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
def png(width, height, color_type, rows, extra=b""):
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    data = zlib.compress(b"".join(b"\0" + row for row in rows))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", data)
            + chunk(b"IEND", b""))
open(sys.argv[1] + "/gray.png", "wb").write(png(3, 2, 0, [bytes([0, 100, 255]), bytes([7, 8, 9])]))
palette = chunk(b"PLTE", bytes([255, 0, 0, 0, 0, 255]))
open(sys.argv[1] + "/palette.png", "wb").write(png(2, 1, 3, [bytes([1, 0])], palette))
PY
    remake train replace=train/1.png:"$BATS_TEST_TMPDIR/gray.png" \
        replace=train/2.png:"$BATS_TEST_TMPDIR/palette.png"
    convert
    [ "$status" -eq 0 ]
    run $PYTHON - "$OUT/svhn_format_1.hdf5" <<'PY'
import sys, h5py
output = h5py.File(sys.argv[1], "r")
assert list(output["features_shapes"][0]) == [3, 2, 3]
assert list(output["features"][0]) == [0, 100, 255, 7, 8, 9] * 3
assert list(output["features_shapes"][1]) == [3, 1, 2]
assert list(output["features"][1]) == [0, 255, 0, 0, 255, 0]
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "a member path with .. is refused, naming it, and nothing is written" {
    mkdir "$BATS_TEST_TMPDIR/source"
    printf 'x' > "$BATS_TEST_TMPDIR/source/x"
    remake test add=../x:"$BATS_TEST_TMPDIR/source/x"
    cd "$OUT"
    convert
    cd - > /dev/null
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: refusing archive member: $WORK/test.tar.gz: ../x: path with a \"..\" component" ]
    [ ! -e "$BATS_TEST_TMPDIR/x" ]
    nothing_written
}

@test "an absolute member path is refused" {
    printf 'x' > "$BATS_TEST_TMPDIR/x"
    remake extra add=/tmp/fuel-svhn1-absolute:"$BATS_TEST_TMPDIR/x"
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == *"extra.tar.gz: /tmp/fuel-svhn1-absolute: absolute path" ]]
    [ ! -e /tmp/fuel-svhn1-absolute ]
    nothing_written
}

@test "a symbolic link member is refused" {
    remake train symlink=train/13.png:/etc/passwd reverse  # first: met by the first pass
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == *"train.tar.gz: train/13.png: symbolic link" ]]
    nothing_written
}

@test "a hard link member is refused" {
    remake train reverse hardlink=train/13.png:train/1.png
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == *"train.tar.gz: train/13.png: hard link" ]]
    nothing_written
}

@test "a PNG declaring 100000x100000 pixels is refused before allocating" {
    $PYTHON - "$BATS_TEST_TMPDIR/huge.png" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
header = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                              + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b""))
PY
    remake train replace=train/3.png:"$BATS_TEST_TMPDIR/huge.png"
    # AddressSanitizer reserves terabytes of address space, so under make check-sanitize the
    # bound is its max_allocation_size_mb (set there) instead of ulimit -v.
    run bash -c '[[ "${ASAN_OPTIONS:-}" == *max_allocation_size_mb* ]] || ulimit -v 1000000
                 fuel-convert svhn 1 -d "$0" -o "$1"' "$WORK" "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot decode PNG: $WORK/train.tar.gz: train/3.png: declares 100000x100000 pixels"* ]]
    nothing_written
}

@test "a PNG that does not decode is refused, naming the member" {
    extract test test/2.png "$BATS_TEST_TMPDIR/broken.png"
    $PYTHON -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[200] ^= 0xFF; open(p, "wb").write(b)' \
        "$BATS_TEST_TMPDIR/broken.png"
    remake test replace=test/2.png:"$BATS_TEST_TMPDIR/broken.png"
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot decode PNG: $WORK/test.tar.gz: test/2.png: "* ]]
    nothing_written
}

@test "an image missing for a bounding-box row is refused, naming the member" {
    remake train drop=train/5.png
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: missing image: $WORK/train.tar.gz: train/5.png: digitStruct.mat has bounding boxes for it" ]
    nothing_written
}

@test "an image without a bounding-box row is refused, naming the member" {
    extract extra extra/1.png "$BATS_TEST_TMPDIR/1.png"
    remake extra add=extra/7.png:"$BATS_TEST_TMPDIR/1.png"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: image without bounding boxes: $WORK/extra.tar.gz: extra/7.png: digitStruct.mat has 6 rows" ]
    nothing_written
}

@test "a duplicated image member is refused" {
    extract test test/1.png "$BATS_TEST_TMPDIR/1.png"
    remake test add=test/1.png:"$BATS_TEST_TMPDIR/1.png"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: duplicate image: $WORK/test.tar.gz: test/1.png" ]
    nothing_written
}

@test "an archive without digitStruct.mat is refused" {
    remake test drop=test/digitStruct.mat
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: missing bounding boxes: $WORK/test.tar.gz: no member test/digitStruct.mat" ]
    nothing_written
}

@test "a dangling object reference in digitStruct.mat is refused, naming the member" {
    extract train train/digitStruct.mat "$BATS_TEST_TMPDIR/digitStruct.mat"
    $PYTHON - "$BATS_TEST_TMPDIR/digitStruct.mat" <<'PY'
import struct, sys, h5py
path = sys.argv[1]
with h5py.File(path, "r") as mat:
    offset = mat["digitStruct/bbox"].id.get_offset()
data = bytearray(open(path, "rb").read())
data[offset + 8:offset + 16] = struct.pack("<Q", 1 << 40)  # element 2 points past the end
open(path, "wb").write(data)
PY
    remake train replace=train/digitStruct.mat:"$BATS_TEST_TMPDIR/digitStruct.mat"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: cannot read MATLAB 7.3 file: $WORK/train.tar.gz: train/digitStruct.mat: digitStruct/bbox(2).label: dangling object reference" ]
    nothing_written
}

# edit_digit_struct SPLIT PYTHON: runs PYTHON on `mat`, the split's digitStruct.mat opened with
# h5py for writing, and puts the result back in $WORK/SPLIT.tar.gz.
edit_digit_struct() {
    extract "$1" "$1/digitStruct.mat" "$BATS_TEST_TMPDIR/digitStruct.mat"
    $PYTHON -c "import sys, h5py, numpy
with h5py.File(sys.argv[1], 'r+') as mat:
    $2" "$BATS_TEST_TMPDIR/digitStruct.mat"
    remake "$1" replace="$1/digitStruct.mat:$BATS_TEST_TMPDIR/digitStruct.mat"
}

@test "a label above 10 is refused, naming the member and the struct element" {
    edit_digit_struct test "mat['#refs#/b1/label'][0, 0] = 11"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: bad bounding box: $WORK/test.tar.gz: test/digitStruct.mat: digitStruct/bbox(2).label: 11 is above 10" ]
    nothing_written
}

@test "fields with different numbers of boxes are refused" {
    edit_digit_struct test "del mat['#refs#/b1/top']; mat['#refs#/b1'].create_dataset('top', data=numpy.ones((2, 1)))"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: bad bounding box: $WORK/test.tar.gz: test/digitStruct.mat: digitStruct/bbox(2): 1 labels but 2 top values" ]
    nothing_written
}

@test "a digitStruct name that is not the row's image is refused" {
    edit_digit_struct extra "mat['#refs#/n2'][0, 0] = ord('9')"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: bad image name: $WORK/extra.tar.gz: extra/digitStruct.mat: digitStruct/name(3): \"9.png\", expected \"3.png\"" ]
    nothing_written
}

@test "a digitStruct.mat that is not MATLAB 7.3 is refused" {
    printf 'MATLAB 5.0 MAT-file, not HDF5' > "$BATS_TEST_TMPDIR/digitStruct.mat"
    remake extra replace=extra/digitStruct.mat:"$BATS_TEST_TMPDIR/digitStruct.mat"
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot read MATLAB 7.3 file: $WORK/extra.tar.gz: extra/digitStruct.mat: "* ]]
    nothing_written
}

@test "a truncated archive is refused" {
    head -c 30000 "$RAW/train.tar.gz" > "$WORK/train.tar.gz"
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == *"$WORK/train.tar.gz"* ]]
    nothing_written
}

@test "missing archives: the first and the count on one line, all of them with -v, exit 3" {
    rm "$WORK/test.tar.gz" "$WORK/extra.tar.gz"
    convert
    [ "$status" -eq 3 ]
    [ "$output" = "fuel-convert: 2 required files not found: $WORK/test.tar.gz and 1 more (-v lists them); Did you forget to run fuel-download?" ]
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT" -v
    [ "$status" -eq 3 ]
    [[ "$output" == *"Did you forget to run fuel-download?"*"$WORK/test.tar.gz"*"$WORK/extra.tar.gz" ]]
    nothing_written
}

@test "a failed conversion leaves an existing output file untouched" {
    run fuel-convert svhn 1 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    cp "$OUT/svhn_format_1.hdf5" "$BATS_TEST_TMPDIR/before.hdf5"
    remake train drop=train/12.png
    convert
    [ "$status" -eq 4 ]
    cmp "$OUT/svhn_format_1.hdf5" "$BATS_TEST_TMPDIR/before.hdf5"
    [ "$(ls -A "$OUT")" = "svhn_format_1.hdf5" ]
}

@test "the same archives and command give a byte-identical file" {
    export SOURCE_DATE_EPOCH=0
    run fuel-convert svhn 1 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    mv "$OUT/svhn_format_1.hdf5" "$BATS_TEST_TMPDIR/first.hdf5"
    run fuel-convert svhn 1 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    cmp "$OUT/svhn_format_1.hdf5" "$BATS_TEST_TMPDIR/first.hdf5"
}

@test "--threads 1 and --threads 4 write the same sources and splits" {
    cp "$BATS_FILE_TMPDIR/threads"/*.tar.gz "$WORK/"
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT" --threads 1 -r one
    [ "$status" -eq 0 ]
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT" --threads 4 -r four
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/one.hdf5" "$OUT/four.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON -c "import h5py; f = h5py.File('$OUT/four.hdf5', 'r'); print(len(f['features']), f['bbox_labels'][0].size > 0)"
    [ "$output" = "159 True" ]
}

@test "--threads 1 and --threads 4 give the same bytes but for the thread count typed" {
    export SOURCE_DATE_EPOCH=0
    cp "$BATS_FILE_TMPDIR/threads"/*.tar.gz "$WORK/"
    mkdir "$OUT/t1" "$OUT/t4"
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT/t1" --threads 1
    [ "$status" -eq 0 ]
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT/t4" --threads 4
    [ "$status" -eq 0 ]
    # cmp -l: offset, then the two bytes in octal; '1' is 61, '4' is 64: only the typed "t1" and
    # "--threads 1" of the command and the provenance's argv differ.
    run cmp -l "$OUT/t1/svhn_format_1.hdf5" "$OUT/t4/svhn_format_1.hdf5"
    [ "$status" -eq 1 ]
    [ "$(awk '$2 != 61 || $3 != 64' <<< "$output")" = "" ]
    [ "${#lines[@]}" -eq 4 ]
}

@test "--threads with a bad value is a usage error" {
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT" --threads 0
    [ "$status" -eq 2 ]
    [[ "$output" == *"invalid --threads: 0"* ]]
    nothing_written
}

@test "a failing image with every worker busy leaves no file and names the member" {
    cp "$BATS_FILE_TMPDIR/threads"/*.tar.gz "$WORK/"
    printf 'not a png' > "$BATS_TEST_TMPDIR/bad"
    $PYTHON tests/helpers/remake_tar.py "$WORK/train.tar.gz" "$WORK/broken.tar.gz" \
        replace=train/40.png:"$BATS_TEST_TMPDIR/bad"
    mv "$WORK/broken.tar.gz" "$WORK/train.tar.gz"
    run fuel-convert svhn 1 -d "$WORK" -o "$OUT" --threads 4
    [ "$status" -eq 4 ]
    [[ "$output" == *"train.tar.gz: train/40.png"* ]]
    nothing_written
}

@test "digitStruct.mat's scratch file does not outlive the conversion; fuel clean knows its name" {
    run fuel-convert svhn 1 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$(ls -A "$OUT")" = "svhn_format_1.hdf5" ]
    mkdir "$OUT/.fuel-staging-digitStruct.mat.h5.Ab12Cd"
    : > "$OUT/.fuel-staging-digitStruct.mat.h5.Ab12Cd/.lock"
    printf 'left by a killed run' > "$OUT/.fuel-staging-digitStruct.mat.h5.Ab12Cd/digitStruct.mat.h5"
    run fuel-clean -d "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "removed $OUT/.fuel-staging-digitStruct.mat.h5.Ab12Cd" ]
    [ "$(ls -A "$OUT")" = "svhn_format_1.hdf5" ]
}
