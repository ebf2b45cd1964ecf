#!/usr/bin/env bats
# fuel-download's command line: help, usage errors, --print-urls, --clear, --checksums, locking,
# SIGINT, directory prefixes, and the real Fashion-MNIST files Debian ships (verified by content).

bats_require_minimum_version 1.5.0

load ../helpers/download
load ../helpers/assertions

setup() {
    make_served_files
}

teardown() {
    stop_server
}

@test "-h lists every dataset with its total size" {
    run fuel-download -h
    [ "$status" -eq 0 ]
    for name in adult binarized_mnist "caltech101_silhouettes 16" "caltech101_silhouettes 28" \
        cifar10 cifar100 fashion_mnist iris mnist "svhn 1" "svhn 2"; do
        [[ "$output" == *"  $name "* ]]
    done
    [[ "$output" =~ mnist\ +11\.1\ MiB ]]
    [[ "$output" =~ cifar10\ +162\.6\ MiB ]]
}

@test "NAME -h lists the dataset's files with sizes, checksums and URLs" {
    run fuel download mnist -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"train-images-idx3-ubyte.gz  9912422 bytes  md5 f68b3c2dcbeaaa9fbdd348bbdeb94873"* ]]
    [[ "$output" == *"https://ossci-datasets.s3.amazonaws.com/mnist/t10k-labels-idx1-ubyte.gz"* ]]
    [[ "$output" == *"http://yann.lecun.com/exdb/mnist/t10k-labels-idx1-ubyte.gz"* ]]
    run fuel-download fashion_mnist -h
    [[ "$output" == *"  train-labels-idx1-ubyte.gz  29515 bytes  md5 25c81989df183df01b3e8a0aad5dffbe
    content: 60008 bytes decompressed  sha256 bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9
    http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/train-labels-idx1-ubyte.gz"* ]]
    run fuel-download svhn -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"extra.tar.gz  1955489752 bytes"* ]]
    [[ "$output" == *"extra_32x32.mat  1329278602 bytes"* ]]
}

