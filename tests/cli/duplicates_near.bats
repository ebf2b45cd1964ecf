#!/usr/bin/env bats
# fuel-duplicates --near: a re-encoded JPEG, a +2 brightness shift and a one-pixel crop resized
# back of photo-like images found among distinct ones, and no distinct pair; the same groups as
# the numpy oracle (tests/helpers/near_hash.py); uint8 arrays; JSON; bad inputs.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
HELPERS="$BATS_TEST_DIRNAME/../helpers"
SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"

setup_file() {
    export HOME="$BATS_FILE_TMPDIR/home" FUEL_CONFIG="$BATS_FILE_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    cd "$BATS_FILE_TMPDIR"
    # 18 stored JPEGs (ILSVRC2012's layout): distinct photo-like 160x120 pictures but for train 1
    # (train 0 decoded and re-encoded at quality 75), valid 2 (train 3 two levels brighter) and
    # test 4 (train 5 cropped by a pixel on every side and resized back).
    fuel-fixture ilsvrc2012 -n 6 -o . > /dev/null
    $PYTHON - "$HELPERS" <<'PYTHON'
import io, sys
import h5py, numpy
from PIL import Image
sys.path.insert(0, sys.argv[1])
import photos
generator = numpy.random.default_rng(40)
def encoded(pixels, quality=90):
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format='JPEG', quality=quality)
    return numpy.frombuffer(out.getvalue(), numpy.uint8)
def decoded(data):
    return numpy.asarray(Image.open(io.BytesIO(data.tobytes())).convert('RGB'))
images = [encoded(photos.picture(generator, 120, 160, detail=20.0)) for _ in range(18)]
images[1] = encoded(decoded(images[0]), 75)
images[6 + 2] = encoded(numpy.clip(decoded(images[3]).astype(int) + 2, 0, 255).astype(numpy.uint8))
cropped = Image.fromarray(decoded(images[5])).crop((1, 1, 159, 119)).resize((160, 120), Image.BILINEAR)
images[12 + 4] = encoded(numpy.asarray(cropped))
with h5py.File('ilsvrc2012.hdf5', 'r+') as f:
    for index, image in enumerate(images):
        f['encoded_images'][index] = image
PYTHON
}

setup() {
    cd "$BATS_FILE_TMPDIR"
}

