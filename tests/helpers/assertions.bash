# Assertions shared by the CLI tests.

# Asserts that the last `run --separate-stderr COMMAND ...` was refused as a usage error: exit 2,
# nothing on stdout, one line on stderr "COMMAND: ...FRAGMENT...; see 'COMMAND -h'".
assert_usage_error() {
    [ "$status" -eq 2 ] || { echo "exit $status: $stderr"; false; }
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 1 ] || { echo "not one line: $stderr"; false; }
    [[ "$stderr" == "$1: "*"$2"*"; see '$1 -h'" ]] || { echo "unexpected: $stderr"; false; }
}
