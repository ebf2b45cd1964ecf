#!/usr/bin/env bats
# One verdict on a dataset's inputs, word for word in fuel download, list --verify, info (text and
# --json), info --check --verify-inputs and reproduce: Debian's re-gzipped Fashion-MNIST (the
# published content, re-compressed), fuel fixture --raw output (not the published files), an extra
# dataset's files as its manifest publishes them (the published files).

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

# Every command's verdict line on dataset NAME's raw files in RAW and the file FILE converted
# from them, into verdicts.txt, one line each.
verdicts_collect() {
    local name=$1 raw=$2 file=$3
    shift 3
    run --separate-stderr fuel download "$name" --url-prefix "file://$raw/" -d downloaded "$@"
    [ "$status" -eq 0 ]
    printf '%s\n' "${stderr_lines[-1]}" >verdicts.txt
    run --separate-stderr fuel list --verify -d downloaded "$@"
    [ "$status" -eq 0 ]
    grep -A6 "^$name  " <<<"$output" | grep '^    inputs of' | sed 's/^    //' >>verdicts.txt
    run --separate-stderr fuel info "$file"
    grep '^    inputs of' <<<"$output" | sed 's/^    //' >>verdicts.txt
    run --separate-stderr fuel info --json "$file"
    $PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published_inputs"])' <<<"$output" >>verdicts.txt
    run --separate-stderr fuel info --check --verify-inputs -d "$raw" "$file"
    [ "$status" -eq 0 ]
    sed -n "s|^$file: \(inputs of .*\)|\1|p" <<<"$output" >>verdicts.txt
    # shellcheck disable=SC2086
    run --separate-stderr fuel reproduce "$file" -d "$raw" ${REPRODUCE_OPTIONS:-}
    [ "$status" -eq 0 ]
    printf '%s\n' "${stderr_lines[-1]}" >>verdicts.txt
    [ "$(wc -l <verdicts.txt)" -eq 6 ]
    [ "$(sort -u verdicts.txt | wc -l)" -eq 1 ]
}

@test "Debian's Fashion-MNIST: the published content, re-compressed, in every command" {
    fuel convert fashion_mnist -d "$DEBIAN" -o . -q >/dev/null
    verdicts_collect fashion_mnist "$DEBIAN" fashion_mnist.hdf5
    [ "$(cat verdicts.txt | head -1)" = "inputs of fashion_mnist: the published content, re-compressed: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz" ]
    # The field a script tests, and each input's.
    run --separate-stderr fuel info --json fashion_mnist.hdf5
    printf '%s\n' "$output" >info.json
    $PYTHON - info.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["published"] == "content", d["published"]
assert [i["published"] for i in d["published_details"]] == ["content"] * 4, d
entry = d["provenance"]["inputs"][0]
assert entry["content_size"] == 47040016 and len(entry["content_sha256"]) == 64, entry
PY
    run --separate-stderr fuel list --verify --json -d "$DEBIAN"
    [ "$($PYTHON -c 'import json, sys; print([d["published"] for d in json.load(sys.stdin) if d["name"] == "fashion_mnist"][0])' <<<"$output")" = content ]
    run --separate-stderr fuel info --check --verify-inputs --json -d "$DEBIAN" fashion_mnist.hdf5
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published"])' <<<"$output")" = content ]
}

@test "fixture raw files: not the published files, in every command" {
    fuel fixture mnist --raw -o fixture >/dev/null
    fuel convert mnist -d fixture -o . -q >/dev/null
    run --separate-stderr fuel info mnist.hdf5
    grep -qx '    inputs of mnist: not the published files: train-images-idx3-ubyte.gz (fuel fixture --raw output), train-labels-idx1-ubyte.gz (fuel fixture --raw output), t10k-images-idx3-ubyte.gz (fuel fixture --raw output), t10k-labels-idx1-ubyte.gz (fuel fixture --raw output)' <<<"$output"
    run --separate-stderr fuel info --json mnist.hdf5
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published"])' <<<"$output")" = no ]
    run --separate-stderr fuel download mnist --url-prefix "file://$PWD/fixture/" --checksums fixture/MD5SUMS -d downloaded
    [ "$status" -eq 0 ]
    [[ "${stderr_lines[-1]}" == "inputs of mnist: not the published files: train-images-idx3-ubyte.gz (md5 "*", published f68b3c2dcbeaaa9fbdd348bbdeb94873), "* ]]
    run --separate-stderr fuel list --verify --json -d downloaded --checksums fixture/MD5SUMS
    [ "$($PYTHON -c 'import json, sys; print([d["published"] for d in json.load(sys.stdin) if d["name"] == "mnist"][0])' <<<"$output")" = no ]
    run --separate-stderr fuel list --verify --json -d downloaded
    [ "$($PYTHON -c 'import json, sys; print([d["published"] for d in json.load(sys.stdin) if d["name"] == "mnist"][0])' <<<"$output")" = no ]
    # Without --verify, or with a file missing: no verdict.
    run --separate-stderr fuel list --json -d downloaded
    [ "$($PYTHON -c 'import json, sys; print([d["published"] for d in json.load(sys.stdin) if d["name"] == "mnist"][0])' <<<"$output")" = None ]
    rm downloaded/t10k-labels-idx1-ubyte.gz
    run --separate-stderr fuel list --verify -d downloaded
    [ "$(grep -c '^    inputs of mnist' <<<"$output")" -eq 0 ]
}

@test "an extra dataset's files as its manifest publishes them: the published files, in every command" {
    mkdir served converters
    cp "$FUEL_FIXTURES/raw/iris/iris.data" served/
    cat >toy.json <<EOF
{"datasets": {"toy": {"summary": "a toy dataset", "files": [{"name": "iris.data",
  "urls": ["http://127.0.0.1:1/iris.data"], "size": $(stat -c %s served/iris.data),
  "md5": "$(md5sum <served/iris.data | cut -d' ' -f1)"}]}}}
EOF
    cat >converters/fuel-convert-toy <<EOF
#!/bin/sh
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
chmod u+w "\$FUEL_OUTPUT_FILE"
echo "\$2/iris.data"
EOF
    chmod +x converters/fuel-convert-toy
    export FUEL_EXTRA_DOWNLOADERS=$PWD/toy.json FUEL_EXTRA_CONVERTERS=$PWD/converters
    fuel convert toy -d served -o . >/dev/null
    REPRODUCE_OPTIONS=--allow-extra verdicts_collect toy "$PWD/served" toy.hdf5
    [ "$(head -1 verdicts.txt)" = "inputs of toy: the published files" ]
    run --separate-stderr fuel info --json toy.hdf5
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published"])' <<<"$output")" = files ]
    # A manifest that cannot be read costs the verdict, not the rest of fuel info.
    echo '{' >toy.json
    run --separate-stderr fuel info toy.hdf5
    [ "$status" -eq 0 ]
    [ "$(grep -c 'inputs of' <<<"$output")" -eq 0 ]
}
