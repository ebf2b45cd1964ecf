# Assertions shared by the CLI tests.

# assert_usage_error COMMAND FRAGMENT...: asserts that the last `run --separate-stderr` was refused
# as a usage error: exit 2, nothing on stdout, one line on stderr
# "COMMAND: ...FRAGMENT...FRAGMENT...; see 'COMMAND -h'", the fragments in that order.
assert_usage_error() {
    local command=$1 pattern=""
    shift
    for fragment in "$@"; do
        pattern+="*$(printf '%q' "$fragment")"
    done
    [ "$status" -eq 2 ] || { echo "exit $status: $stderr"; false; }
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 1 ] || { echo "not one line: $stderr"; false; }
    # shellcheck disable=SC2053
    [[ "$stderr" == $command": "$pattern*"; see '$command -h'" ]] || { echo "unexpected: $stderr"; false; }
}