@test "re-encoded, brightened and cropped copies of photos are found, no distinct pair is" {
    run --separate-stderr fuel-duplicates --near --labels '' ilsvrc2012.hdf5
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    [ "${lines[0]}" = "3 groups of near examples of source encoded_images within 26 of 256 bits among 18 (3 beyond the first of each): 1 within a split, 2 across splits, 0 across files (ilsvrc2012.hdf5: train 6, valid 6, test 6)" ]
    [[ "${lines[1]}" =~ ^"within train: train 0, train 1 "[0-9]+" bits away"$ ]]
    [[ "${lines[2]}" =~ ^"across splits: train 3, valid 2 "[0-9]+" bits away"$ ]]
    [[ "${lines[3]}" =~ ^"across splits: train 5, test 4 "[0-9]+" bits away"$ ]]
    [ "${#lines[@]}" -eq 4 ]
    # exact duplicates find none of them
    run --separate-stderr fuel-duplicates ilsvrc2012.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" == "no two of the 18 examples of source encoded_images are equal ("* ]]
}

@test "--threads 4 prints the bytes --threads 1 does, and names the first image that fails" {
    run --separate-stderr fuel-duplicates --near --threads 1 --json ilsvrc2012.hdf5
    [ "$status" -eq 1 ]
    one=$output
    [[ "$one" == *'"group_count": 3,'* ]]
    run --separate-stderr fuel-duplicates --near --threads 4 --json ilsvrc2012.hdf5
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    [ "$output" = "$one" ]
    run --separate-stderr fuel-duplicates --near --threads 1 ilsvrc2012.hdf5
    one=$output
    run --separate-stderr fuel-duplicates --near --threads 4 ilsvrc2012.hdf5
    [ "$output" = "$one" ]
    # examples 9 and 16 do not decode; 16 is hashed first on some thread, 9 is reported
    cp ilsvrc2012.hdf5 twice-broken.hdf5
    $PYTHON -c "import h5py, numpy
f = h5py.File('twice-broken.hdf5', 'r+')
f['encoded_images'][9] = f['encoded_images'][16] = numpy.frombuffer(b'\xff\xd8 not a JPEG', numpy.uint8)"
    for threads in 1 4; do
        run --separate-stderr fuel-duplicates --near --threads "$threads" twice-broken.hdf5
        [ "$status" -eq 4 ]
        [[ "$stderr" == "fuel-duplicates: cannot decode JPEG: twice-broken.hdf5: encoded_images example 9: "* ]]
        [ -z "$output" ]
    done
}

# Files whose examples are declared, chunked and never written: nothing to read but the count.
@test "more than 2^26 examples as images, in one file or two: refused before any is read" {
    fuel-fixture mnist -n 5 -r declared > /dev/null
    $PYTHON - <<'PYTHON'
import shutil
import h5py
def declare(path, count):
    with h5py.File(path, 'r+') as f:
        del f['features'], f['targets']
        f.create_dataset('features', shape=(count, 28, 28), dtype='uint8', chunks=(1024, 28, 28))
        f.create_dataset('targets', shape=(count, 1), dtype='uint8', chunks=(1024, 1))
        rows = f.attrs['split']
        for row in rows:
            row['start'], row['stop'] = (0, count) if row['split'] == b'train' else (count, count)
        f.attrs['split'] = rows
shutil.copy('declared.hdf5', 'half.hdf5')
declare('declared.hdf5', 2**26 + 1)
declare('half.hdf5', 2**25 + 1)
PYTHON
    run --separate-stderr timeout 20 fuel-duplicates --near declared.hdf5
    [ "$status" -eq 1 ]
    [ "$stderr" = "fuel-duplicates: cannot compare more than 67108864 examples with --near (a parent of 4 bytes is held in memory for each): declared.hdf5" ]
    [ -z "$output" ]
    cp half.hdf5 other.hdf5
    run --separate-stderr timeout 20 fuel-duplicates --near half.hdf5 other.hdf5
    [ "$status" -eq 1 ]
    [ "$stderr" = "fuel-duplicates: cannot compare more than 67108864 examples with --near (a parent of 4 bytes is held in memory for each): other.hdf5" ]
    [ -z "$output" ]
}

@test "beyond the hashes held in memory: spilled, searched through sorted runs, the same groups" {
    # two files of 300 examples: three equal copies, a chain of brightened copies, copies across
    # the files (the last examples among them, past the count of distinct hashes) and a label
    # conflict; the groups are the oracle's connected components, on one thread or two
    for name in a b; do
        fuel-fixture mnist -n train=200,test=100 -r "$name" --seed "${#name}$RANDOM" > /dev/null
    done
    $PYTHON - "$HELPERS" <<'PYTHON'
import json, sys
import h5py, numpy
sys.path.insert(0, sys.argv[1])
import near_hash
a, b = h5py.File('a.hdf5', 'r+'), h5py.File('b.hdf5', 'r+')
x, y = a['features'], a['targets']
x[10] = x[40] = x[250] = x[3]
x[60] = numpy.clip(x[7].astype(int) + 2, 0, 255)
x[61] = numpy.clip(x[7].astype(int) + 4, 0, 255)
y[7], y[60] = 1, 2
b['features'][5] = x[7]
b['features'][298] = numpy.clip(x[120].astype(int) + 2, 0, 255)
b['features'][299] = x[121]
pixels = numpy.concatenate([a['features'][:], b['features'][:]])
bits = near_hash.hashes(pixels)
distance = near_hash.distances(bits, bits)
parents = list(range(600))
def root(member):
    while parents[member] != member:
        member = parents[member]
    return member
for first in range(600):
    for second in range(first + 1, 600):
        if distance[first, second] <= 26:
            parents[max(root(first), root(second))] = min(root(first), root(second))
def name(member):
    file, index = divmod(member, 300)
    return [file, 'train' if index < 200 else 'test', index % 200]
groups = {}
for member in range(600):
    groups.setdefault(root(member), []).append(name(member))
json.dump(sorted(g for g in groups.values() if len(g) > 1), open('oracle.json', 'w'))
PYTHON
    groups() {
        $PYTHON -c "import json, sys
print(json.dumps(sorted([[m['file'], m['split'], m['index']] for m in g['members']] for g in json.load(sys.stdin)['groups'])))"
    }
    run --separate-stderr fuel-duplicates --near --json --threads 1 a.hdf5 b.hdf5
    [ "$status" -eq 1 ]
    whole=$output
    [ "$(groups <<< "$whole")" = "$(cat oracle.json)" ]
    [[ "$(cat oracle.json)" == *'[0, "train", 3], [0, "train", 10], [0, "train", 40], [0, "test", 50]]'* ]]
    for held in 0 1 7 64; do
        for threads in 1 2; do
            FUEL_DUPLICATES_MEMORY_EXAMPLES=$held run --separate-stderr fuel-duplicates --near \
                --json --threads "$threads" a.hdf5 b.hdf5
            [ "$status" -eq 1 ]
            [ -z "$stderr" ]
            [ "$output" = "$whole" ]
        done
    done
    # the text report too, and the scratch files are gone; a TMPDIR that cannot hold them: exit 7
    run --separate-stderr fuel-duplicates --near a.hdf5 b.hdf5
    text=$output
    mkdir scratch
    TMPDIR=$PWD/scratch FUEL_DUPLICATES_MEMORY_EXAMPLES=7 run --separate-stderr fuel-duplicates \
        --near a.hdf5 b.hdf5
    [ "$status" -eq 1 ]
    [ "$output" = "$text" ]
    [ -z "$(ls -A scratch)" ]
    TMPDIR=$PWD/missing FUEL_DUPLICATES_MEMORY_EXAMPLES=7 run --separate-stderr fuel-duplicates \
        --near a.hdf5 b.hdf5
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-duplicates: cannot create scratch file: $PWD/missing: No such file or directory" ]
    [ -z "$output" ]
    # the disk fills while examples are spilled, or while a block's runs are: the same exit,
    # nothing left behind
    for after in 3 200; do
        run --separate-stderr env TMPDIR="$PWD/scratch" FUEL_DUPLICATES_MEMORY_EXAMPLES=7 \
            FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="$PWD/scratch/*" \
            FAIL_IO_AFTER=$after LD_PRELOAD="$SHIM" \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
            fuel-duplicates --near a.hdf5 b.hdf5
        [ "$status" -eq 7 ]
        [ "$stderr" = "fuel-duplicates: cannot write scratch file: $PWD/scratch: No space left on device" ]
        [ -z "$output" ]
        [ -z "$(ls -A scratch)" ]
    done
}

@test "33,000 examples, compared in slices on two threads: the groups one thread finds" {
    # past malloc's mmap threshold a thread's parents begin as zeros, not as the examples; the
    # last places hold a copy of one of three equal examples and noisy copies
    fuel-fixture mnist -n train=26000,test=7000 -r large > /dev/null
    $PYTHON -c "import h5py, numpy
x = h5py.File('large.hdf5', 'r+')['features']
noise = numpy.random.default_rng(1).integers(-12, 13, (2,) + x[5].shape)
x[10] = x[40] = x[32998] = x[3]
x[32997] = numpy.clip(x[6].astype(int) + noise[0], 0, 255)
x[32999] = numpy.clip(x[5].astype(int) + noise[1], 0, 255)"
    run --separate-stderr fuel-duplicates --near --json --threads 1 large.hdf5
    [ "$status" -eq 1 ]
    whole=$output
    [ "$($PYTHON -c "import json, sys
print(json.dumps(sorted([[m['split'], m['index']] for m in g['members']] for g in json.load(sys.stdin)['groups'])))" <<< "$whole")" = '[[["train", 3], ["train", 10], ["train", 40], ["test", 6998]], [["train", 5], ["test", 6999]], [["train", 6], ["test", 6997]]]' ]
    for held in 0 9999; do
        FUEL_DUPLICATES_MEMORY_EXAMPLES=$held run --separate-stderr fuel-duplicates --near \
            --json --threads 2 large.hdf5
        [ "$status" -eq 1 ]
        [ -z "$stderr" ]
        [ "$output" = "$whole" ]
    done
}

@test "on a terminal, the spilled search's passes are counted on stderr, then cleared" {
    fuel-fixture mnist -n train=20,test=10 -r small > /dev/null
    FUEL_DUPLICATES_MEMORY_EXAMPLES=4 script -qec "fuel-duplicates --near small.hdf5 > stdout" \
        typescript > /dev/null
    grep -qF "small.hdf5  0 of 30 examples" typescript
    grep -qF -- "--near search  0 of 28 passes" typescript
    drawn=$(cat typescript)
    [[ "${drawn##*--near search}" == *$'\e[1A\r\e[J'* ]] # cleared after its last drawing
    [[ "$(cat stdout)" == *" of the 30 examples of source features "* ]]
    # in memory there is no such stage; with --threshold 8, 9 blocks and the equal hashes' pass
    script -qec "fuel-duplicates --near small.hdf5 > /dev/null" memory > /dev/null
    run grep -cF -- "--near search" memory
    [ "$output" = 0 ]
    FUEL_DUPLICATES_MEMORY_EXAMPLES=4 script -qec \
        "fuel-duplicates --near --threshold 8 small.hdf5 > /dev/null" eight > /dev/null
    grep -qF -- "--near search  0 of 10 passes" eight
}

@test "the groups and distances are the numpy oracle's, by brute force over every pair" {
    # the oracle hashes the pixels PIL decodes at full size; fuel decodes at a reduced scale, so
    # the two agree on the groups, the distances within a few bits
    run --separate-stderr fuel-duplicates --near --json -q ilsvrc2012.hdf5
    [ "$status" -eq 1 ]
    echo "$output" > near.json
    $PYTHON - "$HELPERS" <<'PYTHON'
import io, itertools, json, sys
import h5py, numpy
from PIL import Image
sys.path.insert(0, sys.argv[1])
import near_hash
d = json.load(open('near.json'))
assert d['near'] == {'hash': 'dct', 'bits': 256, 'threshold': 26}, d['near']
f = h5py.File('ilsvrc2012.hdf5', 'r')
pixels = [numpy.asarray(Image.open(io.BytesIO(data.tobytes())).convert('RGB'))
          for data in f['encoded_images'][:]]
bits = near_hash.hashes(numpy.array(pixels).transpose(0, 3, 1, 2))
distance = near_hash.distances(bits, bits)
names = [(split, index) for split in ('train', 'valid', 'test') for index in range(6)]
pairs = {(names[a], names[b]) for a, b in itertools.combinations(range(18), 2) if distance[a, b] <= 26}
found = {tuple((m['split'], m['index']) for m in g['members']) for g in d['groups']}
assert found == pairs, (found, pairs)
for g in d['groups']:
    first, second = [names.index((m['split'], m['index'])) for m in g['members']]
    assert g['members'][0]['distance'] == 0
    assert abs(g['members'][1]['distance'] - distance[first, second]) <= 6, (g, distance[first, second])
others = [distance[a, b] for a, b in itertools.combinations(range(18), 2) if (names[a], names[b]) not in pairs]
assert min(others) > 60, min(others)
PYTHON
}

@test "--plot: each pair side by side, the images PIL decodes fitted into their cells, labelled" {
    run --separate-stderr fuel-duplicates --near -q --json --plot pairs.png ilsvrc2012.hdf5
    [ "$status" -eq 1 ]
    [ -z "$stderr" ]
    echo "$output" > pairs.json
    $PYTHON - "$BATS_TEST_DIRNAME/../../common/formats/png/plot_font.c" <<'PYTHON'
import io, json, re, sys
import h5py, numpy
from PIL import Image
# the font's glyphs, read from its source: 95 rows of 7 bytes from ' ' on, bit 4 the leftmost
glyphs = [[int(v, 16) for v in row.split(',')]
          for row in re.findall(r'^\s*\{(0x[^}]*)\}', open(sys.argv[1]).read(), re.M)]
assert len(glyphs) == 95, len(glyphs)
def text(lines):
    """The 96 x 30 band the lines of text (cut to 16 characters) make, 10 pixels apart."""
    band = numpy.full((30, 96), 255)
    for number, line in enumerate(lines):
        for position, character in enumerate(line[:16]):
            for row, bits in enumerate(glyphs[ord(character) - 32]):
                for column in range(5):
                    if bits & (0x10 >> column):
                        band[number * 10 + row, position * 6 + column] = 0
    return band
plot = numpy.asarray(Image.open('pairs.png').convert('RGB')).astype(int)
cell, gap, row_height = 96, 8, 96 + 3 + 30 + 8
assert plot.shape == (gap + 3 * row_height, 3 * gap + 2 * cell, 3), plot.shape
f = h5py.File('ilsvrc2012.hdf5', 'r')
images, targets = f['encoded_images'], f['targets']
groups = json.load(open('pairs.json'))['groups']
pairs = [(0, 1), (3, 6 + 2), (5, 12 + 4)]  # the report's order: first member, then the other
names = [(split, index) for split in ('train', 'valid', 'test') for index in range(6)]
for row, pair in enumerate(pairs):
    for column, example in enumerate(pair):
        picture = numpy.asarray(Image.open(io.BytesIO(images[example].tobytes())).convert('RGB'))
        height, width = picture.shape[:2]  # 120 x 160: fitted to 72 x 96, centred
        fitted = picture[numpy.arange(72) * height // 72][:, numpy.arange(96) * width // 96]
        top, left = gap + row * row_height + 12, gap + column * (cell + gap)
        assert (plot[top:top + 72, left:left + 96] == fitted).all(), (row, column)
        assert (plot[top - 12:top, left:left + 96] == 255).all()
        member = groups[row]['members'][column]
        split, index = names[example]
        assert (member['split'], member['index']) == (split, index), member
        lines = ['%s %d' % (split, index)]
        if split != 'test':  # ILSVRC2012's test images have no labels
            label = int(targets[example][0])
            assert member['label'] == label and member['class'].startswith('n'), member
            lines.append('%d %s' % (label, member['class']))
        band = plot[top + 72 + 12 + 3:top + 72 + 12 + 33, left:left + 96]
        assert (band == text(lines)[:, :, None]).all(), (row, column, lines)
middle = gap + cell + 3
assert (plot[:, middle:middle + 2] == 128).all()
assert (plot[row_height + 3:row_height + 5] == 128).all()
PYTHON
    # a source that is not of images cannot be drawn; nothing is left
    run --separate-stderr fuel-duplicates --source targets --plot targets.png ilsvrc2012.hdf5
    [ "$status" -eq 2 ]
    [ ! -e targets.png ]
}

@test "uint8 arrays with a channel axis: a brightened copy; the oracle's hashes; a label conflict" {
    fuel-fixture mnist -n train=20,test=10 -r a > /dev/null
    $PYTHON - "$HELPERS" <<'PYTHON'
import sys
import h5py, numpy
sys.path.insert(0, sys.argv[1])
import near_hash
with h5py.File('a.hdf5', 'r+') as f:
    x, y = f['features'], f['targets']
    x[22] = numpy.clip(x[5].astype(int) + 2, 0, 255)
    y[5], y[22] = 6, 1
    bits = near_hash.hashes(x[:])
distance = near_hash.distances(bits, bits)
pairs = [(a, b) for a in range(30) for b in range(a + 1, 30) if distance[a, b] <= 26]
assert pairs == [(5, 22)], pairs
open('distance', 'w').write('%d\n' % distance[5, 22])
PYTHON
    run --separate-stderr fuel-duplicates --near a.hdf5
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "across splits: train 5 (targets 6), test 2 (targets 1) $(cat distance) bits away: conflicting labels" ]
    [ "${#lines[@]}" -eq 2 ]
    run --separate-stderr fuel-duplicates --near --threshold 1 a.hdf5
    [ "$status" -eq "$([ "$(cat distance)" -le 1 ] && echo 1 || echo 0)" ]
}

@test "ILSVRC2012's quirks (a PNG named .JPEG, CMYK JPEGs) are hashed, no error" {
    mkdir quirks
    cd quirks
    fuel-fixture ilsvrc2012 -n 6 -o . > /dev/null
    run --separate-stderr fuel-duplicates --near ilsvrc2012.hdf5
    [ "$status" -le 1 ]
    [ -z "$stderr" ]
    [[ "${lines[0]}" == *" among 18 "* || "${lines[0]}" == "no two of the 18 examples of source encoded_images are near: within 26 of 256 bits (ilsvrc2012.hdf5: train 6, valid 6, test 6)" ]]
}

@test "bad inputs: not images, a JPEG that does not decode, a threshold out of range" {
    fuel-fixture mnist -n 5 -r plain > /dev/null
    run --separate-stderr fuel-duplicates --near --source targets plain.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-duplicates: --near compares images: source targets is not one of images (two axes, or three with one labelled channel): plain.hdf5" ]
    run --separate-stderr fuel-duplicates --near --source filenames ilsvrc2012.hdf5
    [ "$status" -eq 2 ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    cp ilsvrc2012.hdf5 broken.hdf5
    $PYTHON -c "import h5py, numpy
f = h5py.File('broken.hdf5', 'r+'); f['encoded_images'][7] = numpy.frombuffer(b'\xff\xd8 not a JPEG', numpy.uint8)"
    run --separate-stderr fuel-duplicates --near broken.hdf5
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-duplicates: cannot decode JPEG: broken.hdf5: encoded_images example 7: "* ]]
    [ -z "$output" ]
    for bits in 0 65 x; do
        run --separate-stderr fuel-duplicates --near --threshold "$bits" plain.hdf5
        [ "$status" -eq 2 ]
        [ "${#stderr_lines[@]}" -eq 1 ]
    done
}
