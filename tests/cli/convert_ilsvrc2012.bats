#!/usr/bin/env bats
# fuel-convert ilsvrc2012: Fuel's layout and order on raw files made with the real tools (scipy's
# savemat struct arrays, tarfile, PIL's JPEGs), the training permutation, the pipeline from
# fuel fixture --raw, and every refusal (truncated or unknown tars, members that are not images,
# broken devkits and ground truths), each one line, its exit code and nothing left behind.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    RAW="$BATS_TEST_TMPDIR/raw"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    $PYTHON tests/helpers/ilsvrc_archives.py make "$RAW"
    TRAIN="$RAW/ILSVRC2012_img_train.tar"
    DEVKIT="$RAW/ILSVRC2012_devkit_t12.tar.gz"
}

convert() {
    run fuel-convert ilsvrc2012 -d "$RAW" -o "$OUT" "$@"
}

nothing_written() {
    [ -z "$(ls -A "$OUT")" ] || { ls -A "$OUT"; false; }
}

# retar ARCHIVE PYTHON: rewrites the plain tar ARCHIVE, PYTHON (a function body over `members`,
# a list of [name, bytes]) changing the members first.
retar() {
    $PYTHON - "$1" "$2" <<'EOF'
import io, sys, tarfile
path, change = sys.argv[1], sys.argv[2]
with tarfile.open(path) as tar:
    members = [[info.name, tar.extractfile(info).read()] for info in tar if info.isfile()]
exec(change)
mode = "w:gz" if path.endswith(".gz") else "w"
with tarfile.open(path, mode) as tar:
    for name, data in members:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
EOF
}

@test "ilsvrc2012 matches Fuel's layout and order value for value and prints the output path" {
    convert
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/ilsvrc2012.hdf5" ]
    run $PYTHON tests/helpers/ilsvrc_archives.py expect "$RAW" "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run fuel-info --check "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 0 ]
    [ "$(ls -A "$OUT")" = "ilsvrc2012.hdf5" ]
}

@test "--shuffle-seed places the training images at numpy's permutation of that seed" {
    convert --shuffle-seed 4000000000 --threads 3
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/ilsvrc_archives.py expect "$RAW" "$OUT/ilsvrc2012.hdf5" \
        --shuffle-seed 4000000000
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON tests/helpers/ilsvrc_archives.py expect "$RAW" "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 1 ]
    [[ "$output" == *"image bytes differ"* ]]
}

@test "the splits, dtypes and sources are Fuel's: no targets for test, no shapes scale" {
    convert
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
for row in f.attrs["split"]:
    print(row["split"].decode(), row["source"].decode(), row["start"], row["stop"], row["available"])
print(f["encoded_images"].dtype.metadata["vlen"], f["targets"].dtype, f["filenames"].dtype)
print(sorted(f.keys()))' "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "train encoded_images 0 23 True" ]
    [ "${lines[2]}" = "train targets 0 23 True" ]
    [ "${lines[3]}" = "valid encoded_images 23 30 True" ]
    [ "${lines[6]}" = "test encoded_images 30 36 True" ]
    [ "${lines[7]}" = "test filenames 30 36 True" ]
    [ "${lines[8]}" = "test targets 0 0 False" ]
    [ "${lines[9]}" = "uint8 int16 |S32" ]
    [ "${lines[10]}" = "['encoded_images', 'filenames', 'targets']" ]
}

