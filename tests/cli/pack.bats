#!/usr/bin/env bats
# fuel pack: Fuel's chapter 4 examples packed and compared with the files the chapter makes by
# hand with h5py (tests/helpers/chapter4.py), each input kind, the provenance, the commands that
# read the packed files, and every refusal.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    cd "$BATS_TEST_DIRNAME/../.."
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS FUEL_MIRROR SOURCE_DATE_EPOCH
    HELPERS="$PWD/tests/helpers"
    WORK="$BATS_TEST_TMPDIR/work"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$HOME" "$WORK" "$OUT"
}

# The chapter's inputs (seeded) in $WORK.
chapter_inputs() {
    "$PYTHON" "$HELPERS/chapter4.py" inputs "$WORK" 1
}

# The toy spec of chapter 4.3, its splits given by SPLITS (YAML lines).
toy_spec() {
    local name=$1 splits=$2
    cat > "$WORK/$name.yaml" <<EOF
name: $name
splits:
$splits
sources:
  vector_features:
    axes: [batch, feature]
    from: [train_vector_features.npy, test_vector_features.npy]
  image_features:
    axes: [batch, channel, height, width]
    from: [train_image_features.npy, test_image_features.npy]
  targets:
    axes: [batch, index]
    from: [train_targets.npy, test_targets.npy]
EOF
}

@test "chapter 4.3: the toy example is the file the chapter makes with h5py" {
    chapter_inputs
    toy_spec toy $'  train: {examples: 90}\n  test: {examples: 10}'
    run --separate-stderr fuel pack "$WORK/toy.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
    [ -z "$stderr" ]
    "$PYTHON" "$HELPERS/chapter4.py" toy "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/toy.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/toy.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5: ok" ]
}

@test "chapter 4.6: even and odd indices, stored in the file and referenced from the split rows" {
    chapter_inputs
    toy_spec indices $'  train: {indices: train_indices.npy}\n  test: {indices: test_indices.npy}'
    run fuel pack "$WORK/indices.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    "$PYTHON" "$HELPERS/chapter4.py" indices "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/indices.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/indices.hdf5"
    [ "$status" -eq 0 ]
}

@test "chapter 4.7: ragged images from one .npy per example, with their shapes and shape labels" {
    chapter_inputs
    cat > "$WORK/ragged.yaml" <<'EOF'
splits:
  train: {examples: 90}
  test: {examples: 10}
sources:
  vector_features:
    axes: [batch, feature]
    from: [train_vector_features.npy, test_vector_features.npy]
  image_features:
    axes: [batch, channel, height, width]
    from: [{arrays: train_images}, {arrays: test_images}]
  targets:
    axes: [batch, index]
    from: [train_targets.npy, test_targets.npy]
EOF
    run --separate-stderr fuel pack "$WORK/ragged.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    "$PYTHON" "$HELPERS/chapter4.py" ragged "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/ragged.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/ragged.hdf5"
    [ "$status" -eq 0 ]
}

@test "the comparison fails on files that differ" {
    chapter_inputs
    toy_spec indices $'  train: {indices: train_indices.npy}\n  test: {indices: test_indices.npy}'
    fuel pack "$WORK/indices.yaml" -o "$OUT"
    "$PYTHON" "$HELPERS/chapter4.py" toy "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/indices.hdf5"
    [ "$status" -eq 1 ]
    [[ "$output" == *"datasets ['image_features', 'targets', 'test_indices', 'train_indices', 'vector_features'], expected ['image_features', 'targets', 'vector_features']"* ]]
    [[ "$output" == *"split rows"* ]]
}

@test "-h lists the options; the spec is required" {
    run --separate-stderr fuel pack -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-pack [-h] SPEC [-o DIR] [-r NAME] [--threads N] [-q] [options]" ]
    [[ "$output" == *"-o, --output-directory DIR"* ]]
    [[ "$output" == *"--threads N"* ]]
    run --separate-stderr fuel-pack
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-pack: missing SPEC"* ]]
}

