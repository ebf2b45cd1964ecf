#!/usr/bin/env bats
# The dispatcher: command list, help, --version, fuel-COMMAND links, external and unknown commands.

bats_require_minimum_version 1.5.0

setup() {
    REPOSITORY="$BATS_TEST_DIRNAME/../.."
    BIN="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$BIN"
}

# The command names of a `fuel -h` listing on stdin.
listed_commands() {
    sed -n '/^commands:$/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9_-]*\)  *[^ ].*$/\1/p'
}

@test "fuel -h and --help list the commands with one line each on stdout" {
    for option in -h --help; do
        run --separate-stderr fuel "$option"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${lines[0]}" = "usage: fuel [--version] [-h] COMMAND [ARGS]" ]
        [[ "$output" == *$'\n  convert    convert downloaded raw files into an H5PYDataset HDF5 file\n'* ]]
    done
}

@test "fuel -h names every form export writes" {
    line=$(fuel -h | grep '^  export ')
    for form in Caffe Mocha MXNet NumPy WebDataset TFRecord "image lists"; do
        [[ "$line" == *"$form"* ]] || { echo "$line lacks $form"; false; }
    done
}

@test "fuel help lists the same commands as fuel -h" {
    run --separate-stderr fuel help
    [ "$status" -eq 0 ]
    help_output=$output
    run --separate-stderr fuel -h
    [ "$output" = "$help_output" ]
}

@test "fuel without a command prints the list on stderr and exits 2" {
    run --separate-stderr fuel
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "$stderr" == "usage: fuel [--version] [-h] COMMAND [ARGS]"* ]]
    [ "$(printf '%s\n' "$stderr" | listed_commands)" = "$(fuel -h | listed_commands)" ]
}

@test "every listed command answers fuel help NAME with its own usage" {
    commands=$(fuel -h | listed_commands)
    [[ "$commands" == *convert* ]]
    for name in $commands; do
        run --separate-stderr fuel help "$name"
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "usage: fuel-$name "* ]]
    done
}

@test "fuel --help CMD and fuel -h CMD are fuel help CMD" {
    run --separate-stderr fuel help convert
    [ "$status" -eq 0 ]
    help_output=$output
    for option in --help -h; do
        run --separate-stderr fuel "$option" convert
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$output" = "$help_output" ]
    done
    run --separate-stderr fuel --help serve
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-serve [-h] [options] FILE|NAME" ]
    run --separate-stderr fuel --help nosuchcommand
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: 'nosuchcommand' is not a fuel command; see 'fuel -h'" ]
}

@test "fuel help convert shows convert's help, the same as fuel-convert -h" {
    run --separate-stderr fuel help convert
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "usage: fuel-convert "* ]]
    [[ "$output" == *"mnist"* ]]
    help_output=$output
    run --separate-stderr fuel-convert -h
    [ "$status" -eq 0 ]
    [ "$output" = "$help_output" ]
    run --separate-stderr fuel convert -h
    [ "$output" = "$help_output" ]
}

@test "fuel help of an unknown command exits 2" {
    run --separate-stderr fuel help nosuchcommand
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel: 'nosuchcommand' is not a fuel command; see 'fuel -h'" ]]
}

@test "fuel --version prints fuel's version and the libraries' versions" {
    run --separate-stderr fuel --version
    [ "$status" -eq 0 ]
    version=$(sed -n 's/^VERSION = //p' "$REPOSITORY/Makefile")
    [ -n "$version" ]
    [ "${lines[0]}" = "fuel $version" ]
    for library in hdf5 libcurl zlib libarchive jansson libpng libisal; do
        expected="$library $(pkg-config --modversion "$library")"
        printf '%s\n' "${lines[@]}" | grep -qxF "$expected"
    done
}

@test "fuel-convert through a symlink of any directory runs convert" {
    ln -s "$(command -v fuel)" "$BIN/fuel-convert"
    run --separate-stderr "$BIN/fuel-convert" -h
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "usage: fuel-convert "* ]]
    linked_output=$output
    run --separate-stderr fuel convert -h
    [ "$output" = "$linked_output" ]
}

@test "a command names itself fuel-COMMAND in its errors, however it was invoked" {
    run --separate-stderr fuel convert nosuchdataset
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-convert: "* ]]
    from_fuel=$stderr
    run --separate-stderr fuel-convert nosuchdataset
    [ "$status" -eq 2 ]
    [ "$stderr" = "$from_fuel" ]
}

@test "an unknown command exits 2 naming the closest commands" {
    run --separate-stderr fuel conver
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel: 'conver' is not a fuel command; did you mean \`convert\`?" ]
    run --separate-stderr fuel cnovert x
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: 'cnovert' is not a fuel command; did you mean \`convert\`?" ]
    run --separate-stderr fuel Fetch
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: 'Fetch' is not a fuel command; did you mean \`fetch\`?" ]
}

@test "an unknown command with nothing close exits 2 without suggestions" {
    run --separate-stderr fuel zzzzzzzzzz
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: 'zzzzzzzzzz' is not a fuel command; see 'fuel -h'" ]
}

@test "an unknown option exits 2 with one line, before -h or after it" {
    for arguments in "--bogus" "--bogus -h" "-h --bogus" "--help --bogus convert"; do
        # shellcheck disable=SC2086
        run --separate-stderr fuel $arguments
        [ "$status" -eq 2 ]
        [ -z "$output" ]
        [ "$stderr" = "fuel: unknown option: --bogus; see 'fuel -h'" ]
    done
    run --separate-stderr fuel --verison
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: unknown option: --verison; did you mean \`--version\`?" ]
}

@test "an executable fuel-NAME on PATH runs as fuel NAME with its arguments and status" {
    cat >"$BIN/fuel-hello" <<'SCRIPT'
#!/bin/sh
printf 'program=%s\n' "$(basename "$0")"
for argument in "$@"; do printf 'argument=%s\n' "$argument"; done
exit 3
SCRIPT
    chmod +x "$BIN/fuel-hello"
    PATH="$BIN:$PATH" run --separate-stderr fuel hello a 'b c' -x
    [ "$status" -eq 3 ]
    [ "$output" = $'program=fuel-hello\nargument=a\nargument=b c\nargument=-x' ]
    PATH="$BIN:$PATH" run --separate-stderr fuel help hello
    [ "$status" -eq 3 ]
    [ "$output" = $'program=fuel-hello\nargument=-h' ]
}

@test "a fuel-NAME on PATH that is not executable exits 1" {
    printf '#!/bin/sh\nexit 0\n' >"$BIN/fuel-noexec"
    chmod 644 "$BIN/fuel-noexec"
    PATH="$BIN:$PATH" run --separate-stderr fuel noexec
    [ "$status" -eq 1 ]
    [ "$stderr" = "fuel: cannot run: fuel-noexec: Permission denied" ]
}

@test "fuel linked under a name outside the table exits 2 instead of running itself again" {
    ln -s "$(command -v fuel)" "$BIN/fuel-loop"
    PATH="$BIN:$PATH" run --separate-stderr timeout 10 fuel-loop a
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel: 'loop' is not a fuel command; see 'fuel -h'" ]
}

@test "a command name holding a slash never runs a file by path" {
    mkdir -p "$BATS_TEST_TMPDIR/work/fuel-a"
    printf '#!/bin/sh\necho ran\n' >"$BATS_TEST_TMPDIR/work/evil"
    chmod +x "$BATS_TEST_TMPDIR/work/evil"
    cd "$BATS_TEST_TMPDIR/work"
    run --separate-stderr fuel a/../evil
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel: 'a/../evil' is not a fuel command; see 'fuel -h'"* ]]
}
