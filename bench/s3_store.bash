# bench/s3.sh's first part, sourced: fuel cache and fuel export -o s3:// against boto3.
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
peaks+=("${fuel_cache_peaks[@]}" "${fuel_export_peaks[@]}")
echo "bench/s3.sh: SCALE=$SCALE, $MEBIBYTES MiB object, $JPEGS JPEGs ($(du -m "$jpegs" | cut -f1) MB), $RUNS runs"
echo "$load"
echo "  fuel cache times: ${fuel_cache_times[*]}; boto3 download_file: ${boto3_get_times[*]}"
echo "  fuel export -o s3:// times: ${fuel_export_times[*]}; local export + boto3 upload_file: ${upload_times[*]}"
echo "  fuel peak RSS (KiB): cache ${fuel_cache_peaks[*]}; export ${fuel_export_peaks[*]}"
check "fuel cache / boto3 download_file" "$(echo "$cache / $get" | bc -l)" "<=" 1.2 || status=1
check "export -o s3:// / local export + upload" "$(echo "$export_median / $upload" | bc -l)" \
    "<=" 1.3 || status=1