@test "usage errors exit 2 with one message" {
    run --separate-stderr fuel-download
    assert_usage_error fuel-download "missing dataset name"
    run --separate-stderr fuel-download nosuchset
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-download: unknown dataset: nosuchset; datasets: adult, binarized_mnist, caltech101_silhouettes, celeba, cifar10, cifar100, dogs_vs_cats, fashion_mnist, ilsvrc2010, ilsvrc2012, iris, mnist, svhn" ]
    run --separate-stderr fuel-download mnsit
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-download: unknown dataset: mnsit; did you mean \`mnist\`?" ]
    run --separate-stderr fuel-download svhn
    assert_usage_error fuel-download "svhn needs a format, 1 or 2: none given"
    run --separate-stderr fuel-download svhn 3
    assert_usage_error fuel-download "svhn needs a format, 1 or 2: 3"
    run --separate-stderr fuel-download mnist extra
    assert_usage_error fuel-download "unexpected argument: extra"
    run --separate-stderr fuel-download mnist -j 0
    assert_usage_error fuel-download "-j: 0: expected a whole number from 1 to 64"
    run --separate-stderr fuel-download mnist --timeout soon
    assert_usage_error fuel-download "--timeout: soon: expected "
    run --separate-stderr fuel-download mnist --no-such-option
    assert_usage_error fuel-download "unknown option" "--no-such-option"
}

@test "--print-urls prints URL<TAB>destination per file and touches nothing" {
    run fuel-download svhn 2 --print-urls -d "$TARGET"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(printf 'http://ufldl.stanford.edu/housenumbers/train_32x32.mat\t%s/train_32x32.mat' "$TARGET")" ]
    [ "${#lines[@]}" -eq 3 ]
    [ ! -e "$TARGET" ]
    run fuel-download iris --print-urls --url-prefix http://mirror.example/data -d "$TARGET"
    [ "$output" = "$(printf 'http://mirror.example/data/iris.data\t%s/iris.data' "$TARGET")" ]
}

@test "the config's mirrors come before the built-in URLs and mirror replaces them" {
    printf 'mirrors:\n  - http://first.example/\n' > "$FUEL_CONFIG"
    run fuel-download cifar10 --print-urls -d "$TARGET"
    [ "$output" = "$(printf 'http://first.example/cifar-10-python.tar.gz\t%s/cifar-10-python.tar.gz' "$TARGET")" ]
    : >"$FUEL_CONFIG"
    run env FUEL_MIRROR=http://mirror.example/x fuel-download cifar10 --print-urls -d "$TARGET"
    [ "$output" = "$(printf 'http://mirror.example/x/cifar-10-python.tar.gz\t%s/cifar-10-python.tar.gz' "$TARGET")" ]
}

@test "--clear removes the dataset's files and .part leftovers, nothing else" {
    mkdir -p "$TARGET"
    cp "$SERVED/train-images-idx3-ubyte.gz" "$SERVED/t10k-labels-idx1-ubyte.gz" "$TARGET/"
    echo partial > "$TARGET/train-labels-idx1-ubyte.gz.part"
    echo keep > "$TARGET/notes.txt"
    run fuel-download mnist -d "$TARGET" --clear
    [ "$status" -eq 0 ]
    [ "$(ls -A "$TARGET" | tr '\n' ' ')" = "notes.txt " ]
}

@test "--clear on a missing directory creates nothing" {
    run fuel-download mnist -d "$TARGET/missing" --clear
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ ! -e "$TARGET/missing" ]
}

@test "the directory is created, with its parents" {
    run fuel-download mnist -d "$TARGET/a/b" --url-prefix "file://$SERVED" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    cmp "$SERVED/t10k-labels-idx1-ubyte.gz" "$TARGET/a/b/t10k-labels-idx1-ubyte.gz"
    [ "$(ls -A "$TARGET/a/b" | wc -l)" -eq 4 ]
}

@test "a directory that cannot be created exits 7" {
    touch "$BATS_TEST_TMPDIR/plain"
    run fuel-download mnist -d "$BATS_TEST_TMPDIR/plain/sub" --url-prefix "file://$SERVED"
    [ "$status" -eq 7 ]
    [[ "$output" == *"fuel-download: cannot create directory: $BATS_TEST_TMPDIR/plain: not a directory"* ]]
}

@test "--checksums: a missing file exits 3, a malformed line exits 4 naming the line" {
    run fuel-download mnist -d "$TARGET" --checksums "$BATS_TEST_TMPDIR/none"
    [ "$status" -eq 3 ]
    [[ "$output" == *"cannot open checksums: not found: $BATS_TEST_TMPDIR/none"* ]]
    printf '# comment\nabc  train-images-idx3-ubyte.gz\n' > "$BATS_TEST_TMPDIR/bad"
    run fuel-download mnist -d "$TARGET" --checksums "$BATS_TEST_TMPDIR/bad"
    [ "$status" -eq 4 ]
    [[ "$output" == *"malformed checksum line: $BATS_TEST_TMPDIR/bad:2:"* ]]
    [ ! -e "$TARGET" ]
}

@test "sha256 lines in --checksums are verified too" {
    (cd "$SERVED" && sha256sum "${MNIST_FILES[@]}") > "$SUMS"
    run fuel-download mnist -d "$TARGET" --url-prefix "file://$SERVED" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    assert_all_downloaded
    sed -i "1s/^[0-9a-f]*/$(printf 'f%.0s' $(seq 64))/" "$SUMS"
    rm "$TARGET/train-images-idx3-ubyte.gz"
    run fuel-download mnist -d "$TARGET" --url-prefix "file://$SERVED" --checksums "$SUMS" -q
    [ "$status" -eq 6 ]
    [[ "$output" == *"checksum mismatch: train-images-idx3-ubyte.gz: expected sha256 f"* ]]
}

@test "a file without a published checksum gets a warning and its sha256" {
    printf '5.1,3.5,1.4,0.2,Iris-setosa\n' > "$SERVED/iris.data"
    digest=$(sha256sum < "$SERVED/iris.data" | cut -d' ' -f1)
    run fuel-download iris -d "$TARGET" --url-prefix "file://$SERVED"
    [ "$status" -eq 0 ]
    [[ "$output" == *"warning: iris.data: no published checksum; sha256 $digest"* ]]
    cmp "$SERVED/iris.data" "$TARGET/iris.data"
}

@test "two concurrent runs into one directory take turns and send each byte once" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"stall_after": 1000, "seconds": 1}]}'
    fetch > "$BATS_TEST_TMPDIR/first.out" 2>&1 3>&- &
    first=$!
    sleep 0.3
    fetch > "$BATS_TEST_TMPDIR/second.out" 2>&1 3>&- &
    second=$!
    wait_bounded "$first"
    wait_bounded "$second"
    assert_all_downloaded
    waited=$(grep -l "waiting for another fuel-download in $TARGET" "$BATS_TEST_TMPDIR"/*.out)
    [ "$(wc -l <<< "$waited")" -eq 1 ]
    [ "$(grep -c "already present and verified" "$waited")" -eq 4 ]
    for index in 0 1 2 3; do
        [ "$(bytes_sent "/${MNIST_FILES[$index]}")" -eq "${MNIST_SIZES[$index]}" ]
    done
    [ "$(ls -A "$TARGET" | tr '\n' ' ')" = "t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz " ]
}

@test "SIGINT keeps the .part and exits 130; a rerun resumes it" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"stall_after": 100000, "seconds": 3}]}'
    fuel-download mnist -d "$TARGET" --url-prefix "$URL" --checksums "$SUMS" \
        > "$BATS_TEST_TMPDIR/first.out" 2>&1 3>&- &
    pid=$!
    for _ in $(seq 100); do
        [ "$(stat -c %s "$TARGET/train-images-idx3-ubyte.gz.part" 2>/dev/null)" = 100000 ] && break
        sleep 0.05
    done
    kill -INT "$pid"
    status=0
    wait_bounded "$pid" || status=$?
    [ "$status" -eq 130 ]
    grep -q "fuel-download: interrupted" "$BATS_TEST_TMPDIR/first.out"
    [ "$(stat -c %s "$TARGET/train-images-idx3-ubyte.gz.part")" -eq 100000 ]
    [ ! -e "$TARGET/train-images-idx3-ubyte.gz" ]
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    read -r status start sent _ <<< "$(requests /train-images-idx3-ubyte.gz | grep '^206')"
    [ "$start" = 100000 ] && [ "$sent" = 200000 ]
}

@test "the real Fashion-MNIST files, served locally, arrive byte for byte" {
    SERVED=/usr/share/datasets/fashion-mnist
    (cd "$SERVED" && md5sum "${MNIST_FILES[@]}") > "$SUMS"
    start_server
    run fuel-download fashion_mnist -d "$TARGET" --url-prefix "$URL/" --checksums "$SUMS"
    [ "$status" -eq 0 ]
    assert_all_downloaded
    run fuel-convert fashion_mnist -d "$TARGET" -o "$BATS_TEST_TMPDIR"
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" ]
}

# Debian re-gzipped Fashion-MNIST without the file names: other bytes, the same content. Served
# with train-labels re-gzipped once more, stored (larger than published: the transfer is not cut).
@test "Debian's Fashion-MNIST passes the built-in records by content, one line a file" {
    debian=/usr/share/datasets/fashion-mnist
    SERVED=$BATS_TEST_TMPDIR/regzipped
    mkdir "$SERVED"
    for name in "${MNIST_FILES[@]}"; do
        ln -s "$debian/$name" "$SERVED/$name"
    done
    rm "$SERVED/train-labels-idx1-ubyte.gz"
    /usr/bin/python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read(), 0))' \
        < <(zcat "$debian/train-labels-idx1-ubyte.gz") > "$SERVED/train-labels-idx1-ubyte.gz"
    [ "$(stat -c %s "$SERVED/train-labels-idx1-ubyte.gz")" -gt 29515 ]
    start_server
    run --separate-stderr fuel-download fashion_mnist -d "$TARGET" --url-prefix "$URL" -j 1
    [ "$status" -eq 0 ]
    assert_all_downloaded
    for name in "${MNIST_FILES[@]}"; do
        size=$(zcat "$SERVED/$name" | wc -c)
        digest=$(zcat "$SERVED/$name" | sha256sum | cut -d' ' -f1)
        [ "$(grep -cF "$name: verified by content" <<< "$stderr")" -eq 1 ]
        grep -qxF "$name: verified by content: other bytes than published, the same $size bytes once decompressed (sha256 $digest)" <<< "$stderr"
    done
    [ "$(grep -c ' in .* s (' <<< "$stderr")" -eq 4 ]
    [ "${#stderr_lines[@]}" -eq 9 ]
    [ "${stderr_lines[8]}" = "inputs of fashion_mnist: the published content, re-compressed: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz" ]
    run --separate-stderr fuel-download fashion_mnist -d "$TARGET" --url-prefix "$URL"
    [ "$status" -eq 0 ]
    [ "$(grep -c '^.*-ubyte.gz: already present, verified by content$' <<< "$stderr")" -eq 4 ]
}

@test "a file whose content differs: exit 6 naming the mismatch and what to try" {
    run --separate-stderr fuel-download fashion_mnist -d "$TARGET" -j 1 \
        --url-prefix "file://$FUEL_FIXTURES/raw/mnist"
    [ "$status" -eq 6 ]
    [ "$stderr" = "fuel-download: size mismatch: train-images-idx3-ubyte.gz: expected 26421880 bytes, got 9447; other files on purpose? give their sums with --checksums FILE (fixtures), or convert files on disk with fuel convert -d DIR" ]
    [ -z "$(ls -A "$TARGET" | grep -v '^\.fuel-download\.lock$')" ]
}

@test "a --url-prefix without a scheme naming a directory, relative or absolute, is that directory" {
    cd "$BATS_TEST_TMPDIR"
    run --separate-stderr fuel-download mnist -d "$TARGET" --url-prefix served --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    assert_all_downloaded
    rm -r "$TARGET"
    run fuel-download mnist -d "$TARGET" --url-prefix "$SERVED/" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    assert_all_downloaded
    run fuel-download iris -d "$TARGET" --url-prefix "./served" --print-urls
    [ "$output" = "$(printf 'file://%s/iris.data\t%s/iris.data' "$(realpath "$SERVED")" "$TARGET")" ]
    mkdir "with space"
    run fuel-download iris -d "$TARGET" --url-prefix "with space" --print-urls
    [ "$output" = "$(printf 'file://%s/with%%20space/iris.data\t%s/iris.data' "$(realpath .)" "$TARGET")" ]
}

@test "on a terminal, live lines are redrawn in place" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"stall_after": 100000, "seconds": 0.5}]}'
    run script -qec "fuel-download mnist -d '$TARGET' --url-prefix '$URL' --checksums '$SUMS'" /dev/null
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [[ "$output" == *"train-images-idx3-ubyte.gz  97.7 KiB of 293.0 KiB  33%"* ]]
    [[ "$output" == *$'\033[K'* ]]
    [[ "$output" == *$'\033[1A\r\033[Jtrain-images-idx3-ubyte.gz: 293.0 KiB in '* ]]
}
