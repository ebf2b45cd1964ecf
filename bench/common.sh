# Helpers shared by the benchmark scripts: timing, peak memory, medians and target checks.

# With the kernel's sched_autogroup on, each session gets one share of the processors whatever
# its threads, so on a machine others share a thread count shows in wall times only with this
# session's share raised: as root, setsid env AUTOGROUP_NICE=-19 bash bench/NAME.sh
if [ -n "${AUTOGROUP_NICE:-}" ]; then
    echo "$AUTOGROUP_NICE" > /proc/self/autogroup
    echo "(this session's autogroup: $(cat /proc/self/autogroup))"
fi

# Prints the wall seconds of running "$@" (output discarded).
wall_seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || { echo "benchmark command failed: $*" >&2; return 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

# Prints the peak resident set size of "$@" in KiB.
peak_kib() {
    /usr/bin/time -f '%M' "$@" 2>&1 > /dev/null | tail -n 1
}

# Prints the median of the numbers given as arguments.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ values[NR] = $1 } END {
        if (NR % 2) print values[(NR + 1) / 2]; else print (values[NR / 2] + values[NR / 2 + 1]) / 2 }'
}

# check LABEL VALUE OPERATOR LIMIT: prints whether VALUE meets the target; returns 1 when not.
check() {
    if awk -v value="$2" -v limit="$4" -v operator="$3" 'BEGIN {
        exit !((operator == "<=" && value <= limit) || (operator == ">=" && value >= limit)) }'; then
        printf '  %-40s %10.3f %s %s  met\n' "$1" "$2" "$3" "$4"
    else
        printf '  %-40s %10.3f %s %s  MISSED\n' "$1" "$2" "$3" "$4"
        return 1
    fi
}

# Prints the peak memory (KiB) of "$@" with its child processes: the larger of its own peak RSS
# (/usr/bin/time) and the largest sum of the proportional set sizes (Pss: a page shared by N
# processes counts 1/N in each, so the libraries and the pages a forked child shares with its
# parent count once) of it and its children, sampled every 0.1 s.
peak_tree_kib() {
    local record
    record=$(mktemp)
    /usr/bin/time -f '%M' -o "$record" "$@" > /dev/null 2>&1 &
    local timer=$! peak=0 total process rss command
    while kill -0 "$timer" 2> /dev/null; do
        total=0
        command=$(pgrep -P "$timer" | head -n 1)
        for process in $command ${command:+$(pgrep -P "$command")}; do
            rss=$(awk '/^Pss:/ { print $2 }' "/proc/$process/smaps_rollup" 2> /dev/null)
            total=$((total + ${rss:-0}))
        done
        [ "$total" -le "$peak" ] || peak=$total
        sleep 0.1
    done
    wait "$timer" || { echo "benchmark command failed: $*" >&2; rm -f "$record"; return 1; }
    local own
    own=$(tail -n 1 "$record")
    rm -f "$record"
    echo $((own > peak ? own : peak))
}

# Prints the machine's load averages (1, 5, 15 minutes): timings on a shared machine need them.
load_note() {
    echo "  load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
}

# measure NAME COMMAND...: runs COMMAND, appending its wall seconds, CPU seconds (user + system,
# every thread and child) and peak RSS (KiB) to NAME_times, NAME_cpu and NAME_peaks; needs $work.
measure() {
    local name=$1
    shift
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null 2>&1 ||
        { echo "benchmark command failed: $*" >&2; exit 1; }
    read -r seconds user system kib < "$work/time"
    eval "${name}_times+=($seconds) ${name}_peaks+=($kib)"
    eval "${name}_cpu+=($(echo "$user + $system" | bc -l))"
}

# Prints the largest of the numbers given as arguments.
largest() {
    printf '%s\n' "$@" | sort -g | tail -n 1
}
