#!/usr/bin/env bats
# tests/lint/bats_checks: it flags the checks that cannot fail in a planted file, and only those.

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
