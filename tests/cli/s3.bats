#!/usr/bin/env bats
# s3:// against a real S3 store that checks signatures (Swift with s3api on 127.0.0.1), proved
# by an independent client (boto3): downloads by ranged GETs and their resume, credentials,
# refused keys, missing and denied buckets.

bats_require_minimum_version 1.5.0

load ../helpers/s3
load ../helpers/download
load ../helpers/processes

# The store, and MNIST-named random files uploaded by boto3 to s3://fuel/mnist/.
setup_file() {
    s3_store_start
    export SERVED=$BATS_FILE_TMPDIR/served SUMS=$BATS_FILE_TMPDIR/md5sums
    mkdir -p "$SERVED"
    local index
    for index in 0 1 2 3; do
        head -c "${MNIST_SIZES[$index]}" /dev/urandom > "$SERVED/${MNIST_FILES[$index]}"
    done
    (cd "$SERVED" && md5sum "${MNIST_FILES[@]}") > "$SUMS"
    (cd "$FUEL_FIXTURES/raw/mnist" && md5sum "${MNIST_FILES[@]}") > "$BATS_FILE_TMPDIR/raw.md5"
    boto3 mb fuel -- put fuel mnist/ "$SERVED"/* -- put fuel raw/ "$FUEL_FIXTURES/raw/mnist"/*.gz
}

teardown_file() {
    s3_store_stop
}

setup() {
    s3_environment
    TARGET=$BATS_TEST_TMPDIR/target
}

teardown() {
    stop_server
    stop_jobs
}

@test "fuel download --url-prefix s3:// and FUEL_MIRROR s3:// fetch what boto3 uploaded, verified" {
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ \
        --checksums "$SUMS"
    [ "$status" -eq 0 ]
    local name
    for name in "${MNIST_FILES[@]}"; do
        cmp "$SERVED/$name" "$TARGET/$name"
    done
    [ -z "$(find "$TARGET" -name '*.part')" ]
    FUEL_MIRROR=s3://fuel/mnist/ run --separate-stderr fuel download mnist -d "$TARGET/mirror" \
        --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    cmp "$SERVED/train-images-idx3-ubyte.gz" "$TARGET/mirror/train-images-idx3-ubyte.gz"
}

@test "a .part whose validator is the object's ETag is resumed by a ranged GET" {
    local name=train-images-idx3-ubyte.gz etag
    mkdir -p "$TARGET"
    etag=$(/usr/bin/python3 -c '
import hashlib, sys
print("\"" + hashlib.md5(open(sys.argv[1], "rb").read()).hexdigest() + "\"")' "$SERVED/$name")
    # The kept prefix differs from the object's: only a resumed transfer keeps it.
    head -c 100000 /dev/zero > "$TARGET/$name.part"
    /usr/bin/python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.fuel.validator", sys.argv[2].encode())' \
        "$TARGET/$name.part" "$etag"
    { head -c 100000 /dev/zero; tail -c +100001 "$SERVED/$name"; } > "$BATS_TEST_TMPDIR/expected"
    (cd "$BATS_TEST_TMPDIR" && md5sum expected | sed "s/expected/$name/") > "$BATS_TEST_TMPDIR/resumed"
    grep -v "$name" "$SUMS" >> "$BATS_TEST_TMPDIR/resumed"
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist \
        --checksums "$BATS_TEST_TMPDIR/resumed"
    [ "$status" -eq 0 ]
    cmp "$BATS_TEST_TMPDIR/expected" "$TARGET/$name"
}

@test "a wrong secret key, a missing bucket, a denied bucket: one line, exit 5, no secret" {
    AWS_SECRET_ACCESS_KEY=wrong-secret-key run --separate-stderr fuel download mnist -d "$TARGET" \
        --url-prefix s3://fuel/mnist/ --checksums "$SUMS" --retries 3
    [ "$status" -eq 5 ]
    [ "${#lines[@]}" -eq 0 ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-download: cannot download: "*": s3://fuel/mnist/"*": HTTP 403 SignatureDoesNotMatch: "* ]]
    [[ "$stderr" != *wrong-secret-key* ]]
    [[ "$stderr" != *retrying* ]]
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://nothere/mnist/ \
        --checksums "$SUMS"
    [ "$status" -eq 5 ]
    [[ "$stderr" == *": s3://nothere/mnist/"*": HTTP 404 NoSuchBucket: The specified bucket does not exist." ]]
    AWS_ACCESS_KEY_ID=test:reader AWS_SECRET_ACCESS_KEY=reading run --separate-stderr \
        fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ --checksums "$SUMS"
    [ "$status" -eq 5 ]
    [[ "$stderr" == *": HTTP 403 AccessDenied: Access Denied." ]]
    [ -z "$(find "$TARGET" -type f ! -name .fuel-download.lock)" ]
}

@test "a profile in ~/.aws names the keys and the endpoint; a missing profile is exit 5" {
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_ENDPOINT_URL
    mkdir -p "$HOME/.aws"
    printf '[store]\naws_access_key_id = test:tester\naws_secret_access_key = testing\n' \
        > "$HOME/.aws/credentials"
    printf '[profile store]\nregion = us-east-1\nendpoint_url = %s\n' "$S3_ENDPOINT" \
        > "$HOME/.aws/config"
    AWS_PROFILE=store run --separate-stderr fuel download mnist -d "$TARGET" \
        --url-prefix s3://fuel/mnist/ --checksums "$SUMS"
    [ "$status" -eq 0 ]
    cmp "$SERVED/t10k-labels-idx1-ubyte.gz" "$TARGET/t10k-labels-idx1-ubyte.gz"
    rm -r "$TARGET"
    AWS_PROFILE=nobody run --separate-stderr fuel download mnist -d "$TARGET" \
        --url-prefix s3://fuel/mnist/ --checksums "$SUMS"
    [ "$status" -eq 5 ]
    [[ "$stderr" == *"unknown AWS profile: nobody"* ]]
}

@test "a hostile key is refused with exit 4 before any request" {
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix 's3://fuel/../mnist/' \
        --checksums "$SUMS"
    [ "$status" -eq 4 ]
    [[ "$stderr" == *"refused key: s3://fuel/../mnist/"* ]]
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix 's3://Bad_Bucket/x/' \
        --checksums "$SUMS"
    [ "$status" -eq 4 ]
    [[ "$stderr" == *"bad bucket name"* ]]
    # A key that climbs out of its prefix, in a listing of the store.
    boto3 start-upload fuel hostile/a/../../x > /dev/null
    run --separate-stderr fuel clean s3://fuel/hostile/
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-clean: refused key in a listing: s3://fuel/hostile/a/../../x: an absolute name, an empty, '.' or '..' component, or a control character" ]
}

@test "fuel convert -o s3:// uploads in parts that boto3 reads back whole, its sha256 in metadata" {
    local raw=$FUEL_FIXTURES/raw/mnist head
    run --separate-stderr fuel convert mnist -d "$raw" -o s3://fuel/single -q
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/single/mnist.hdf5 ]
    FUEL_S3_PART_SIZE=4096 run --separate-stderr fuel convert mnist -d "$raw" \
        -o s3://fuel/parts/ -r parts.hdf5 -q --threads 3
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/parts/parts.hdf5 ]
    mapfile -t head < <(boto3 get fuel parts/parts.hdf5 "$BATS_TEST_TMPDIR/parts.hdf5" -- head fuel parts/parts.hdf5)
    [ "${head[0]}" -eq "$(stat -c %s "$BATS_TEST_TMPDIR/parts.hdf5")" ]
    [[ "${head[1]}" == *-[0-9]*'"' ]]
    [ "${head[2]}" = "{\"sha256\": \"$(sha256sum < "$BATS_TEST_TMPDIR/parts.hdf5" | cut -c1-64)\"}" ]
    fuel convert mnist -d "$raw" -o "$BATS_TEST_TMPDIR" -q
    run fuel diff "$BATS_TEST_TMPDIR/parts.hdf5" "$BATS_TEST_TMPDIR/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
    [ -z "$(boto3 uploads fuel parts/)" ]
}

@test "fuel cache s3:// makes one verified copy; info and diff read s3:// names through it" {
    export FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/local
    local copy=$FUEL_LOCAL_DATA_PATH/s3/fuel/mnist/t10k-labels-idx1-ubyte.gz
    run --separate-stderr fuel cache s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    [ "$status" -eq 0 ]
    [ "$output" = "$copy" ]
    [ "$stderr" = "fuel-cache: copied s3://fuel/mnist/t10k-labels-idx1-ubyte.gz" ]
    cmp "$SERVED/t10k-labels-idx1-ubyte.gz" "$copy"
    run --separate-stderr fuel cache s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    [ "$stderr" = "fuel-cache: reusing the copy of s3://fuel/mnist/t10k-labels-idx1-ubyte.gz" ]
    # A copy that no longer matches the object's digest is fetched again.
    printf 'x' | dd of="$copy" bs=1 seek=10 conv=notrunc status=none
    run --separate-stderr fuel cache s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    [ "$status" -eq 0 ]
    cmp "$SERVED/t10k-labels-idx1-ubyte.gz" "$copy"
    boto3 put fuel files/ "$FUEL_FIXTURES/expected/mnist.hdf5"
    run --separate-stderr fuel diff s3://fuel/files/mnist.hdf5 "$FUEL_FIXTURES/expected/mnist.hdf5"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel info s3://fuel/files/mnist.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" == *"Metadata for mnist.hdf5"* ]]
    run --separate-stderr fuel cache s3://fuel/files/absent.hdf5
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-cache: cannot read: s3://fuel/files/absent.hdf5: HTTP 404" ]
}

# upload_under_way PREFIX: waits (at most 20 s) until fuel clean --dry-run sees an incomplete
# multipart upload under the s3:// PREFIX.
upload_under_way() {
    local tick
    for ((tick = 0; tick < 400; tick++)); do
        [[ "$(fuel clean --dry-run "$1")" != *"would abort"* ]] || return 0
        sleep 0.05
    done
    echo "no multipart upload under $1 in 20 s" >&2
    return 1
}

# stopped_mid_upload PID PREFIX [OBJECT]: stops PID (SIGSTOP) at a moment when an incomplete
# multipart upload of its is under the s3:// PREFIX (at most 20 s of tries), of an object the
# glob OBJECT matches (default: any), so a SIGKILL then leaves one: between two objects there is
# none.
stopped_mid_upload() {
    local tick object=${3:-*}
    for ((tick = 0; tick < 100; tick++)); do
        upload_under_way "$2" || return 1
        kill -STOP "$1"
        # $object unquoted: it is matched as a glob
        [[ "$(fuel clean --dry-run "$2")" != *"would abort "$object" "* ]] || return 0
        kill -CONT "$1"
    done
    echo "no multipart upload of $1 under $2 while it was stopped" >&2
    return 1
}

@test "SIGTERM aborts the multipart upload; what a SIGKILL leaves, fuel clean aborts" {
    local raw=$FUEL_FIXTURES/raw/mnist pid
    FUEL_S3_PART_SIZE=1024 fuel convert mnist --dtype float64 -d "$raw" -o s3://fuel/killed/ \
        --threads 1 -q 3>&- &
    pid=$!
    stopped_mid_upload "$pid" s3://fuel/killed/
    kill -9 "$pid"
    wait_bounded "$pid" || true
    [ -n "$(boto3 uploads fuel killed/)" ]
    run --separate-stderr fuel clean -d "$TMPDIR" s3://fuel/killed/
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ] || { printf 'clean said: %s\n' "${lines[@]}" "$stderr"; false; }
    [[ "${lines[0]}" == "aborted s3://fuel/killed/mnist_float64.hdf5 (upload "*")" ]]
    [[ "${lines[1]}" == "removed $TMPDIR/.fuel-staging-s3-upload."* ]]
    [ -z "$(boto3 uploads fuel killed/ -- ls fuel killed/)" ]
    FUEL_S3_PART_SIZE=1024 fuel convert mnist --dtype float64 -d "$raw" -o s3://fuel/stopped/ \
        --threads 1 -q 3>&- &
    pid=$!
    upload_under_way s3://fuel/stopped/
    kill -TERM "$pid"
    local code=0
    wait_bounded "$pid" || code=$?
    [ "$code" -eq 5 ]
    [ -z "$(boto3 uploads fuel stopped/ -- ls fuel stopped/)" ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

@test "fuel fetch -d s3:// takes the raw files from the store, uploads the converted file once" {
    run --separate-stderr fuel fetch mnist -d s3://fuel/data --url-prefix s3://fuel/raw/ \
        --checksums "$BATS_FILE_TMPDIR/raw.md5" -q
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/data/mnist.hdf5 ]
    boto3 get fuel data/mnist.hdf5 "$BATS_TEST_TMPDIR/mnist.hdf5"
    run fuel diff "$BATS_TEST_TMPDIR/mnist.hdf5" "$FUEL_FIXTURES/expected/mnist.hdf5"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel fetch mnist -d s3://fuel/data/ --url-prefix s3://fuel/raw/ \
        --checksums "$BATS_FILE_TMPDIR/raw.md5" --json
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fetch: nothing to do: s3://fuel/data/mnist.hdf5 is there, its sha256 recorded" ]
    printf '%s' "$output" | /usr/bin/python3 -c '
import json, sys
assert json.load(sys.stdin) == {"name": "mnist", "path": "s3://fuel/data/mnist.hdf5", "fetched": False}'
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

@test "--no-sign-request sends no signature: the store, which needs one, refuses" {
    export FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/local
    run --separate-stderr fuel cache s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    [ "$status" -eq 0 ]
    rm -r "$FUEL_LOCAL_DATA_PATH"
    # Swift's s3api takes an unsigned request for one of its own API: HTTP 400, exit 5.
    run --separate-stderr fuel cache --no-sign-request s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-cache: cannot read: s3://fuel/mnist/t10k-labels-idx1-ubyte.gz: HTTP 400" ]
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ \
        --checksums "$SUMS" --no-sign-request
    [ "$status" -eq 5 ]
    [[ "$stderr" == *": HTTP 400" ]]
}

@test "503 SlowDown with Retry-After is waited out, then the object fetched" {
    # The test HTTP server as an S3-compatible endpoint (path-style /BUCKET/KEY) that answers
    # 503 first: Swift never does on demand.
    local files=$SERVED
    SERVED=$BATS_TEST_TMPDIR/endpoint
    mkdir -p "$SERVED/fuel"
    cp -r "$files" "$SERVED/fuel/mnist"
    start_server '{"/fuel/mnist/t10k-labels-idx1-ubyte.gz": [{"status": 503, "retry_after": "1"}]}'
    AWS_ENDPOINT_URL=$URL run --separate-stderr fuel download mnist -d "$TARGET" \
        --url-prefix s3://fuel/mnist/ --checksums "$SUMS" --retry-delay 0.05
    [ "$status" -eq 0 ]
    cmp "$files/t10k-labels-idx1-ubyte.gz" "$TARGET/t10k-labels-idx1-ubyte.gz"
    mapfile -t times < <(requests /fuel/mnist/t10k-labels-idx1-ubyte.gz | awk '{print $6}')
    [ "${#times[@]}" -eq 2 ]
    awk -v first="${times[0]}" -v second="${times[1]}" 'BEGIN {exit !(second - first >= 1)}'
}

@test "uploads: a wrong secret, a missing bucket, a denied bucket: S3's code in one line, exit 5" {
    local raw=$FUEL_FIXTURES/raw/mnist
    AWS_SECRET_ACCESS_KEY=wrong-secret-key run --separate-stderr fuel convert mnist -d "$raw" \
        -o s3://fuel/refused/ -q
    [ "$status" -eq 5 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel-convert: cannot upload: s3://fuel/refused/mnist.hdf5: HTTP 403 SignatureDoesNotMatch: "* ]]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" != *wrong-secret-key* ]]
    run --separate-stderr fuel convert mnist -d "$raw" -o s3://nothere/refused/ -q
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-convert: cannot upload: s3://nothere/refused/mnist.hdf5: HTTP 404 NoSuchBucket: The specified bucket does not exist." ]
    AWS_ACCESS_KEY_ID=test:reader AWS_SECRET_ACCESS_KEY=reading run --separate-stderr \
        fuel convert mnist -d "$raw" -o s3://fuel/refused/ -q
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-convert: cannot upload: s3://fuel/refused/mnist.hdf5: HTTP 403 AccessDenied: Access Denied." ]
    [ -z "$(boto3 ls fuel refused/)" ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

@test "fuel pack -o s3:// uploads the packed file; boto3 reads what fuel diff finds the same" {
    cd "$BATS_TEST_TMPDIR"
    /usr/bin/python3 -c 'import numpy; numpy.save("x.npy", numpy.arange(12, dtype="float32").reshape(4, 3))'
    printf 'name: tiny\nsplits:\n  train: {examples: 3}\n  test: {examples: 1}\nsources:\n  x:\n    axes: [batch, feature]\n    from: [x.npy]\n' > tiny.yaml
    run --separate-stderr fuel pack tiny.yaml -o s3://fuel/packed -q
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/packed/tiny.hdf5 ]
    boto3 get fuel packed/tiny.hdf5 "$BATS_TEST_TMPDIR/got.hdf5"
    mkdir local
    fuel pack tiny.yaml -o local -q
    run fuel diff "$BATS_TEST_TMPDIR/got.hdf5" local/tiny.hdf5
    [ "$status" -eq 0 ]
}

@test "fuel export -o s3:// in every form: boto3 reads back the files of the same export on disk" {
    export SOURCE_DATE_EPOCH=1700000000
    local form input=$FUEL_FIXTURES/expected/mnist.hdf5 local=$BATS_TEST_TMPDIR/local
    local got=$BATS_TEST_TMPDIR/got
    for form in hdf5-layer recordio image-list npy webdataset tfrecord; do
        run --separate-stderr fuel export "$input" --to "$form" -o "s3://fuel/export/$form" -q
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "${lines[0]}" == "s3://fuel/export/$form/"* ]]
        fuel export "$input" --to "$form" -o "$local/$form" -q > /dev/null
    done
    [ "$output" = $'s3://fuel/export/tfrecord/test.json\ns3://fuel/export/tfrecord/train.json' ]
    boto3 sync fuel export/ "$got"
    /usr/bin/python3 "$HELPERS/s3_export_check.py" "$local" "$got" s3://fuel/export "$local"
    # Caffe's list names the files where readers find them.
    [ "$(cat "$got/hdf5-layer/mnist_train.txt")" = s3://fuel/export/hdf5-layer/mnist_train.h5 ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

@test "a SIGKILLed or SIGTERMed export -o s3:// leaves no listing; a smaller set deletes extra shards" {
    local input=$FUEL_FIXTURES/expected/mnist.hdf5 pid
    fuel export "$input" --to webdataset -o s3://fuel/sets/ -q > /dev/null
    [ "$(boto3 ls fuel sets/ | grep -c '\.json$')" -eq 2 ]
    FUEL_S3_PART_SIZE=1024 fuel export "$input" --to webdataset -o s3://fuel/sets/ --shard-examples 1 \
        --threads 1 -q 3>&- &
    pid=$!
    stopped_mid_upload "$pid" s3://fuel/sets/ "s3://fuel/sets/*-0000*.tar"
    kill -9 "$pid"
    wait_bounded "$pid" || true
    run --separate-stderr fuel clean -d "$TMPDIR" s3://fuel/sets/
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [[ "${lines[0]}" == "aborted s3://fuel/sets/"*"-0000"*".tar (upload "*")" ]] ||
        { printf 'clean said: %s\n' "${lines[@]}"; false; }
    [ -z "$(boto3 uploads fuel sets/)" ]
    # The listings were deleted before the first shard went out: no reader takes the mixed set.
    local listing
    listing=$(boto3 ls fuel sets/)
    [ -z "$(grep '\.json$' <<<"$listing")" ]
    [ -n "$(grep '\.tar$' <<<"$listing")" ]
    # SIGTERM mid-upload: the multipart upload aborted, no listing, nothing for fuel clean.
    FUEL_S3_PART_SIZE=1024 fuel export "$input" --to webdataset -o s3://fuel/ended/ \
        --shard-examples 1 --threads 1 -q 3>&- &
    pid=$!
    stopped_mid_upload "$pid" s3://fuel/ended/
    kill -TERM "$pid"
    kill -CONT "$pid"
    local code=0
    wait_bounded "$pid" || code=$?
    [ "$code" -eq 5 ]
    [ -z "$(boto3 uploads fuel ended/)" ]
    [ -z "$(boto3 ls fuel ended/ | grep '\.json$')" ]
    run --separate-stderr fuel clean -d "$TMPDIR" s3://fuel/ended/
    [ "$status" -eq 0 ]
    [ "$output" = "" ]
    # A set of fewer shards deletes, once published, the earlier listing's extra shards.
    fuel export "$input" --to webdataset -o s3://fuel/shrink/ --shard-examples 5 -q > /dev/null
    [ "$(boto3 ls fuel shrink/ | grep -c '^shrink/train-.*\.tar$')" -eq 3 ]
    fuel export "$input" --to webdataset -o s3://fuel/shrink/ -q > /dev/null
    [ "$(boto3 ls fuel shrink/ | tr '\n' ' ')" = "shrink/test-000000.tar shrink/test.json shrink/train-000000.tar shrink/train.json " ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

# KEYS_UNDER PREFIX: the keys below s3://fuel/PREFIX without it, sorted, one a line.
keys_under() {
    boto3 ls fuel "$1" | sed "s|^$1||" | sort
}

@test "a set replacing an earlier one deletes its extra hdf5-layer parts and image-list images" {
    local input=$FUEL_FIXTURES/expected/mnist.hdf5 small=$BATS_TEST_TMPDIR/small
    local local=$BATS_TEST_TMPDIR/local
    fuel export "$input" --to hdf5-layer -o s3://fuel/replace/layer -q > /dev/null
    fuel export "$input" --to hdf5-layer --examples-per-file 5 -o s3://fuel/replace/layer -q > /dev/null
    [ "$(keys_under replace/layer/ | tr '\n' ' ')" = "mnist_test.h5 mnist_test.txt mnist_train.txt mnist_train_0.h5 mnist_train_1.h5 mnist_train_2.h5 " ]
    fuel export "$input" --to hdf5-layer -o s3://fuel/replace/layer -q > /dev/null
    [ "$(keys_under replace/layer/ | tr '\n' ' ')" = "mnist_test.h5 mnist_test.txt mnist_train.h5 mnist_train.txt " ]
    # An image list of fewer examples: the bucket holds what the same export on disk holds.
    mkdir "$small"
    fuel fixture mnist -n 2 -o "$small" > /dev/null
    fuel export "$input" --to image-list -o s3://fuel/replace/list -q > /dev/null
    fuel export "$small/mnist.hdf5" --to image-list -o s3://fuel/replace/list -q > /dev/null
    fuel export "$small/mnist.hdf5" --to image-list -o "$local" -q > /dev/null
    [ "$(keys_under replace/list/)" = "$(cd "$local" && find . -type f | sed 's|^\./||' | sort)" ]
    [ "$(keys_under replace/list/ | grep -c '\.png$')" -eq 4 ]
}

@test "fuel fixture and fuel preview -o s3://: raw files before their MD5SUMS, the file, the PNG" {
    export SOURCE_DATE_EPOCH=1700000000
    local local=$BATS_TEST_TMPDIR/local got=$BATS_TEST_TMPDIR/got
    run --separate-stderr fuel fixture mnist --raw -o s3://fuel/fixture/raw
    [ "$status" -eq 0 ]
    [ "${lines[4]}" = s3://fuel/fixture/raw/MD5SUMS ]
    [ "${lines[0]}" = s3://fuel/fixture/raw/train-images-idx3-ubyte.gz ]
    run --separate-stderr fuel fixture mnist -n 5 -o s3://fuel/fixture/
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/fixture/mnist.hdf5 ]
    run --separate-stderr fuel preview "$FUEL_FIXTURES/expected/mnist.hdf5" -n 4 \
        -o s3://fuel/fixture/shown/mnist.png
    [ "$status" -eq 0 ]
    [ "$output" = "9 0"$'\n'"5 1" ]
    fuel fixture mnist --raw -o "$local/raw" > /dev/null
    fuel fixture mnist -n 5 -o "$local" > /dev/null
    fuel preview "$FUEL_FIXTURES/expected/mnist.hdf5" -n 4 -o "$local/shown/mnist.png" > /dev/null
    boto3 sync fuel fixture/ "$got"
    diff -r "$local/raw" "$got/raw"
    cmp "$local/shown/mnist.png" "$got/shown/mnist.png"
    run fuel diff "$local/mnist.hdf5" "$got/mnist.hdf5"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel preview "$FUEL_FIXTURES/expected/mnist.hdf5" -o s3://fuel
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-preview: -o s3://fuel names no object: give s3://BUCKET/KEY" ]
    [ -z "$(find "$TMPDIR" -maxdepth 1 -name '.fuel-staging-s3-upload.*')" ]
}

@test "a full disk under TMPDIR: the free-space check first, else ENOSPC midway; exit 7, the object named" {
    command -v unshare > /dev/null
    local raw=$FUEL_FIXTURES/raw/mnist fashion=/usr/share/datasets/fashion-mnist
    mkdir -p "$BATS_TEST_TMPDIR/small"
    cd "$BATS_TEST_TMPDIR"
    run unshare -rm bash -c 'mount -t tmpfs -o size=64k tmpfs small || exit 90
        export TMPDIR=$PWD/small
        fuel convert mnist -d "$1" -o s3://fuel/full/ 2>&1; echo "status $?"
        head -c 40k /dev/zero > small/filler
        fuel convert mnist -d "$2" --dtype float64 -o s3://fuel/full/ 2>&1; echo "status $?"
        fuel export "$3" --to webdataset -o s3://fuel/full/ 2>&1; echo "status $?"
        fuel fixture cifar10 --raw -o s3://fuel/full/ 2>&1; echo "status $?"
        ls -A small' _ "$fashion" "$raw" "$FUEL_FIXTURES/expected/cifar10.hdf5"
    [ "$status" -eq 0 ]
    local staged="(staged in TMPDIR $BATS_TEST_TMPDIR/small)"
    [[ "${lines[0]}" =~ ^"fuel-convert: cannot write: s3://fuel/full/: needs "[0-9]+" bytes, 65536 free $staged"$ ]]
    [ "${lines[1]}" = "status 7" ]
    [ "${lines[2]}" = "fuel-convert: cannot write: s3://fuel/full/mnist_float64.hdf5: No space left on device $staged" ]
    [ "${lines[3]}" = "status 7" ]
    [ "${lines[4]}" = "fuel-export: cannot write: s3://fuel/full/train-000000.tar: No space left on device $staged" ]
    [ "${lines[5]}" = "status 7" ]
    [ "${lines[6]}" = "fuel-fixture: cannot write: s3://fuel/full/cifar-10-python.tar.gz: No space left on device $staged" ]
    [ "${lines[7]}" = "status 7" ]
    [ "${lines[8]}" = filler ]
    [ "${#lines[@]}" -eq 9 ]
    [ -z "$(boto3 ls fuel full/ -- uploads fuel full/)" ]
}

@test "the access key, the secret and the session token appear in no output, listing or file" {
    export AWS_ACCESS_KEY_ID=test:keeper AWS_SECRET_ACCESS_KEY=kept-secret-Zq93
    export AWS_SESSION_TOKEN=session-token-Xy77 FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/local
    local raw=$FUEL_FIXTURES/raw/mnist out=$BATS_TEST_TMPDIR/outputs
    mkdir -p "$out"
    {
        fuel convert mnist -d "$raw" -o s3://fuel/secrets/
        fuel fetch mnist -d s3://fuel/secrets --url-prefix s3://fuel/raw/ \
            --checksums "$BATS_FILE_TMPDIR/raw.md5" --json
        fuel download mnist -d "$BATS_TEST_TMPDIR/raw" --url-prefix s3://fuel/raw/ \
            --checksums "$BATS_FILE_TMPDIR/raw.md5"
        fuel cache --json s3://fuel/secrets/mnist.hdf5
        fuel info --json s3://fuel/secrets/mnist.hdf5
        fuel export s3://fuel/secrets/mnist.hdf5 --to webdataset -o s3://fuel/secrets/shards
        fuel fixture mnist --raw -o s3://fuel/secrets/fixture
        fuel cache s3://fuel/secrets/absent.hdf5 || true
        AWS_SECRET_ACCESS_KEY=kept-secret-Zq93-wrong fuel convert mnist -d "$raw" \
            -o s3://fuel/secrets/refused/ || true
    } > "$out/stdout" 2> "$out/stderr"
    grep -q 's3://fuel/secrets/mnist.hdf5' "$out/stdout"
    grep -q 'SignatureDoesNotMatch' "$out/stderr"
    boto3 sync fuel secrets/ "$out/objects"
    [ -f "$out/objects/mnist.hdf5" ]
    [ -f "$out/objects/shards/train.json" ]
    # The provenance as written, and as fuel info shows it, names the s3:// URL as given.
    grep -qF "mnist -d $raw -o s3://fuel/secrets/\"" <(fuel info --json "$out/objects/mnist.hdf5")
    run grep -rlaF -e test:keeper -e kept-secret-Zq93 -e session-token-Xy77 "$out" \
        "$FUEL_LOCAL_DATA_PATH" "$BATS_TEST_TMPDIR/raw"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
}

# tls_endpoint: an https endpoint with a self-signed certificate for 127.0.0.1 in front of the
# store (tests/helpers/tls_proxy.py): TLS_ENDPOINT, and CERTIFICATE its PEM.
tls_endpoint() {
    CERTIFICATE=$BATS_TEST_TMPDIR/certificate.pem
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
        -addext subjectAltName=IP:127.0.0.1 -keyout "$BATS_TEST_TMPDIR/key.pem" \
        -out "$CERTIFICATE" 2> /dev/null
    /usr/bin/python3 "$HELPERS/tls_proxy.py" "$CERTIFICATE" "$BATS_TEST_TMPDIR/key.pem" \
        "$BATS_TEST_TMPDIR/tls.port" "${S3_ENDPOINT##*:}" 3>&- &
    local tick
    for ((tick = 0; tick < 200; tick++)); do
        [ -f "$BATS_TEST_TMPDIR/tls.port" ] && break
        sleep 0.05
    done
    TLS_ENDPOINT=https://127.0.0.1:$(cat "$BATS_TEST_TMPDIR/tls.port")
}

@test "TLS is verified: a self-signed endpoint is refused (exit 5, one line) but with --insecure" {
    tls_endpoint
    export AWS_ENDPOINT_URL=$TLS_ENDPOINT FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/local
    local object=s3://fuel/mnist/t10k-labels-idx1-ubyte.gz
    run --separate-stderr fuel cache "$object"
    [ "$status" -eq 5 ]
    [[ "$stderr" == "fuel-cache: cannot read: $object: SSL peer certificate or SSH remote key was not OK" ]]
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ \
        --checksums "$SUMS" -q
    [ "$status" -eq 5 ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == *"certificate"* ]]
    [ -z "$(find "$TARGET" -type f ! -name .fuel-download.lock 2> /dev/null)" ]
    run --separate-stderr fuel cache --insecure "$object"
    [ "$status" -eq 0 ]
    cmp "$SERVED/t10k-labels-idx1-ubyte.gz" "$output"
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ \
        --checksums "$SUMS" -q --insecure
    [ "$status" -eq 0 ]
    cmp "$SERVED/train-images-idx3-ubyte.gz" "$TARGET/train-images-idx3-ubyte.gz"
    # The certificate named as trusted, the AWS way: verified, and accepted.
    rm -r "$FUEL_LOCAL_DATA_PATH"
    AWS_CA_BUNDLE=$CERTIFICATE run --separate-stderr fuel cache "$object"
    [ "$status" -eq 0 ]
}

@test "--insecure on every command that reads or writes s3://: FILE readers and -o through TLS" {
    tls_endpoint
    boto3 put fuel tls/ "$FUEL_FIXTURES/expected/mnist.hdf5"
    export AWS_ENDPOINT_URL=$TLS_ENDPOINT FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/local
    local object=s3://fuel/tls/mnist.hdf5
    run --separate-stderr fuel info "$object"
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-info: cannot read: $object: SSL peer certificate or SSH remote key was not OK" ]
    run --separate-stderr fuel info --insecure "$object"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Metadata for mnist.hdf5"* ]]
    cmp "$FUEL_FIXTURES/expected/mnist.hdf5" "$FUEL_LOCAL_DATA_PATH/s3/fuel/tls/mnist.hdf5"
    run --separate-stderr fuel fixture --from "$object" -n 3 -o s3://fuel/tls/cut/
    [ "$status" -eq 5 ]
    [[ "$stderr" == *"SSL peer certificate or SSH remote key was not OK" ]]
    # HDF5's S3 driver cannot skip the check: the verified copy, said so.
    run --separate-stderr fuel fixture --insecure --from "$object" -n 3 -o s3://fuel/tls/cut/
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fixture: reading the local copy of $object: HDF5's S3 driver cannot use --insecure" ]
    [ "$output" = s3://fuel/tls/cut/mnist.hdf5 ]
    run --separate-stderr fuel export "$object" --to npy -o s3://fuel/tls/npy/ --insecure
    [ "$status" -eq 0 ]
    [ "$(boto3 ls fuel tls/npy/ | wc -l)" -gt 0 ]
    # Every such command takes both options: tests/cli/man.bats.
}

@test "listings of more than one page: continuation tokens for objects, markers for uploads" {
    export FUEL_S3_LIST_KEYS=2
    boto3 put fuel paged/ "$SERVED"/* "$FUEL_FIXTURES/expected/mnist.hdf5"
    # Five keys, two a page: the last is on the third page.
    FUEL_DATA_PATH=s3://fuel/paged run --separate-stderr fuel path train-labels-idx1-ubyte.gz
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/paged/train-labels-idx1-ubyte.gz ]
    local key
    for key in one two three; do
        boto3 start-upload fuel pages/$key.hdf5 > /dev/null
    done
    # Swift's s3api sends no NextKeyMarker: the page's last upload is the next marker.
    FUEL_S3_LIST_KEYS=1 run --separate-stderr timeout 20 fuel clean s3://fuel/pages/
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "${lines[0]}" == "aborted s3://fuel/pages/one.hdf5 (upload "*")" ]]
    [[ "${lines[1]}" == "aborted s3://fuel/pages/three.hdf5 (upload "*")" ]]
    [[ "${lines[2]}" == "aborted s3://fuel/pages/two.hdf5 (upload "*")" ]]
    [ -z "$(boto3 uploads fuel pages/)" ]
}
