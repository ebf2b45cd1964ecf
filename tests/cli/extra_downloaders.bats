#!/usr/bin/env bats
# Extra downloaders: JSON manifests named by extra_downloaders / FUEL_EXTRA_DOWNLOADERS, as files
# and directories, behaving as built-ins against the test HTTP server; clashes; malformed ones.

load ../helpers/download

PYTHON_H5=/usr/bin/python3

setup() {
    make_served_files
    unset FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS
    MANIFESTS=$BATS_TEST_TMPDIR/manifests
    mkdir -p "$MANIFESTS"
    head -c 50000 /dev/urandom > "$SERVED/toy.bin"
    head -c 3000 /dev/urandom > "$SERVED/one.bin"
    head -c 4000 /dev/urandom > "$SERVED/two.bin"
    TOY_MD5=$(md5sum < "$SERVED/toy.bin" | cut -d' ' -f1)
    TOY_SHA256=$(sha256sum < "$SERVED/toy.bin" | cut -d' ' -f1)
}

teardown() {
    stop_server
}

# A manifest at $1 declaring dataset "toy" (toy.bin, md5 and sha256, size) from the server.
write_toy_manifest() {
    cat > "$1" <<EOF
{"datasets": {"toy": {"summary": "a toy dataset", "files": [
  {"name": "toy.bin", "urls": ["$URL/missing/toy.bin", "$URL/toy.bin"], "size": 50000,
   "md5": "$TOY_MD5", "sha256": "$TOY_SHA256"}]}}}
EOF
}

# A manifest at $1 declaring dataset "pair" with formats 1 (one.bin) and 2 (two.bin).
write_formats_manifest() {
    cat > "$1" <<EOF
{"datasets": {"pair": {"summary": "two formats", "formats": {
  "1": {"summary": "the first format", "files": [{"name": "one.bin", "urls": ["$URL/one.bin"]}]},
  "2": {"files": [{"name": "two.bin", "urls": ["$URL/two.bin"],
                   "md5": "$(md5sum < "$SERVED/two.bin" | cut -d' ' -f1)"}]}}}}}
EOF
}

@test "a manifest file: -h lists it, NAME -h shows its files, the download is verified" {
    start_server
    write_toy_manifest "$MANIFESTS/toy.json"
    export FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/toy.json
    run fuel-download -h
    [ "$status" -eq 0 ]
    [[ "$output" =~ toy\ +48\.8\ KiB\ +a\ toy\ dataset\ \($MANIFESTS/toy.json\) ]]
    [[ "$output" == *"  mnist "* ]]
    run fuel-download toy -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"declared in $MANIFESTS/toy.json"* ]]
    [[ "$output" == *"toy.bin  50000 bytes  sha256 $TOY_SHA256"* ]]
    [[ "$output" == *"    $URL/missing/toy.bin"* ]]
    run fuel-download toy -d "$TARGET" --retry-delay 0.05
    [ "$status" -eq 0 ]
    cmp "$SERVED/toy.bin" "$TARGET/toy.bin"
    [ "$(requests /missing/toy.bin | awk '{print $1}')" = 404 ]
    [ "$(requests /toy.bin | awk '{print $1}')" = 200 ]
    run fuel-download toy -d "$TARGET"
    [ "$status" -eq 0 ]
    [[ "$output" == *"toy.bin: already present and verified"* ]]
}

@test "fuel list shows a manifest's datasets and the state of their files" {
    start_server
    write_toy_manifest "$MANIFESTS/toy.json"
    write_formats_manifest "$MANIFESTS/pair.json"
    export FUEL_EXTRA_DOWNLOADERS=$MANIFESTS
    run fuel-download toy -d "$TARGET"
    [ "$status" -eq 0 ]
    head -c 100 "$SERVED/one.bin" > "$TARGET/one.bin.part"
    run fuel list -d "$TARGET" --json --verify
    [ "$status" -eq 0 ]
    $PYTHON_H5 - "$output" "$TARGET" <<'PY'
import json, sys
datasets = {(d["name"], d["variant"]): d for d in json.loads(sys.argv[1])}
target = sys.argv[2]
assert datasets[("toy", None)]["summary"] == "a toy dataset"
assert [(f["name"], f["state"]) for f in datasets[("toy", None)]["files"]] == [("toy.bin", "verified")]
assert [(f["name"], f["state"]) for f in datasets[("pair", "1")]["files"]] == [("one.bin", "partial")]
assert [(f["name"], f["state"]) for f in datasets[("pair", "2")]["files"]] == [("two.bin", "missing")]
assert ("mnist", None) in datasets
PY
}

