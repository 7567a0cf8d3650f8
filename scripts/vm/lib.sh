# shellcheck shell=bash
# Helpers of the guest scripts (sourced by guest-plain.sh and guest-systemd.sh). Runs in the guest.
# Every wait has a timeout (TCG is slow, so they are wide) and every helper fails rather than hangs.

# The host writes env.sh into the results folder: ROOT BIN TOOLS EXPECTED RECORDINGS
# KEYPAD_RECORDING HEADPHONES_RECORDING HEADPHONES_TOUCHES PEN_RECORDING HAND_RECORDING ZOOM_RECORDING, and recordings.list beside it.
# shellcheck source=/dev/null
. "$OUT/env.sh"
cd "$ROOT" || exit 1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PY=/usr/bin/python3 # never a pyenv shim: python3-libevdev lives in the system python
SCRATCH=/run/vmtest
mkdir -p "$SCRATCH"
VM="$ROOT/scripts/vm"

log() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }

# --- verdicts -------------------------------------------------------------------------------------
# The host reads these lines from the serial console: PLAN (all checks of this boot, so one that is
# never reported fails), then one PASS/FAIL/SKIP line per check.
# With ONLY set (scripts/vm-test.sh --only REGEX), only the checks whose names match are planned
# and run; the others are left out silently.
# A check runs when it matches --only (ONLY) and the host did not leave it out (LEFT_OUT: names
# whose tools the host has not got, e.g. forward-sway without sway 1.9; vm-test.sh says why).
selected() { [[ (-z ${ONLY:-} || $1 =~ $ONLY) && " ${LEFT_OUT:-} " != *" $1 "* ]]; }
plan() {
  local name names=()
  for name in "$@"; do selected "$name" && names+=("$name"); done
  echo "VMCHECK PLAN ${names[*]}"
}

# note TEXT: the check's one-line detail (the last one is shown on the verdict line).
note() { echo "NOTE: $*"; }
# fail TEXT: note the reason and return 1 (use as `fail "why"; return`, or `cond || { fail ..; return; }`).
fail() {
  note "$*"
  return 1
}
# skip TEXT: the check cannot run (e.g. the daemon is not built yet); exit status 77 means skip.
skip() {
  note "$*"
  return 77
}

# run_check NAME COMMAND...: runs the check with its output in $OUT/NAME.log and prints the verdict;
# a failing check's log tail goes to the console too, so the host's output shows why. The check's
# exit status is left in LAST_CHECK_RC.
run_check() {
  local name=$1 rc=0 start detail
  shift
  LAST_CHECK_RC=0
  selected "$name" || return 0
  start=$(cut -d' ' -f1 /proc/uptime)
  log "check $name"
  "$@" >"$OUT/$name.log" 2>&1 || rc=$?
  LAST_CHECK_RC=$rc
  detail=$(grep -a '^NOTE: ' "$OUT/$name.log" | tail -1 | cut -c7-)
  detail="$(awk -v a="$start" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f s", b - a }')${detail:+; $detail}"
  case $rc in
    0) echo "VMCHECK PASS $name $detail" ;;
    77) echo "VMCHECK SKIP $name $detail" ;;
    *)
      echo "VMCHECK FAIL $name $detail"
      echo "---- $name.log (last 40 lines) ----"
      tail -n 40 "$OUT/$name.log"
      echo "----"
      ;;
  esac
}

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds; 1 on timeout.
wait_for() {
  local deadline
  deadline=$(($(date +%s) + $1))
  shift
  until "$@"; do
    (($(date +%s) < deadline)) || return 1
    sleep 0.1
  done
}

# opens PID NODE: whether process PID has NODE open (its /proc fd links name it).
# exited PID: whether PID is gone (or a zombie, which wait reaps).
exited() { ! kill -0 "$1" 2>/dev/null || grep -q "^State:.*Z" "/proc/$1/status" 2>/dev/null; }

