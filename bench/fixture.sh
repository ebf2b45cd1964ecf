#!/usr/bin/env bash
# fuel fixture: every default fixture against the 50 ms target, with fuel --version (process start
# and library loading) as the baseline timed in the same runs; and --from N=1,000 out of a 1 GB
# parent against the sha256 of the parent its provenance names (and h5py reading the same 1,000
# examples), with its peak RSS against 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-7}
PYTHON=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

datasets=(mnist fashion_mnist binarized_mnist cifar10 cifar100 iris "svhn 1" "svhn 2")
echo "fixture: every default fixture (10 examples per split), $RUNS interleaved runs"
declare -A times
baseline_times=()
for run in $(seq "$RUNS"); do
    baseline_times+=("$(wall_seconds "$FUEL" --version)")
    for words in "${datasets[@]}"; do
        # shellcheck disable=SC2086
        times[$words]+=" $(wall_seconds "$FUEL" fixture $words -o "$work")"
    done
done
baseline=$(median "${baseline_times[@]}")
echo "  fuel --version (start-up alone) median ${baseline}s"
for words in "${datasets[@]}"; do
    # shellcheck disable=SC2086
    value=$(median ${times[$words]})
    check "fuel fixture $words (s)" "$value" "<=" 0.050 || status=1
done

# A 1 GB parent in Fuel's layout: 340,000 CIFAR-shaped pictures that compress like photographs.
$PYTHON - "$work/large.hdf5" <<'PY'
import sys
import h5py
import numpy

train, test = 330000, 10000
total = train + test
handle = h5py.File(sys.argv[1], "w")
features = handle.create_dataset("features", (total, 3, 32, 32), dtype="uint8")
targets = handle.create_dataset("targets", (total, 1), dtype="uint8")
rows = numpy.arange(32, dtype=numpy.uint8)
block = 10000
generator = numpy.random.default_rng(1)
for first in range(0, total, block):
    smooth = (rows[None, None, :, None] + rows[None, None, None, :] * 3).repeat(3, axis=1)
    noise = generator.integers(0, 8, (block, 3, 32, 32), dtype=numpy.uint8)
    features[first:first + block] = smooth.repeat(block, axis=0) + noise
    targets[first:first + block] = generator.integers(0, 10, (block, 1), dtype=numpy.uint8)
for dataset, labels in ((features, ("batch", "channel", "height", "width")), (targets, ("batch", "index"))):
    for axis, label in enumerate(labels):
        dataset.dims[axis].label = label
split = numpy.empty(4, dtype=[("split", "S5"), ("source", "S8"), ("start", "<i8"), ("stop", "<i8"),
                              ("indices", h5py.special_dtype(ref=h5py.Reference)),
                              ("available", "?"), ("comment", "S1")])
for number, (name, start, stop) in enumerate([("train", 0, train), ("train", 0, train),
                                                ("test", train, total), ("test", train, total)]):
    split[number] = (name, ("features", "targets")[number % 2], start, stop, h5py.Reference(),
                     True, b".")
handle.attrs["split"] = split
handle.attrs["h5py_interface_version"] = "0.3"
handle.attrs["fuel_convert_command"] = "fuel-convert cifar10"
PY
size=$(stat -c %s "$work/large.hdf5")

# The same 1,000 training examples through h5py, the way a Python user would cut them.
h5py_cut() {
    $PYTHON -c '
import sys, h5py
parent = h5py.File(sys.argv[1], "r")
out = h5py.File(sys.argv[2], "w")
for source in ("features", "targets"):
    out[source] = parent[source][0:1000]
' "$work/large.hdf5" "$work/h5py.hdf5"
}
fuel_cut() { "$FUEL" fixture --from "$work/large.hdf5" -n 1000 -o "$work" -r cut; }
# The parent's sha256, which the provenance must name: a floor no cut can go under.
parent_hash() { openssl dgst -sha256 "$work/large.hdf5"; }

fuel_times=() h5py_times=() hash_times=()
for run in $(seq "$RUNS"); do
    h5py_times+=("$(wall_seconds h5py_cut)")
    hash_times+=("$(wall_seconds parent_hash)")
    fuel_times+=("$(wall_seconds fuel_cut)")
done
fuel_median=$(median "${fuel_times[@]}")
h5py_median=$(median "${h5py_times[@]}")
hash_median=$(median "${hash_times[@]}")
peak=$(peak_kib "$FUEL" fixture --from "$work/large.hdf5" -n 1000 -o "$work" -r cut)
echo "fixture --from: N=1,000 per split out of a $((size / 1000000)) MB parent, $RUNS interleaved runs"
echo "  h5py slice median ${h5py_median}s, openssl sha256 of the parent median ${hash_median}s,"
echo "  fuel fixture --from median ${fuel_median}s (hashes the parent meanwhile), peak RSS ${peak} KiB"
check "fuel fixture --from (s)" "$fuel_median" "<=" 1.0 || status=1
check "ratio (fuel / sha256 of the parent)" "$(echo "$fuel_median / $hash_median" | bc -l)" "<=" 1.3 || status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
