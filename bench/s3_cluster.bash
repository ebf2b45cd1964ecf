# bench/s3.sh's second part, sourced: NODES concurrent fuel fetch mnist (ranks 0 to NODES-1) into
# an s3:// data path, the origin a private nginx whose access log counts what it sent; each run
# interleaved with one node fetching alone into a fresh prefix, the baseline of the wall time.
raw=$work/www/mnist
mkdir -p "$raw" "$work/nginx-temp"
"$FUEL" fixture mnist --raw -n train=60000,test=10000 -o "$raw" > /dev/null
chmod -R a+rX "$work/www"
chmod 755 "$work"
raw_files=(train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz
    t10k-labels-idx1-ubyte.gz)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
    log_format sent '\$request_method \$uri \$status \$body_bytes_sent';
    access_log $work/access.log sent;
    sendfile on;
    client_body_temp_path $work/nginx-temp;
    proxy_temp_path $work/nginx-temp;
    fastcgi_temp_path $work/nginx-temp;
    uwsgi_temp_path $work/nginx-temp;
    scgi_temp_path $work/nginx-temp;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
    }
}
CONF
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
for _ in $(seq 50); do
    curl -fso /dev/null --max-time 1 "http://127.0.0.1:$port/mnist/MD5SUMS" && break
    sleep 0.1
done
origin=http://127.0.0.1:$port/mnist

# fetch_node PREFIX RANK: one node's fetch, its wall seconds and peak RSS into $work/node.RANK.
fetch_node() {
    RANK=$2 FUEL_DATA_PATH=s3://bench/$1 timeout 900 /usr/bin/time -f '%e %M' \
        -o "$work/node.$2" "$FUEL" fetch mnist --url-prefix "$origin/" \
        --checksums "$raw/MD5SUMS" --retries 0 -q > "$work/out.$2" 2> "$work/err.$2"
}

# cluster PREFIX COUNT: COUNT nodes started at once; their wall seconds into cluster_times, the
# nodes that exited 0 into cluster_good, each node's peak into peaks, what the origin sent for
# each raw file (GETs answered 200, bytes) into cluster_sent.
cluster() {
    local rank start end good=0 code
    local before=$(wc -l < "$work/access.log")
    local pids=()
    start=$(date +%s.%N)
    for ((rank = 0; rank < $2; rank++)); do
        fetch_node "$1" "$rank" &
        pids[rank]=$!
    done
    for ((rank = 0; rank < $2; rank++)); do
        code=0
        wait "${pids[rank]}" || code=$?
        [ "$code" -ne 0 ] || [ "$(cat "$work/out.$rank")" != "s3://bench/$1/mnist.hdf5" ] ||
            good=$((good + 1))
        [ "$code" -eq 0 ] || echo "  node $rank of $1 exited $code: $(head -c 300 "$work/err.$rank")" >&2
        peaks+=("$(tail -n 1 "$work/node.$rank" | cut -d' ' -f2)")
    done
    end=$(date +%s.%N)
    eval "$3_times+=($(echo "$end - $start" | bc -l)) $3_good+=($good)"
    local name gets bytes
    for name in "${raw_files[@]}"; do
        gets=$(tail -n +"$((before + 1))" "$work/access.log" |
            awk -v uri="/mnist/$name" '$1 == "GET" && $2 == uri && $3 == 200' | wc -l)
        bytes=$(tail -n +"$((before + 1))" "$work/access.log" |
            awk -v uri="/mnist/$name" '$2 == uri { sum += $4 } END { print sum + 0 }')
        eval "$3_gets+=($gets) $3_ratio+=($(echo "$bytes / $(stat -c %s "$raw/$name")" | bc -l))"
    done
}

: > "$work/access.log"
load=$(load_note)
for ((run = 0; run < RUNS; run++)); do
    cluster "nodes-$run" "$NODES" many
    cluster "alone-$run" 1 alone
done
boto3 get bench nodes-0/mnist.hdf5 "$work/nodes.hdf5" -- get bench alone-0/mnist.hdf5 "$work/alone.hdf5"
"$FUEL" diff "$work/nodes.hdf5" "$work/alone.hdf5" > /dev/null ||
    { echo "bench/s3.sh: the nodes' mnist.hdf5 differs from one node's" >&2; status=1; }
echo "bench/s3.sh: $NODES nodes fetch mnist into s3:// from nginx ($(du -b "$raw" | cut -f1) raw bytes), $RUNS runs"
echo "$load"
echo "  $NODES nodes, wall seconds: ${many_times[*]}; one node alone: ${alone_times[*]}"
echo "  nodes exiting 0 with the object's URL, each run: ${many_good[*]} of $NODES"
echo "  origin GETs answered 200 per raw file, every run: ${many_gets[*]}"
echo "  origin bytes sent / file size per raw file: $(printf '%.3f ' "${many_ratio[@]}")"
printf '  %-40s %10.3f (no target: the waiting nodes poll the store)\n' "$NODES nodes' wall / one node's" \
    "$(echo "$(median "${many_times[@]}") / $(median "${alone_times[@]}")" | bc -l)"
check "nodes exiting 0 (fewest in a run)" "$(printf '%s\n' "${many_good[@]}" | sort -g | head -n 1)" \
    ">=" "$NODES" || status=1
check "origin GETs of a raw file (most)" "$(largest "${many_gets[@]}")" "<=" 1 || status=1
check "origin GETs of a raw file (fewest)" "$(printf '%s\n' "${many_gets[@]}" | sort -g | head -n 1)" \
    ">=" 1 || status=1
check "origin bytes / file size (most)" "$(largest "${many_ratio[@]}")" "<=" 1 || status=1
