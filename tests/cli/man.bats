#!/usr/bin/env bats
# Every man page renders with man(1) without a single troff or man warning.

setup() {
    cd "$BATS_TEST_DIRNAME/../.."
}

render_without_warnings() {
    local page=$1
    MANWIDTH=80 man -l --warnings "$page" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
    local status=$?
    if [ "$status" -ne 0 ] || [ -s "$BATS_TEST_TMPDIR/err" ]; then
        echo "$page: status $status"
        cat "$BATS_TEST_TMPDIR/err"
        return 1
    fi
    [ -s "$BATS_TEST_TMPDIR/out" ]
}

@test "every section 1, 5 and 7 page renders without warnings" {
    pages=(man/*.1 man/*.5 man/*.7)
    [ "${#pages[@]}" -ge 2 ]
    for page in "${pages[@]}"; do
        render_without_warnings "$page"
    done
}

@test "the man check catches a page with an undefined macro" {
    printf '.TH BROKEN 1\n.SH NAME\nbroken \\- a page\n.NOSUCHMACRO\n' >"$BATS_TEST_TMPDIR/broken.1"
    run render_without_warnings "$BATS_TEST_TMPDIR/broken.1"
    [ "$status" -ne 0 ]
    [[ "$output" == *"NOSUCHMACRO"* ]]
}

@test "fuel.1 lists every command, every exit code and the environment" {
    MANWIDTH=200 man -l man/fuel.1 >"$BATS_TEST_TMPDIR/fuel.txt" 2>/dev/null
    for word in download convert info help 'fuel-COMMAND' FUEL_CONFIG FUEL_DATA_PATH \
        FUEL_MIRROR '~/.fuelrc'; do
        grep -qF -- "$word" "$BATS_TEST_TMPDIR/fuel.txt"
    done
    for code in 0 1 2 3 4 5 6 7; do
        grep -qE "^ {7}$code {2,}[A-Z]" "$BATS_TEST_TMPDIR/fuel.txt"
    done
}

@test "fuel.1 gives every command an entry of its own" {
    MANWIDTH=200 man -l man/fuel.1 >"$BATS_TEST_TMPDIR/fuel.txt" 2>/dev/null
    commands=$(fuel -h | sed -n 's/^  \([a-z][a-z]*\)  *[^ ].*$/\1/p')
    [ -n "$commands" ]
    for command in $commands; do
        grep -qE "^ {7}$command( |\$)" "$BATS_TEST_TMPDIR/fuel.txt" || { echo "no entry: $command"; false; }
    done
    run grep -c "fuel-serve(1). fixture" "$BATS_TEST_TMPDIR/fuel.txt"
    [ "$output" = 0 ]
}

@test "fuelrc.5 documents every key and variable" {
    MANWIDTH=200 man -l man/fuelrc.5 >"$BATS_TEST_TMPDIR/fuelrc.txt" 2>/dev/null
    for word in data_path local_data_path extra_downloaders extra_converters mirror mirrors \
        FUEL_CONFIG FUEL_DATA_PATH FUEL_LOCAL_DATA_PATH FUEL_EXTRA_DOWNLOADERS \
        FUEL_EXTRA_CONVERTERS FUEL_MIRROR; do
        grep -qw -- "$word" "$BATS_TEST_TMPDIR/fuelrc.txt"
    done
}

@test "fuel-s3.7 documents the AWS variables, the s3:// commands and an example" {
    MANWIDTH=200 man -l man/fuel-s3.7 >"$BATS_TEST_TMPDIR/s3.txt" 2>/dev/null
    for word in AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_REGION \
        AWS_DEFAULT_REGION AWS_PROFILE AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3 \
        AWS_SHARED_CREDENTIALS_FILE AWS_CONFIG_FILE FUEL_S3_PART_SIZE --no-sign-request \
        --insecure AWS_CA_BUNDLE ca_bundle \
        '~/.aws/credentials' '~/.aws/config' endpoint_url region x-amz-meta-sha256 Content-MD5 \
        'fuel clean s3://' 'fuel cache s3://' 'EXAMPLES'; do
        grep -qF -- "$word" "$BATS_TEST_TMPDIR/s3.txt" || { echo "missing: $word"; false; }
    done
    grep -qF 'fuel-s3(7)' <(MANWIDTH=200 man -l man/fuel.1 2>/dev/null)
}

@test "--no-sign-request and --insecure: one table entry for every s3:// command, in its man page" {
    local reference command
    reference=$(fuel info -h | grep -E -- '^  --(no-sign-request|insecure) ')
    [ "$(wc -l <<<"$reference")" -eq 2 ]
    for command in cache convert export pack preview info diff stats serve duplicates fixture; do
        [ "$(fuel "$command" -h | grep -E -- '^  --(no-sign-request|insecure) ')" = "$reference" ] ||
            { echo "fuel $command -h differs"; false; }
        fuel "$command" -h | sed '/^$/q' | grep -qF '[options]'
        MANWIDTH=200 man -l "man/fuel-$command.1" >"$BATS_TEST_TMPDIR/page.txt" 2>/dev/null
        grep -qF -- '--no-sign-request' "$BATS_TEST_TMPDIR/page.txt"
        grep -qF -- '--insecure' "$BATS_TEST_TMPDIR/page.txt" || { echo "fuel-$command.1"; false; }
    done
}
