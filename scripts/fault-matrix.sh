#!/usr/bin/env bash
# Fault matrix: every case must end in a clear error or a FAILED run within a bounded time,
# the sink must survive hostile clients, and no report may present a partial run as complete.
# Loopback only. Prints one PASS/FAIL line per case with its expected outcome, then
# "N passed, N failed" as the last line; exits non-zero on any failure.
# Usage: scripts/fault-matrix.sh (no arguments). Environment: CARGO_TARGET_DIR (default target/,
# where the release binaries are built), TMPDIR (default /tmp, its scratch folder). Every setting
# the harness reads (MODE, SDK, ...) is unset first, so none leaks into the cases.
set -uo pipefail
for arg in "$@"; do case "$arg" in
  -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: scripts/fault-matrix.sh takes no arguments, got $arg (see --help)" >&2; exit 2 ;;
esac; done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${CARGO_TARGET_DIR:-$root/target}/release"
if ! build_log="$(cargo build --release --locked -p harness --bins 2>&1 &&
  cargo build --release --locked -p iggy-producer --bin iggy-producer 2>&1)"; then
  echo "$build_log" | tail -n 20 >&2
  echo "0 passed, 1 failed (build)"
  exit 1
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/mintbench-faults.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
# Every variable the harness and its producers read, from the harness's own settings table.
while IFS= read -r var; do unset "$var"; done < <("$bin/harness" settings --env-names)

passed=0 failed=0
# verdict NAME EXPECTED OK DETAIL
verdict() {
  if [ "$3" = 1 ]; then passed=$((passed + 1)); echo "PASS $1: $2 -- $4"
  else failed=$((failed + 1)); echo "FAIL $1: $2 -- $4"; fi
}

# Starts `harness sink` with a 2 s idle limit; sets SINK_PID, SINK_ADDR, SINK_LOG.
start_sink() {
  SINK_LOG="$work/sink-$1.log"
  "$bin/harness" sink --listen 127.0.0.1:0 --idle-timeout 2 2>"$SINK_LOG" &
  SINK_PID=$!
  pids+=("$SINK_PID")
  SINK_ADDR=""
  for _ in $(seq 100); do
    SINK_ADDR="$(grep -o -m1 '127\.0\.0\.1:[0-9]*' "$SINK_LOG" 2>/dev/null || true)"
    [ -n "$SINK_ADDR" ] && break
    sleep 0.05
  done
}

