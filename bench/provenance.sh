#!/usr/bin/env bash
# Content digests, fuel diff and fuel reproduce, timed against baselines in the same runs: fuel
# info's digest of a file of SIZE_MB against sha256sum of its bytes, fuel diff of two files of
# the same content against cmp of two copies and, one chunked and compressed, against h5py
# reading both, each with its peak RSS against 64 MiB; fuel reproduce of the
# Debian Fashion-MNIST conversion against the conversion itself.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
SIZE_MB=${SIZE_MB:-512}
PYTHON=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# Two files of SIZE_MB of float32 features, the same values, one chunked and compressed.
$PYTHON - "$work" "$SIZE_MB" <<'PY'
import sys
import h5py
import numpy

directory, megabytes = sys.argv[1], int(sys.argv[2])
rows = megabytes * 1024 * 1024 // (4 * 4096)
block = numpy.random.default_rng(1).random((256, 4096), dtype=numpy.float32)
for name, options in (("a.hdf5", {}), ("b.hdf5", {"chunks": (256, 4096), "compression": "gzip",
                                                   "compression_opts": 1})):
    with h5py.File(f"{directory}/{name}", "w") as f:
        features = f.create_dataset("features", (rows, 4096), dtype="float32", **options)
        for first in range(0, rows, 256):
            features[first:first + 256] = block[:min(256, rows - first)]
        f.attrs["split"] = numpy.array([(b"train", b"features", 0, rows, None, True, b".")],
            dtype=[("split", "S5"), ("source", "S8"), ("start", "i8"), ("stop", "i8"),
                   ("indices", h5py.ref_dtype), ("available", "?"), ("comment", "S1")])
PY
cp "$work/a.hdf5" "$work/copy.hdf5"
echo "provenance: digest and diff of ${SIZE_MB} MB files, $RUNS interleaved runs"
load_note
for run in $(seq "$RUNS"); do
    measure sha256sum sha256sum "$work/a.hdf5"
    measure digest "$FUEL" info "$work/a.hdf5"
    measure cmp cmp "$work/a.hdf5" "$work/copy.hdf5"
    measure diff "$FUEL" diff "$work/a.hdf5" "$work/copy.hdf5"
    measure h5py $PYTHON -c 'import sys, h5py; [h5py.File(p, "r")["features"][()] for p in sys.argv[1:]]' \
        "$work/a.hdf5" "$work/b.hdf5"
    measure gzip_diff "$FUEL" diff "$work/a.hdf5" "$work/b.hdf5"
done
for name in sha256sum digest cmp diff h5py gzip_diff; do
    eval "echo \"  $name median \$(median \"\${${name}_times[@]}\")s, peak \$(largest \"\${${name}_peaks[@]}\") KiB\""
done
ratio=$(echo "$(median "${digest_times[@]}") / $(median "${sha256sum_times[@]}")" | bc -l)
check "info digest / sha256sum of the bytes" "$ratio" "<=" 2.0 || status=1
ratio=$(echo "$(median "${diff_times[@]}") / $(median "${cmp_times[@]}")" | bc -l)
check "diff of two copies / cmp of them" "$ratio" "<=" 4.0 || status=1
ratio=$(echo "$(median "${gzip_diff_times[@]}") / $(median "${h5py_times[@]}")" | bc -l)
check "diff (one side gzip) / h5py reading both" "$ratio" "<=" 1.5 || status=1
check "info digest peak RSS (MiB)" "$(echo "$(largest "${digest_peaks[@]}") / 1024" | bc -l)" "<=" 64 || status=1
check "diff peak RSS (MiB)" "$(echo "$(largest "${gzip_diff_peaks[@]}") / 1024" | bc -l)" "<=" 64 || status=1

raw=/usr/share/datasets/fashion-mnist
if [ -d "$raw" ]; then
    echo "provenance: fuel reproduce of Fashion-MNIST (Debian's files) against its conversion"
    mkdir "$work/data" "$work/scratch"
    for run in $(seq "$RUNS"); do
        measure convert "$FUEL" convert fashion_mnist -d "$raw" -o "$work/data" -q
        TMPDIR="$work/scratch" measure reproduce "$FUEL" reproduce "$work/data/fashion_mnist.hdf5" -d "$raw" -q
    done
    echo "  convert median $(median "${convert_times[@]}")s, reproduce median $(median "${reproduce_times[@]}")s"
    ratio=$(echo "$(median "${reproduce_times[@]}") / $(median "${convert_times[@]}")" | bc -l)
    check "reproduce / convert" "$ratio" "<=" 2.0 || status=1
fi
exit $status
