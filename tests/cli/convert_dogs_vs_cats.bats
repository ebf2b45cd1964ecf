#!/usr/bin/env bats
# fuel-convert dogs_vs_cats: Fuel's output from the train and test1 zips of JPEGs (numpy's shuffle
# of the training members, the test images by number, PIL's pixels), the fixture's grayscale
# member (--quirks), exports of the file, and every refusal.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
CHECK=tests/helpers/jpeg_datasets.py

setup() {
    RAW="$FUEL_FIXTURES/raw/dogs_vs_cats"
    EXPECTED="$FUEL_FIXTURES/expected/dogs_vs_cats.hdf5"
    OUT="$BATS_TEST_TMPDIR/out"
    WORK="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$WORK"
    cp "$RAW"/*.zip "$WORK/"
    chmod u+w "$WORK"/*.zip
}

# remake SPLIT OPERATION...: rewrites $WORK's SPLIT zip from the reference one (remake_zip.py).
remake() {
    local file=dogs_vs_cats.$1.zip
    shift
    $PYTHON tests/helpers/remake_zip.py "$RAW/$file" "$WORK/$file" "$@"
}

convert() {
    run --separate-stderr fuel-convert dogs_vs_cats -d "$WORK" -o "$OUT" "$@"
}

# refused CODE MESSAGE: the conversion exits CODE with MESSAGE alone on stderr, writing nothing.
refused() {
    convert
    [ "$status" -eq "$1" ] || { echo "exit $status: $stderr"; false; }
    [ "$stderr" = "fuel-convert: $2" ] || { echo "$stderr"; false; }
    [ -z "$output" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "dogs_vs_cats matches Fuel's dogs_vs_cats.hdf5 and prints the output path" {
    run fuel-convert dogs_vs_cats -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/dogs_vs_cats.hdf5" ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/dogs_vs_cats.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$(ls -A "$OUT")" = "dogs_vs_cats.hdf5" ]
}

@test "the training members in numpy's RandomState(123522).shuffle order, the test ones by number" {
    convert
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" dogs_vs_cats "$WORK" "$OUT/dogs_vs_cats.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "cat.1.jpg cat.2.jpg dog.1.jpg dog.3.jpg dog.2.jpg dog.0.jpg cat.3.jpg cat.0.jpg" ]
    # Test images 1, 10, 11, 2, ... in the archive; 5.jpg is CMYK: Fuel's 4 channels.
    run $PYTHON -c 'import h5py, sys; print(h5py.File(sys.argv[1])["image_features_shapes"][12, 0])' \
        "$OUT/dogs_vs_cats.hdf5"
    [ "$output" = "4" ]
}

@test "the raw fixture --quirks: real sizes, a grayscale member stored with one channel, PIL's pixels" {
    fuel-fixture dogs_vs_cats --raw --quirks -o "$WORK" -n train=9,test=4 --seed 3 > /dev/null
    for threads in 1 3; do
        convert --threads "$threads"
        [ "$status" -eq 0 ]
        mv "$OUT/dogs_vs_cats.hdf5" "$BATS_TEST_TMPDIR/threads$threads.hdf5"
        run $PYTHON "$CHECK" dogs_vs_cats "$WORK" "$BATS_TEST_TMPDIR/threads$threads.hdf5"
        [ "$status" -eq 0 ] || { echo "$output"; false; }
    done
    run $PYTHON tests/helpers/compare_hdf5.py "$BATS_TEST_TMPDIR/threads1.hdf5" "$BATS_TEST_TMPDIR/threads3.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON -c '
import h5py, sys, zipfile
shapes = h5py.File(sys.argv[1])["image_features_shapes"][...]
assert sorted(shapes[:, 0].tolist()) == [1, 1] + [3] * 11, shapes[:, 0]
assert shapes[:, 1:].max() == 500 and shapes[:, 1:].min() >= 180, shapes' "$BATS_TEST_TMPDIR/threads1.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    fuel-info --check "$BATS_TEST_TMPDIR/threads1.hdf5"
}

@test "the raw fixture without --quirks: every member RGB, as Python Fuel's converter needs" {
    fuel-fixture dogs_vs_cats --raw -o "$WORK" -n 12 > /dev/null
    run $PYTHON -c '
import io, sys, zipfile
from PIL import Image
for name in ("train", "test1"):
    archive = zipfile.ZipFile(sys.argv[1] + "/dogs_vs_cats." + name + ".zip")
    print(name, sorted(set(Image.open(io.BytesIO(archive.read(member))).mode
                            for member in archive.namelist()[1:])))' "$WORK"
    [ "$output" = "train ['RGB']"$'\n'"test1 ['RGB']" ]
    run fuel-fixture mnist --raw --quirks -o "$WORK/mnist"
    [ "$status" -eq 2 ]
    [[ "$output" == "fuel-fixture: mnist has no quirk that Python Fuel cannot read: --quirks is for dogs_vs_cats"* ]]
}

@test "CMYK members: stored with 4 channels as Fuel stores them, exported as PIL's RGB of them" {
    remake train cmyk=train/cat.1.jpg
    convert -q
    [ "$status" -eq 0 ]
    run fuel export "$OUT/dogs_vs_cats.hdf5" --to image-list --data image_features -o "$BATS_TEST_TMPDIR/list"
    [ "$status" -eq 0 ]
    $PYTHON - "$OUT/dogs_vs_cats.hdf5" "$BATS_TEST_TMPDIR/list" "$WORK" <<'PY'
import io, sys, zipfile, h5py, numpy
from PIL import Image
handle, folder, raw = h5py.File(sys.argv[1], "r"), sys.argv[2], sys.argv[3]
shapes, features = handle["image_features_shapes"][:], handle["image_features"]
members = {}
for split in ("train", "test1"):
    with zipfile.ZipFile(f"{raw}/dogs_vs_cats.{split}.zip") as archive:
        for name in archive.namelist()[1:]:
            image = Image.open(io.BytesIO(archive.read(name)))
            if image.mode == "CMYK":
                members[name] = image
assert sorted(members) == ["test1/5.jpg", "train/cat.1.jpg"], sorted(members)
rows = [line.split()[0] for split in ("train", "test")
        for line in open(f"{folder}/dogs_vs_cats_{split}.txt")]
cmyk = [row for row in range(len(shapes)) if shapes[row][0] == 4]
assert len(cmyk) == 2, shapes
for row in cmyk:
    stored = features[row].reshape(shapes[row])
    # Fuel's numpy.array(Image.open(member)): the member whose CMYK pixels these are.
    source = [image for image in members.values()
              if numpy.array_equal(numpy.asarray(image).transpose(2, 0, 1), stored)]
    assert len(source) == 1, row
    exported = numpy.asarray(Image.open(f"{folder}/{rows[row]}"))
    assert exported.shape[2] == 3
    assert numpy.array_equal(exported, numpy.asarray(source[0].convert("RGB"))), row
PY
}

@test "a training archive without a directory entry: every image kept and shuffled" {
    remake train drop=train/
    convert
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" dogs_vs_cats "$WORK" "$OUT/dogs_vs_cats.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "cat.1.jpg cat.2.jpg dog.1.jpg dog.3.jpg dog.2.jpg dog.0.jpg cat.3.jpg cat.0.jpg" ]
}

@test "a cut of Fuel's file keeps its layout: int32 shapes, image_features_shapes_labels" {
    run fuel-fixture --from "$EXPECTED" -n 2 -o "$OUT"
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import h5py, sys
cut, parent = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])
assert sorted(cut) == sorted(parent), sorted(cut)
assert cut["image_features_shapes"].dtype == "int32"
assert cut["image_features_shapes"][...].tolist() == parent["image_features_shapes"][[0, 1, 8, 9]].tolist()' \
        "$OUT/dogs_vs_cats.hdf5" "$EXPECTED"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "missing inputs: Fuel's message, exit 3" {
    rm "$WORK"/*.zip
    refused 3 "2 required files not found: $WORK/dogs_vs_cats.train.zip and 1 more (-v lists them); Did you forget to run fuel-download?"
}

@test "a truncated zip: exit 4 naming it, nothing written" {
    head -c 6000 "$RAW/dogs_vs_cats.train.zip" > "$WORK/dogs_vs_cats.train.zip"
    refused 4 "cannot read zip directory: $WORK/dogs_vs_cats.train.zip: no end of central directory record at its end: truncated or followed by other bytes"
}

@test "a damaged member: exit 4 naming the archive and the member" {
    $PYTHON - "$WORK/dogs_vs_cats.test1.zip" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
start = data.index(b"test1/2.jpg") + len("test1/2.jpg") + 40  # inside 2.jpg's deflated data
data[start] ^= 0x55
open(sys.argv[1], "wb").write(data)
PY
    convert
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-convert: cannot read archive: $WORK/dogs_vs_cats.test1.zip: test1/2.jpg: "* ]] || { echo "$stderr"; false; }
    [ -z "$(ls -A "$OUT")" ]
}

@test "a member that is not a JPEG, or whose data do not decode: exit 4 naming it" {
    printf 'not a JPEG at all' > "$BATS_TEST_TMPDIR/text"
    remake train replace=train/dog.2.jpg:"$BATS_TEST_TMPDIR/text"
    refused 4 "cannot decode JPEG: $WORK/dogs_vs_cats.train.zip: train/dog.2.jpg: Not a JPEG file: starts with 0x6e 0x6f"
    cp "$RAW/dogs_vs_cats.train.zip" "$WORK/"
    remake test1 truncate=test1/3.jpg
    convert
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-convert: cannot decode JPEG: $WORK/dogs_vs_cats.test1.zip: test1/3.jpg: "* ]] || { echo "$stderr"; false; }
    [ -z "$(ls -A "$OUT")" ]
}

@test "member names Fuel could not label or sort: exit 4 naming them" {
    remake train add=train/bird.0.jpg:"$RAW/dogs_vs_cats.train.zip"
    refused 4 "not a cat or dog image: $WORK/dogs_vs_cats.train.zip: train/bird.0.jpg: its name starts with neither cat. nor dog."
    cp "$RAW/dogs_vs_cats.train.zip" "$WORK/"
    remake test1 add=test1/cover.jpg:"$RAW/dogs_vs_cats.train.zip"
    refused 4 "not a numbered test image: $WORK/dogs_vs_cats.test1.zip: test1/cover.jpg: expected NUMBER.jpg"
}

@test "members stored in another order than the central directory lists: exit 4" {
    remake test1 directory-reversed
    refused 4 "cannot read archive: $WORK/dogs_vs_cats.test1.zip: test1/1.jpg: where its central directory lists test1/9.jpg"
}

@test "an archive without images: exit 4" {
    remake test1 $(for n in 1 2 3 4 5 6 7 8 9 10 11; do printf 'drop=test1/%s.jpg ' $n; done)
    refused 4 "no images: $WORK/dogs_vs_cats.test1.zip: the archive holds no file"
}

@test "export, preview and serve read the file: the test split has no targets" {
    fuel-fixture dogs_vs_cats -o "$OUT" -n train=5,test=3 > /dev/null
    run fuel export "$OUT/dogs_vs_cats.hdf5" --to recordio --data image_features -o "$BATS_TEST_TMPDIR/rec"
    [ "$status" -eq 0 ]
    [ "$(wc -l < "$BATS_TEST_TMPDIR/rec/dogs_vs_cats_train.lst")" -eq 5 ]
    [ "$(cut -f2 "$BATS_TEST_TMPDIR/rec/dogs_vs_cats_test.lst" | sort -u)" = "0" ]
    $PYTHON - "$BATS_TEST_TMPDIR/rec/dogs_vs_cats_train.rec" "$OUT/dogs_vs_cats.hdf5" <<'PY'
import io, struct, sys, h5py, numpy
from PIL import Image
handle = h5py.File(sys.argv[2], "r")
data, offset, row = open(sys.argv[1], "rb").read(), 0, 0
while offset < len(data):
    magic, word = struct.unpack("<II", data[offset:offset + 8])
    length = word & ((1 << 29) - 1)
    label = struct.unpack("<f", data[offset + 12:offset + 16])[0]
    image = numpy.asarray(Image.open(io.BytesIO(data[offset + 32:offset + 8 + length])))
    image = image[None] if image.ndim == 2 else image.transpose(2, 0, 1)
    expected = handle["image_features"][row].reshape(handle["image_features_shapes"][row])
    assert numpy.array_equal(image, expected) and label == handle["targets"][row, 0], row
    offset, row = offset + 8 + (length + 3) // 4 * 4, row + 1
assert row == 5, row
PY
    run --separate-stderr fuel preview "$OUT/dogs_vs_cats.hdf5" --source image_features -n 4 -o "$BATS_TEST_TMPDIR/grid.png"
    [ "$status" -eq 0 ]
    # Each label with its class name from the file's card.
    [ "$output" = "$($PYTHON -c 'import h5py, json, sys; f = h5py.File(sys.argv[1]); names = json.loads(f.attrs["fuel_card"])["classes"]["targets"]; t = ["%d:%s" % (n, names[n]) for n in f["targets"][:4, 0]]; print(" ".join(t[:2])); print(" ".join(t[2:]))' "$OUT/dogs_vs_cats.hdf5")" ]
    run --separate-stderr timeout 20 fuel serve "$OUT/dogs_vs_cats.hdf5" --bind tcp://127.0.0.1:1
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"image_features"* ]] || { echo "$stderr"; false; }
}
