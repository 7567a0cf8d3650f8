#!/usr/bin/env bash
# Runs touchd's benchmarks (docs/performance.md).
#
#   scripts/bench.sh                 every package benchmark (Benchmarks/, release build), then
#                                    scripts/bench-idle.sh and the `touchctl replay` timing
#   scripts/bench.sh --smoke         CI: a few iterations of each benchmark and a 2 s idle check,
#                                    so they keep building and running; never fails on a figure
#   scripts/bench.sh -- ARGS...      passes ARGS to `swift package benchmark` (e.g. --filter 'Parse.*': a filter must match the whole name)
#
# Set TOUCHD_RECORDINGS to the shared recordings when they are not in ../shared/recordings.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0
extra=()
while (($#)); do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "bench: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done

scripts/setup.sh

# Rebuild touchd's own modules and the benchmarks from scratch (their dependencies stay cached).
# An incremental release build across the two packages can keep code compiled against an old
# class layout of a touchd module (cross-module optimization), which corrupts memory at run time.
for module in CTouchd TouchdSystem TouchdCore TouchdProtocol TouchdInput TouchdDevices TouchDelivery TouchdScene TouchdTestKit TouchdDaemon \
  BenchSupport Profile Input Delivery FanOut CForward CHeap Latency; do
  rm -rf "Benchmarks/.build/release/$module.build"
done
echo "bench: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"

if ((smoke)); then
  # No thresholds are set, so no timing can fail the run; a benchmark that crashes or throws does.
  # The plugin has no iteration flags: the benchmarks read TOUCHD_BENCH_SMOKE (BenchMode).
  TOUCHD_BENCH_SMOKE=1 swift package --package-path Benchmarks benchmark --no-progress ${extra[@]+"${extra[@]}"}
  scripts/bench-idle.sh --idle 2 --events 20000 --max-seconds 10
  echo "bench: smoke passed"
  exit 0
fi

swift package --package-path Benchmarks benchmark --no-progress ${extra[@]+"${extra[@]}"}
scripts/bench-idle.sh

# `touchctl replay` of the largest shared recordings, end to end (release build).
bin="$(scripts/build-release.sh --quiet)"
for name in wacom-dth2242-finger-taps-to-10finger.evemu elan-04f3-010c-touchscreen-drag-pinch-10finger.evemu; do
  recording="${TOUCHD_RECORDINGS:-../shared/recordings}/$name"
  [[ -f "$recording" ]] || { echo "bench: skipped: $recording not found"; continue; }
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 2 --runs 15 --style basic "$bin/touchctl replay $recording > /dev/null"
  else
    times=()
    for _ in $(seq 1 15); do
      start=$(date +%s%N)
      "$bin/touchctl" replay "$recording" >/dev/null
      times+=($(( ($(date +%s%N) - start) / 1000 )))
    done
    sorted=($(printf '%s\n' "${times[@]}" | sort -n))
    echo "touchctl replay $name: median ${sorted[7]} us, min ${sorted[0]} us, max ${sorted[14]} us (15 runs)"
  fi
done