@test "the raw fixture goes through download --url-prefix, convert and info --check" {
    FIXTURE="$BATS_TEST_TMPDIR/fixture"
    run fuel-fixture ilsvrc2012 --raw -o "$FIXTURE" -n train=9,valid=4,test=3
    [ "$status" -eq 0 ]
    run fuel-download ilsvrc2012 --url-prefix "file://$FIXTURE/" --checksums "$FIXTURE/MD5SUMS" \
        -d "$BATS_TEST_TMPDIR/downloaded"
    [ "$status" -eq 0 ]
    run fuel-convert ilsvrc2012 -d "$BATS_TEST_TMPDIR/downloaded" -o "$OUT"
    [ "$status" -eq 0 ]
    run fuel-info --check "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import io, sys, h5py
from PIL import Image
f = h5py.File(sys.argv[1], "r")
modes = sorted({Image.open(io.BytesIO(bytes(f["encoded_images"][row]))).mode for row in range(16)})
formats = sorted({Image.open(io.BytesIO(bytes(f["encoded_images"][row]))).format for row in range(16)})
print(f["encoded_images"].shape[0], f["targets"].shape[0], modes, formats)' "$OUT/ilsvrc2012.hdf5"
    [ "$output" = "16 13 ['CMYK', 'L', 'RGB'] ['JPEG', 'PNG']" ]
}

@test "no public URL: files put in place by hand are verified; otherwise how to supply them, exit 5" {
    FIXTURE="$BATS_TEST_TMPDIR/fixture"
    fuel-fixture ilsvrc2012 --raw -o "$FIXTURE" -n 2 > /dev/null
    # In place and listed by --checksums: verified where they are, nothing fetched.
    run --separate-stderr fuel-download ilsvrc2012 -d "$FIXTURE" --checksums "$FIXTURE/MD5SUMS"
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [[ "$stderr" == *"ILSVRC2012_img_train.tar: already present and verified"* ]]
    # In place but not the published files: said so, with what to do.
    run --separate-stderr fuel-download ilsvrc2012 -d "$FIXTURE"
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-download: cannot download: ILSVRC2012_devkit_t12.tar.gz: no public URL, and $FIXTURE/ILSVRC2012_devkit_t12.tar.gz does not match its published size and checksum; give --url-prefix URL of a copy, or --checksums FILE listing the copy you have" ]
    # Absent: where to put them.
    run --separate-stderr fuel-download ilsvrc2012 -d "$BATS_TEST_TMPDIR/empty"
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-download: cannot download: ILSVRC2012_devkit_t12.tar.gz: no public URL; give --url-prefix URL of a copy, or put the file at $BATS_TEST_TMPDIR/empty/ILSVRC2012_devkit_t12.tar.gz by hand" ]
    [ ! -e "$BATS_TEST_TMPDIR/empty/ILSVRC2012_devkit_t12.tar.gz.part" ]
}

@test "without the image archives: Fuel's message naming them, exit 3" {
    rm "$RAW/ILSVRC2012_img_test.tar"
    convert
    [ "$status" -eq 3 ]
    [[ "$output" == *"ILSVRC2012_img_test.tar"* ]]
    [[ "$output" == *"Did you forget to run fuel-download?"* ]]
    nothing_written
}

@test "a truncated training archive: one line naming it, exit 4, nothing left" {
    truncate -s 70000 "$TRAIN"
    convert
    [ "$status" -eq 4 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "fuel-convert: cannot read archive: $TRAIN: "* ]]
    nothing_written
}

@test "a truncated per-class tar: one line naming the inner tar, exit 4, nothing left" {
    retar "$TRAIN" 'members[1][1] = members[1][1][:5000]'
    convert
    [ "$status" -eq 4 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "fuel-convert: cannot read archive: $TRAIN: n01440764.tar: "*"runcated"* ]]
    nothing_written
}

@test "a per-class tar named after an unknown WNID: one line, exit 4, nothing left" {
    retar "$TRAIN" 'members[2][0] = "n99999999.tar"'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: unknown class: $TRAIN: n99999999.tar: no synset of the devkit's first 7 has the WNID n99999999" ]
    nothing_written
}

@test "a member that is neither JPEG, PNG nor gzip: one line naming it, exit 4" {
    retar "$RAW/ILSVRC2012_img_val.tar" 'members[3][1] = b"GIF89a not a JPEG"'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: not an image: $RAW/ILSVRC2012_img_val.tar: ILSVRC2012_val_00000001.JPEG: neither JPEG, PNG nor gzip" ]
    nothing_written
}

