#!/usr/bin/env bats
# fuel-convert ilsvrc2010: Fuel's layout and order on raw files made with the real tools, the patch
# images (each used, in place of the image it names) and the gzip-wrapped JPEGs of the training
# archive (stored inflated), and their refusals.

PYTHON=/usr/bin/python3

setup() {
    RAW="$BATS_TEST_TMPDIR/raw"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
    $PYTHON tests/helpers/ilsvrc_archives.py make "$RAW" --year 2010
    PATCHES="$RAW/patch_images.tar"
    TRAIN="$RAW/ILSVRC2010_images_train.tar"
}

convert() {
    run fuel-convert ilsvrc2010 -d "$RAW" -o "$OUT" "$@"
}

nothing_written() {
    [ -z "$(ls -A "$OUT")" ] || { ls -A "$OUT"; false; }
}

# retar ARCHIVE PYTHON: rewrites the tar ARCHIVE after PYTHON changes `members` ([name, bytes]).
retar() {
    $PYTHON - "$1" "$2" <<'EOF'
import io, sys, tarfile
path, change = sys.argv[1], sys.argv[2]
with tarfile.open(path) as tar:
    members = [[info.name, tar.extractfile(info).read()] for info in tar if info.isfile()]
exec(change)
with tarfile.open(path, "w:gz" if path.endswith(".gz") else "w") as tar:
    for name, data in members:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
EOF
}

@test "ilsvrc2010 matches Fuel's layout and order, patches and gzipped members included" {
    convert --threads 2
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/ilsvrc2010.hdf5" ]
    run $PYTHON tests/helpers/ilsvrc_archives.py expect "$RAW" "$OUT/ilsvrc2010.hdf5" --year 2010
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run fuel-info --check "$OUT/ilsvrc2010.hdf5"
    [ "$status" -eq 0 ]
}

@test "the patches and the inflated members are in the file: every split has targets" {
    convert
    [ "$status" -eq 0 ]
    run $PYTHON -c '
import io, sys, tarfile, h5py
f = h5py.File(sys.argv[1], "r")
names = [name.decode() for name in f["filenames"][:, 0]]
images = f["encoded_images"]
patches = {info.name.split("/")[-1]: tarfile.open(sys.argv[2]).extractfile(info).read()
           for info in tarfile.open(sys.argv[2]) if info.name.endswith(".JPEG")}
used = [name for name in patches if bytes(images[names.index(name)]) == patches[name]]
gzipped = sum(bytes(images[row])[:2] == b"\x1f\x8b" for row in range(images.shape[0]))
starts = sorted({bytes(images[row])[:2].hex() for row in range(images.shape[0])})
print(len(used), gzipped, starts, f["targets"].shape, [r["available"] for r in f.attrs["split"]].count(True))' \
        "$OUT/ilsvrc2010.hdf5" "$PATCHES"
    [ "$output" = "3 0 ['8950', 'ffd8'] (36, 1) 9" ]
}

@test "the raw fixture goes through convert and info --check" {
    FIXTURE="$BATS_TEST_TMPDIR/fixture"
    run fuel-fixture ilsvrc2010 --raw -o "$FIXTURE" -n train=10,valid=4,test=3
    [ "$status" -eq 0 ]
    run fuel-convert ilsvrc2010 -d "$FIXTURE" -o "$OUT"
    [ "$status" -eq 0 ]
    run fuel-info --check "$OUT/ilsvrc2010.hdf5"
    [ "$status" -eq 0 ]
    run fuel-fixture ilsvrc2010 -o "$BATS_TEST_TMPDIR/hdf5" -n train=5,valid=2,test=2
    [ "$status" -eq 0 ]
    run fuel-info --check "$BATS_TEST_TMPDIR/hdf5/ilsvrc2010.hdf5"
    [ "$status" -eq 0 ]
}

@test "a patch that replaces no image: one line naming it, exit 4, nothing left" {
    retar "$PATCHES" 'members.append(["patch_images/val/ILSVRC2010_val_00009999.JPEG", members[0][1]])'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: unused patch: $PATCHES: val/ILSVRC2010_val_00009999.JPEG replaces no image of the val archive" ]
    nothing_written
}

@test "a gzip member that does not inflate, or holds no image: one line naming it, exit 4" {
    retar "$TRAIN" '
import io, tarfile
inner = tarfile.open(fileobj=io.BytesIO(members[0][1]))
parts = [[i.name, inner.extractfile(i).read()] for i in inner]
gzipped = [p for p in parts if p[1][:2] == b"\x1f\x8b"]
gzipped[0][1] = gzipped[0][1][:40]
out = io.BytesIO()
with tarfile.open(fileobj=out, mode="w") as tar:
    for name, data in parts:
        info = tarfile.TarInfo(name); info.size = len(data); tar.addfile(info, io.BytesIO(data))
members[0][1] = out.getvalue()
open(sys.argv[1] + ".name", "w").write(members[0][0] + ": " + gzipped[0][0])'
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: cannot inflate image: $TRAIN: $(cat "$TRAIN.name"): unexpected end of file" ]
    nothing_written
}

@test "a test ground truth of the wrong line count: one line, exit 4" {
    printf '1\n' >> "$RAW/ILSVRC2010_test_ground_truth.txt"
    convert
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: ground truth does not match: $RAW/ILSVRC2010_images_test.tar holds 6 images, its ground truth has 7 lines" ]
    nothing_written
}