stop_sink() { kill -INT "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null; }

# A short verified run of the Rust producer: the sink still serves correctly.
sink_still_serves() {
  timeout 20 "$bin/harness" produce --server "$SINK_ADDR" --messages 20000 >/dev/null 2>"$work/follow-up.err"
}

one_error_line() { [ "$(grep -c . "$1")" = 1 ] && grep -q '^error: ' "$1"; }

# --- sink absent -----------------------------------------------------------------------------
for producer in harness iggy-producer; do
  start=$SECONDS
  if [ "$producer" = harness ]; then cmd=("$bin/harness" produce --server 127.0.0.1:1)
  else cmd=(env SERVER=127.0.0.1:1 "$bin/iggy-producer"); fi
  timeout 20 "${cmd[@]}" >"$work/out" 2>"$work/err"; rc=$?
  ok=0; [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$work/out" ] && one_error_line "$work/err" && ok=1
  verdict "sink-absent ($producer)" "one error line, non-zero exit" $ok "exit $rc in $((SECONDS - start))s: $(head -c 160 "$work/err")"
done

# --- sink killed mid-run ---------------------------------------------------------------------
for producer in harness iggy-producer; do
  start_sink killed
  start=$SECONDS
  if [ "$producer" = harness ]; then cmd=("$bin/harness" produce --server "$SINK_ADDR" --messages 1000000000)
  else cmd=(env SERVER="$SINK_ADDR" MESSAGES=1000000000 "$bin/iggy-producer"); fi
  timeout 30 "${cmd[@]}" >"$work/out" 2>"$work/err" &
  producer_pid=$!
  sleep 1
  { kill -9 "$SINK_PID"; wait "$SINK_PID"; } 2>/dev/null
  wait "$producer_pid"; rc=$?
  ok=0; [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$work/out" ] && one_error_line "$work/err" && ok=1
  verdict "sink-killed ($producer)" "the producer fails with one error line, no result line" $ok \
    "exit $rc in $((SECONDS - start))s: $(head -c 160 "$work/err")"
done

# --- producer killed -------------------------------------------------------------------------
start_sink producer-killed
"$bin/harness" produce --server "$SINK_ADDR" --messages 1000000000 >/dev/null 2>&1 &
producer_pid=$!
pids+=("$producer_pid")
sleep 1
{ kill -9 "$producer_pid"; wait "$producer_pid"; } 2>/dev/null
sleep 0.2
ok=0; grep -q 'closed after' "$SINK_LOG" && sink_still_serves && ok=1
verdict "producer-killed (sink)" "the sink logs the closed connection and serves the next run" $ok "$(grep -m1 'closed' "$SINK_LOG")"
stop_sink

start=$SECONDS
RESULTS_DIR="$work/results" NAME=killed SDK=rust MSG_ID=uuid REPEAT=1 MESSAGES=300000000 TIMEOUT=60 \
  "$bin/harness" run >"$work/run.out" 2>"$work/run.err" &
runner_pid=$!
pids+=("$runner_pid")
# Each producer the runner starts is killed after about a second; the loop is bounded.
while kill -0 "$runner_pid" 2>/dev/null && [ $((SECONDS - start)) -lt 100 ]; do
  sleep 1
  for child in $(pgrep -P "$runner_pid" || true); do kill -9 "$child" 2>/dev/null; done
done
{ kill -9 "$runner_pid"; } 2>/dev/null
wait "$runner_pid"; rc=$?
json="$work/results/killed.json"
ok=0
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ -f "$json" ] && grep -q 'FAILED' "$work/results/killed.md" &&
  python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["complete"] is True else 1)' "$json"; then ok=1; fi
verdict "producer-killed (runner)" "every killed run FAILED in a complete report, runner exits non-zero" $ok \
  "exit $rc in $((SECONDS - start))s: $(grep -c 'FAILED' "$work/results/killed.md" 2>/dev/null) FAILED lines"

# --- lock-step sets with a faulty build ----------------------------------------------------
# A second build that is killed mid-set, never sends its first batch, or sends garbage: its set
# FAILED naming it, the good build released, the runner exits non-zero in bounded time.
lockstep_case() {  # NAME EXPECTED COMMAND
  local start=$SECONDS rc ok=0 md="$work/results/lockstep-$1.md"
  RESULTS_DIR="$work/results" NAME="lockstep-$1" MSG_ID=fast REPEAT=1 MESSAGES=2000000 TIMEOUT=60 SYSCALLS=false \
    timeout 90 "$bin/harness" run --producer "good=$bin/harness produce" --producer "$1=$3" >"$work/ls.out" 2>"$work/ls.err"
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "| $1 fast | .*FAILED" "$md" && grep -q "| good fast | .*FAILED: its set FAILED: $1 fast: " "$md" && ok=1
  verdict "lockstep-$1" "$2" $ok "exit $rc in $((SECONDS - start))s: $(grep -m1 -o "| $1 fast | [^|]*| [^|]*|[^|]*|[^|]*|[^|]*|[^|]*| FAILED[^|]*" "$md" 2>/dev/null | head -c 200)"
}
lockstep_case killed "the killed build's set FAILED naming it" "timeout -s KILL 0.5 $bin/harness produce"
lockstep_case mute "a build that never sends its first batch fails its set within the hold limit" "sleep 60"
lockstep_case junk "a build that sends garbage fails its set" "sh -c 'exec $bin/fault-client --server \"\$SERVER\" garbage'"

# --- hostile clients against one sink --------------------------------------------------------
start_sink hostile
hostile() {  # NAME EXPECTED LOG_PATTERN: the pattern must appear among the sink's new lines
  local start=$SECONDS out ok=0 seen new
  seen=$(wc -l <"$SINK_LOG")
  out="$(timeout 20 "$bin/fault-client" --server "$SINK_ADDR" "$1" 2>&1)"; rc=$?
  sleep 0.2
  new="$(tail -n +"$((seen + 1))" "$SINK_LOG" | grep -m1 "$3")"
  [ $rc = 0 ] && [ -n "$new" ] && kill -0 "$SINK_PID" 2>/dev/null && ok=1
  verdict "$1" "$2" $ok "$out ($((SECONDS - start))s); sink: $new"
}
hostile garbage "error statuses, then the sink closes the connection" 'refused\|outside'
hostile truncated "no reply; closed at the 2 s idle limit" 'idle for 2s (limit)'
hostile huge "status 4029 (CommandLengthError) at once, the body never read, closed" 'frame size 4294967295 is outside'
hostile silent "closed at the 2 s idle limit" 'idle for 2s (limit)'
start=$SECONDS
out="$(timeout 30 "$bin/fault-client" --server "$SINK_ADDR" burst --connections 200 --expect-served 128 2>&1)"; rc=$?
ok=0; [ $rc = 0 ] && grep -q '128 connections open (limit)' "$SINK_LOG" && ok=1
verdict "200-connections" "128 served (the default limit), 72 closed on arrival, one log line" $ok "$out ($((SECONDS - start))s)"
sleep 0.5
ok=0; sink_still_serves && ok=1
verdict "after-hostile-clients" "the sink verifies a clean run" $ok "$(head -c 160 "$work/follow-up.err")"
stop_sink

# --- runner killed mid-run -------------------------------------------------------------------
RESULTS_DIR="$work/results" NAME=interrupted SDK=rust MSG_ID=uuid,fast REPEAT=20 MESSAGES=2000000 TIMEOUT=60 \
  "$bin/harness" run >/dev/null 2>&1 &
runner_pid=$!
pids+=("$runner_pid")
json="$work/results/interrupted.json"
for _ in $(seq 200); do
  [ -f "$json" ] && grep -q '"runs_done": [1-9]' "$json" && break
  sleep 0.1
done
children="$(pgrep -P "$runner_pid" || true)"
{ kill -9 "$runner_pid"; wait "$runner_pid"; } 2>/dev/null
for child in $children; do kill -9 "$child" 2>/dev/null; done
ok=0
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["complete"] is False else 1)' "$json" 2>/dev/null &&
  grep -q 'INCOMPLETE' "$work/results/interrupted.md"; then ok=1; fi
verdict "runner-killed" "the report on disk says INCOMPLETE (complete: false)" $ok \
  "$(grep -m1 -o 'INCOMPLETE[^.]*' "$work/results/interrupted.md" 2>/dev/null)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
