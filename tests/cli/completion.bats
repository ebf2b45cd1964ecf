#!/usr/bin/env bats
# fuel completion bash|zsh: scripts that ask `fuel __complete` and complete commands, options,
# dataset names and formats (extras from the config included), option values and file names.

bats_require_minimum_version 1.5.0

HELPERS="$BATS_TEST_DIRNAME/../helpers"

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR FUEL_DATA_PATH FUEL_EXTRA_CONVERTERS FUEL_EXTRA_DOWNLOADERS
    mkdir -p "$HOME"
    WORK="$BATS_TEST_TMPDIR/work"
    mkdir -p "$WORK/rawdir" "$WORK/raw_other"
    : > "$WORK/rawfile.hdf5"
}

# Runs the bash completion function on the words given, the last being completed; prints
# COMPREPLY one per line, sorted.
complete_bash() {
    bash -c 'source <(fuel completion bash) || exit 9
             COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
             _fuel; printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$@"
}

@test "bash: commands, and fuel help COMMAND" {
    run complete_bash fuel con
    [ "$output" = convert ]
    run complete_bash fuel c
    [ "$output" = "cache
clean
completion
convert" ]
    run complete_bash fuel help d
    [ "$output" = "diff
download
duplicates" ]
    run complete_bash fuel --v
    [ "$output" = --version ]
}

@test "bash: every command of fuel -h completes, and no hidden one" {
    run complete_bash fuel ''
    [ "$status" -eq 0 ]
    listed=$(fuel -h | sed -n '/^commands:/,/^$/s/^  \([a-z_]*\) .*/\1/p' | sort)
    [ -n "$listed" ]
    [ "$output" = "$(printf '%s\nhelp\n' "$listed" | sort)" ]
    [[ "$output" != *__complete* ]]
}

@test "bash: each command's options are those its -h lists" {
    # convert mnist: the table's options and mnist's own (--dtype).
    for command in download "convert mnist" info list path fetch cache clean completion pack; do
        run complete_bash fuel $command --
        [ "$status" -eq 0 ]
        expected=$(fuel $command -h | grep -oE '^  (-[a-zA-Z], )?--[a-z_-]+' |
                   grep -oE -- '--[a-z_-]+$' | sort -u)
        [ -n "$expected" ]
        [ "$output" = "$expected" ] || { echo "$command: $output vs $expected"; false; }
    done
    run complete_bash fuel download --re
    [ "$output" = "--retries
--retry-delay" ]
    run complete_bash fuel-fetch -
    [[ "$output" == *"-j"*"--keep-raw"* ]]
}

@test "bash: a FILE|NAME argument offers exactly what resolves: the data path's files and the datasets converted there" {
    mkdir "$BATS_TEST_TMPDIR/data"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$FUEL_FIXTURES/expected/iris.hdf5" "$BATS_TEST_TMPDIR/data/"
    : > "$BATS_TEST_TMPDIR/data/notes.txt"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/data"
    cd "$WORK"
    for command in info path serve export preview stats cache "fixture --from"; do
        # shellcheck disable=SC2086
        run complete_bash fuel $command ''
        [ "$status" -eq 0 ]
        # The shell's own file names (rawdir/, raw_other/, rawfile.hdf5 here), then what resolves.
        [ "$output" = "iris
iris.hdf5
mnist
mnist.hdf5
raw_other
rawdir
rawfile.hdf5" ] || { echo "$command: $output"; false; }
        # Each name offered resolves to a file.
        for name in iris mnist iris.hdf5 mnist.hdf5; do
            fuel path "$name" > /dev/null
        done
    done
    run complete_bash fuel info mn
    [ "$output" = "mnist
mnist.hdf5" ]
}

@test "bash: dataset names and formats, built-in" {
    run complete_bash fuel convert ''
    [ "$output" = "adult
binarized_mnist
caltech101_silhouettes
celeba
cifar10
cifar100
dogs_vs_cats
fashion_mnist
ilsvrc2010
ilsvrc2012
iris
mnist
svhn" ]
    run complete_bash fuel convert celeba ''
    [ "$output" = "64
aligned_cropped" ]
    run complete_bash fuel fetch sv
    [ "$output" = svhn ]
    run complete_bash fuel download svhn ''
    [ "$output" = "1
2" ]
    run complete_bash fuel fixture caltech101_silhouettes ''
    [ "$output" = "16
28" ]
    run complete_bash fuel-download -d "$WORK" svhn ''
    [ "$output" = "1
2" ]
    run complete_bash fuel convert mnist ''
    [ -z "$output" ]
}

@test "bash: dataset names and formats of the config's extras complete too" {
    mkdir "$BATS_TEST_TMPDIR/converters"
    printf '#!/bin/sh\n' > "$BATS_TEST_TMPDIR/converters/fuel-convert-toy"
    chmod +x "$BATS_TEST_TMPDIR/converters/fuel-convert-toy"
    cat > "$BATS_TEST_TMPDIR/flower.json" <<'JSON'
{"datasets": {"flower": {"summary": "iris twice", "formats": {
  "a": {"files": [{"name": "iris.data", "urls": ["http://example.invalid/a/iris.data"]}]},
  "b": {"files": [{"name": "iris.data", "urls": ["http://example.invalid/b/iris.data"]}]}}}}}
JSON
    export FUEL_EXTRA_CONVERTERS="$BATS_TEST_TMPDIR/converters"
    export FUEL_EXTRA_DOWNLOADERS="$BATS_TEST_TMPDIR/flower.json"
    run complete_bash fuel convert t
    [ "$output" = toy ]
    run complete_bash fuel fetch fl
    [ "$output" = flower ]
    run complete_bash fuel fetch flower ''
    [ "$output" = "a
b" ]
}

@test "bash: dataset option names and values, as --name value and --name=value" {
    run complete_bash fuel convert mnist --d
    [ "$output" = "--directory
--dtype" ]
    run complete_bash fuel convert mnist --dtype ''
    [ "$output" = "bool
float32
float64
uint8" ]
    run complete_bash fuel fetch fashion_mnist --dtype f
    [ "$output" = "float32
float64" ]
    # bash splits --dtype=fl into --dtype, =, fl; a lone = keeps its place.
    run complete_bash fuel convert mnist --dtype = fl
    [ "$output" = "float32
float64" ]
    run complete_bash fuel convert mnist --dtype =
    [ "$output" = "=bool
=float32
=float64
=uint8" ]
    run complete_bash fuel completion ''
    [ "$output" = "bash
zsh" ]
}

@test "bash: directories after -d and -o, files after -r, --checksums and FILE" {
    cd "$WORK"
    run complete_bash fuel convert mnist -d raw
    [ "$output" = "raw_other
rawdir" ]
    run complete_bash fuel convert mnist -o "$WORK/rawd"
    [ "$output" = "$WORK/rawdir" ]
    run complete_bash fuel-clean --directory ra
    [ "$output" = "raw_other
rawdir" ]
    run complete_bash fuel info raw
    [ "$output" = "raw_other
rawdir
rawfile.hdf5" ]
    run complete_bash fuel convert mnist -r rawf
    [ "$output" = rawfile.hdf5 ]
    run complete_bash fuel download mnist --checksums rawf
    [ "$output" = rawfile.hdf5 ]
    # A value already given is not completed again: after -d DIR comes a dataset.
    run complete_bash fuel download -d rawdir sv
    [ "$output" = svhn ]
}

@test "fuel completion: usage errors exit 2 with one line; the scripts are valid shell" {
    run --separate-stderr fuel completion
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-completion: missing SHELL: bash or zsh; see 'fuel-completion -h'" ]
    run --separate-stderr fuel completion fish
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-completion: unknown shell: fish: bash or zsh; see 'fuel-completion -h'" ]
    fuel completion bash > "$BATS_TEST_TMPDIR/fuel.bash"
    bash -n "$BATS_TEST_TMPDIR/fuel.bash"
    fuel completion zsh > "$BATS_TEST_TMPDIR/_fuel"
    zsh -n "$BATS_TEST_TMPDIR/_fuel"
    # fuel and fuel-NAME of every command fuel -h lists, in its order.
    names=$(fuel -h | sed -n '/^commands:/,/^$/s/^  \([a-z_]*\) .*/ fuel-\1/p' | tr -d '\n')
    [[ "$names" == " fuel-download fuel-convert "* ]]
    [ "$(head -n 1 "$BATS_TEST_TMPDIR/_fuel")" = "#compdef fuel$names" ]
    [ "$(tail -n 1 "$BATS_TEST_TMPDIR/fuel.bash")" = "complete -F _fuel fuel$names" ]
    run fuel completion -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"source <(fuel completion bash)"* ]]
}

@test "zsh: a real interactive zsh completes commands, datasets, options, values and directories" {
    cd "$WORK"
    zsh -f "$HELPERS/zsh_complete.zsh" "$BATS_TEST_TMPDIR/buffers" 'fuel conv' 'fuel fetch sv' \
        'fuel convert mnist --dt' 'fuel convert mnist --dtype=b' 'fuel convert mnist -d rawd' \
        'fuel-download fashion' 'fuel info rawf' 'fuel help comp'
    run cat "$BATS_TEST_TMPDIR/buffers"
    [ "$output" = "fuel convert 
fuel fetch svhn 
fuel convert mnist --dtype 
fuel convert mnist --dtype=bool 
fuel convert mnist -d rawdir/
fuel-download fashion_mnist 
fuel info rawfile.hdf5 
fuel help completion " ]
}

@test "zsh: the installed _fuel autoloads from fpath" {
    mkdir "$BATS_TEST_TMPDIR/functions"
    fuel completion zsh > "$BATS_TEST_TMPDIR/functions/_fuel"
    cd "$WORK"
    # The driver sources the script; here the file in fpath must work alone, through compinit.
    sed 's|source <(fuel completion zsh)|fpath=('"$BATS_TEST_TMPDIR"'/functions $fpath); compinit -u -D|' \
        "$HELPERS/zsh_complete.zsh" > "$BATS_TEST_TMPDIR/driver.zsh"
    zsh -f "$BATS_TEST_TMPDIR/driver.zsh" "$BATS_TEST_TMPDIR/buffers" 'fuel conv' 'fuel fetch svhn 1 --k'
    run cat "$BATS_TEST_TMPDIR/buffers"
    [ "$output" = "fuel convert 
fuel fetch svhn 1 --keep-raw " ]
}

@test "make install puts the scripts where bash-completion and zsh load them from" {
    root=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
    build=${BUILD:-$root/build}
    destination="$BATS_TEST_TMPDIR/installed"
    make -s -C "$root" install BUILD="$build" DESTDIR="$destination" PREFIX=/usr > /dev/null
    share="$destination/usr/share"
    [ "$(cat "$share/bash-completion/completions/fuel")" = "$(fuel completion bash)" ]
    [ "$(cat "$share/zsh/site-functions/_fuel")" = "$(fuel completion zsh)" ]
    # bash-completion's own loader finds it, for fuel and for fuel-NAME.
    run bash -c 'source /usr/share/bash-completion/bash_completion || exit 9
                 __load_completion fuel-fetch || exit 8
                 COMP_WORDS=(fuel-fetch svhn ""); COMP_CWORD=2; _fuel; echo "${COMPREPLY[*]}"'
    [ "$status" -eq 8 ]
    XDG_DATA_DIRS="$share" run bash -c 'source /usr/share/bash-completion/bash_completion || exit 9
                 __load_completion fuel-fetch || exit 8
                 COMP_WORDS=(fuel-fetch svhn ""); COMP_CWORD=2; _fuel; echo "${COMPREPLY[*]}"'
    [ "$status" -eq 0 ]
    [ "$output" = "1 2" ]
    make -s -C "$root" uninstall BUILD="$build" DESTDIR="$destination" PREFIX=/usr
    [ -z "$(find "$destination" -name '*fuel*')" ]
}
