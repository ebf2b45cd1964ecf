#!/usr/bin/env bats
# Where a file says its inputs were: fuel info --check --verify-inputs and fuel reproduce name the
# folders the provenance records when inputs are missing (one summary line, not one per input)
# and search them only with --recorded-dirs. No path from metadata: a recorded name that climbs
# or is absolute never leads out of the folders given, a candidate is read only when a regular
# file of the recorded size, and a refused spec is one line, exit 4, no staging path. The runs
# traced with strace turn LeakSanitizer off (it cannot work under ptrace).

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
DEBIAN=/usr/share/datasets/fashion-mnist

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    cd "$BATS_TEST_TMPDIR"
}

# Copies FILE to COPY with its fuel_provenance changed by the Python lines on stdin (p: the
# parsed provenance).
provenance_edit() {
    cp "$1" "$2"
    $PYTHON -c "import sys, json, h5py
f = h5py.File(sys.argv[1], 'r+')
p = json.loads(f.attrs['fuel_provenance'])
exec(sys.stdin.read())
f.attrs['fuel_provenance'] = json.dumps(p)
f.close()" "$2"
}

@test "converted with -d DEBIAN: the missing inputs summarised, the recorded folder named, searched with --recorded-dirs" {
    fuel convert fashion_mnist -d "$DEBIAN" -o . -q >/dev/null
    run --separate-stderr fuel info --check --verify-inputs fashion_mnist.hdf5
    [ "$status" -eq 3 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[1]}" = "fashion_mnist.hdf5: 4 of 4 inputs missing: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, ...: not beside the file nor in the data path; the file records them in $DEBIAN (give -d $DEBIAN, or --recorded-dirs)" ]
    [ "$stderr" = "fuel-info: inputs not found: fashion_mnist.hdf5: 4 missing" ]
    run --separate-stderr fuel info --check --verify-inputs --json fashion_mnist.hdf5
    [ "$status" -eq 3 ]
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["recorded_directories"])' <<<"$output")" = "['$DEBIAN']" ]
    # The pasted -d, or the option: found.
    run --separate-stderr fuel info --check --verify-inputs -d "$DEBIAN" fashion_mnist.hdf5
    [ "$status" -eq 0 ]
    run --separate-stderr fuel info --check --verify-inputs --recorded-dirs fashion_mnist.hdf5
    [ "$status" -eq 0 ]
    [[ "${lines[1]}" == "fashion_mnist.hdf5: 4 of 4 inputs matching: "*": found in $DEBIAN; --json lists every input" ]]
    run --separate-stderr fuel info --recorded-dirs fashion_mnist.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: --recorded-dirs goes with --verify-inputs; see 'fuel-info -h'" ]
    # Reproduce: one line, the folder, --download once.
    run --separate-stderr fuel reproduce fashion_mnist.hdf5
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: fashion_mnist.hdf5: 4 inputs not found: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, ...; the file records them in $DEBIAN (give -d $DEBIAN, or --recorded-dirs); --download fetches a dataset's raw files" ]
    run --separate-stderr fuel reproduce fashion_mnist.hdf5 --recorded-dirs -q
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: fashion_mnist.hdf5" ]
    # A recorded folder that holds control characters is never named.
    provenance_edit fashion_mnist.hdf5 escaped.hdf5 <<<'p["argv"][3] = "/tmp/\u001b]0;title\u0007"'
    run --separate-stderr fuel info --check --verify-inputs escaped.hdf5
    [ "$status" -eq 3 ]
    [[ "${lines[1]}" == *": not beside the file nor in the data path" ]]
}

# An image folder of COUNT pictures, packed from spec/; prints the packed file.
packed_folder() {
    mkdir -p spec/pictures/cat spec/pictures/dog
    $PYTHON - "$1" <<'PY'
import sys
from PIL import Image
for index in range(int(sys.argv[1])):
    Image.new("RGB", (3, 2), (index % 256, 7, 9)).save(f"spec/pictures/{'cat' if index % 2 else 'dog'}/{index}.png")
PY
    cat >spec/toy.yaml <<YAML
name: toy
splits:
  train: {examples: $1}
sources:
  images: {from: [{images: pictures}]}
  classes: {from: [{classes: pictures}]}
YAML
    fuel pack spec/toy.yaml -o data -r packed -q
}

