#!/usr/bin/env bash
# fuel against boto3 on the same S3 store in the same run (the tests' Swift with s3api on
# 127.0.0.1, tests/helpers/s3_store), medians of interleaved runs:
#   fuel cache s3:// of a 1 GiB object (its sha256 in its metadata, so fuel verifies it) against
#   boto3's download_file with its default threads: target <= 1.2;
#   fuel export --to webdataset -o s3:// of the ImageNet-like file of 20,000 stored JPEGs
#   (tests/helpers/jpeg_hdf5.py, as bench/export.sh makes it) against the same export to a local
#   directory followed by boto3's upload_file of every file: target <= 1.3;
#   16 concurrent fuel fetch mnist (ranks 0-15) with the data path on the store and the origin on
#   a private nginx (raw files of MNIST's sizes from fuel fixture --raw): the origin's access log
#   shows each raw file sent once, and all 16 exit 0; their wall time against one node's fetch;
#   fuel's peak RSS in every run: target <= 64 MiB.
# SCALE=small: a 64 MiB object and 2,000 JPEGs, for a quick run on a busy machine. RUNS (default
# 5, small 3) runs of each, interleaved. PARTS (default "store cluster"): "store" the cache and
# export runs, "cluster" the 16 nodes. NODES (default 16). BENCH_DIR: where the store and the
# files go.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
SCALE=${SCALE:-full}
if [ "$SCALE" = small ]; then
    MEBIBYTES=${MEBIBYTES:-64} JPEGS=${JPEGS:-2000} RUNS=${RUNS:-3}
else
    MEBIBYTES=${MEBIBYTES:-1024} JPEGS=${JPEGS:-20000} RUNS=${RUNS:-5}
fi
PARTS=${PARTS:-store cluster} NODES=${NODES:-16}
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-s3.XXXXXX")
nginx_pid=""
cleanup() {
    [ -z "$nginx_pid" ] || { kill "$nginx_pid" 2> /dev/null; wait "$nginx_pid" 2> /dev/null; }
    tests/helpers/s3_store stop "$work/store"
    rm -rf "$work"
}
trap cleanup EXIT
endpoint=$(tests/helpers/s3_store start "$work/store")
export AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=test:tester AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1 FUEL_CONFIG=/dev/null FUEL_LOCAL_DATA_PATH=$work/local
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL_S3

# boto3 COMMAND ARGS: the tests' independent client (tests/helpers/s3_client.py).
boto3() { /usr/bin/python3 tests/helpers/s3_client.py "$endpoint" "$@"; }

boto3 mb bench
status=0
peaks=()
[[ " $PARTS " != *" store "* ]] || source bench/s3_store.bash
[[ " $PARTS " != *" cluster "* ]] || source bench/s3_cluster.bash
check "fuel peak RSS (MiB)" "$(echo "$(largest "${peaks[@]}") / 1024" | bc -l)" "<=" 64 ||
    status=1
exit $status
