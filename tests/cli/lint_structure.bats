#!/usr/bin/env bats
# tests/lint/basenames, tests/lint/common_modules, tests/lint/usage and tests/lint/includes: a file
# name held twice in the product (but a dataset's own files), a header named _parts.h, a module of
# common/ that serves one folder, a usage line typed by hand and an include against the layers (a
# new folder's too) are flagged in a planted tree.

setup() {
    repo=$BATS_TEST_TMPDIR/repo
    mkdir -p "$repo/tests/lint" "$repo/downloaders" "$repo/converters" "$repo/fixtures" \
        "$repo/cmd" "$repo/exporters" "$repo/common/base" "$repo/common/formats/zip"
    cp "$BATS_TEST_DIRNAME/../lint/basenames" "$BATS_TEST_DIRNAME/../lint/common_modules" \
        "$BATS_TEST_DIRNAME/../lint/usage" "$BATS_TEST_DIRNAME/../lint/includes" "$repo/tests/lint/"
    printf 'DATASET(mnist, 1)\nDATASET(svhn_format_1, 2)\n' > "$repo/downloaders/datasets.def"
    for folder in downloaders converters fixtures; do
        printf '/* mnist in %s. */\nint mnist_%s;\n' "$folder" "$folder" > "$repo/$folder/mnist.c"
    done
    printf '/* svhn in converters. */\nint svhn;\n' > "$repo/converters/svhn_format_1_boxes.c"
    printf '/* svhn in fixtures. */\nint svhn;\n' > "$repo/fixtures/svhn_format_1_boxes.c"
    # common/base/error: used by two folders; common/formats/zip/: its reader by converters, its
    # writer by fixtures, one module.
    printf '/* Errors. */\nint error;\n' > "$repo/common/base/error.h"
    printf '#include "common/base/error.h"\n#include "common/formats/zip/zip_read.h"\n' \
        > "$repo/converters/zip_images.c"
    printf '#include "common/base/error.h"\n#include "common/formats/zip/zip_write.h"\n' \
        > "$repo/fixtures/zips.c"
    printf '/* Reads zips. */\n' > "$repo/common/formats/zip/zip_read.h"
    printf '/* Writes zips. */\n' > "$repo/common/formats/zip/zip_write.h"
    git -C "$repo" init -q
    git -C "$repo" add .
}

@test "the tree itself holds each name once and no single-folder module in common/" {
    run bash "$BATS_TEST_DIRNAME/../lint/basenames"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - "*" product files, each name held once (datasets' own files aside)" ]]
    run bash "$BATS_TEST_DIRNAME/../lint/common_modules"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - each of the "*" modules of common/ serves two folders or more" ]]
}

@test "a planted tree with datasets' own files in their three folders passes" {
    run bash "$repo/tests/lint/basenames"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "ok - 10 product files, each name held once (datasets' own files aside)" ]
    run bash "$repo/tests/lint/common_modules"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "ok - each of the 2 modules of common/ serves two folders or more" ]
}

@test "a name held in two folders is flagged, and a dataset's name outside its folders too" {
    printf 'int export;\n' > "$repo/cmd/export.c"
    printf 'int export;\n' > "$repo/exporters/export.c"
    printf 'int mnist;\n' > "$repo/cmd/mnist.c"
    run bash "$repo/tests/lint/basenames"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[0]}" = "not ok - export.c is held by cmd/export.c exporters/export.c (one name, one file)" ]
    [ "${lines[1]}" = "not ok - mnist.c is held by cmd/mnist.c converters/mnist.c downloaders/mnist.c fixtures/mnist.c (one name, one file)" ]
}

@test "a header named _parts, _private or _internal is flagged, whatever its folder" {
    printf '/* What the writer shares. */\n' > "$repo/common/base/writer_parts.h"
    printf '/* What the reader shares. */\n' > "$repo/converters/mnist_internal.h"
    run bash "$repo/tests/lint/basenames"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[0]}" = "not ok - common/base/writer_parts.h: a header is named for what it declares, not _parts, _private or _internal" ]
    [ "${lines[1]}" = "not ok - converters/mnist_internal.h: a header is named for what it declares, not _parts, _private or _internal" ]
}