@test "a packed image folder: missing pictures summarised in one line, no --download, the spec's folder named" {
    file=$(packed_folder 200)
    mkdir empty
    run --separate-stderr fuel reproduce "$file" -d empty
    [ "$status" -eq 3 ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: $file: 201 inputs not found: toy.yaml, pictures/cat/1.png, pictures/cat/101.png, ...; the file records them in spec (give -d spec, or --recorded-dirs)" ]
    # --download given: not suggested again (and means nothing for a packed file).
    run --separate-stderr fuel reproduce "$file" -d empty --download
    [ "$status" -eq 3 ]
    [[ "$stderr" != *"--download"* ]]
    run --separate-stderr fuel reproduce "$file" --recorded-dirs -q
    [ "$status" -eq 0 ]
    run --separate-stderr fuel info --check --verify-inputs "$file"
    [ "$status" -eq 3 ]
    [ "${#lines[@]}" -eq 2 ]
}

@test "no path from metadata: a climbing or absolute recorded name never leads out of -d" {
    file=$(packed_folder 4)
    mkdir -p IN outside
    printf 'secret\n' >outside/secret.bin
    # The recorded input ../../outside/secret.bin, with that file's real size and sha256.
    provenance_edit "$file" data/climb.hdf5 <<PY
p["inputs"][1] = {"name": "../../outside/secret.bin", "size": 7, "sha256": "$(sha256sum outside/secret.bin | cut -d' ' -f1)"}
PY
    cp -r spec/toy.yaml spec/pictures IN/
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
        strace -f -qq -e trace=open,openat,stat,newfstatat,lstat,readlink -o trace.txt \
        fuel reproduce data/climb.hdf5 -d IN
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: data/climb.hdf5: 1 input not found: ../../outside/secret.bin; the file records them in spec (give -d spec, or --recorded-dirs)" ]
    [ "$(grep -c outside trace.txt)" -eq 0 ]
    # Put inside the folder given, under its last name: found there, and only there.
    cp outside/secret.bin IN/secret.bin
    run --separate-stderr fuel info --check --verify-inputs -d IN data/climb.hdf5
    [ "$status" -eq 0 ]
    [[ "${lines[1]}" == "data/climb.hdf5: 5 of 5 inputs matching: toy.yaml, ../../outside/secret.bin, "*": found in IN, "* ]]
    run --separate-stderr fuel info --check --verify-inputs --json -d IN data/climb.hdf5
    [ "$($PYTHON -c 'import json, sys; print([i["path"] for i in json.load(sys.stdin)["inputs"] if "secret" in i["name"]])' <<<"$output")" = "['IN/secret.bin']" ]
    run --separate-stderr fuel info --check --verify-inputs -d IN/pictures data/climb.hdf5
    [ "$status" -eq 3 ]
}

@test "no path from metadata: a spec the provenance points elsewhere is not opened; one found by sha256 and refused is exit 4, one line" {
    file=$(packed_folder 4)
    mkdir -p IN elsewhere
    printf 'name: toy\nsecret_key_xyz: 1\nsplits:\n  train: {examples: 4}\n' >IN/spec.yaml
    cp IN/spec.yaml elsewhere/spec.yaml
    cp -r spec/pictures IN/
    provenance_edit "$file" data/hostile.hdf5 <<PY
text = open("IN/spec.yaml").read()
import hashlib
p["pack"]["spec"] = text
p["argv"] = ["fuel", "pack", "$BATS_TEST_TMPDIR/elsewhere/spec.yaml", "-o", "data", "-r", "hostile"]
p["inputs"][0] = {"name": "spec.yaml", "size": len(text), "sha256": hashlib.sha256(text.encode()).hexdigest()}
PY
    # Not under what the user named: the recorded folder is named, never opened.
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
        strace -f -qq -e trace=open,openat,stat,newfstatat,lstat -o trace.txt \
        fuel reproduce data/hostile.hdf5 -d spec
    [ "$status" -eq 3 ]
    [ "$(grep -c "$BATS_TEST_TMPDIR/elsewhere" trace.txt)" -eq 0 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: data/hostile.hdf5: 1 input not found: spec.yaml; the file records them in $BATS_TEST_TMPDIR/elsewhere (give -d $BATS_TEST_TMPDIR/elsewhere, or --recorded-dirs)" ]
    # Found under -d by its sha256 and refused by the spec reader: exit 4, one line, no staging.
    run --separate-stderr fuel reproduce data/hostile.hdf5 -d IN
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: cannot reproduce: data/hostile.hdf5: the recorded spec is refused: malformed spec: spec.yaml:2: unknown key 'secret_key_xyz' in the spec; its keys: name, splits, sources" ]
}

@test "no path from metadata: a FIFO under a recorded name is never opened to block, nor read" {
    fuel fixture mnist --raw -o raw >/dev/null
    fuel convert mnist -d raw -o . -q >/dev/null
    mkdir fifos
    for name in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
        mkfifo "fifos/$name"
    done
    run --separate-stderr timeout 20 fuel info --check --verify-inputs -d fifos mnist.hdf5
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: not a regular file: fifos/train-images-idx3-ubyte.gz: exists but is a FIFO" ]
    run --separate-stderr timeout 20 fuel reproduce mnist.hdf5 -d fifos
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-reproduce: not a regular file: fifos/train-images-idx3-ubyte.gz: exists but is a FIFO" ]
}