@test "every file kind: .npz members, Fortran and big-endian .npy, CSV, TSV, HDF5; dtype, scale, rows, splits, comments" {
    cd "$WORK"
    "$PYTHON" - <<'EOF'
import h5py, numpy
x = numpy.arange(60, dtype='>i4').reshape(12, 5)
numpy.savez('stored.npz', x=x, fortran=numpy.asfortranarray(numpy.arange(24.0).reshape(12, 2)))
numpy.savez_compressed('deflated.npz', x=x)
numpy.save('fortran.npy', numpy.asfortranarray(numpy.arange(72, dtype='>u2').reshape(12, 2, 3)))
numpy.save('flags.npy', numpy.arange(8) % 3 == 0)
with open('table.csv', 'w', newline='') as f:
    f.write('\ufeffa,b,"c ""d"""\r\n')
    for i in range(12):
        f.write('%d,%s,%d\r\n' % (i, repr(i * 0.25), -i))
with open('table.tsv', 'w') as f:
    f.write('left\tright\n\n')
    for i in range(12):
        f.write('%d\t%d\n' % (i, 255 - i))
with h5py.File('data.h5', 'w') as f:
    f['group/values'] = numpy.arange(36, dtype='int16').reshape(12, 3)
EOF
    cat > kinds.yaml <<'EOF'
splits:
  train: {examples: 8, comment: fitted}
  test: {rows: "8:12"}
sources:
  stored: {from: stored.npz:x}
  fortran_member: {from: "stored.npz:fortran.npy"}
  deflated: {from: deflated.npz:x, dtype: float32, scale: 0.5, comment: halved}
  fortran: {from: fortran.npy}
  flags: {from: flags.npy, splits: [train]}
  csv: {from: table.csv, columns: ['c "d"', a], dtype: int64}
  tsv: {from: table.tsv, dtype: uint8, axes: [batch, side]}
  hdf5: {from: "data.h5:/group/values"}
EOF
    run --separate-stderr fuel pack kinds.yaml -o "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    "$PYTHON" - "$OUT/kinds.hdf5" <<'EOF'
import sys, h5py, numpy
f = h5py.File(sys.argv[1], 'r')
x = numpy.arange(60).reshape(12, 5)
checks = {
    'stored': (x, 'int32'), 'fortran_member': (numpy.arange(24.0).reshape(12, 2), 'float64'),
    'deflated': ((x * 0.5).astype('float32'), 'float32'),
    'fortran': (numpy.arange(72).reshape(12, 2, 3), 'uint16'),
    'flags': (numpy.arange(8) % 3 == 0, 'bool'),
    'csv': (numpy.array([[-i, i] for i in range(12)]), 'int64'),
    'tsv': (numpy.array([[i, 255 - i] for i in range(12)]), 'uint8'),
    'hdf5': (numpy.arange(36).reshape(12, 3), 'int16'),
}
for name, (values, dtype) in checks.items():
    assert f[name].dtype == dtype, (name, f[name].dtype)
    assert numpy.array_equal(f[name][...], values), name
assert [d.label for d in f['tsv'].dims] == ['batch', 'side']
rows = {(r['split'], r['source']): (r['start'], r['stop'], r['available'], r['comment'])
        for r in f.attrs['split']}
assert rows[(b'train', b'deflated')] == (0, 8, True, b'fitted; halved'), rows
assert rows[(b'test', b'deflated')] == (8, 12, True, b'halved')
assert rows[(b'test', b'flags')] == (0, 0, False, b'.')
assert rows[(b'train', b'flags')] == (0, 8, True, b'fitted')
assert f.attrs['split'].dtype['comment'].itemsize == len('fitted; halved')
# Every input's digest, the HDF5 file's too (hashed from the bytes HDF5 read through fuel's driver).
import hashlib, json
inputs = json.loads(f.attrs['fuel_provenance'])['inputs']
assert 'data.h5' in [entry['name'] for entry in inputs], inputs
for entry in inputs:
    data = open(entry['name'], 'rb').read()
    assert entry['sha256'] == hashlib.sha256(data).hexdigest() and entry['size'] == len(data), entry
EOF
    run fuel info --check "$OUT/kinds.hdf5"
    [ "$status" -eq 0 ]
}

