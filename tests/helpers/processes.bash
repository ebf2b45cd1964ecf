# Background processes in the CLI tests, waited for with a bound: a process that hangs fails its
# test in seconds instead of holding the suite.

# How long a background process of a test may run before it is taken for hung, in seconds.
PROCESS_LIMIT=${FUEL_TEST_PROCESS_LIMIT:-60}

# wait_bounded PID [SECONDS]: `wait PID` (its exit status) for at most SECONDS (default
# $PROCESS_LIMIT); a process still running then is killed (SIGKILL), and the call prints a line
# naming it and returns 124.
wait_bounded() {
    local pid=$1 limit=${2:-$PROCESS_LIMIT} tick
    for ((tick = 0; tick < limit * 20; tick++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "process $pid still running after $limit s: killed" >&2
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        return 124
    fi
    wait "$pid"
}

# stop_bounded PID...: ends background processes a test started (SIGTERM, then SIGKILL for one still
# there after 5 s). Always succeeds.
stop_bounded() {
    local pid
    for pid in "$@"; do
        kill "$pid" 2>/dev/null || continue
        wait_bounded "$pid" 5 2>/dev/null || true
    done
}

# stop_jobs: in a teardown, ends the background jobs of the test's shell still running (a test
# that failed midway leaves its servers, lock holders and loops behind otherwise).
stop_jobs() {
    # shellcheck disable=SC2046
    stop_bounded $(jobs -rp)
}
