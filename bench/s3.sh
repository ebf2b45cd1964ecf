#!/usr/bin/env bash
# fuel against boto3 on the same S3 store in the same run (the tests' Swift with s3api on
# 127.0.0.1, tests/helpers/s3_store), medians of interleaved runs:
#   fuel cache s3:// of a 1 GiB object (its sha256 in its metadata, so fuel verifies it) against
#   boto3's download_file with its default threads: target <= 1.2;
#   fuel export --to webdataset -o s3:// of the ImageNet-like file of 20,000 stored JPEGs
#   (tests/helpers/jpeg_hdf5.py, as bench/export.sh makes it) against the same export to a local
#   directory followed by boto3's upload_file of every file: target <= 1.3;
#   fuel's peak RSS in every run: target <= 64 MiB.
# SCALE=small: a 64 MiB object and 2,000 JPEGs, for a quick run on a busy machine. RUNS (default
# 5, small 3) runs of each, interleaved. BENCH_DIR: where the store and the files go.
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
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-s3.XXXXXX")
trap 'tests/helpers/s3_store stop "$work/store"; rm -rf "$work"' EXIT
endpoint=$(tests/helpers/s3_store start "$work/store")
export AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=test:tester AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1 FUEL_CONFIG=/dev/null FUEL_LOCAL_DATA_PATH=$work/local
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL_S3

# boto3 COMMAND ARGS: the tests' independent client (tests/helpers/s3_client.py).
boto3() { /usr/bin/python3 tests/helpers/s3_client.py "$endpoint" "$@"; }

boto3 mb bench
head -c "$((MEBIBYTES << 20))" /dev/urandom > "$work/big.bin"
/usr/bin/python3 - "$endpoint" "$work/big.bin" <<'EOF'
import hashlib, sys
import boto3
from botocore.config import Config
digest = hashlib.sha256()
with open(sys.argv[2], "rb") as source:
    for block in iter(lambda: source.read(1 << 20), b""):
        digest.update(block)
client = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                      config=Config(s3={"addressing_style": "path"}))
client.upload_file(sys.argv[2], "bench", "big.bin",
                   ExtraArgs={"Metadata": {"sha256": digest.hexdigest()}})
EOF
jpegs=${JPEG_HDF5:-$work/jpegs.hdf5}
[ -f "$jpegs" ] || /usr/bin/python3 tests/helpers/jpeg_hdf5.py "$jpegs" "$JPEGS" 0 0 \
    --size 375x500 --distinct 200

client=(/usr/bin/python3 tests/helpers/s3_client.py "$endpoint")
local_then_boto3="rm -rf '$work/wds' && '$FUEL' export '$jpegs' --to webdataset -o '$work/wds' -q &&
    /usr/bin/python3 tests/helpers/s3_client.py '$endpoint' put bench local-wds/ '$work/wds'/*"
load=$(load_note)
for ((run = 0; run < RUNS; run++)); do
    rm -rf "$FUEL_LOCAL_DATA_PATH"
    measure fuel_cache "$FUEL" cache -q s3://bench/big.bin
    rm -f "$work/got.bin"
    measure boto3_get "${client[@]}" get bench big.bin "$work/got.bin"
    measure fuel_export "$FUEL" export "$jpegs" --to webdataset -o s3://bench/fuel-wds/ -q
    measure upload bash -c "$local_then_boto3"
done
cmp "$work/big.bin" "$FUEL_LOCAL_DATA_PATH/s3/bench/big.bin"
boto3 get bench fuel-wds/train-000000.tar "$work/fuel-shard.tar"
cmp "$work/fuel-shard.tar" "$work/wds/train-000000.tar"

cache=$(median "${fuel_cache_times[@]}") get=$(median "${boto3_get_times[@]}")
export_median=$(median "${fuel_export_times[@]}") upload=$(median "${upload_times[@]}")
peak=$(largest "${fuel_cache_peaks[@]}" "${fuel_export_peaks[@]}")
echo "bench/s3.sh: SCALE=$SCALE, $MEBIBYTES MiB object, $JPEGS JPEGs ($(du -m "$jpegs" | cut -f1) MB), $RUNS runs"
echo "$load"
echo "  fuel cache times: ${fuel_cache_times[*]}; boto3 download_file: ${boto3_get_times[*]}"
echo "  fuel export -o s3:// times: ${fuel_export_times[*]}; local export + boto3 upload_file: ${upload_times[*]}"
echo "  fuel peak RSS (KiB): cache ${fuel_cache_peaks[*]}; export ${fuel_export_peaks[*]}"
status=0
check "fuel cache / boto3 download_file" "$(echo "$cache / $get" | bc -l)" "<=" 1.2 || status=1
check "export -o s3:// / local export + upload" "$(echo "$export_median / $upload" | bc -l)" \
    "<=" 1.3 || status=1
check "fuel peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