opens() {
  local fd
  for fd in /proc/"$1"/fd/*; do
    [[ $(readlink "$fd" 2>/dev/null) == "$2" ]] && return 0
  done
  return 1
}

# --- touchd ---------------------------------------------------------------------------------------
# Whether the daemon is built yet: until it is, the daemon checks skip with this reason.
# (Asked once: starting a Swift binary takes seconds under TCG.)
have_daemon() {
  [[ -n ${HAVE_DAEMON:-} ]] || { "$BIN/touchd" --help 2>&1 | grep -q -- '--scene' && HAVE_DAEMON=yes || HAVE_DAEMON=no; }
  [[ $HAVE_DAEMON == yes ]]
}
need_daemon() { have_daemon || skip "touchd has no --scene yet (the daemon is not merged/built)"; }

# start_touchd NAME SCENE [ARGS...]: starts touchd on $SCRATCH/NAME.sock, log $OUT/touchd-NAME.log;
# sets TOUCHD_PID and SOCK; waits until it answers `status`.
start_touchd() {
  local name=$1 scene=$2
  shift 2
  SOCK="$SCRATCH/$name.sock"
  rm -f "$SOCK"
  "$BIN/touchd" --scene "$scene" --socket "$SOCK" "$@" >"$OUT/touchd-$name.log" 2>&1 &
  TOUCHD_PID=$!
  if ! wait_for 60 tctl status; then
    kill -0 "$TOUCHD_PID" 2>/dev/null || wait "$TOUCHD_PID" || note "touchd exited with $?"
    echo "touchd log:"
    tail -20 "$OUT/touchd-$name.log"
    fail "touchd did not answer status within 60 s"
    return
  fi
  log "touchd $name up, pid $TOUCHD_PID"
}

# stop_touchd: SIGTERM, then SIGKILL after 15 s; the exit status is in TOUCHD_RC (logged).
stop_touchd() {
  [[ -n ${TOUCHD_PID:-} ]] || return 0
  kill -TERM "$TOUCHD_PID" 2>/dev/null || true
  wait_for 15 exited "$TOUCHD_PID" || kill -KILL "$TOUCHD_PID" 2>/dev/null || true
  TOUCHD_RC=0
  wait "$TOUCHD_PID" 2>/dev/null || TOUCHD_RC=$?
  log "touchd $TOUCHD_PID stopped, exit status $TOUCHD_RC"
  TOUCHD_PID=""
}

# tctl ARGS...: touchctl against the current daemon's socket, quiet.
tctl() { "$BIN/touchctl" "$@" --socket "$SOCK" >/dev/null 2>&1; }

# subscribe FILE [TYPE...]: a `touchctl subscribe` client of the message types (default: action
# and touches) writing to FILE; waits until its subscription is acknowledged (so no message is
# missed); sets SUB_PID.
subscribe() {
  local file=$1 types=() type
  shift
  (($#)) || set -- action touches
  for type in "$@"; do types+=(--type "$type"); done
  "$BIN/touchctl" subscribe --socket "$SOCK" "${types[@]}" --verbose >"$file" 2>&1 &
  SUB_PID=$!
  wait_for 60 grep -q '"reply"' "$file" || { cat "$file"; fail "subscriber got no reply to its subscription"; }
}
# subscribe_raw FILE [TYPE...]: like subscribe, but a few lines of Python that write the socket's
# bytes to FILE as they come, without parsing them: a subscriber that keeps up with a flood under
# emulation, where touchctl subscribe falls behind and touchd disconnects it as slow.
subscribe_raw() {
  local file=$1 types
  shift
  (($#)) || set -- action touches
  types=$(printf '"%s",' "$@")
  $PY -u -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
with open(sys.argv[3], "wb", buffering=0) as out:
    while True:
        data = s.recv(1 << 20)
        if not data:
            break
        out.write(data)
' "$SOCK" "{\"cmd\":\"subscribe\",\"id\":1,\"types\":[${types%,}]}" "$file" &
  SUB_PID=$!
  wait_for 60 grep -q '"reply"' "$file" || { cat "$file"; fail "subscriber got no reply to its subscription"; }
}
stop_subscriber() {
  [[ -n ${SUB_PID:-} ]] || return 0
  kill "$SUB_PID" 2>/dev/null || true
  wait "$SUB_PID" 2>/dev/null || true
  SUB_PID=""
}

# touches_down: touchd's `touchesDown` (status reply): touches not yet ended or cancelled.
touches_down() {
  "$BIN/touchctl" status --json --socket "$SOCK" 2>/dev/null |
    $PY -c 'import json, sys; print(json.load(sys.stdin)["touchesDown"])'
}

# status_devices: the device paths in touchd's status, one a line (empty when it reads none).
status_devices() {
  "$BIN/touchctl" status --json --socket "$SOCK" 2>/dev/null |
    $PY -c 'import json, sys; print("\n".join(d["path"] for d in json.load(sys.stdin)["devices"]))'
}

# status_counter NAME: one of touchd's status counters (frames, actions, messages, ...).
status_counter() {
  "$BIN/touchctl" status --json --socket "$SOCK" 2>/dev/null |
    $PY -c 'import json, sys; print(json.load(sys.stdin)["counters"][sys.argv[1]])' "$1"
}

# --- devices --------------------------------------------------------------------------------------
# evemu_create ID FILE: evemu-device FILE in the background; sets NODE (also in $SCRATCH/ID.node).
# When the kernel refuses the device, evemu-device exits at once: its message is in
# $SCRATCH/evemu-ID.out and evemu_create returns 1 without waiting out the timeout.
evemu_create() {
  local id=$1 file=$2 out="$SCRATCH/evemu-$1.out" pid
  evemu-device "$file" >"$out" 2>&1 &
  pid=$!
  echo "$pid" >"$SCRATCH/evemu-$id.pid"
  created_or_exited() { grep -q '/dev/input/event' "$out" || exited "$pid"; }
  wait_for 30 created_or_exited
  grep -q '/dev/input/event' "$out" || {
    cat "$out"
    fail "evemu-device $file created no node: $(tr '\n' ' ' <"$out")"
    return
  }
  NODE=$(grep -o '/dev/input/event[0-9]*' "$out" | head -1)
  echo "$NODE" >"$SCRATCH/$id.node"
  udevadm settle -t 30 || true
}
evemu_remove() {
  local pid
  pid=$(cat "$SCRATCH/evemu-$1.pid" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$SCRATCH/evemu-$1.pid"
}

# A device description for the guest from a recording's N/I/P/B/A lines, with every axis's fuzz
# set to 0 (docs/vm-tests.md, "the description"): with fuzz, the kernel's input core would filter
# (average) positions a second time; the recordings were captured after that filter already ran on
# the real hardware. Nothing else changes: a recording without INPUT_PROP_DIRECT (evemu 1.1 wrote
# all-zero P: lines) stays without it, and udev classifies the device as it would the hardware.
unfuzzed_description() { # SRC DEST
  awk '/^E:/ { next }
       /^A:/ { $5 = 0 }
       { print }' "$1" >"$2"
}

# ui_start ID KIND [NAME [PHYS]]: a scripted uinput device (uinput.py) driven through a FIFO; sets NODE.
declare -A UI_FD UI_PID
ui_start() {
  local id=$1 fd
  shift
  rm -f "$SCRATCH/ui-$id.in"
  mkfifo "$SCRATCH/ui-$id.in"
  $PY "$VM/uinput.py" "$@" <"$SCRATCH/ui-$id.in" >"$SCRATCH/ui-$id.out" 2>&1 &
  UI_PID[$id]=$!
  exec {fd}>"$SCRATCH/ui-$id.in"
  UI_FD[$id]=$fd
  wait_for 30 grep -q '^created ' "$SCRATCH/ui-$id.out" || {
    cat "$SCRATCH/ui-$id.out"
    fail "uinput.py $* created no device"
    return
  }
  NODE=$(awk '/^created / { print $2; exit }' "$SCRATCH/ui-$id.out")
  udevadm settle -t 30 || true
}
# ui ID COMMAND...: sends one command and waits (up to 120 s) for its "ok"/"error" answer.
ui() {
  local id=$1 out="$SCRATCH/ui-$1.out" before
  shift
  before=$(grep -c '^\(ok\|error\) ' "$out" || true)
  echo "$*" >&"${UI_FD[$id]}"
  wait_for 120 bash -c "(( \$(grep -c '^\(ok\|error\) ' '$out') > $before ))" || fail "uinput $id: '$*' timed out"
  if tail -1 "$out" | grep -q '^error '; then fail "uinput $id: $(tail -1 "$out")"; fi
}
# ui_stop ID [KILL]: closes the device (quit), or with KILL kills the process at once (an unplug).
ui_stop() {
  local id=$1 pid=${UI_PID[$1]:-}
  [[ -n $pid ]] || return 0
  if [[ ${2:-} == KILL ]]; then kill -KILL "$pid" 2>/dev/null || true; else echo quit >&"${UI_FD[$id]}" || true; fi
  local fd=${UI_FD[$id]}
  exec {fd}>&- || true
  wait "$pid" 2>/dev/null || true
  unset "UI_PID[$id]"
}

# messages FILE TYPE KEY=VALUE...: counts JSON lines of TYPE whose keys equal the values (nested
# keys not supported; for touches messages `phase` is the call's phase).
messages() {
  local file=$1 type=$2
  shift 2
  $PY - "$file" "$type" "$@" <<'PY'
import json, sys
path, kind, conds = sys.argv[1], sys.argv[2], [c.split("=", 1) for c in sys.argv[3:]]
count = 0
for line in open(path):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("type") == kind and all(str(m.get(k)) == v for k, v in conds):
        count += 1
print(count)
PY
}
has_message() { (($(messages "$@") > 0)); }