@test "images and classes: ImageFolder's order and classes, PIL's pixels, the class names kept" {
    "$PYTHON" "$HELPERS/image_folders.py" make "$WORK" 3
    cat > "$WORK/images.yaml" <<'EOF'
splits:
  train: {examples: 12}
  test: {examples: 12}
sources:
  features: {from: [{images: train}, {images: test}]}
  targets: {from: [{classes: train}, {classes: test}]}
EOF
    run --separate-stderr fuel pack "$WORK/images.yaml" -o "$OUT" --threads 3
    [ "$status" -eq 0 ]
    run "$PYTHON" "$HELPERS/image_folders.py" check "$OUT/images.hdf5" "$WORK" features targets
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    # Gray, two-channel and RGB images together: a ragged source, its shape labels the image's.
    run fuel info "$OUT/images.hdf5"
    [[ "$output" == *"features  uint8  (24,)    batch  variable-length; shapes features_shapes (24 x 3); shape labels channel, height, width"* ]]
    [[ "$output" == *"targets   int64  (24, 1)  batch, index"* ]]
    # fuel info names the classes targets_classes holds: --json's list as h5py reads them, the text
    # line from them.
    text=$output
    classes=$(fuel info --json "$OUT/images.hdf5" | "$PYTHON" -c 'import h5py, json, sys
stored = [name.decode() for name in h5py.File(sys.argv[1], "r")["targets_classes"][:]]
assert json.load(sys.stdin)["classes"] == {"targets": stored}, stored
print(", ".join("%d %s" % pair for pair in enumerate(stored[:10])))' "$OUT/images.hdf5")
    [[ "$text" == *$'\n'"    classes of targets: $classes"$'\n'* ]]
    run fuel info --check "$OUT/images.hdf5"
    [ "$status" -eq 0 ]
    # fuel stats: the ragged images' values per channel and the classes by name, as numpy has them
    fuel stats --json "$OUT/images.hdf5" > "$WORK/stats.json"
    run "$PYTHON" "$BATS_TEST_DIRNAME/../helpers/stats_check.py" "$OUT/images.hdf5" "$WORK/stats.json"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    grep -q '"channels"' "$WORK/stats.json"
    # preview names each label's class from targets_classes.
    run --separate-stderr fuel preview "$OUT/images.hdf5" -o "$WORK/grid.png" -n 1 --split test
    [ "$output" = "$("$PYTHON" -c 'import h5py, sys; f = h5py.File(sys.argv[1]); n = f["targets"][12, 0]; print("%d:%s" % (n, f["targets_classes"][n].decode()))' "$OUT/images.hdf5")" ]
    # The images' names relative to the spec in the provenance, each with its sha256 (taken from
    # the bytes the workers decode) and size, and the spec's.
    run "$PYTHON" - "$OUT/images.hdf5" "$WORK" <<'EOF'
import hashlib, h5py, json, os, sys
provenance = json.loads(h5py.File(sys.argv[1], 'r').attrs['fuel_provenance'])
for entry in provenance['inputs']:
    data = open(os.path.join(sys.argv[2], entry['name']), 'rb').read()
    assert entry['sha256'] == hashlib.sha256(data).hexdigest(), entry
    assert entry['size'] == len(data), entry
first = provenance['inputs'][1]
print(len(provenance['inputs']), first['name'], provenance['pack']['spec'].splitlines()[0])
EOF
    [ "$output" = "25 train/cat/image00.png splits:" ]
}

@test "an image folder read by two sources: read twice, one provenance entry per image with its sha256" {
    "$PYTHON" "$HELPERS/image_folders.py" make "$WORK" 3
    cat > "$WORK/twice.yaml" <<'EOF'
splits:
  train: {examples: 12}
sources:
  features: {from: {images: train}}
  again: {from: {images: train}, dtype: float32}
  targets: {from: {classes: train}}
EOF
    run --separate-stderr fuel pack "$WORK/twice.yaml" -o "$OUT" --threads 2
    [ "$status" -eq 0 ]
    run "$PYTHON" - "$OUT/twice.hdf5" "$WORK" <<'EOF'
import hashlib, h5py, json, numpy, os, sys
with h5py.File(sys.argv[1], 'r') as f:
    provenance = json.loads(f.attrs['fuel_provenance'])
    assert len(f['features']) == len(f['again']) == 12
    for index in range(12):
        first, second = numpy.asarray(f['features'][index]), numpy.asarray(f['again'][index])
        assert second.dtype == numpy.float32 and (first.astype('float32') == second).all()
names = [entry['name'] for entry in provenance['inputs']]
assert len(names) == len(set(names)), names
for entry in provenance['inputs']:
    data = open(os.path.join(sys.argv[2], entry['name']), 'rb').read()
    assert entry['sha256'] == hashlib.sha256(data).hexdigest() and entry['size'] == len(data), entry
print(len(names))
EOF
    [ "$status" -eq 0 ]
    [ "$output" = 13 ]
}

@test "images of one size make a fixed-shape source, the same whatever the threads" {
    "$PYTHON" - "$WORK/photos" <<'EOF'
import os, sys
import numpy
from PIL import Image
sys.path.insert(0, 'tests/helpers')
import photos
generator = numpy.random.RandomState(5)
for number in range(9):
    folder = os.path.join(sys.argv[1], 'odd' if number % 2 else 'even')
    os.makedirs(folder, exist_ok=True)
    Image.fromarray(photos.picture(generator, 20, 30)).save(
        os.path.join(folder, '%d.jpg' % number), quality=85)
EOF
    cat > "$WORK/photos.yaml" <<'EOF'
name: photos
splits: {all: {examples: 9}}
sources:
  features: {from: {images: photos}, dtype: float32, scale: 0.00392156862745098}
  labels: {from: {classes: photos}, axes: [batch, class]}
EOF
    fuel pack "$WORK/photos.yaml" -o "$OUT/one" --threads 1
    fuel pack "$WORK/photos.yaml" -o "$OUT/four" --threads 4
    "$PYTHON" - "$OUT/one/photos.hdf5" "$OUT/four/photos.hdf5" "$WORK/photos" <<'EOF'
import os, sys, h5py, numpy
from PIL import Image
one, four = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
paths = [os.path.join(sys.argv[3], folder, name) for folder in ('even', 'odd')
         for name in sorted(os.listdir(os.path.join(sys.argv[3], folder)))]
expected = numpy.stack([numpy.asarray(Image.open(p)).transpose(2, 0, 1) for p in paths])
expected = (expected.astype('float64') * 0.00392156862745098).astype('float32')
assert one['features'].shape == (9, 3, 20, 30) and one['features'].dtype == 'float32'
assert numpy.array_equal(one['features'][...], expected)
assert numpy.array_equal(four['features'][...], expected)
assert [d.label for d in one['features'].dims] == ['batch', 'channel', 'height', 'width']
assert list(one['labels'][:, 0]) == [0] * 5 + [1] * 4
assert [d.label for d in one['labels'].dims] == ['batch', 'class']
assert list(one['labels_classes'][...]) == [b'even', b'odd']
EOF
}

@test "packed files work with info, export, preview, serve and fixture --from" {
    load ../helpers/processes
    chapter_inputs
    toy_spec indices $'  train: {indices: train_indices.npy}\n  test: {indices: test_indices.npy}'
    fuel pack "$WORK/indices.yaml" -o "$OUT"
    run fuel info --json "$OUT/indices.hdf5"
    [ "$status" -eq 0 ]
    [[ "$output" == *'"split": "train"'* ]]
    # export: the train split is the even examples.
    fuel export "$OUT/indices.hdf5" --to npy -o "$OUT/export" --data vector_features --label targets
    "$PYTHON" - "$OUT/export" "$WORK" <<'EOF'
import os, sys, numpy
out, work = sys.argv[1], sys.argv[2]
both = numpy.vstack([numpy.load(os.path.join(work, name)) for name in
                     ('train_vector_features.npy', 'test_vector_features.npy')])
assert numpy.array_equal(numpy.load(os.path.join(out, 'indices_train_vector_features.npy')), both[::2])
assert numpy.array_equal(numpy.load(os.path.join(out, 'indices_test_vector_features.npy')), both[1::2])
EOF
    # preview: the toy file's images.
    toy_spec toy $'  train: {examples: 90}\n  test: {examples: 10}'
    fuel pack "$WORK/toy.yaml" -o "$OUT"
    run fuel preview "$OUT/toy.hdf5" -o "$OUT/grid.png" --source image_features -n 4
    [ "$status" -eq 0 ]
    [ "$("$PYTHON" -c 'from PIL import Image; import sys; print(Image.open(sys.argv[1]).mode)' "$OUT/grid.png")" = RGB ]
    # fixture --from: a cut keeps the layout and passes the checks.
    run fuel fixture --from "$OUT/indices.hdf5" -n 5 -o "$OUT/cut"
    [ "$status" -eq 0 ]
    run fuel info --check "$OUT/cut/indices.hdf5"
    [ "$output" = "$OUT/cut/indices.hdf5: ok" ]
    # serve: the train split's batches are the even examples, in order.
    export PYTHONPATH="$HELPERS"
    endpoint=tcp://127.0.0.1:$("$PYTHON" "$HELPERS/fuel_client.py" free-port)
    fuel serve --bind "$endpoint" --batch-size 10 --epochs 1 "$OUT/indices.hdf5" 2>"$OUT/serve.err" 3>&- &
    server=$!
    "$PYTHON" - "$endpoint" "$WORK" <<'EOF'
import os, sys, numpy
from fuel_client import receive_epochs
batches = receive_epochs(sys.argv[1], 1)[0]
both = numpy.vstack([numpy.load(os.path.join(sys.argv[2], name)) for name in
                     ('train_vector_features.npy', 'test_vector_features.npy')])
assert [len(batch[0]) for batch in batches] == [10] * 5
assert numpy.array_equal(numpy.concatenate([batch[2] for batch in batches]), both[::2])
EOF
    wait_bounded "$server"
}

@test "on a terminal a progress line per source, the path alone on stdout; none with -q" {
    chapter_inputs
    toy_spec toy $'  train: {examples: 90}\n  test: {examples: 10}'
    script -qec "fuel pack $WORK/toy.yaml -o $OUT > $OUT/stdout" "$BATS_TEST_TMPDIR/typescript" > /dev/null
    [ "$(cat "$OUT/stdout")" = "$OUT/toy.hdf5" ]
    run grep -c "vector_features  0 of 100 examples" "$BATS_TEST_TMPDIR/typescript"
    [ "$output" -ge 1 ]
    grep -qF "targets  0 of 100 examples" "$BATS_TEST_TMPDIR/typescript"
    script -qec "fuel pack $WORK/toy.yaml -o $OUT -q -r quiet > $OUT/stdout" "$BATS_TEST_TMPDIR/quiet" > /dev/null
    [ "$(cat "$OUT/stdout")" = "$OUT/quiet.hdf5" ]
    run grep -c "examples" "$BATS_TEST_TMPDIR/quiet"
    [ "$output" = 0 ]
}

@test "-r names the file; a spec without a name gives its file name; nothing left after a failure" {
    chapter_inputs
    toy_spec toy $'  train: {examples: 90}\n  test: {examples: 10}'
    sed -i '/^name:/d' "$WORK/toy.yaml"
    run fuel pack "$WORK/toy.yaml" -o "$OUT"
    [ "$output" = "$OUT/toy.hdf5" ]
    run fuel-pack "$WORK/toy.yaml" -o "$OUT" -r other.h5
    [ "$output" = "$OUT/other.h5" ]
    # An image that does not decode, found only while writing: the staging goes, nothing is left.
    mkdir -p "$WORK/pictures"
    "$PYTHON" - "$WORK/pictures" <<'EOF'
import io, sys
import numpy
from PIL import Image
buffer = io.BytesIO()
Image.fromarray(numpy.full((8, 8, 3), 40, numpy.uint8)).save(buffer, 'JPEG')
data = buffer.getvalue()
open(sys.argv[1] + '/a.jpg', 'wb').write(data)
# A header that reads, then scan data cut short: found at decoding, not at probing.
open(sys.argv[1] + '/b.jpg', 'wb').write(data[:-40])
EOF
    printf 'splits: {all: {examples: 2}}\nsources: {x: {from: {images: pictures}}}\n' > "$WORK/bad.yaml"
    run --separate-stderr fuel pack "$WORK/bad.yaml" -o "$OUT/bad"
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-pack: cannot decode JPEG: $WORK/pictures/b.jpg: "* ]]
    [ -z "$(ls -A "$OUT/bad")" ]
}

@test "a large .npy is read once: its rows and its sha256 from the same bytes" {
    cd "$WORK"
    "$PYTHON" -c "import numpy; numpy.save('big.npy', numpy.arange(1 << 19, dtype='<u4').reshape(4096, 128))"
    printf 'name: big\nsplits:\n  train: {examples: 4096}\nsources:\n  rows: {from: big.npy}\n' > big.yaml
    # LeakSanitizer cannot run under ptrace (make check-sanitize).
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
        strace -f -qq -y -e trace=read,pread64,copy_file_range -o trace.txt fuel pack big.yaml -o "$OUT" -q
    [ "$status" -eq 0 ]
    # Every byte taken from big.npy, by a read or a copy in the kernel: once its size, not twice.
    taken=$(awk '/big\.npy>/ && / = [0-9]+$/ { total += $NF } END { print total + 0 }' trace.txt)
    size=$(stat -c %s big.npy)
    echo "$taken of $size bytes taken"
    [ "$taken" -ge "$size" ]
    [ "$taken" -lt $((size + 65536)) ]
    "$PYTHON" - "$OUT/big.hdf5" <<'PY'
import hashlib, json, sys, h5py, numpy
with h5py.File(sys.argv[1], 'r') as f:
    assert numpy.array_equal(f['rows'][()], numpy.load('big.npy'))
    entry = [e for e in json.loads(f.attrs['fuel_provenance'])['inputs'] if e['name'] == 'big.npy'][0]
assert entry['sha256'] == hashlib.sha256(open('big.npy', 'rb').read()).hexdigest(), entry
PY
}

@test "an .npz member whose sizes lie: exit 4 on one line, libarchive's own newline dropped" {
    cd "$WORK"
    "$PYTHON" - <<'PY'
import io, struct, zlib, numpy
buffer = io.BytesIO()
numpy.save(buffer, numpy.zeros(4))
member, name = buffer.getvalue(), b'x.npy'
# Stored, 4,000 bytes more declared than follow the local header.
fields = (0, 0, 0x21, zlib.crc32(member), len(member), len(member) + 4000, len(name))
local = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, *fields, 0) + name
central = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, *fields, 0, 0, 0, 0, 0, 0) + name
end = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1, len(central), len(local) + len(member), 0)
open('x.npz', 'wb').write(local + member + central + end)
PY
    printf 'splits: {all: {examples: 4}}\nsources:\n  x: {from: "x.npz:x"}\n' > lies.yaml
    run -4 bash -c 'fuel pack lies.yaml -o "$1" 2> err.txt' _ "$OUT"
    [ "$(cat err.txt)" = "fuel-pack: cannot read archive: ./x.npz: x.npy: ZIP uncompressed data is wrong size (read 160, expected 4160)" ]
    [ "$(wc -l < err.txt)" -eq 1 ]
    [ -z "$(ls -A "$OUT")" ]
}