@test "a manifest's sha256 is verified: wrong bytes exit 6 and leave nothing" {
    start_server '{"/toy.bin": [{"body": "not the toy"}]}'
    write_toy_manifest "$MANIFESTS/toy.json"
    sed -i 's/"size": 50000,//' "$MANIFESTS/toy.json"
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/toy.json run fuel-download toy -d "$TARGET" --retries 0
    [ "$status" -eq 6 ]
    [[ "$output" == *"checksum mismatch: toy.bin: expected sha256 $TOY_SHA256"* ]]
    [ ! -e "$TARGET/toy.bin" ] && [ ! -e "$TARGET/toy.bin.part" ]
}

@test "a dropped transfer of a manifest's file resumes with a Range request" {
    start_server '{"/toy.bin": [{"drop_after": 20000}]}'
    write_toy_manifest "$MANIFESTS/toy.json"
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/toy.json run fuel-download toy -d "$TARGET" --retry-delay 0.05
    [ "$status" -eq 0 ]
    cmp "$SERVED/toy.bin" "$TARGET/toy.bin"
    read -r status start sent range _ <<< "$(requests /toy.bin | tail -n 1)"
    [ "$status" = 206 ] && [ "$start" = 20000 ] && [ "$range" = "bytes=20000-" ]
}

@test "a verified .part of the declared size is published without a request; a short one resumes" {
    start_server
    write_toy_manifest "$MANIFESTS/toy.json"
    export FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/toy.json
    mkdir -p "$TARGET"
    cp "$SERVED/toy.bin" "$TARGET/toy.bin.part"
    run fuel-download toy -d "$TARGET"
    [ "$status" -eq 0 ]
    [[ "$output" == *"toy.bin: completed from its verified .part"* ]]
    cmp "$SERVED/toy.bin" "$TARGET/toy.bin"
    [ ! -e "$TARGET/toy.bin.part" ]
    [ ! -s "$SERVER_LOG" ]
    rm "$TARGET/toy.bin"
    head -c 49999 "$SERVED/toy.bin" > "$TARGET/toy.bin.part"
    run fuel-download toy -d "$TARGET" --retry-delay 0.05
    [ "$status" -eq 0 ]
    [[ "$output" != *"completed from its verified .part"* ]]
    cmp "$SERVED/toy.bin" "$TARGET/toy.bin"
}

@test "the config's mirrors are tried before a manifest's URLs, and --clear removes its files" {
    start_server
    mkdir "$SERVED/mirror"
    cp "$SERVED/toy.bin" "$SERVED/mirror/toy.bin"
    write_toy_manifest "$MANIFESTS/toy.json"
    printf 'extra_downloaders: %s\nmirrors:\n  - %s/mirror/\n' "$MANIFESTS/toy.json" "$URL" \
        > "$FUEL_CONFIG"
    run fuel-download toy -d "$TARGET"
    [ "$status" -eq 0 ]
    [ "$(requests /mirror/toy.bin | awk '{print $1}')" = 200 ]
    [ -z "$(requests /toy.bin)" ]
    [ -z "$(requests /missing/toy.bin)" ]
    touch "$TARGET/toy.bin.part" "$TARGET/other"
    run fuel-download toy -d "$TARGET" --clear
    [ "$status" -eq 0 ]
    [ ! -e "$TARGET/toy.bin" ] && [ ! -e "$TARGET/toy.bin.part" ] && [ -e "$TARGET/other" ]
}

@test "a directory of manifests: every *.json, formats chosen like svhn's" {
    start_server
    write_toy_manifest "$MANIFESTS/a.json"
    write_formats_manifest "$MANIFESTS/b.json"
    echo 'not json, and not read' > "$MANIFESTS/notes.txt"
    export FUEL_EXTRA_DOWNLOADERS=$MANIFESTS
    run fuel-download -h
    [ "$status" -eq 0 ]
    [[ "$output" =~ toy\ +48\.8\ KiB ]]
    [[ "$output" =~ pair\ 1\ +size\ unknown\ +the\ first\ format ]]
    [[ "$output" =~ pair\ 2\ +size\ unknown\ +two\ formats ]]
    run fuel-download pair
    [ "$status" -eq 2 ]
    [[ "$output" == *"fuel-download: pair needs a format, 1 or 2: none given"* ]]
    run fuel-download pair 2 -d "$TARGET"
    [ "$status" -eq 0 ]
    cmp "$SERVED/two.bin" "$TARGET/two.bin"
    [ ! -e "$TARGET/one.bin" ]
    run fuel-download pair 1 -d "$TARGET"
    [ "$status" -eq 0 ]
    cmp "$SERVED/one.bin" "$TARGET/one.bin"
    [[ "$output" == *"warning: one.bin: no published checksum"* ]]
}

