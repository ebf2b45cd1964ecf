#!/usr/bin/env bats
# fuel-reproduce: every built-in dataset made again byte for byte from its fixture raw files;
# fixtures, cuts and fetched files; the inputs found by sha256 or downloaded; a changed created,
# option, library version or input; missing inputs; hostile and malformed provenance; nothing
# left in the scratch directory, whatever the outcome.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    export TMPDIR="$BATS_TEST_TMPDIR/scratch"
    mkdir -p "$HOME" "$TMPDIR"
    unset FUEL_DATA_PATH FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS FUEL_MIRROR SOURCE_DATE_EPOCH
    cd "$BATS_TEST_TMPDIR"
}

# The real pipeline on WORDS' fixture raw files: fixture/ (--raw), raw/ (downloaded from it),
# data/ (converted at 2009-02-13T23:31:30Z, with the dataset options after --).
pipeline() {
    local words=() options=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do words+=("$1"); shift; done
    if [ $# -gt 0 ]; then
        shift
        options=("$@")
    fi
    local count=4
    if [ "${words[0]}" = adult ]; then
        count=train=41,test=40 # its fewest: every value of each column
    fi
    fuel fixture "${words[@]}" --raw -n "$count" -o fixture > /dev/null
    fuel download "${words[@]}" --url-prefix "file://$PWD/fixture/" --checksums fixture/MD5SUMS \
        -d raw -q
    SOURCE_DATE_EPOCH=1234567890 fuel convert "${words[@]}" -d raw -o data "${options[@]}"
}

# Fails when the scratch directory holds anything: a staging left behind.
nothing_left() {
    [ -z "$(ls -A "$TMPDIR")" ] || { ls -la "$TMPDIR"; false; }
}

# A copy of FILE as COPY with its provenance changed by the Python statement CODE (p: the parsed
# provenance, assigned a string to store text that is not JSON).
provenance_edit() {
    $PYTHON - "$1" "$2" "$3" <<'PY'
import json, shutil, sys, h5py
source, copy, code = sys.argv[1:]
shutil.copy(source, copy)
with h5py.File(copy, "r+") as f:
    p = json.loads(f.attrs["fuel_provenance"])
    exec(code)
    f.attrs["fuel_provenance"] = p if isinstance(p, str) else json.dumps(p)
PY
}

# refused FILE DIR MESSAGE: fuel reproduce FILE -d DIR exits 4 with MESSAGE alone on stderr.
refused() {
    run --separate-stderr fuel reproduce "$1" -d "$2"
    [ "$status" -eq 4 ] || { echo "exit $status: $stderr"; false; }
    [ "$stderr" = "fuel-reproduce: $3" ]
}

@test "each built-in dataset converted from its fixture raw files is reproduced byte for byte" {
    for words in mnist fashion_mnist binarized_mnist cifar10 cifar100 iris "svhn 1" "svhn 2"; do
        rm -rf fixture raw data
        # shellcheck disable=SC2086
        file=$(pipeline $words)
        run --separate-stderr fuel reproduce "$file" -d raw
        [ "$status" -eq 0 ] || { echo "$words: $stderr"; false; }
        [ "$output" = "reproduced byte for byte: $file" ]
        # fuel-info's verdict on the inputs found, the same line.
        [ "$stderr" = "$(fuel info "$file" | sed -n 's/^    \(inputs of .*\)/\1/p')" ]
        [[ "$stderr" == "inputs of ${words}: not the published files: "* ]]
        nothing_left
    done
    rm -rf fixture raw data
    file=$(pipeline mnist -- --dtype float32 -r digits)
    [ "$file" = data/digits.hdf5 ]
    run --separate-stderr fuel-reproduce "$file" -d raw
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $file" ]
}

@test "the catalogue's and ImageNet's datasets from their fixture raw files, byte for byte too" {
    for words in adult "caltech101_silhouettes 16" "caltech101_silhouettes 28" "celeba 64" \
        "celeba aligned_cropped" dogs_vs_cats ilsvrc2012 ilsvrc2010; do
        rm -rf fixture raw data
        # shellcheck disable=SC2086
        file=$(pipeline $words)
        run --separate-stderr fuel reproduce "$file" -d raw
        [ "$status" -eq 0 ] || { echo "$words: $stderr"; false; }
        [ "$output" = "reproduced byte for byte: $file" ]
        nothing_left
    done
}

@test "the inputs are found by sha256: beside the file, in the data path, under other names" {
    file=$(pipeline mnist)
    cp raw/* data/
    run --separate-stderr fuel reproduce "$file"
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $file" ]
    rm data/*.gz
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/elsewhere:$BATS_TEST_TMPDIR/raw" run --separate-stderr fuel reproduce "$file"
    [ "$status" -eq 0 ]
    mkdir renamed
    for input in raw/*; do cp "$input" "renamed/copy-of-$(basename "$input")"; done
    run --separate-stderr fuel reproduce "$file" -d renamed
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $file" ]
    # A dataset name finds its converted file as fuel info does.
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/data" run --separate-stderr fuel reproduce mnist -d raw
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $BATS_TEST_TMPDIR/data/mnist.hdf5" ]
    nothing_left
}

@test "a changed created still reproduces: the recorded created is used, not the time now" {
    file=$(pipeline iris)
    # The same bytes but for the year of the recorded creation time.
    $PYTHON -c '
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"2009-02-13T23:31:30Z") == 1
open(sys.argv[2], "wb").write(data.replace(b"2009-02-13T23:31:30Z", b"2019-02-13T23:31:30Z"))
' "$file" data/later.hdf5
    [ "$(fuel info --json data/later.hdf5 | $PYTHON -c 'import json, sys; print(json.load(sys.stdin)["provenance"]["created"])')" = 2019-02-13T23:31:30Z ]
    for epoch in unset 1700000000; do
        if [ "$epoch" = unset ]; then
            run --separate-stderr fuel reproduce data/later.hdf5 -d raw
        else
            SOURCE_DATE_EPOCH=$epoch run --separate-stderr fuel reproduce data/later.hdf5 -d raw
        fi
        [ "$status" -eq 0 ]
        [ "$output" = "reproduced byte for byte: data/later.hdf5" ]
    done
    nothing_left
}

@test "a changed option: the content differs, exit 1 with the fuel diff report" {
    file=$(pipeline mnist)
    provenance_edit "$file" data/edited.hdf5 'p["argv"] += ["--dtype", "float32"]'
    run --separate-stderr fuel reproduce data/edited.hdf5 -d raw
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "the content of data/edited.hdf5 and the re-run differs" ]
    [ "${lines[1]}" = "source features: dtype: uint8 -> float32" ]
    [ "${lines[2]}" = "provenance differences, not counted:" ]
    [ "${lines[3]}" = "  attribute fuel_convert_command: fuel convert mnist -d raw -o data -> fuel convert mnist -d raw -o data --dtype float32" ]
    [ "${#lines[@]}" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: not reproduced: data/edited.hdf5: its content differs from the re-run's" ]
    nothing_left
    # A fixture's seed changed: other values, each source and split named with its examples.
    SOURCE_DATE_EPOCH=1234567890 fuel fixture iris -n 3 --seed 1 -o fixtures > /dev/null
    provenance_edit fixtures/iris.hdf5 fixtures/seeded.hdf5 'p["argv"][p["argv"].index("1")] = "2"'
    run --separate-stderr fuel reproduce fixtures/seeded.hdf5
    [ "$status" -eq 1 ]
    [ "${lines[1]}" = "source features: 3 of 3 examples differ: indices 0, 1, 2" ]
    [ "${lines[2]}" = "split all, source features: 3 of 3 examples differ: positions 0, 1, 2" ]
}

@test "on a terminal: a progress line for the inputs looked for and the examples compared; none with -q" {
    file=$(pipeline mnist)
    provenance_edit "$file" data/edited.hdf5 'p["argv"] += ["--dtype", "float32"]'
    script -qec "fuel reproduce data/edited.hdf5 -d raw > stdout" typescript > /dev/null || true
    grep -qF "inputs looked for  0 of 4 files" typescript
    grep -qF "targets  0 of 8 examples" typescript
    [ "$(head -1 stdout)" = "the content of data/edited.hdf5 and the re-run differs" ]
    script -qec "fuel reproduce data/edited.hdf5 -d raw -q > stdout" quiet > /dev/null || true
    [ "$(grep -c " of " quiet)" -eq 0 ]
    nothing_left
}

@test "only the library versions differ: content identical, bytes differ, exit 0" {
    file=$(pipeline iris)
    hdf5=$(fuel --version | sed -n 's/^hdf5 //p')
    provenance_edit "$file" data/older.hdf5 'p["libraries"]["hdf5"] = "1.8.0"; p["libraries"]["zlib"] = "1.2.3"'
    run --separate-stderr fuel reproduce data/older.hdf5 -d raw
    [ "$status" -eq 0 ]
    zlib=$(fuel --version | sed -n 's/^zlib //p')
    [ "$output" = "content identical, bytes differ (hdf5 1.8.0 then, $hdf5 now; zlib 1.2.3 then, $zlib now): data/older.hdf5" ]
    # The provenance rewritten as it was: the same content and provenance, other HDF5 bytes.
    provenance_edit "$file" data/rewritten.hdf5 'pass'
    run --separate-stderr fuel reproduce data/rewritten.hdf5 -d raw
    [ "$status" -eq 1 ]
    [ "$output" = "the content of data/rewritten.hdf5 and the re-run is the same" ]
    [ "$stderr" = "fuel-reproduce: not reproduced: data/rewritten.hdf5: the same content and provenance, other HDF5 bytes (rewritten by another program since it was made?)" ]
    nothing_left
}

@test "a tampered input: exit 1 naming it; a missing input: exit 3 naming its size and sha256" {
    file=$(pipeline mnist)
    size=$(stat -c %s raw/t10k-labels-idx1-ubyte.gz)
    sha=$(sha256sum raw/t10k-labels-idx1-ubyte.gz | cut -d' ' -f1)
    printf 'x' >> raw/t10k-labels-idx1-ubyte.gz
    run --separate-stderr fuel reproduce "$file" -d raw
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
    # Of another size than recorded: not read, so no sha256 of it.
    [ "${stderr_lines[0]}" = "fuel-reproduce: input changed since the conversion: raw/t10k-labels-idx1-ubyte.gz: $((size + 1)) bytes; recorded $size bytes, sha256 $sha" ]
    [ "${stderr_lines[1]}" = "fuel-reproduce: not reproduced: $file: 1 input changed since the conversion" ]
    nothing_left
    rm raw/t10k-labels-idx1-ubyte.gz raw/train-images-idx3-ubyte.gz
    run --separate-stderr fuel reproduce "$file" -d raw
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    # One line: how many, which; the folder the file records was searched (-d raw): no hint of it.
    [ "$stderr" = "fuel-reproduce: cannot reproduce: $file: 2 inputs not found: train-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz; --download fetches a dataset's raw files" ]
    nothing_left
}

@test "a directory or a FIFO at an input's name: not a regular file, exit 4, as info and download say" {
    file=$(pipeline mnist)
    rm raw/t10k-labels-idx1-ubyte.gz
    mkdir raw/t10k-labels-idx1-ubyte.gz
    run --separate-stderr timeout 20 fuel reproduce "$file" -d raw
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-reproduce: not a regular file: raw/t10k-labels-idx1-ubyte.gz: exists but is a directory" ]
    rmdir raw/t10k-labels-idx1-ubyte.gz
    mkfifo raw/t10k-labels-idx1-ubyte.gz
    run --separate-stderr timeout 20 fuel reproduce "$file" -d raw --download
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: not a regular file: raw/t10k-labels-idx1-ubyte.gz: exists but is a FIFO" ]
    run --separate-stderr timeout 20 fuel info --verify-inputs -d raw "$file"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: not a regular file: raw/t10k-labels-idx1-ubyte.gz: exists but is a FIFO" ]
    nothing_left
}

@test "--download fetches the inputs not found from the dataset's URLs, verified by the recorded sha256" {
    file=$(pipeline cifar10)
    rm -r raw
    run --separate-stderr fuel reproduce "$file" --download --url-prefix "file://$PWD/fixture/" -q
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $file" ]
    [ -z "$stderr" ]
    [ ! -e raw ]
    nothing_left
    # Other bytes at the URL than the conversion read: refused as a checksum mismatch.
    fuel fixture cifar10 --raw -n 4 --seed 9 -o other > /dev/null
    run --separate-stderr fuel reproduce "$file" --download --url-prefix "file://$PWD/other/" -q
    [ "$status" -eq 6 ]
    [[ "$stderr" == "fuel-reproduce: "*"cifar-10-python.tar.gz"* ]]
    nothing_left
    run --separate-stderr fuel reproduce "$file" --url-prefix "file://$PWD/fixture/"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-reproduce: --url-prefix goes with --download; see 'fuel-reproduce -h'" ]
}

@test "fixtures: fuel fixture NAME with its seed, counts and options, with and without SOURCE_DATE_EPOCH" {
    SOURCE_DATE_EPOCH=1600000000 fuel fixture cifar100 -n train=5,test=3 --seed 4 -o fixtures > /dev/null
    fuel fixture mnist --dtype bool -n 6 --seed 2 -o fixtures -r tiny > /dev/null
    fuel fixture svhn 1 -n 2 -o fixtures > /dev/null
    for file in fixtures/cifar100.hdf5 fixtures/tiny.hdf5 fixtures/svhn_format_1.hdf5; do
        run --separate-stderr fuel reproduce "$file"
        [ "$status" -eq 0 ] || { echo "$file: $stderr"; false; }
        [ "$output" = "reproduced byte for byte: $file" ]
    done
    nothing_left
}

@test "a cut (fixture --from): reproduced when its parent is found by its sha256" {
    file=$(pipeline mnist)
    SOURCE_DATE_EPOCH=1600000000 fuel fixture --from "$file" -n 3 --shuffle --seed 2 -o cuts -r small > /dev/null
    run --separate-stderr fuel reproduce cuts/small.hdf5 -d data
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: cuts/small.hdf5" ]
    mkdir moved
    cp "$file" moved/renamed.hdf5
    run --separate-stderr fuel reproduce cuts/small.hdf5 -d moved
    [ "$status" -eq 0 ]
    run --separate-stderr fuel reproduce cuts/small.hdf5
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: cuts/small.hdf5: 1 input not found: mnist.hdf5" ]
    nothing_left
}

@test "a fetched file: reproduced from the downloaded inputs" {
    fuel fixture mnist --raw -n 4 -o fixture > /dev/null
    SOURCE_DATE_EPOCH=1234567890 fuel fetch mnist --url-prefix "file://$PWD/fixture/" \
        --checksums fixture/MD5SUMS -d fetched -q > /dev/null
    run --separate-stderr fuel reproduce fetched/mnist.hdf5 -d fixture
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: fetched/mnist.hdf5" ]
    nothing_left
}

@test "hostile provenance: exit 4 naming the option; nothing runs, nothing is written" {
    file=$(pipeline mnist)
    provenance_edit "$file" data/up.hdf5 'p["argv"] += ["-r", "../../escaped"]'
    refused data/up.hdf5 raw "hostile provenance: data/up.hdf5: -r ../../escaped would write outside the output directory"
    provenance_edit "$file" data/absolute.hdf5 "p['argv'] += ['--output_filename=$BATS_TEST_TMPDIR/escaped']"
    refused data/absolute.hdf5 raw "hostile provenance: data/absolute.hdf5: --output_filename $BATS_TEST_TMPDIR/escaped would write outside the output directory"
    provenance_edit "$file" data/input.hdf5 'p["inputs"][1]["name"] = "../../escaped"'
    refused data/input.hdf5 raw "hostile provenance: data/input.hdf5: input 2 is not named by a plain file name: ../../escaped"
    provenance_edit "$file" data/shell.hdf5 'p["argv"] = ["sh", "-c", "touch escaped"]'
    refused data/shell.hdf5 raw "malformed provenance: data/shell.hdf5: the recorded command is not fuel's: sh"
    [ ! -e escaped ]
    [ ! -e "$BATS_TEST_TMPDIR/escaped.hdf5" ]
    [ ! -e ../escaped.hdf5 ]
    # -d and -o as recorded are replaced: a directory elsewhere is neither read nor written.
    provenance_edit "$file" data/moved.hdf5 'p["argv"] = ["fuel", "convert", "mnist", "-d", "/nonexistent", "-o", "/proc/forbidden"]'
    run --separate-stderr fuel reproduce data/moved.hdf5 -d raw
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "the content of data/moved.hdf5 and the re-run is the same" ]
    [ "${lines[1]}" = "provenance differences, not counted:" ]
    [ "${lines[2]}" = "  attribute fuel_convert_command: fuel convert mnist -d raw -o data -> fuel convert mnist -d /nonexistent -o /proc/forbidden" ]
    [ "${#lines[@]}" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: not reproduced: data/moved.hdf5: the same content, other bytes, and more than the versions differ in the provenance" ]
    [ ! -e /proc/forbidden ]
    nothing_left
}

@test "a provenance of 262,144 inputs: walked one entry at a time, within 200 MiB, no stat each, exit 3" {
    file=$(pipeline iris)
    # Parsed whole after H5Aread, its 29 MB text took 456 MiB (2^20 inputs: 1.8 GB).
    provenance_edit "$file" data/many.hdf5 'p["inputs"] = [{"name": "f%07d" % i, "size": 1, "sha256": "%064x" % i} for i in range(1 << 18)]'
    # Under make check-sanitize: unwinding on every malloc (fast_unwind_on_malloc=0) made the walk,
    # a malloc an entry, overrun its timeout (10 million entries: over 300 s; 19 s unwound fast).
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:fast_unwind_on_malloc=1" \
        run --separate-stderr /usr/bin/time -f 'peak %M' timeout 120 fuel reproduce data/many.hdf5 -d raw -q
    [ "$status" -eq 3 ]
    [ "${stderr_lines[0]}" = "fuel-reproduce: cannot reproduce: data/many.hdf5: 262144 inputs not found: f0000000, f0000001, f0000002, ...; --download fetches a dataset's raw files" ]
    peak=$(sed -n 's/^peak //p' <<< "$stderr")
    echo "# peak $((peak / 1024)) MiB" >&3
    [ "$peak" -lt $((200 * 1024)) ]
    # A name the folders' listings lack is not looked at again: one stat per input took 60 s
    # under strace for 2^20 inputs.
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
        strace -f -qq -e trace=stat,newfstatat,lstat,statx -o trace.txt fuel reproduce data/many.hdf5 -d raw -q
    [ "$status" -eq 3 ]
    [ "$(wc -l < trace.txt)" -lt 1000 ] || { wc -l < trace.txt; false; }
    rm trace.txt
    nothing_left
}

@test "two inputs lists: refused unparsed by reproduce (exit 4); info and --json show 4 KiB of it" {
    file=$(pipeline iris)
    # Walked neither, the 30 MB text was parsed whole: reproduce 227 MB, info --json 258 MB and
    # 31 MB on standard output (the raw text twice: as provenance and among the attributes).
    provenance_edit "$file" data/two.hdf5 'p = "{\"inputs\": " + json.dumps([{"name": "f%07d" % i, "size": 1, "sha256": "%064x" % i} for i in range(1 << 18)]) + ", " + json.dumps(p)[1:]'
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
        run --separate-stderr /usr/bin/time -f 'peak %M' timeout 60 fuel reproduce data/two.hdf5 -d raw -q
    [ "$status" -eq 4 ]
    [ "${stderr_lines[0]}" = "fuel-reproduce: malformed provenance: data/two.hdf5: not a JSON object: two members named inputs" ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
        run --separate-stderr /usr/bin/time -f 'peak %M' timeout 60 fuel info --json data/two.hdf5
    [ "$status" -eq 0 ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    [ "${#output}" -lt 16384 ]
    $PYTHON -c '
import json, sys
d = json.loads(sys.argv[1])
assert "fuel_provenance" not in d["attributes"], d["attributes"].keys()
text = d["provenance"]
assert text.startswith("{\"inputs\": [{\"name\": \"f0000000\"") and text.endswith(" more bytes)"), text[-40:]
assert len(text.split(" ... (")[0].encode()) == 4096' "$output"
    run fuel info data/two.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" = *'    (not a JSON object) {"inputs": [{"name": "f0000000", '*' more bytes)'* ]]
    nothing_left
}

@test "a provenance whose heap ID declares 3.75 GiB: refused before anything is read, exit 4" {
    file=$(pipeline iris)
    # Read through H5Aread, it took 7.5 GiB and 71 s, then reproduced the file (exit 1).
    cp "$file" data/forged.hdf5
    cp "$file" data/longer.hdf5
    $PYTHON "$BATS_TEST_DIRNAME/../helpers/forge_heap_length.py" data/forged.hdf5 fuel_provenance 4026531840
    $PYTHON "$BATS_TEST_DIRNAME/../helpers/forge_heap_length.py" data/longer.hdf5 fuel_provenance 1000000
    for command in reproduce info; do
        run --separate-stderr /usr/bin/time -f 'peak %M' timeout 60 fuel $command data/forged.hdf5
        [ "$status" -eq 4 ]
        [ "${stderr_lines[0]}" = "fuel-$command: attribute fuel_provenance declares 4026531840 bytes: data/forged.hdf5: more than the 268435456 read" ]
        [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    done
    # Under the cap but longer than its heap object: unreadable, not read past the object.
    refused data/longer.hdf5 raw "unreadable attribute: data/longer.hdf5: fuel_provenance"
    nothing_left
}

@test "a forged heap ID where fuel's walk does not reach (dense storage, a committed type): capped before H5Aread" {
    file=$(pipeline iris)
    # Read through H5Aread, each took 7.5 GiB and 17 s, then exit 0 as if fine.
    $PYTHON - "$file" <<'PY'
import sys, h5py
def copy(target, committed=False):
    with h5py.File(sys.argv[1], "r") as source:
        for key in source:
            source.copy(key, target)
        # More than 8 attributes on a root that tracks their order: dense storage.
        for index in range(9 if not committed else 0):
            target.attrs["pad%d" % index] = "x"
        if committed:
            target["text"] = h5py.string_dtype()
        for key, value in source.attrs.items():
            shared = committed and key == "fuel_provenance"
            target.attrs.create(key, value, dtype=target["text"] if shared else None)
with h5py.File("data/dense.hdf5", "w", track_order=True) as dense:
    copy(dense)
with h5py.File("data/committed.hdf5", "w") as committed:
    copy(committed, committed=True)
PY
    for form in dense committed; do
        run --separate-stderr fuel info --json data/$form.hdf5
        [ "$status" -eq 0 ]
        [ "$($PYTHON -c 'import json, sys; print(json.loads(sys.argv[1])["provenance"]["tool"])' "$output")" = fuel ]
        cp data/$form.hdf5 data/$form-longer.hdf5
        cp data/$form.hdf5 data/$form-past.hdf5
        $PYTHON "$BATS_TEST_DIRNAME/../helpers/forge_heap_length.py" data/$form.hdf5 fuel_provenance 4026531840
        for command in reproduce info; do
            run --separate-stderr /usr/bin/time -f 'peak %M' timeout 60 fuel $command data/$form.hdf5
            [ "$status" -eq 4 ]
            [ "${stderr_lines[0]}" = "fuel-$command: attribute fuel_provenance declares 4026531840 bytes: data/$form.hdf5: more than the 268435456 read" ]
            [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
        done
        # Under the cap but more than the file holds: unreadable, never allocated.
        $PYTHON "$BATS_TEST_DIRNAME/../helpers/forge_heap_length.py" data/$form-longer.hdf5 fuel_provenance 100000000
        refused data/$form-longer.hdf5 raw "unreadable attribute: data/$form-longer.hdf5: fuel_provenance"
        # Within the file but past its heap object: H5Aread read past it (exit 0); fuel's own
        # check of the collection refuses it first, as for the attributes it reads itself.
        $PYTHON "$BATS_TEST_DIRNAME/../helpers/forge_heap_length.py" data/$form-past.hdf5 fuel_provenance 2000
        refused data/$form-past.hdf5 raw "unreadable attribute: data/$form-past.hdf5: fuel_provenance"
    done
    nothing_left
}

@test "an extra converter runs only with --allow-extra" {
    mkdir converters extra
    cp "$FUEL_FIXTURES/raw/iris/iris.data" extra/
    cat > converters/fuel-convert-toy <<TOY
#!/bin/sh
touch "$BATS_TEST_TMPDIR/ran"
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
chmod u+w "\$FUEL_OUTPUT_FILE"
echo "\$2/iris.data"
TOY
    chmod +x converters/fuel-convert-toy
    export FUEL_EXTRA_CONVERTERS="$BATS_TEST_TMPDIR/converters"
    SOURCE_DATE_EPOCH=1234567890 fuel convert toy -d extra -o data > /dev/null
    rm ran
    refused data/toy.hdf5 extra "hostile provenance: data/toy.hdf5: the recorded command runs the extra converter $BATS_TEST_TMPDIR/converters/fuel-convert-toy (--allow-extra runs it)"
    [ ! -e ran ]
    run --separate-stderr fuel reproduce data/toy.hdf5 -d extra --allow-extra
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: data/toy.hdf5" ]
    [ -e ran ]
    nothing_left
}

@test "malformed provenance, or none: exit 4, one line" {
    file=$(pipeline iris)
    run --separate-stderr fuel reproduce "$FUEL_FIXTURES/expected/iris.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: no fuel provenance: $FUEL_FIXTURES/expected/iris.hdf5: no fuel_provenance attribute (not written by fuel)" ]
    printf 'text\n' > data/text.hdf5
    run --separate-stderr fuel reproduce data/text.hdf5
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: not an HDF5 file: data/text.hdf5: it does not start with the HDF5 signature" ]
    run --separate-stderr fuel reproduce data/absent.hdf5
    [ "$status" -eq 3 ]
    provenance_edit "$file" data/e.hdf5 'p = "{not json"'
    refused data/e.hdf5 raw "malformed provenance: data/e.hdf5: not a JSON object: string or '}' expected near 'not'"
    while IFS='|' read -r code message; do
        provenance_edit "$file" data/e.hdf5 "$code"
        run --separate-stderr fuel reproduce data/e.hdf5 -d raw
        [ "$status" -eq 4 ] || { echo "$code: $status $stderr"; false; }
        [ "$stderr" = "fuel-reproduce: $message" ] || { echo "$code: $stderr"; false; }
    done <<'CASES'
p["argv"] = ["fuel", "frobnicate"]|malformed provenance: data/e.hdf5: unknown command: fuel frobnicate
p["argv"] = ["fuel", "info", "x.hdf5"]|cannot reproduce: data/e.hdf5: fuel-reproduce makes no files of fuel info
p["argv"] = "fuel convert iris"|malformed provenance: data/e.hdf5: no argv: a list of 1 to 4096 strings
p["argv"] += ["--bogus"]|malformed provenance: data/e.hdf5: the recorded command does not parse: unknown option: --bogus
p["argv"] += ["-h"]|malformed provenance: data/e.hdf5: the recorded command does not parse: -h asks for help
p["argv"] = ["fuel", "convert"]|malformed provenance: data/e.hdf5: the recorded command does not parse: missing dataset name
p["argv"] = ["fuel-fixture", "iris", "--raw"]|malformed provenance: data/e.hdf5: fuel fixture --raw makes no HDF5 file
p["argv"] = ["fuel-fixture", "iris", "-n", "bogus=3"]|malformed provenance: data/e.hdf5: the recorded command does not parse: unknown split of iris: bogus
p["created"] = "yesterday"|malformed provenance: data/e.hdf5: created is not a UTC time YYYY-MM-DDTHH:MM:SSZ: yesterday
p["inputs"][0]["sha256"] = "xyz"|malformed provenance: data/e.hdf5: input iris.data has no sha256 (64 lowercase hex digits)
CASES
    nothing_left
}

@test "nothing is left behind when the re-run fails; the file and its directory are untouched" {
    file=$(pipeline mnist)
    before=$(ls -lA data raw | md5sum)
    # The recorded inputs are MNIST's: CIFAR-10's converter finds none of its own.
    provenance_edit "$file" data/other.hdf5 'p["argv"] = ["fuel", "convert", "cifar10", "-d", "raw", "-o", "data"]'
    run --separate-stderr fuel reproduce data/other.hdf5 -d raw
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-reproduce: "*"cifar-10-python.tar.gz"* ]]
    nothing_left
    rm data/other.hdf5
    [ "$(ls -lA data raw | md5sum)" = "$before" ]
    printf 'a file\n' > "$BATS_TEST_TMPDIR/plain"
    run --separate-stderr fuel reproduce "$file" -d raw --scratch "$BATS_TEST_TMPDIR/plain"
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-reproduce: cannot write: $BATS_TEST_TMPDIR/plain: Not a directory" ]
    run --separate-stderr fuel reproduce "$file" -d raw --scratch "$BATS_TEST_TMPDIR/elsewhere"
    [ "$status" -eq 7 ]
    mkdir "$BATS_TEST_TMPDIR/elsewhere"
    run --separate-stderr fuel reproduce "$file" -d raw --scratch "$BATS_TEST_TMPDIR/elsewhere"
    [ "$status" -eq 0 ]
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
    nothing_left
}

# A spec in spec/ naming arrays beside it and above it, an image folder and its classes; packed
# into data/ at 2009-02-13T23:31:30Z.
packed() {
    mkdir -p spec/pictures/cat spec/pictures/dog arrays
    $PYTHON - <<'PY'
import numpy
from PIL import Image
numpy.save("spec/x.npy", numpy.arange(12, dtype="<f4").reshape(6, 2))
numpy.save("arrays/y.npy", numpy.arange(6, dtype="u1"))
for index, folder in enumerate(["cat", "cat", "dog", "dog", "dog", "cat"]):
    Image.new("RGB", (5, 4), (index * 40, 10, 200)).save(f"spec/pictures/{folder}/{index}.png")
PY
    cat > spec/toy.yaml <<'YAML'
name: toy
splits:
  train: {examples: 4}
  test: {examples: 2, comment: held out}
sources:
  features: {from: [x.npy]}
  targets: {from: [../arrays/y.npy]}
  images: {from: [{images: pictures}]}
  classes: {from: [{classes: pictures}]}
YAML
    SOURCE_DATE_EPOCH=1234567890 fuel pack spec/toy.yaml -o data -r packed -q
}

@test "a packed file: the spec and what it names found by sha256 under -d (the recorded folder with --recorded-dirs), byte for byte" {
    file=$(packed)
    [ "$file" = data/packed.hdf5 ]
    # A name that climbs (../arrays/y.npy) is looked for inside the folders given, never above.
    run --separate-stderr fuel reproduce "$file" -d spec
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: $file: 1 input not found: ../arrays/y.npy" ]
    run --separate-stderr fuel reproduce "$file" -d spec -d arrays
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [ "$output" = "reproduced byte for byte: $file" ]
    nothing_left
    # The spec's folder as recorded is looked in only when asked; never --download for a pack.
    run --separate-stderr fuel reproduce "$file" -d arrays
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: $file: 8 inputs not found: toy.yaml, x.npy, pictures/cat/0.png, ...; the file records them in spec (give -d spec, or --recorded-dirs)" ]
    run --separate-stderr fuel reproduce "$file" -d arrays --recorded-dirs
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [ "$output" = "reproduced byte for byte: $file" ]
    # Moved elsewhere, the inputs are found again under -d.
    mkdir -p elsewhere/spec elsewhere/arrays
    mv spec/pictures spec/x.npy spec/toy.yaml elsewhere/spec/
    mv arrays/y.npy elsewhere/arrays/
    run --separate-stderr fuel reproduce "$file" -d elsewhere/spec -d elsewhere/arrays
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    # A changed image: exit 1 naming it.
    $PYTHON -c 'from PIL import Image; Image.new("RGB", (5, 4), (1, 2, 3)).save("elsewhere/spec/pictures/dog/3.png")'
    run --separate-stderr fuel reproduce "$file" -d elsewhere/spec -d elsewhere/arrays
    [ "$status" -eq 1 ]
    [[ "${stderr_lines[0]}" == "fuel-reproduce: input changed since the conversion: elsewhere/spec/pictures/dog/3.png: "* ]]
    nothing_left
}

@test "a packed file: names that climb past their lead or are absolute are refused, exit 4" {
    file=$(packed)
    provenance_edit "$file" data/climb.hdf5 'p["inputs"][1]["name"] = "pictures/../../../escaped"'
    refused data/climb.hdf5 spec "hostile provenance: data/climb.hdf5: input 2 is not named by a relative path (\"../\" only leading it): pictures/../../../escaped"
    provenance_edit "$file" data/absolute.hdf5 'p["inputs"][2]["name"] = "/etc/passwd"'
    refused data/absolute.hdf5 spec "hostile provenance: data/absolute.hdf5: input 3 is not named by a relative path (\"../\" only leading it): /etc/passwd"
    provenance_edit "$file" data/nospec.hdf5 'p["inputs"][0]["name"] = "other.yaml"'
    refused data/nospec.hdf5 spec "malformed provenance: data/nospec.hdf5: a packed file records its spec's text and the spec as its first input"
    [ ! -e escaped ]
    nothing_left
}
