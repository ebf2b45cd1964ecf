#!/usr/bin/env bats
# The lints of tests/lint: bats_checks flags the checks that cannot fail in a planted file, and only
# those; outside_references flags the files that refer outside the repository.

LINT="$BATS_TEST_DIRNAME/../lint/bats_checks"

@test "planted checks that cannot fail are each flagged with their line" {
    # %test stands for @test, which bats would take for a test of this file.
    sed 's/^%test/@test/' > "$BATS_TEST_TMPDIR/planted.bats" <<'BATS'
%test "planted" {
    run true
    [ "$status" -eq 0 ] && [ "$output" = "" ]
    [ -e x ] || echo missing
    ! grep -q x file
    if [ a ] && [ b ]; then echo; fi
    for x in 1 2; do
        [ a ] && [ b ]
    done
    [ "$status" -eq 0 ] ||
        { echo "$output"; true; }
    [ a ] && [ b ]
}

helper() {
    [ -e "$1" ] && [ -s "$1" ]
    [ -x "$1" ]
}
BATS
    run bash "$LINT" "$BATS_TEST_TMPDIR/planted.bats"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 6 ]
    [[ "${lines[0]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:3: an && list that is not the last statement"* ]]
    [[ "${lines[1]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:4: a check whose || branch only prints"* ]]
    [[ "${lines[2]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:5: a negated command never fails"* ]]
    [[ "${lines[3]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:8: an && list"* ]]
    [[ "${lines[4]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:10: a check whose || branch only prints"* ]]
    [[ "${lines[5]}" == "not ok - $BATS_TEST_TMPDIR/planted.bats:16: an && list"* ]]
}

@test "sound forms pass: last-line lists, failing || branches, guards, subshells, here-documents" {
    sed 's/^%test/@test/' > "$BATS_TEST_TMPDIR/sound.bats" <<'BATS'
%test "sound" {
    run true
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    (cd /tmp && ls) > /dev/null
    total=$(cd /tmp && pwd)
    for _ in 1 2; do
        [ -s "$total" ] && break
    done
    run bash -c 'true && false
        echo done'
    python3 - <<'PY'
print(1 if True and False else 2) && true
PY
    [ "$(echo a && echo b)" = "a
b" ]
    [ a ] || [ b ]
    [ a ] && [ b ]
}
BATS
    run bash "$LINT" "$BATS_TEST_TMPDIR/sound.bats"
    [ "$status" -eq 0 ]
    [ "$output" = "ok - no bats check that cannot fail in 1 files" ]
}

@test "the suite itself has no check that cannot fail" {
    run bash "$LINT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - "* ]]
}

@test "outside_references flags the sibling shared folder in tracked and untracked files, not in ignored ones or itself" {
    # The names are put together here, so that this file does not refer outside the repository.
    local repo=$BATS_TEST_TMPDIR/repo sibling="../sha""red" work="/work/sha""red"
    mkdir -p "$repo/tests/lint" "$repo/build"
    cp "$BATS_TEST_DIRNAME/../lint/outside_references" "$repo/tests/lint/"
    git -C "$repo" init -q
    printf 'all:\nFIXTURES ?= %s/fixtures\n' "$sibling" > "$repo/Makefile"
    printf '%s/DESIGN.md\n' "$work" > "$repo/notes.txt"
    printf '%s\n' "$sibling" > "$repo/build/log"
    printf '/build/\n' > "$repo/.gitignore"
    printf 'data_path: /srv/shared/datasets\n' > "$repo/README.md"
    git -C "$repo" add Makefile README.md .gitignore tests
    run bash "$repo/tests/lint/outside_references"
    [ "$status" -eq 1 ]
    [ "$(printf '%s\n' "${lines[@]}" | sort | tr '\n' '|')" = "not ok - Makefile:2 refers outside the repository: FIXTURES ?= $sibling/fixtures|not ok - notes.txt:1 refers outside the repository: $work/DESIGN.md|" ]
    printf 'all:\n' > "$repo/Makefile"
    rm "$repo/notes.txt"
    run bash "$repo/tests/lint/outside_references"
    [ "$status" -eq 0 ]
    [ "$output" = "ok - none of 3 files refers outside the repository" ]
}

@test "documents flags a README or ARCHITECTURE.md over 12,000 characters and a folder off the map" {
    local repo=$BATS_TEST_TMPDIR/repo
    mkdir -p "$repo/tests/lint" "$repo/engine" "$repo/common/base"
    cp "$BATS_TEST_DIRNAME/../lint/documents" "$repo/tests/lint/"
    git -C "$repo" init -q
    printf '/* a */\n' > "$repo/engine/a.c"
    printf '/* b */\n' > "$repo/common/base/b.c"
    printf '# fuel\n' > "$repo/README.md"
    printf '| `engine/` | the engine |\n| `common/base/` | the base |\n' > "$repo/ARCHITECTURE.md"
    git -C "$repo" add .
    run bash "$repo/tests/lint/documents"
    [ "$status" -eq 0 ]
    [ "$output" = "ok - README.md and ARCHITECTURE.md within 12000 characters, every folder on the map" ]
    head -c 12001 /dev/zero | tr '\0' x > "$repo/README.md"
    printf '| `engine/` | the engine |\n' > "$repo/ARCHITECTURE.md"
    run bash "$repo/tests/lint/documents"
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "not ok - README.md has 12001 characters, more than 12000" ]
    [ "${lines[1]}" = "not ok - ARCHITECTURE.md's map does not name common/base/" ]
    [ "${#lines[@]}" -eq 2 ]
}
