#!/usr/bin/env bats
# fuel-convert cifar10 and cifar100: Fuel's output, re-pickled and reordered archives, hostile input.

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    OUT="$BATS_TEST_TMPDIR/out"
    RAW="$BATS_TEST_TMPDIR/raw"
    mkdir -p "$OUT" "$RAW"
}

# remake DATASET [cifar_archive.py options]: writes $RAW/<archive> rewritten from the fixture.
remake() {
    local dataset=$1 archive
    shift
    archive=$(basename "$FUEL_FIXTURES/raw/$dataset"/*.tar.gz)
    $PYTHON tests/helpers/cifar_archive.py "$FUEL_FIXTURES/raw/$dataset/$archive" "$RAW/$archive" "$@"
}

matches_fuel() {
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/$1.hdf5" "$EXPECTED/$1.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

nothing_written() {
    [ -z "$(ls -A "$OUT")" ] || { ls -la "$OUT"; false; }
}

@test "cifar10 matches Fuel's cifar10.hdf5 and prints the output path" {
    run fuel-convert cifar10 -d "$FUEL_FIXTURES/raw/cifar10" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/cifar10.hdf5" ]
    matches_fuel cifar10
    [ "$(ls -A "$OUT")" = "cifar10.hdf5" ]
}

@test "cifar100 matches Fuel's cifar100.hdf5" {
    run fuel-convert cifar100 -d "$FUEL_FIXTURES/raw/cifar100" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/cifar100.hdf5" ]
    matches_fuel cifar100
}

@test "cifar10 re-pickled by Python 3 with protocols 2, 4 and 5, members reversed, gives the same file" {
    for protocol in 2 4 5; do
        remake cifar10 --protocol "$protocol" --reverse
        run fuel-convert cifar10 -d "$RAW" -o "$OUT"
        [ "$status" -eq 0 ] || { echo "protocol $protocol: $output"; false; }
        matches_fuel cifar10
        rm "$OUT/cifar10.hdf5"
    done
}

@test "cifar100 re-pickled by Python 3 with protocols 2, 4 and 5 and str keys gives the same file" {
    for protocol in 2 4 5; do
        remake cifar100 --protocol "$protocol" --str-keys --reverse
        run fuel-convert cifar100 -d "$RAW" -o "$OUT"
        [ "$status" -eq 0 ] || { echo "protocol $protocol: $output"; false; }
        matches_fuel cifar100
        rm "$OUT/cifar100.hdf5"
    done
}

@test "cifar10 re-pickled by Python 3 with protocols 0 and 1 (text-decoded data) gives the same file" {
    for protocol in 0 1; do
        remake cifar10 --protocol "$protocol"
        run fuel-convert cifar10 -d "$RAW" -o "$OUT"
        [ "$status" -eq 0 ] || { echo "protocol $protocol: $output"; false; }
        matches_fuel cifar10
        rm "$OUT/cifar10.hdf5"
    done
}

# hostile MEMBER BYTES_IN_PRINTF_FORMAT OPCODE_AND_OFFSET
hostile() {
    printf "$2" > "$BATS_TEST_TMPDIR/hostile.pickle"
    remake cifar10 --raw "$1" "$BATS_TEST_TMPDIR/hostile.pickle"
    cd "$BATS_TEST_TMPDIR"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    cd - > /dev/null
    [ "$status" -eq 4 ] || { echo "$output"; false; }
    [[ "$output" == *"$RAW/cifar-10-python.tar.gz: cifar-10-batches-py/$1: unsupported pickle construct: opcode $3"* ]] ||
        { echo "$output"; false; }
    [ "$(echo "$output" | wc -l)" -eq 1 ]
    nothing_written
}

# no_scratch COMMAND...: runs COMMAND with every write to an unlinked scratch file failing (ENOSPC).
no_scratch() {
    local shim="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"
    [ -f "$shim" ] || { echo "missing $shim: run make check"; false; }
    FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_PATH="* (deleted)" LD_PRELOAD="$shim" \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" run "$@"
}

# same_as_pickles DATASET COUNT: the output holds the archive's pickles, in Fuel's order, and its
# provenance the archive's SHA-256.
same_as_pickles() {
    local archive
    archive=$(ls "$RAW"/*.tar.gz)
    run $PYTHON tests/helpers/cifar_check.py "$archive" "$OUT/$1.hdf5" "$1"
    [ "$output" = "same as the pickles: $2 examples" ] || { echo "$output"; false; }
    run fuel-info --json "$OUT/$1.hdf5"
    [ "$(echo "$output" | jq -r '.provenance.inputs[0].sha256')" = "$(sha256sum < "$archive" | cut -d' ' -f1)" ]
}

@test "cifar10 and cifar100 of the published counts: rows straight into place, as in the pickles" {
    remake cifar10 --protocol 4 --examples 10000
    no_scratch fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    same_as_pickles cifar10 60000
    [ "$(ls -A "$OUT")" = "cifar10.hdf5" ]
    rm "$RAW"/*
    remake cifar100 --protocol 5 --examples 50000 --edit test "batch[b'data'] = batch[b'data'][:10000]; [batch[key].__delitem__(slice(10000, None)) for key in (b'fine_labels', b'coarse_labels', b'filenames')]"
    no_scratch fuel-convert cifar100 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    same_as_pickles cifar100 60000
}

@test "a batch of another count after one in place: converted again through the spool, hashed once" {
    remake cifar10 --protocol 4 --examples 10000 \
        --edit data_batch_2 "[batch.__setitem__(key, batch[key][:3]) for key in (b'data', b'labels', b'filenames')]"
    no_scratch fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 7 ]
    [[ "$output" == *"No space left on device" ]] || { echo "$output"; false; }
    nothing_written
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    same_as_pickles cifar10 50003
    [ "$(ls -A "$OUT")" = "cifar10.hdf5" ]
}

@test "a byte string of the rows' length before the rows: converted again, the rows the data's" {
    remake cifar10 --protocol 4 --examples 10000 \
        --edit data_batch_3 "batch[b'batch_label'] = bytes(range(256)) * 120000; batch[b'data'] = batch.pop(b'data')"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    same_as_pickles cifar10 60000
}

@test "a label out of range in batches of the published counts: exit 4 naming it, nothing written" {
    remake cifar10 --protocol 4 --examples 10000 --edit data_batch_4 "batch[b'labels'][9999] = 10"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: not a CIFAR batch: $RAW/cifar-10-python.tar.gz: cifar-10-batches-py/data_batch_4: 'labels' entry 9999 is not a label below 10" ]
    nothing_written
}

@test "a GLOBAL os system + REDUCE pickle is refused, nothing run, nothing written" {
    hostile data_batch_3 "cos\nsystem\n(S'touch owned'\ntR." "'c' (0x63) at offset 0: global os.system is not allowed"
    [ ! -e "$BATS_TEST_TMPDIR/owned" ]
}

@test "an unknown opcode is refused with its offset" {
    hostile test_batch '\200\002}q\000(U\004data\377' "0xff at offset 12"
}

@test "a BINSTRING longer than the data is refused" {
    hostile data_batch_1 '\200\002}q\000(U\004dataT\377\377\377\000abc' "'T' (0x54) at offset 12: length past the end of the data"
}

@test "a memo index never set is refused" {
    hostile data_batch_5 '\200\002}q\000(U\004datah\007' "'h' (0x68) at offset 12: memo index never set"
}

@test "a refused conversion leaves an existing output file untouched" {
    run fuel-convert cifar10 -d "$FUEL_FIXTURES/raw/cifar10" -o "$OUT"
    [ "$status" -eq 0 ]
    before=$(sha256sum < "$OUT/cifar10.hdf5")
    printf 'cos\nsystem\n(S"true"\ntR.' > "$BATS_TEST_TMPDIR/hostile.pickle"
    remake cifar10 --raw data_batch_2 "$BATS_TEST_TMPDIR/hostile.pickle"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$(sha256sum < "$OUT/cifar10.hdf5")" = "$before" ]
    [ "$(ls -A "$OUT")" = "cifar10.hdf5" ]
}

@test "a missing member is exit 4 naming it" {
    remake cifar10 --drop test_batch
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: missing member: $RAW/cifar-10-python.tar.gz: cifar-10-batches-py/test_batch" ]
    nothing_written
    remake cifar100 --drop train
    run fuel-convert cifar100 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: missing member: $RAW/cifar-100-python.tar.gz: cifar-100-python/train" ]
}

@test "labels out of range are refused: 10 for CIFAR-10, 100 fine and 20 coarse for CIFAR-100" {
    remake cifar10 --edit data_batch_4 "batch[b'labels'][3] = 10"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"data_batch_4: 'labels' entry 3 is not a label below 10" ]] || { echo "$output"; false; }
    remake cifar100 --edit test "batch[b'fine_labels'][1] = 100"
    run fuel-convert cifar100 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"cifar-100-python/test: 'fine_labels' entry 1 is not a label below 100" ]] || { echo "$output"; false; }
    remake cifar100 --edit train "batch[b'coarse_labels'][0] = 20"
    run fuel-convert cifar100 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"cifar-100-python/train: 'coarse_labels' entry 0 is not a label below 20" ]] || { echo "$output"; false; }
    nothing_written
}

@test "data of the wrong shape or a label count that differs is refused" {
    remake cifar10 --edit data_batch_2 "batch[b'data'] = batch[b'data'][:, :3071].copy()"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"data_batch_2: no (N, 3072) uint8 'data'" ]] || { echo "$output"; false; }
    remake cifar10 --edit data_batch_2 "batch[b'data'] = batch[b'data'].astype(numpy.int16)"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"data_batch_2: unsupported pickle construct: opcode 'R' (0x52) at offset "*": dtype other than u1" ]] || { echo "$output"; false; }
    remake cifar10 --edit test_batch "batch[b'labels'].pop()"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"test_batch: 'labels' is not a list of 2 labels" ]] || { echo "$output"; false; }
    nothing_written
}

@test "a symbolic link member is refused naming it" {
    remake cifar10 --symlink cifar-10-batches-py/evil
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: refusing archive member: $RAW/cifar-10-python.tar.gz: cifar-10-batches-py/evil: symbolic link" ]
    nothing_written
}

@test "a truncated archive is exit 4 and writes nothing" {
    head -c 100000 "$FUEL_FIXTURES/raw/cifar10/cifar-10-python.tar.gz" > "$RAW/cifar-10-python.tar.gz"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot read archive: $RAW/cifar-10-python.tar.gz: "* ]] || { echo "$output"; false; }
    nothing_written
}

@test "a missing archive is exit 3 with Fuel's hint" {
    run fuel-convert cifar100 -d "$RAW" -o "$OUT"
    [ "$status" -eq 3 ]
    [[ "$output" == *"$RAW/cifar-100-python.tar.gz"* ]]
    [[ "$output" == *"Did you forget to run fuel-download?"* ]]
    nothing_written
}

# The gzip layer of tar.gz archives as gzip reads it (see common/formats/gzip/inflate.h).
@test "a tar.gz of several gzip members followed by zeros gives Fuel's file" {
    $PYTHON tests/helpers/gzip_variant.py members "$FUEL_FIXTURES/raw/cifar10/cifar-10-python.tar.gz" \
        "$RAW/cifar-10-python.tar.gz"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    matches_fuel cifar10
}

@test "a tar.gz with a wrong CRC-32, a wrong ISIZE or trailing garbage is refused, naming it" {
    archive=$RAW/cifar-10-python.tar.gz
    cases='crc invalid compressed data--crc error
length invalid compressed data--length error
garbage trailing garbage after the gzip data'
    while read -r mode reason; do
        $PYTHON tests/helpers/gzip_variant.py "$mode" "$FUEL_FIXTURES/raw/cifar10/${archive##*/}" "$archive"
        run fuel-convert cifar10 -d "$RAW" -o "$OUT"
        [ "$status" -eq 4 ]
        [ "$output" = "fuel-convert: cannot read archive: $archive: after the last member: $reason" ]
        nothing_written
    done <<< "$cases"
}

@test "a tar.gz cut inside a member is refused naming the archive and the member" {
    whole=$FUEL_FIXTURES/raw/cifar10/cifar-10-python.tar.gz
    head -c $(($(stat -c %s "$whole") / 2)) "$whole" > "$RAW/cifar-10-python.tar.gz"
    run fuel-convert cifar10 -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: cannot read archive: $RAW/cifar-10-python.tar.gz: cifar-10-batches-py/"*": unexpected end of file" ]]
    nothing_written
}