@test "FUEL_EXTRA_DOWNLOADERS overrides extra_downloaders of the config; both take several entries" {
    start_server
    write_toy_manifest "$MANIFESTS/toy.json"
    write_formats_manifest "$MANIFESTS/pair.json"
    printf 'extra_downloaders: %s\n' "$MANIFESTS/toy.json" > "$FUEL_CONFIG"
    run fuel-download toy --print-urls -d "$TARGET"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$URL/missing/toy.bin	$TARGET/toy.bin" ]
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/pair.json run fuel-download toy --print-urls
    [ "$status" -eq 2 ]
    [[ "$output" == *"fuel-download: unknown dataset: toy"* ]]
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/pair.json run fuel-download pair 1 --print-urls -d "$TARGET"
    [ "$status" -eq 0 ]
    [ "$output" = "$URL/one.bin	$TARGET/one.bin" ]
    FUEL_EXTRA_DOWNLOADERS="$MANIFESTS/pair.json $MANIFESTS/toy.json" run fuel-download -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"  toy "* ]] && [[ "$output" == *"  pair 2 "* ]]
}

@test "a name clash with a built-in or between manifests exits 2 naming both" {
    URL=http://127.0.0.1:9
    write_toy_manifest "$MANIFESTS/a.json"
    cp "$MANIFESTS/a.json" "$MANIFESTS/b.json"
    printf '{"datasets": {"mnist": {"files": [{"name": "x", "urls": ["http://h/x"]}]}}}' \
        > "$BATS_TEST_TMPDIR/mnist.json"
    FUEL_EXTRA_DOWNLOADERS=$BATS_TEST_TMPDIR/mnist.json run fuel-download -h
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-download: name clash: $BATS_TEST_TMPDIR/mnist.json: \$.datasets.mnist: mnist is a built-in dataset" ]
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS run fuel-download toy -d "$TARGET"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-download: name clash: $MANIFESTS/b.json: \$.datasets.toy: toy is declared by $MANIFESTS/a.json too" ]
    [ ! -e "$TARGET" ]
}

# Runs fuel-download -h with the manifest text $1 and expects exit 2 and the one line $2.
expect_malformed() {
    printf '%s' "$1" > "$MANIFESTS/bad.json"
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/bad.json run fuel-download -h
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-download: malformed manifest: $MANIFESTS/bad.json: $2" ]
}

@test "malformed manifests exit 2 with one line naming the file and the JSON path" {
    expect_malformed '{"datasets": {"a": {"files": [}}}' 'line 1, column 31: unexpected token near '"'"'}'"'"''
    expect_malformed '[]' '$: expected an object with datasets'
    expect_malformed '{"datasets": {}}' '$.datasets: expected an object naming at least one dataset'
    expect_malformed '{"datasets": {"a": {"files": []}}, "extra": 1}' '$.extra: unknown key'
    expect_malformed '{"datasets": {"a b": {"files": []}}}' \
        "\$.datasets.a b: a dataset name is letters, digits, '_', '.' or '-'"
    expect_malformed '{"datasets": {"a": {"summary": "s"}}}' '$.datasets.a.files: missing'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/f"], "sha265": "0"}]}}}' \
        '$.datasets.a.files[0].sha265: unknown key'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/f"], "md5": "xyz"}]}}}' \
        '$.datasets.a.files[0].md5: expected 32 hexadecimal digits'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "../f", "urls": ["http://h/f"]}]}}}' \
        "\$.datasets.a.files[0].name: expected a file name without '/'"
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/f", "file:///etc/passwd"]}]}}}' \
        '$.datasets.a.files[0].urls[1]: expected an http:// or https:// URL'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["ftp://h/f"]}]}}}' \
        '$.datasets.a.files[0].urls[0]: expected an http:// or https:// URL'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/f"], "size": -3}]}}}' \
        '$.datasets.a.files[0].size: expected a size in bytes, a whole number above 0'
    expect_malformed '{"datasets": {"a": {"formats": {"1": {"files": [{"name": "f", "urls": ["http://h/f"]}, {"name": "f", "urls": ["http://h/g"]}]}}}}}' \
        '$.datasets.a.formats.1.files[1].name: f is listed twice'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/1", "http://h/2", "http://h/3", "http://h/4", "http://h/5"]}]}}}' \
        '$.datasets.a.files[0].urls: at most 4 URLs'
    expect_malformed '{"datasets": {"a": {"files": [], "formats": {}}}}' \
        '$.datasets.a: files and formats are exclusive'
    expect_malformed '{"datasets": {"a": {"files": [{"name": "f", "urls": ["http://h/f"]}]}, "a": {}}}' \
        "line 1, column 74: duplicate object key near '\"a\"'"
}

@test "a manifest that does not exist, or a malformed one, stops even built-in downloads" {
    FUEL_EXTRA_DOWNLOADERS=$MANIFESTS/none.json run fuel-download mnist --print-urls
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-download: cannot read manifest: $MANIFESTS/none.json: No such file or directory" ]
    printf '{' > "$MANIFESTS/bad.json"
    printf 'extra_downloaders: [%s]\n' "$MANIFESTS" > "$FUEL_CONFIG"
    run fuel-download mnist --print-urls
    [ "$status" -eq 2 ]
    [[ "$output" == "fuel-download: malformed manifest: $MANIFESTS/bad.json: line 1, column 1: "* ]]
}