@test "a JPEG that does not decode fails naming it; --skip-bad leaves it out and records it" {
    retar "$RAW/ILSVRC2012_img_test.tar" 'members[0][1] = members[0][1][:300]'
    convert
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot decode JPEG: $RAW/ILSVRC2012_img_test.tar: ILSVRC2012_test_00000006.JPEG: Premature end of JPEG file" ]]
    nothing_written
    convert --skip-bad
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import json, sys, h5py
f = h5py.File(sys.argv[1], "r")
names = [name.decode() for name in f["filenames"][:, 0]]
skipped = json.loads(f.attrs["fuel_provenance"])["conversion"]["skipped_images"]
print(len(names), "ILSVRC2012_test_00000006.JPEG" in names, names[-1], len(skipped))
print(skipped[0])' "$OUT/ilsvrc2012.hdf5"
    [ "${lines[0]}" = "35 False ILSVRC2012_test_00000005.JPEG 1" ]
    [ "${lines[1]}" = "cannot decode JPEG: $RAW/ILSVRC2012_img_test.tar: ILSVRC2012_test_00000006.JPEG: Premature end of JPEG file" ]
    run fuel-info --check "$OUT/ilsvrc2012.hdf5"
    [ "$status" -eq 0 ]
}

@test "JPEGs PIL decodes despite damage are stored as they are: data cut before an end marker, markers in the scan" {
    retar "$RAW/ILSVRC2012_img_test.tar" '
data = members[0][1]
members[0][1] = data[:len(data) // 2] + b"\xff\xd9"
members[1][1] = members[1][1][:-40] + b"\xff\xd3\xff\x00" + members[1][1][-36:]'
    # PIL's verdict on both, as Fuel's converter would reach it.
    run $PYTHON -c '
import io, sys, tarfile, numpy, PIL.Image
with tarfile.open(sys.argv[1]) as tar:
    for info in tar.getmembers()[:2]:
        print(info.name, numpy.array(PIL.Image.open(io.BytesIO(tar.extractfile(info).read()))).shape)
' "$RAW/ILSVRC2012_img_test.tar"
    [ "$status" -eq 0 ]
    convert
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import io, sys, tarfile, h5py
stored = {}
with h5py.File(sys.argv[2], "r") as f:
    for name, image in zip(f["filenames"][:, 0], f["encoded_images"]):
        stored[name.decode()] = bytes(image)
with tarfile.open(sys.argv[1]) as tar:
    for info in tar.getmembers()[:2]:
        print(stored[info.name] == tar.extractfile(info).read())
' "$RAW/ILSVRC2012_img_test.tar" "$OUT/ilsvrc2012.hdf5"
    [ "$output" = $'True\nTrue' ]
}

@test "a devkit without meta.mat: one line naming the member, exit 4" {
    retar "$DEVKIT" 'members[:] = [m for m in members if not m[0].endswith("meta.mat")]'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: missing devkit member: $DEVKIT: no ILSVRC2012_devkit_t12/data/meta.mat" ]
    nothing_written
}

@test "a meta.mat whose synsets lack num_train_images or hold a number as WNID: exit 4" {
    cp "$DEVKIT" "$BATS_TEST_TMPDIR/devkit.tar.gz"
    retar "$DEVKIT" '
import io, numpy, scipy.io
mat = scipy.io.loadmat(io.BytesIO(members[0][1]))["synsets"]
fields = [name for name in mat.dtype.names if name != "num_train_images"]
out = io.BytesIO()
scipy.io.savemat(out, {"synsets": numpy.array([tuple(row[0][name] for name in fields) for row in mat],
                 dtype=[(name, "O") for name in fields]).reshape(-1, 1)})
members[0][1] = out.getvalue()'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed synsets: $DEVKIT: ILSVRC2012_devkit_t12/data/meta.mat: synsets has no field num_train_images" ]
    cp "$BATS_TEST_TMPDIR/devkit.tar.gz" "$DEVKIT"
    retar "$DEVKIT" '
import io, numpy, scipy.io
mat = scipy.io.loadmat(io.BytesIO(members[0][1]))["synsets"]
mat[2, 0]["WNID"] = numpy.array([[7.0]])
out = io.BytesIO()
scipy.io.savemat(out, {"synsets": mat})
members[0][1] = out.getvalue()'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed synsets: $DEVKIT: ILSVRC2012_devkit_t12/data/meta.mat: WNID of synset 3 is not text" ]
    nothing_written
}

@test "a meta.mat whose struct claims absurd sizes: one line, exit 4, nothing allocated for them" {
    retar "$DEVKIT" '
import struct
data = bytearray(members[0][1])
def words(*values):
    return struct.pack("<%dI" % len(values), *values)
body = words(6, 8, 2, 0, 5, 8, 0x7fffffff, 1, 1, 7) + b"synsets\0" + words(0x00040005, 8)
body += words(1, 8) + b"WNID\0\0\0\0"
members[0][1] = bytes(data[:128]) + words(14, len(body)) + body'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed synsets: $DEVKIT: ILSVRC2012_devkit_t12/data/meta.mat: synsets declares 2147483647 entries, more than 32767" ]
    nothing_written
}

@test "a validation ground truth of the wrong line count: one line, exit 4" {
    retar "$DEVKIT" 'members[1][1] = members[1][1] + b"3\n"'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: ground truth does not match: $RAW/ILSVRC2012_img_val.tar holds 7 images, its ground truth has 8 lines" ]
    nothing_written
}

@test "a ground truth naming no synset's id: one line naming the line, exit 4" {
    retar "$DEVKIT" 'members[1][1] = b"1\n2\n99\n" + members[1][1].split(b"\n", 3)[3]'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: malformed ground truth: $DEVKIT: ILSVRC2012_devkit_t12/data/ILSVRC2012_validation_ground_truth.txt: line 3: \"99\" is no synset's id" ]
    nothing_written
}

