# Shared by the CLI tests that need an S3 store: Swift with s3api (tests/helpers/s3_store) started
# once per bats file, its credentials in the environment, and boto3 as the independent client.
HELPERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# In setup_file: starts the store, or skips the file saying why when Swift is not installed.
s3_store_start() {
    if ! "$HELPERS/s3_store" available; then
        if [ -n "${CI:-}" ]; then
            echo "CI must run the S3 tests: scripts/setup did not install Swift and boto3" >&2
            return 1
        fi
        skip "Swift (swift-proxy, swift-account, swift-container, swift-object, memcached) or python3-boto3 is not installed: scripts/setup installs them"
    fi
    S3_STORE=$BATS_FILE_TMPDIR/store
    S3_ENDPOINT=$("$HELPERS/s3_store" start "$S3_STORE")
    export S3_STORE S3_ENDPOINT
}

s3_store_stop() {
    if [ -n "${S3_STORE:-}" ]; then
        "$HELPERS/s3_store" stop "$S3_STORE"
    fi
}

# In setup: fuel's environment for the store (user test:tester), a HOME without ~/.aws.
s3_environment() {
    export HOME=$BATS_TEST_TMPDIR/home FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset AWS_PROFILE AWS_SESSION_TOKEN AWS_REGION AWS_DEFAULT_REGION AWS_ENDPOINT_URL_S3 AWS_CA_BUNDLE
    export AWS_ENDPOINT_URL=$S3_ENDPOINT AWS_ACCESS_KEY_ID=test:tester AWS_SECRET_ACCESS_KEY=testing
}

# boto3 ARGS...: tests/helpers/s3_client.py against the store as test:tester.
boto3() {
    /usr/bin/python3 "$HELPERS/s3_client.py" "$S3_ENDPOINT" "$@"
}