@test "a name that is no dataset's is flagged even in the datasets' folders" {
    printf 'int pictures;\n' > "$repo/converters/pictures.c"
    printf 'int pictures;\n' > "$repo/fixtures/pictures.c"
    run bash "$repo/tests/lint/basenames"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - pictures.c is held by converters/pictures.c fixtures/pictures.c (one name, one file)" ]
}

@test "a module of common/ included by one folder only is flagged, whatever the include's form" {
    printf '/* Caches. */\n' > "$repo/common/base/local_cache.h"
    printf '#include "local_cache.h"\n' > "$repo/common/base/local_cache.c"
    printf '#include "common/base/local_cache.h"\n' > "$repo/cmd/cache.c"
    printf '#include "common/base/local_cache.h"\n' > "$repo/cmd/clean.c"
    printf '/* Frames. */\n' > "$repo/common/formats/tfrecord.h"
    printf '#include "common/formats/tfrecord.h"\n' > "$repo/exporters/form_tfrecord.c"
    run bash "$repo/tests/lint/common_modules"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[0]}" = "not ok - common/base/local_cache serves cmd only: move it into cmd/" ]
    [ "${lines[1]}" = "not ok - common/formats/tfrecord serves exporters only: move it into exporters/" ]
}

@test "a module of common/ that another module of common/ includes is shared" {
    printf '/* Frames. */\n' > "$repo/common/formats/tfrecord.h"
    printf '#include "common/formats/tfrecord.h"\n' > "$repo/exporters/form_tfrecord.c"
    printf '#include "tfrecord.h"\n' > "$repo/common/formats/shards.c"
    printf '/* Shards. */\n' > "$repo/common/formats/shards.h"
    printf '#include "common/formats/shards.h"\n' > "$repo/exporters/form_shards.c"
    printf '#include "common/formats/shards.h"\n' > "$repo/cmd/export.c"
    run bash "$repo/tests/lint/common_modules"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [ "$output" = "ok - each of the 4 modules of common/ serves two folders or more" ]
}

@test "a usage line typed by hand is flagged, the generator's and the dispatcher's are not" {
    run bash "$BATS_TEST_DIRNAME/../lint/usage"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - no usage line typed by hand in "*" product files" ]]
    printf 'const char *words = "usage: ";\n' > "$repo/cmd/usage_line.c"
    printf 'const char *words = "usage: fuel [-h] COMMAND";\n' > "$repo/cmd/fuel.c"
    printf '/* Fuel'"'"'s -h: not quoted. */\nconst char *usage = "[-h] [--json] A B";\n' \
        > "$repo/cmd/diff.c"
    git -C "$repo" add .
    run bash "$repo/tests/lint/usage"
    [ "$status" -eq 1 ]
    [ "$output" = 'not ok - a usage line typed by hand (cmd/usage_line.c writes them): cmd/diff.c:2:const char *usage = "[-h] [--json] A B";' ]
}

@test "a new folder is a command's engine to the layers without a word in the lint" {
    mkdir -p "$repo/timing"
    printf '#include "common/base/error.h"\n' > "$repo/timing/timing.c"
    printf '#include "timing/timing.h"\n' > "$repo/cmd/timing.c"
    printf '/* Times. */\n' > "$repo/timing/timing.h"
    git -C "$repo" add .
    run bash "$repo/tests/lint/includes"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - includes point only downwards between the groups "*" timing" ]]
    printf '#include "cmd/runner.h"\n' > "$repo/timing/timing.c"
    printf '#include "timing/timing.h"\n' > "$repo/common/base/error.c"
    git -C "$repo" add .
    run bash "$repo/tests/lint/includes"
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "not ok - common/base/error.c:1 includes timing/timing.h: common/base may not include timing" ]
    [ "${lines[1]}" = "not ok - timing/timing.c:1 includes cmd/runner.h: timing may not include cmd" ]
}
