#!/usr/bin/env bash
# The idle and memory benchmark of the real daemon (docs/performance.md, case 6).
#
#   scripts/bench-idle.sh [--idle SECONDS] [--events N] [--max-seconds S] [--no-build]
#
# 1. Idle: touchd with config/scene.yaml and no touches (no touchscreen, or none claimed) for
#    SECONDS (default 10): wake-ups per thread (voluntary and involuntary context switches from
#    /proc/PID/task/*/status), CPU time (utime+stime of /proc/PID/stat) and the daemon's own
#    timerWakeups counter (status command).
# 2. Memory: touchd --replay RECORDING --speed 1000 --loop until N events (default 10,000,000)
#    were replayed, or S seconds (default 120) passed; VmRSS is sampled every second. RSS must
#    not grow with the number of events.
#
# Needs the release build of scripts/build-release.sh (built here unless --no-build). Prints `key: value` lines; never fails
# on a figure (only on a broken daemon).
set -euo pipefail
cd "$(dirname "$0")/.."

idle=10
target_events=10000000
max_seconds=120
build=1
while (($#)); do
  case "$1" in
    --idle) idle="$2"; shift 2 ;;
    --events) target_events="$2"; shift 2 ;;
    --max-seconds) max_seconds="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "bench-idle: unknown option $1" >&2; exit 2 ;;
  esac
done

if ((build)); then
  build_log="$(mktemp)"
  if ! bin="$(scripts/build-release.sh --quiet 2>"$build_log")"; then
    cat "$build_log" >&2
    exit 1
  fi
  rm -f "$build_log"
else
  bin="$(scripts/build-release.sh --bin-path)"
fi
recording="${TOUCHD_BENCH_RECORDING:-../shared/recordings/wacom-dth2242-finger-taps-to-10finger.evemu}"
if [[ ! -f "$recording" ]]; then
  echo "bench-idle: $recording not found; using a bundled fixture" >&2
  recording=Tests/TouchdInputTests/Fixtures/recordings/edt-ft5x06-EP0430M09-4finger-drag-down.evemu
fi

work="$(mktemp -d /tmp/touchd-bench-idle.XXXXXX)"
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

wait_for_socket() {
  for _ in $(seq 1 200); do
    [[ -S "$1" ]] && return 0
    kill -0 "$pid" 2>/dev/null || { echo "bench-idle: touchd exited:" >&2; cat "$work/log" >&2; exit 1; }
    sleep 0.05
  done
  echo "bench-idle: no socket after 10 s" >&2
  exit 1
}

# Sum of a /proc/PID/task/*/status field over every thread.
thread_sum() { cat /proc/"$pid"/task/*/status 2>/dev/null | awk -v k="$1:" '$1 == k { s += $2 } END { print s + 0 }'; }
cpu_ticks() { awk '{ print $14 + $15 }' /proc/"$pid"/stat; }
per_thread() {
  for t in /proc/"$pid"/task/*; do
    printf '%s:%s ' "$(cat "$t/comm" | tr ' ' '_')" "$(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "$t/status")"
  done
}
status_counter() {
  # touchctl prints the reply pretty: `"key" : value,` one per line.
  "$bin/touchctl" status --socket "$1" 2>/dev/null | tr -d ' ,' | awk -F: -v k="\"$2\"" '$1 == k { print $2; exit }'
}

hz=$(getconf CLK_TCK)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Idle.
sock="$work/idle.sock"
"$bin/touchd" --scene config/scene.yaml --socket "$sock" --log-level warning >"$work/log" 2>&1 &
pid=$!
wait_for_socket "$sock"
sleep 1
v0=$(thread_sum voluntary_ctxt_switches); n0=$(thread_sum nonvoluntary_ctxt_switches); c0=$(cpu_ticks)
before="$(per_thread)"
sleep "$idle"
v1=$(thread_sum voluntary_ctxt_switches); n1=$(thread_sum nonvoluntary_ctxt_switches); c1=$(cpu_ticks)
after="$(per_thread)"
wakeups=$(status_counter "$sock" timerWakeups)
rss_idle=$(awk '$1 == "VmRSS:" { print $2 }' /proc/"$pid"/status)
echo "idle.seconds: $idle"
echo "idle.threads: $(ls /proc/"$pid"/task | wc -l)"
echo "idle.voluntary_switches: $((v1 - v0))"
echo "idle.involuntary_switches: $((n1 - n0))"
echo "idle.cpu_ticks: $((c1 - c0)) (of $((hz * idle)) ticks/core; $(awk -v t=$((c1 - c0)) -v h="$hz" -v s="$idle" 'BEGIN { printf "%.3f", 100 * t / h / s }') %)"
echo "idle.timer_wakeups: ${wakeups:-?} (DispatchClock fires, whole life)"
echo "idle.per_thread_voluntary_before: $before"
echo "idle.per_thread_voluntary_after:  $after"
echo "idle.rss_kb: $rss_idle"
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

# 2. Memory under a looping replay.
events_per_pass=$(grep -c '^E:' "$recording" || true)
frames_per_pass=$("$bin/touchctl" replay "$recording" | wc -l)
sock="$work/replay.sock"
"$bin/touchd" --scene config/scene.yaml --socket "$sock" --log-level warning \
  --replay "$recording" --speed 1000 --loop >"$work/log" 2>&1 &
pid=$!
wait_for_socket "$sock"
echo "replay.recording: $recording ($events_per_pass events, $frames_per_pass frames per pass)"
start=$(date +%s)
first_rss=""
max_rss=0
events=0
while :; do
  sleep 1
  frames=$(status_counter "$sock" frames)
  rss=$(awk '$1 == "VmRSS:" { print $2 }' /proc/"$pid"/status)
  events=$(( ${frames:-0} * events_per_pass / frames_per_pass ))
  [[ -z "$first_rss" ]] && first_rss=$rss
  ((rss > max_rss)) && max_rss=$rss
  echo "replay.sample: t=$(( $(date +%s) - start ))s events=$events rss_kb=$rss"
  ((events >= target_events)) && break
  (( $(date +%s) - start >= max_seconds )) && { echo "replay.note: stopped at the time limit"; break; }
done
echo "replay.events: $events"
echo "replay.rss_first_kb: $first_rss"
echo "replay.rss_last_kb: $rss"
echo "replay.rss_max_kb: $max_rss"
echo "replay.rss_growth_kb: $((rss - first_rss))"
