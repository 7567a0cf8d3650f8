#!/usr/bin/env bash
# Runs touchd's libFuzzer targets (Fuzz/, docs/reliability.md "Fuzzing"):
#   scripts/fuzz.sh [--time S | --runs N | --until N] [--jobs N] [--keep-corpus] [--release] [TARGET...]
#
#   TARGET         FuzzEvemu FuzzLibinputRecord FuzzScene FuzzProtocol FuzzFrameAssembler (default: all)
#   --time S       fuzz each target for S seconds (default 60)
#   --runs N       or for N inputs (the seed corpus counts)
#   --until N      or until the ledger (below) holds N inputs of this build for the target: runs go on
#                  from the corpus (--keep-corpus) until it does, a new one after each that ends early
#                  on a busy machine's timeout, and stop at the first finding
#   --jobs N       N fuzzing processes per target sharing one corpus (default 1); one that ends
#                  early stops the others; the summary sums their executions and measures coverage
#                  over the corpus they built together
#   --keep-corpus  start from the corpus a previous run left in .build-fuzz/corpus/TARGET (the seeds
#                  are added again) instead of from the seeds alone
#   --release      build optimized (-O, as touchd ships: up to 3 times the executions a second, and
#                  a build of several minutes) instead of debug
#   --ledger       print the campaign so far and exit: every run's figures are appended to
#                  .build-fuzz/ledger.tsv, and this sums them per target and build (a long campaign
#                  is many runs, each going on from the last one's corpus with --keep-corpus)
#
# Builds the Fuzz package with -sanitize=fuzzer,address into .build-fuzz, builds each target's seed
# corpus from the repository (recordings in ../shared/recordings and the test fixtures, example
# scenes, the protocol's documented JSON lines), then runs it with a 1 s limit per input and 2 GB of
# memory, LeakSanitizer on. Crashes, timeouts, leaks and out-of-memory inputs are written to
# .build-fuzz/findings/TARGET/; the script prints each one's path and exits 1 when any target found
# one (a timeout counts when it times out again alone: one that then takes under half the limit was
# a busy machine's, and is only reported). Ends with one line per target: executions, executions a
# second, coverage (libFuzzer's cov and ft), corpus size, findings.
#
# Run one input again:
#   SWIFT_DETERMINISTIC_HASHING=1 ASAN_OPTIONS=malloc_context_size=16 \
#   LSAN_OPTIONS=suppressions=Fuzz/lsan.supp .build-fuzz/debug/FuzzScene .build-fuzz/findings/FuzzScene/crash-…
set -euo pipefail
# The whole script is one block, read before it runs: editing the file during a long run cannot
# change what the run does.
{
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$(cd "$root/.." && pwd)/shared"
scratch="$root/.build-fuzz"
all_targets=(FuzzEvemu FuzzLibinputRecord FuzzScene FuzzProtocol FuzzFrameAssembler)

time_budget=60
runs=""
jobs=1
keep_corpus=0
ledger_only=0
config=debug
targets=()
until=""
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --time) time_budget=${2:?--time needs seconds}; runs=""; shift 2 ;;
    --runs) runs=${2:?--runs needs a count}; shift 2 ;;
    --until) until=${2:?--until needs a count}; keep_corpus=1; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a count}; shift 2 ;;
    --keep-corpus) keep_corpus=1; shift ;;
    --release) config=release; shift ;;
    --ledger) ledger_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      [[ " ${all_targets[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown target $1 (${all_targets[*]})" >&2; exit 2; }
      targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=("${all_targets[@]}")
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs needs a positive count" >&2; exit 2; }
[[ -z "$runs" || "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --runs needs a positive count" >&2; exit 2; }
[[ -z "$until" || "$until" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --until needs a positive count" >&2; exit 2; }
[[ -z "$until" || -z "$runs" ]] || { echo "fuzz.sh: --runs and --until are two budgets: give one" >&2; exit 2; }
[[ -n "$runs" || "$time_budget" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --time needs whole seconds" >&2; exit 2; }

# One run at a time in a tree: runs share .build-fuzz's corpora, logs and findings.
ledger="$scratch/ledger.tsv"
# ledger_inputs TARGET: the inputs the ledger holds for TARGET in this build.
ledger_inputs() {
  [[ -f "$ledger" ]] || { echo 0; return; }
  awk -F '\t' -v t="$1" -v c="$config" '$4 == t && $3 == c { n += $5 } END { print n + 0 }' "$ledger"
}
if ((ledger_only)); then
  [[ -s "$ledger" ]] || { echo "fuzz: no run recorded yet in ${ledger#"$root"/}"; exit 0; }
  echo "fuzz: the runs recorded in ${ledger#"$root"/}, per target and build (cov, ft, corpus: the last run's)"
  awk -F '\t' '
    { key = $4 " " $3; if (!(key in runs)) order[n++] = key
      runs[key]++; execs[key] += $5; secs[key] += $6; crashes[key] += $10
      cov[key] = $7; ft[key] = $8; corpus[key] = $9; first[key] = (first[key] ? first[key] : $1); last[key] = $1 }
    END { printf "  %-19s %-7s %5s %12s %9s %8s %6s %7s %6s %7s  %s\n", "target", "build", "runs", "inputs",
            "hours", "exec/s", "cov", "ft", "corpus", "crashes", "from ... to"
          for (i = 0; i < n; i++) { k = order[i]; split(k, p, " ")
            printf "  %-19s %-7s %5d %12d %9.2f %8d %6s %7s %6s %7d  %s ... %s\n", p[1], p[2], runs[k], execs[k],
              secs[k] / 3600, (secs[k] > 0 ? execs[k] / secs[k] : 0), cov[k], ft[k], corpus[k], crashes[k], first[k], last[k] } }
  ' "$ledger"
  exit 0
fi

mkdir -p "$scratch"
exec 9>"$scratch/fuzz.lock"
if ! flock -n 9; then
  echo "fuzz: another scripts/fuzz.sh is running in this tree; waiting for it"
  flock 9
fi

# --- Build -----------------------------------------------------------------------------------------
echo "fuzz: building the Fuzz package ($config, -sanitize=fuzzer,address) into .build-fuzz"
# SwiftPM does not always notice files added to the root package from this dependent package: plan
# the build afresh (a few seconds).
rm -f "$scratch/$config.yaml"
swift build -c "$config" --package-path "$root/Fuzz" --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 | sed '/Cannot export local symbol/d'
bin="$scratch/$config"

# --- Seed corpora ----------------------------------------------------------------------------------
# Each target's largest input, in bytes: seeds are cut to it (at a line end) and inputs grow no
# larger. A recording's first hundred events hold every kind of line, and under the sanitizers an
# input must run well within the 1 s limit (a 10 kB libinput record file takes about 1 s: YAML
# costs).
declare -A max_lens=([FuzzEvemu]=8192 [FuzzLibinputRecord]=4096 [FuzzScene]=8192 [FuzzProtocol]=4096
  [FuzzFrameAssembler]=4096)

# seed FILE DIR [NAME]: FILE's first max_len bytes, cut at the last line end, as DIR/NAME.
seed() {
  local file=$1 dir=$2 name=${3:-$(basename "$1")}
  [[ -f "$file" ]] || return 0
  head -c "$max_len" "$file" | awk -v max="$max_len" '{ n += length($0) + 1; if (n <= max) print }' >"$dir/$name"
}

corpus_FuzzEvemu() {
  local dir=$1 f
  for f in "$shared"/recordings/*.evemu "$shared"/recordings/touchpad/*.evemu; do seed "$f" "$dir" "shared-${f##*/}"; done
  for f in "$root"/Tests/TouchdInputTests/Fixtures/recordings/*.evemu "$root"/Tests/TouchdSceneTests/Fixtures/*.evemu \
    "$root"/config/recordings/*.evemu "$root"/scripts/vm/recordings/*.evemu; do
    seed "$f" "$dir" "repo-${f##*/}"
  done
  # Descriptions alone, and events alone (the target replays those on a touchscreen of its own).
  for f in "$shared"/recordings/*.desc "$shared"/recordings/descriptions/evemu-devices/*.desc \
    "$shared"/recordings/descriptions/evemu-data/*.prop "$root"/Tests/TouchdInputTests/Fixtures/recordings/*.desc \
    "$root"/Tests/TouchdInputTests/Fixtures/recordings/descriptions/*.desc \
    "$shared"/recordings/*.events "$root"/Tests/TouchdInputTests/Fixtures/recordings/*.events; do
    seed "$f" "$dir" "part-${f##*/}"
  done
  # Events with their description, as one file: each .events file with the .desc beside it whose
  # name shares the longest start with its own.
  local events desc best common
  for events in "$shared"/recordings/*.events; do
    [[ -f "$events" ]] || continue
    best="" common=0
    for desc in "$shared"/recordings/*.desc; do
      local a=${events##*/} b=${desc##*/} n=0
      while ((n < ${#a} && n < ${#b})) && [[ "${a:n:1}" == "${b:n:1}" ]]; do n=$((n + 1)); done
      if ((n > common)); then best=$desc common=$n; fi
    done
    [[ -n "$best" ]] || continue
    cat "$best" "$events" >"$dir/.joined"
    seed "$dir/.joined" "$dir" "joined-${events##*/}"
    rm -f "$dir/.joined"
  done
}

corpus_FuzzLibinputRecord() {
  local dir=$1 f
  for f in "$root"/Tests/TouchdInputTests/Fixtures/recordings/*.yml; do seed "$f" "$dir" "repo-${f##*/}"; done
  # touchctl writes libinput record only from live devices: convert a few evemu recordings (their
  # first 100 events), alone and two devices to a file.
  local -a recordings=()
  for f in "$shared"/recordings/*.evemu "$root"/Tests/TouchdSceneTests/Fixtures/keypad.evemu; do
    [[ -f "$f" ]] && recordings+=("$f")
  done
  ((${#recordings[@]})) || return 0
  python3 - "$dir" "${recordings[@]}" <<'PY'
import os, sys

def read(path):
    name, ident, props, codes, absinfo, events = "", [0, 0, 0, 0], [], {}, {}, []
    masks = {}  # event type -> mask bytes, successive B: lines of a type continuing its mask
    for line in open(path, encoding="utf-8", errors="replace"):
        kind, _, rest = line.partition(":")
        fields = rest.split("#")[0].split()
        if kind == "N":
            name = rest.strip().replace("\\", "").replace('"', "")
        elif kind == "I":
            ident = [int(v, 16) for v in fields[:4]]
        elif kind == "P":
            props += [int(v, 16) for v in fields]
        elif kind == "B":
            masks.setdefault(int(fields[0], 16), []).extend(int(v, 16) for v in fields[1:])
        elif kind == "A":
            absinfo[int(fields[0], 16)] = ([int(v) for v in fields[1:]] + [0])[:5]
        elif kind == "E" and len(events) < 100:
            sec, usec = fields[0].split(".")
            events.append((int(sec), int(usec), int(fields[1], 16), int(fields[2], 16), int(fields[3])))
    bits = lambda mask: [i * 8 + b for i, v in enumerate(mask) for b in range(8) if v >> b & 1]
    codes = {t: bits(mask) for t, mask in masks.items()}
    return name, ident, bits(props), codes, absinfo, events

def device(out, node, recording, zero):
    name, ident, props, codes, absinfo, events = recording
    out.append(f"- node: {node}\n  evdev:\n    name: \"{name}\"\n    id: {ident}\n    codes:\n")
    out += [f"      {t}: {sorted(set(c))}\n" for t, c in sorted(codes.items()) if c]
    out.append("    absinfo:\n")
    out += [f"      {c}: {v}\n" for c, v in sorted(absinfo.items())]
    out.append(f"    properties: {sorted(set(props))}\n  events:\n")
    group = False
    for sec, usec, t, c, v in events:
        micros = max(0, sec * 1000000 + usec - zero)
        if not group:
            out.append("  - evdev:\n")
            group = True
        out.append(f"    - [{micros // 1000000}, {micros % 1000000}, {t}, {c}, {v}]\n")
        group = not (t == 0 and c == 0)

def write(path, recordings):
    zero = min((r[5][0][0] * 1000000 + r[5][0][1] for r in recordings if r[5]), default=0)
    out = [f"version: 1\nndevices: {len(recordings)}\nlibinput:\n  version: \"1.25.0\"\nsystem:\n  kernel: \"6.1.0\"\ndevices:\n"]
    for i, r in enumerate(recordings):
        device(out, f"/dev/input/event{i}", r, zero)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(out))

target, paths = sys.argv[1], sys.argv[2:]
recordings = [read(p) for p in paths]
for path, r in zip(paths, recordings):
    write(os.path.join(target, "converted-" + os.path.basename(path) + ".yml"), [r])
write(os.path.join(target, "converted-two-devices.yml"), [recordings[0], recordings[-1]])
PY
  # The converted files are cut to max_len like every seed.
  for f in "$dir"/converted-*.yml; do seed "$f" "$dir" "${f##*/}.cut" && mv "$dir/${f##*/}.cut" "$f"; done
}

corpus_FuzzScene() {
  local dir=$1 f
  for f in "$root"/config/*.yaml; do seed "$f" "$dir" "config-${f##*/}"; done
  for f in "$root"/scripts/vm/scenes/*.yaml; do seed "$f" "$dir" "vm-${f##*/}"; done
  # Every yaml block of the docs (whole scenes and fragments).
  awk -v dir="$dir" '/^```yaml/ { n++; out = dir "/doc-" n ".yaml"; inside = 1; next }
    /^```/ { inside = 0; next }
    inside { print > out }' "$root"/docs/*.md
}

corpus_FuzzProtocol() {
  local dir=$1
  # One JSON object a line in the code blocks of docs/protocol.md, and every command written inline
  # in the docs (`{"cmd":…}`): one seed each.
  awk '/^```/ { inside = !inside; next } inside && /^[[:space:]]*\{/ { sub(/^[[:space:]]+/, ""); print }' \
    "$root"/docs/protocol.md >"$dir/.lines"
  grep -ho '`{"cmd"[^`]*}`' "$root"/docs/*.md | tr -d '`' >>"$dir/.lines" || true
  local n=0 line
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" >"$dir/doc-line-$n.json"
  done <"$dir/.lines"
  rm -f "$dir/.lines"
}

# The frame assembler target reads a binary format of its own (Fuzz/Sources/FuzzFrameAssembler):
# it writes its seeds itself (taps, drags, pinches, resyncs, SYN_DROPPED, palms, keys on every kind
# of device).
corpus_FuzzFrameAssembler() {
  SWIFT_BACKTRACE=enable=no "$bin/FuzzFrameAssembler" --make-corpus "$1" >/dev/null
}

# --- Runs ------------------------------------------------------------------------------------------
export SWIFT_BACKTRACE=enable=no # libFuzzer reports crashes itself; Swift's backtracer only slows it
# The same input runs the same way each time (Set and Dictionary orders included), so a finding
# happens again when its file is run again.
export SWIFT_DETERMINISTIC_HASHING=1
# Sixteen frames of stack are recorded for each malloc, not ASan's 30: enough for LeakSanitizer to
# tell a global's initializer (Fuzz/lsan.supp) from a leak, for less unwinding. Ten were, until
# SceneFormat's tables were built through CaseTable's closures, which put the initializer's `_WZ`
# frame 12 frames from the allocation (measured: FuzzScene and FuzzProtocol then reported 240
# bytes of keysByObject at exit). Not fewer: with 0 or 1 frame LeakSanitizer reports no leak at all
# (measured: a reference cycle made by one input went unreported with malloc_context_size=0, and
# was found with 10).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=16}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan.supp}
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
summary=()
findings=()
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"
  # Not .build-fuzz/artifacts: SwiftPM owns that directory and empties it when it builds.
  artifacts="$scratch/findings/$target"
  logs="$scratch/logs/$target"
  ((keep_corpus)) || rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts" "$logs"
  max_len=${max_lens[$target]}
  seeded=0
  # --until: one run after another, each for what the ledger still lacks.
  while :; do
    if [[ -n "$until" ]]; then
      held=$(ledger_inputs "$target")
      if ((held >= until)); then
        echo "fuzz: $target: the ledger holds $held $config inputs, at least $until: nothing to run"
        break
      fi
      runs=$((until - held))
    fi
    # The seeds go in once: a later run of --until goes on from the corpus the last one left.
    ((seeded)) || "corpus_$target" "$corpus"
    seeded=1
    rm -f "$logs"/*.log
    seeds=$(find "$corpus" -type f | wc -l)
    flags=(-timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len="$max_len" -print_final_stats=1
      -artifact_prefix="$artifacts/")
    [[ -f "$root/Fuzz/dictionaries/$target.dict" ]] && flags+=(-dict="$root/Fuzz/dictionaries/$target.dict")
    if [[ -n "$runs" ]]; then
      flags+=(-runs=$(((runs + jobs - 1) / jobs)))
      budget="$runs inputs"
    else
      flags+=(-max_total_time="$time_budget")
      budget="${time_budget} s"
    fi
    echo "fuzz: $target: $budget, $jobs process(es), $seeds seeds, corpus .build-fuzz/corpus/$target"
    marker="$logs/.start"
    : >"$marker"
    start=$(date +%s.%N)
    pids=()
    for ((job = 0; job < jobs; job++)); do
      "$bin/$target" "${flags[@]}" -seed=$((job + 1)) "$corpus" >"$logs/job-$job.log" 2>&1 &
      pids+=($!)
    done
    # A process that ends early (a timeout on a busy machine, a finding) would leave the others
    # fuzzing alone at a fraction of the machine: they are interrupted too, their inputs counted,
    # and --until starts the next run with every process.
    status=0
    stopped_others=0
    running=("${pids[@]}")
    while ((${#running[@]})); do
      ended=""
      if wait -n -p ended "${running[@]}"; then rc=0; else rc=$?; fi
      [[ -n "$ended" ]] || break
      left=()
      for pid in "${running[@]}"; do [[ "$pid" == "$ended" ]] || left+=("$pid"); done
      running=("${left[@]}")
      if ((rc != 0)); then
        status=1
        # Not when the process was itself interrupted: that is a pause, the others got theirs too.
        for ((job = 0; job < jobs; job++)); do [[ "${pids[job]}" == "$ended" ]] && break; done
        if ((${#running[@]})) && ! grep -aq 'libFuzzer: run interrupted' "$logs/job-$job.log"; then
          stopped_others=1
          kill -INT "${running[@]}" 2>/dev/null || true
        fi
      fi
    done
    elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    # Executions: the sum of every process's count (its final stats, or its last status line when it
    # stopped without them).
    execs=0
    for log in "$logs"/job-*.log; do
      n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
      [[ -n "$n" ]] || n=$(grep -ao '^#[0-9]*' "$log" | tail -1 | tr -d '#')
      execs=$((execs + ${n:-0}))
    done
    # Coverage: libFuzzer's last status line with one process; with several, a pass over the corpus
    # they built together (each process only counts what it saw itself).
    if ((jobs == 1)); then
      last=$(grep -a '^#[0-9].*cov: ' "$logs/job-0.log" | tail -1 || true)
    else
      "$bin/$target" -runs=0 -max_len="$max_len" "$corpus" >"$logs/coverage.log" 2>&1 || true
      last=$(grep -a '^#[0-9].*cov: ' "$logs/coverage.log" | tail -1 || true)
    fi
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    found=()
    dismissed=0
    while IFS= read -r artifact; do
      # A timeout, or a unit libFuzzer reported slow (over 10 s: a process stopped with SIGSTOP, as
      # while a VM latency run has the machine), is run again alone first.
      if [[ "${artifact##*/}" == timeout-* || "${artifact##*/}" == slow-unit-* ]]; then
        # A timeout must happen again: on a busy machine (other builds, other fuzzers) an input well
        # within the limit can miss it. Every input runs the same way each time, so a real hang does.
        slowest=$("$bin/$target" -runs=3 -timeout=60 "$artifact" 2>&1 |
          sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' | sort -n | tail -1)
        if [[ -n "$slowest" ]] && ((slowest < 500)); then
          echo "fuzz: $target: ${artifact#"$root"/} was slow on a busy machine but takes $slowest ms alone: not counted"
          dismissed=$((dismissed + 1))
          continue
        fi
      fi
      found+=("$artifact")
    done < <(find "$artifacts" -type f -newer "$marker" | sort)
    for artifact in "${found[@]}"; do
      findings+=("$artifact")
      echo "fuzz: $target found ${artifact#"$root"/} (log: ${logs#"$root"/})"
      grep -a -m1 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$logs"/job-*.log | sed 's/^/fuzz:   /' || true
    done
    # Interrupting the fuzzers themselves (SIGINT to their pids, not to this script) ends the run
    # early with its inputs in the ledger: a long campaign is paused that way.
    interrupted=0
    ((stopped_others)) || ! grep -aq 'libFuzzer: run interrupted' "$logs"/job-*.log || interrupted=1
    if ((interrupted)); then
      echo "fuzz: $target: interrupted after $execs inputs; they are in the ledger"
    elif ((status != 0 && ${#found[@]} == 0 && dismissed == 0)); then
      echo "fuzz: $target stopped with an error and no finding; see ${logs#"$root"/}" >&2
      tail -n 5 "$logs"/job-*.log >&2 || true
      findings+=("$target: error (no artifact)")
    fi
    corpus_size=$(find "$corpus" -type f | wc -l)
    rate=$(awk -v n="$execs" -v t="$elapsed" 'BEGIN { printf "%d", (t > 0 ? n / t : 0) }')
    printf '%s\t%s\t%s\t%s\t%d\t%.0f\t%s\t%s\t%d\t%d\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$config" \
      "$target" "$execs" "$elapsed" "${cov:-?}" "${ft:-?}" "$corpus_size" "${#found[@]}" >>"$ledger"
    summary+=("$(printf '%-19s %12d execs %8d exec/s  cov %6s  ft %7s  corpus %6d  crashes %d  (%.0f s)' \
      "$target" "$execs" "$rate" "${cov:-?}" "${ft:-?}" "$corpus_size" "${#found[@]}" "$elapsed")")
    # A run that ended early with nothing found (its timeout was a busy machine's) is followed by
    # another; a finding or an error ends the target's campaign.
    [[ -n "$until" ]] || break
    ((${#found[@]} == 0 && !interrupted && (status == 0 || dismissed > 0))) || break
  done
done

echo "fuzz: summary ($config build, $jobs process(es) per target)"
printf '  %s\n' "${summary[@]}"
if ((${#findings[@]})); then
  echo "fuzz: ${#findings[@]} finding(s):"
  printf '  %s\n' "${findings[@]#"$root"/}"
  exit 1
fi
echo "fuzz: no crash, hang or memory blow-up"
exit 0
}
