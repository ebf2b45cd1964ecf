#!/usr/bin/env bats
# Images in flight are bounded by bytes, not by count: a few large valid images (made by
# tests/helpers/large_images.py) convert or pack whatever --threads is, and the peak resident
# memory stays within the 64 MiB budget plus one image (its pixels, libjpeg's coefficients,
# HDF5's copies of it as it is written), where every thread's image at once went far beyond.

bats_require_minimum_version 1.5.0

setup_file() {
    export LARGE="$BATS_FILE_TMPDIR/large"
    /usr/bin/python3 "$BATS_TEST_DIRNAME/../helpers/large_images.py" "$LARGE"
}

setup() {
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
}

# peak_under MEBIBYTES COMMAND...: COMMAND succeeds, its peak resident memory under MEBIBYTES.
peak_under() {
    local limit=$1
    shift
    # Under make check-sanitize, AddressSanitizer's quarantine keeps up to 256 MiB of freed
    # memory resident; without it the peak is fuel's own (plus the shadow).
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
        run --separate-stderr /usr/bin/time -f 'peak %M' timeout 120 "$@"
    [ "$status" -eq 0 ] || { echo "exit $status: $stderr"; false; }
    local kibibytes
    kibibytes=$(sed -n 's/^peak //p' <<< "$stderr")
    echo "# peak $((kibibytes / 1024)) MiB, at most $limit" >&3
    [ "$kibibytes" -lt $((limit * 1024)) ]
}

@test "three 4096 x 4096 photos of Dogs vs Cats on 4 threads: one in flight at a time" {
    # 48 MiB of pixels each; every thread's at once took 465 MiB.
    peak_under 256 fuel-convert dogs_vs_cats -d "$LARGE/dogs_vs_cats" -o "$OUT" --threads 4
    run /usr/bin/python3 -c 'import h5py, sys; f = h5py.File(sys.argv[1]); print(list(f["image_features_shapes"][:3, 1]))' \
        "$OUT/dogs_vs_cats.hdf5"
    [ "$output" = "[4096, 4096, 4096]" ]
}

@test "two progressive 6144 x 6144 JPEGs of ILSVRC2012's validation tar: one decoded at a time" {
    # 113 MB of coefficients each; both at once took 244 MiB.
    peak_under 200 fuel-convert ilsvrc2012 -d "$LARGE/ilsvrc2012" -o "$OUT" --threads 4
    run /usr/bin/python3 -c 'import h5py, sys; f = h5py.File(sys.argv[1]); print(f["encoded_images"].shape)' \
        "$OUT/ilsvrc2012.hdf5"
    [ "$output" = "(5,)" ]
}

@test "fuel pack of three 4096 x 4096 JPEGs on 4 threads: one batch in flight at a time" {
    # Every thread's batch at once took 315 MiB.
    peak_under 200 fuel-pack "$LARGE/pack/spec.yaml" -o "$OUT" --threads 4
    [ -f "$OUT/spec.hdf5" ] || ls "$OUT"
}
