#!/usr/bin/env bash
# Peak RSS of fuel-convert for every dataset at full size, in one table; each must stay within
# 64 MiB. The peak is the sum over fuel-convert and its child processes (svhn 1 reads
# digitStruct.mat in one), sampled every 0.1 s. Inputs: the real Fashion-MNIST files, and synthetic full-size ones made by the bench/
# and tests/helpers generators (kept in BENCH_DATA between runs: they take minutes to make).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
FIXTURES=${FUEL_FIXTURES:-$PWD/tests/data}
DATA=${BENCH_DATA:-/tmp/fuel-bench-memory}
SVHN2=${SVHN2_BENCH_DATA:-/tmp/fuel-bench-svhn2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$DATA/cifar10" "$DATA/cifar100" "$DATA/binarized_mnist" "$DATA/svhn1" "$SVHN2"

[ -f "$DATA/cifar10/cifar-10-python.tar.gz" ] ||
    /usr/bin/python3 bench/make_cifar.py cifar10 "$DATA/cifar10" > /dev/null
[ -f "$DATA/cifar100/cifar-100-python.tar.gz" ] ||
    /usr/bin/python3 bench/make_cifar.py cifar100 "$DATA/cifar100" > /dev/null
[ -f "$DATA/binarized_mnist/binarized_mnist_test.amat" ] ||
    /usr/bin/python3 bench/make_binarized_mnist.py "$DATA/binarized_mnist"
[ -f "$DATA/svhn1/extra.tar.gz" ] ||
    /usr/bin/python3 bench/make_svhn1.py "$DATA/svhn1" 33402 200 200
if [ ! -f "$SVHN2/extra_32x32.mat" ]; then
    /usr/bin/python3 tests/helpers/mat_v5.py synthetic "$SVHN2/extra_32x32.mat.part" 531131
    mv "$SVHN2/extra_32x32.mat.part" "$SVHN2/extra_32x32.mat"
fi
for split in train test; do
    [ -f "$SVHN2/${split}_32x32.mat" ] || cp "$FIXTURES/raw/svhn2/${split}_32x32.mat" "$SVHN2/"
done

# row LABEL EXAMPLES DATASET [FORMAT] -d DIR: one line of the table, 1 when over 64 MiB.
row() {
    local label=$1 examples=$2
    shift 2
    local kib
    kib=$(peak_tree_kib "$FUEL" convert "$@" -o "$work" -q)
    rm -f "$work"/*.hdf5
    printf '  %-16s %-40s %8d KiB %7.1f MiB\n' "$label" "$examples" "$kib" "$(echo "$kib / 1024" | bc -l)"
    [ "$kib" -le $((64 * 1024)) ]
}

echo "memory: peak RSS of fuel-convert at full size ($(nproc) online CPUs, default threads)," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
row mnist "60,000 + 10,000 (Fashion-MNIST, real)" mnist -d /usr/share/datasets/fashion-mnist || status=1
row fashion_mnist "60,000 + 10,000 (real)" fashion_mnist -d /usr/share/datasets/fashion-mnist || status=1
row "mnist float64" "60,000 + 10,000, --dtype float64" mnist -d /usr/share/datasets/fashion-mnist \
    --dtype float64 || status=1
row binarized_mnist "50,000 + 10,000 + 10,000" binarized_mnist -d "$DATA/binarized_mnist" || status=1
row cifar10 "50,000 + 10,000" cifar10 -d "$DATA/cifar10" || status=1
row cifar100 "50,000 + 10,000 (155 MB train member)" cifar100 -d "$DATA/cifar100" || status=1
row "svhn 1" "33,402 + 200 + 200 (306 MB digitStruct)" svhn 1 -d "$DATA/svhn1" || status=1
row "svhn 2" "fixture train/test + 531,131 extra" svhn 2 -d "$SVHN2" || status=1
row iris "150 (fixture)" iris -d "$FIXTURES/raw/iris" || status=1
[ "$status" -eq 0 ] && echo "  every peak within 64 MiB: met" || echo "  some peak above 64 MiB: MISSED"
exit $status
