#!/usr/bin/env bats
# s3:// against a real S3 store that checks signatures (Swift with s3api on 127.0.0.1), proved
# by an independent client (boto3): downloads by ranged GETs and their resume, credentials,
# refused keys, missing and denied buckets.

bats_require_minimum_version 1.5.0

load ../helpers/s3
load ../helpers/download

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
    boto3 mb fuel
    boto3 put fuel mnist/ "$SERVED"/*
}

teardown_file() {
    s3_store_stop
}

setup() {
    s3_environment
    TARGET=$BATS_TEST_TMPDIR/target
}

@test "fuel download --url-prefix s3:// fetches what boto3 uploaded, verified" {
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ \
        --checksums "$SUMS"
    [ "$status" -eq 0 ]
    local name
    for name in "${MNIST_FILES[@]}"; do
        cmp "$SERVED/$name" "$TARGET/$name"
    done
    [ -z "$(find "$TARGET" -name '*.part')" ]
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
    [[ "$stderr" == "fuel-download: cannot download: "*": s3://fuel/mnist/"*": HTTP 403" ]]
    [[ "$stderr" != *wrong-secret-key* ]]
    [[ "$stderr" != *retrying* ]]
    run --separate-stderr fuel download mnist -d "$TARGET" --url-prefix s3://nothere/mnist/ \
        --checksums "$SUMS"
    [ "$status" -eq 5 ]
    [[ "$stderr" == *": s3://nothere/mnist/"*": HTTP 404" ]]
    AWS_ACCESS_KEY_ID=test:reader AWS_SECRET_ACCESS_KEY=reading run --separate-stderr \
        fuel download mnist -d "$TARGET" --url-prefix s3://fuel/mnist/ --checksums "$SUMS"
    [ "$status" -eq 5 ]
    [[ "$stderr" == *": HTTP 403" ]]
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
}