@test "more training images than num_train_images add up to: one line, exit 4" {
    retar "$TRAIN" 'members.append(["n01440764.tar", members[1][1]]); members[-1][0] = "n01440764.copy.tar"'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: too many training images: $TRAIN: more than the 23 the devkit's num_train_images add up to" ]
    nothing_written
}

@test "export passes the JPEGs through, preview decodes them, serve refuses before binding" {
    convert
    [ "$status" -eq 0 ]
    H5="$OUT/ilsvrc2012.hdf5"
    run fuel-export "$H5" --to image-list -o "$BATS_TEST_TMPDIR/list" --split valid
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
lines = open(sys.argv[2] + "/ilsvrc2012_valid.txt").read().split("\n")[:-1]
for number, line in enumerate(lines):
    path, label = line.split(" ")
    assert open(sys.argv[2] + "/" + path, "rb").read() == bytes(f["encoded_images"][23 + number])
    assert int(label) == f["targets"][23 + number, 0]
print(len(lines), sorted({line.split(" ")[0].rsplit(".", 1)[1] for line in lines}))' \
        "$H5" "$BATS_TEST_TMPDIR/list"
    [ "$output" = "7 ['jpg', 'png']" ]
    run fuel-export "$H5" --to npy -o "$BATS_TEST_TMPDIR/npy"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-export: source encoded_images is variable-length: npy cannot hold it; recordio, image-list, webdataset, tfrecord can" ]
    run fuel-preview "$H5" -o "$BATS_TEST_TMPDIR/grid.png" -n 4 --split test
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run $PYTHON -c 'from PIL import Image; import sys; print(Image.open(sys.argv[1]).mode)' \
        "$BATS_TEST_TMPDIR/grid.png"
    [ "$output" = "RGB" ]
    run timeout 20 fuel-serve "$H5" --bind tcp://127.0.0.1:0
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-serve: source encoded_images is variable-length: its examples have no common shape" ]
}
