#!/bin/bash
# shellcheck disable=SC2317  # the check functions are called indirectly, through run_check
# The plain guest's checks (no systemd; runs as root under init-plain.sh, OUT=/run/vmout is the host's
# .build/vm/plain). udevd runs so discovery and hotplug work as on a real system; everything else
# is the project's binaries on real /dev/input nodes. See docs/vm-tests.md for what each proves.
set -uo pipefail # not -e: a failing check reports FAIL and the next one runs
# shellcheck source=scripts/vm/lib.sh
. "$(dirname "$0")/lib.sh"

SCENE="$VM/scenes/equivalence.yaml"
mapfile -t RECORDINGS_LIST < <(grep -v '^\s*\(#\|$\)' "$VM/recordings.list")
replay_checks=()
for line in "${RECORDINGS_LIST[@]}"; do replay_checks+=("live-equals-replay-${line%% *}"); done

plan guest-kernel-uinput devices-lists-touchscreens-only "${replay_checks[@]}" \
  hotplug-discovery hotplug-remove-cancels hotplug-readd ignores-non-touchscreens \
  syn-dropped-resync latency

# --- the guest itself: uinput, evdev, udevd --------------------------------------------------------
check_kernel() {
  log "kernel $(uname -r), pid 1 $(cat /proc/1/comm)"
  modprobe uinput || fail "modprobe uinput failed" || return
  modprobe evdev 2>/dev/null || true # built in on Debian; harmless otherwise
  [[ -c /dev/uinput ]] || fail "no /dev/uinput" || return
  # udevd: ID_INPUT_* properties for discovery, and the netlink events touchd's hotplug listens to.
  /lib/systemd/systemd-udevd --daemon || fail "systemd-udevd did not start" || return
  udevadm trigger --action=add --subsystem-match=input >/dev/null 2>&1
  udevadm settle -t 60 || true
  log "udevd up"
  ui_start probe touchscreen "touchd VM probe" || return
  local touchscreen
  touchscreen=$(udevadm info --query=property --name="$NODE" | grep '^ID_INPUT_TOUCHSCREEN=')
  ui_stop probe
  [[ $touchscreen == ID_INPUT_TOUCHSCREEN=1 ]] || fail "udev did not tag $NODE ID_INPUT_TOUCHSCREEN=1" || return
  note "kernel $(uname -r), uinput + udevd up, $NODE tagged ID_INPUT_TOUCHSCREEN=1"
}

# --- touchctl devices: touchscreens only ----------------------------------------------------------
# A protocol-B touchscreen, a keyboard and a touchpad (a recorded Synaptics) are plugged in; only
# the touchscreen is listed, the others appear under --all with a reason.
check_devices() {
  ui_start ts touchscreen "touchd VM touchscreen" || return
  local ts=$NODE kbd pad listing
  ui_start kbd keyboard || return
  kbd=$NODE
  unfuzzed_description "$RECORDINGS/touchpad/synaptics-tm3276-thinkpad-t480-2finger-swipe-left.evemu" "$SCRATCH/touchpad.desc"
  evemu_create touchpad "$SCRATCH/touchpad.desc" || return
  pad=$NODE
  listing=$("$BIN/touchctl" devices --json) || fail "touchctl devices --json failed" || return
  echo "$listing"
  "$BIN/touchctl" devices --all
  # The JSON escapes slashes ("\/dev\/input"): read it as JSON, one listed path a line.
  listing=$($PY -c 'import json, sys; print("\n".join(d["path"] for d in json.load(sys.stdin)))' <<<"$listing")
  local bad=""
  grep -qx "$ts" <<<"$listing" || bad+=" touchscreen $ts missing;"
  grep -qx "$kbd" <<<"$listing" && bad+=" keyboard $kbd listed;"
  grep -qx "$pad" <<<"$listing" && bad+=" touchpad $pad listed;"
  ui_stop ts
  ui_stop kbd
  evemu_remove touchpad
  [[ -z $bad ]] || fail "$bad" || return
  note "lists $ts; not the keyboard $kbd nor the touchpad $pad"
}

# --- live == replay -------------------------------------------------------------------------------
# live_equals_replay NAME RECORDING DESC: the recording's device is created (fuzz 0), touchd starts
# on it, evemu-play plays the events in real time, and a subscriber's messages must equal the host's
# `touchctl replay --scene` (compare.py: minus time/seq/velocity, touch ids by first appearance).
live_equals_replay() {
  local name=$1 recording=$2 desc=$3
  local live="$OUT/live-$name.jsonl" # (a separate `local`: its words expand before any assignment)
  need_daemon || return
  [[ -s $EXPECTED/$name.jsonl ]] || fail "no host replay ($(cat "$EXPECTED/$name.err" 2>/dev/null))" || return
  [[ $desc == - ]] && desc=$recording
  unfuzzed_description "$desc" "$SCRATCH/$name.desc"
  grep '^E:' "$recording" >"$SCRATCH/$name.events"
  start_touchd "$name" "$SCENE" || return
  evemu_create "$name" "$SCRATCH/$name.desc" || { stop_touchd; return 1; }
  local node=$NODE
  wait_for 60 opens "$TOUCHD_PID" "$node" || { evemu_remove "$name"; stop_touchd; fail "touchd did not open $node"; return; }
  subscribe "$live" || { evemu_remove "$name"; stop_touchd; return 1; }
  log "playing $(wc -l <"$SCRATCH/$name.events") events into $node"
  timeout 180 evemu-play "$node" <"$SCRATCH/$name.events" || note "evemu-play exited $?"
  sleep 1.5 # timers after the last frame (multi-tap interval) run out, as in replay
  # Frames touchd assembled vs the replay's: fewer means frames were lost (e.g. a SYN_DROPPED
  # resync after touchd fell behind), more means the kernel passed frames the file does not have.
  local frames
  frames=$(status_counter frames)
  echo "frames: live $frames, replay $(cat "$EXPECTED/$name.frames")"
  # Unplugging ends the run the way replay's end of recording does: touches still down are cancelled.
  evemu_remove "$name"
  sleep 1
  stop_subscriber
  stop_touchd
  $PY "$VM/compare.py" "$EXPECTED/$name.jsonl" "$live" >"$OUT/diff-$name.txt"
  local rc=$?
  head -60 "$OUT/diff-$name.txt"
  note "$(head -1 "$OUT/diff-$name.txt"); frames live $frames, replay $(cat "$EXPECTED/$name.frames")"
  return "$rc"
}

# --- discovery and hotplug ------------------------------------------------------------------------
# One touchd for the three hotplug checks: started before any touchscreen exists.
HOT="$OUT/hotplug.jsonl"
check_hotplug_discovery() {
  need_daemon || return
  start_touchd hotplug "$SCENE" || return
  subscribe "$HOT" || return
  ui_start hot touchscreen "touchd VM hotplug" || return
  wait_for 60 opens "$TOUCHD_PID" "$NODE" || fail "touchd did not open $NODE after it appeared" || return
  ui hot tap 960 540 || return
  wait_for 30 has_message "$HOT" action action=tap state=ended || fail "no tap action from the hotplugged device" || return
  note "touchd opened $NODE when it appeared; tap recognized"
}

check_hotplug_remove() {
  need_daemon || return
  [[ -n ${UI_PID[hot]:-} ]] || fail "no hotplugged device (previous check failed)" || return
  local node=$NODE
  ui hot down 300 300 || return
  for x in 340 380 420 460 500; do ui hot move "$x" 300 || return; done
  wait_for 30 has_message "$HOT" action action=pan state=began || fail "pan did not begin before the unplug" || return
  ui_stop hot KILL # the device disappears with a finger down
  wait_for 30 has_message "$HOT" touches phase=cancelled || fail "touches not cancelled after the unplug" || return
  wait_for 30 has_message "$HOT" action action=pan state=cancelled || fail "pan not cancelled after the unplug" || return
  wait_for 30 bash -c "! [[ -e $node ]]" || true
  opens "$TOUCHD_PID" "$node" && { fail "touchd still holds $node"; return; }
  note "unplug mid-pan: touches cancelled, pan cancelled, $node closed"
}

check_hotplug_readd() {
  need_daemon || return
  local taps_before
  taps_before=$(messages "$HOT" action action=tap state=ended)
  ui_start hot2 touchscreen "touchd VM hotplug again" || return
  wait_for 60 opens "$TOUCHD_PID" "$NODE" || fail "touchd did not open the re-added $NODE" || return
  ui hot2 tap 960 540 || return
  more_taps() { (($(messages "$HOT" action action=tap state=ended) > taps_before)); }
  wait_for 30 more_taps || fail "no tap from the re-added device" || return
  ui hot2 pan 200 200 800 200 20 || return
  wait_for 30 has_message "$HOT" action action=pan state=ended || fail "no pan ended from the re-added device" || return
  note "re-added as $NODE: tap and pan recognized"
}

# Non-touchscreens plugged in while touchd runs: it must not keep them open nor list them in status.
check_ignores() {
  need_daemon || return
  [[ -n ${TOUCHD_PID:-} ]] || fail "no hotplug touchd (earlier check failed)" || return
  ui_start kbd2 keyboard || return
  local kbd=$NODE pad
  evemu_create touchpad2 "$SCRATCH/touchpad.desc" || return
  pad=$NODE
  sleep 3 # give touchd time to (wrongly) open them; udev's add events have been sent by now
  local status bad=""
  status=$("$BIN/touchctl" status --json --socket "$SOCK")
  echo "$status"
  opens "$TOUCHD_PID" "$kbd" && bad+=" keyboard $kbd open;"
  opens "$TOUCHD_PID" "$pad" && bad+=" touchpad $pad open;"
  status=$($PY -c 'import json, sys; print("\n".join(d.get("path", "") for d in json.load(sys.stdin).get("devices", [])))' <<<"$status")
  grep -qx "$kbd" <<<"$status" && bad+=" keyboard in status;"
  grep -qx "$pad" <<<"$status" && bad+=" touchpad in status;"
  ui_stop kbd2
  evemu_remove touchpad2
  [[ -z $bad ]] || fail "$bad" || return
  note "keyboard $kbd and touchpad $pad neither opened nor in status"
}

# --- SYN_DROPPED -----------------------------------------------------------------------------------
# touchd is stopped (SIGSTOP) while thousands of frames are written, so the kernel's per-client
# buffer overflows and the next read returns SYN_DROPPED; libevdev's sync must bring the touches
# back to the device state (all fingers up): nothing stuck, and later gestures work.
check_syn_dropped() {
  need_daemon || return
  local file="$OUT/syn-dropped.jsonl" witness
  start_touchd syn "$SCENE" || return
  subscribe "$file" || return
  ui_start syn touchscreen "touchd VM flood" || return
  wait_for 60 opens "$TOUCHD_PID" "$NODE" || fail "touchd did not open $NODE" || return
  # The witness: a plain libevdev reader stopped alongside touchd proves the buffer overflowed.
  "$TOOLS/evforward" --count "$NODE" 600 >"$SCRATCH/witness.out" 2>&1 &
  witness=$!
  wait_for 30 grep -q READY "$SCRATCH/witness.out" || fail "evforward --count did not start" || return
  kill -STOP "$TOUCHD_PID" "$witness"
  ui syn flood 3000 || { kill -CONT "$TOUCHD_PID" "$witness"; return 1; }
  kill -CONT "$TOUCHD_PID" "$witness"
  sleep 3
  kill -TERM "$witness"
  wait "$witness"
  cat "$SCRATCH/witness.out"
  grep -q 'drops=[1-9]' "$SCRATCH/witness.out" || fail "the flood did not overflow the evdev buffer ($(tail -1 "$SCRATCH/witness.out"))" || return
  local down
  no_touches_down() { [[ $(touches_down) == 0 ]]; }
  wait_for 30 no_touches_down || fail "touches still down after the resync: $(touches_down)" || return
  down=$(touches_down)
  # Every touch that began also ended or was cancelled, in touchd's own messages.
  $PY - "$file" <<'PY' || { fail "a touch began and never ended in the message stream"; return; }
import json, sys
last = {}
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("type") == "touches":
        for t in m["touches"]:
            last[t["id"]] = t["phase"]
stuck = [i for i, p in last.items() if p not in ("ended", "cancelled")]
print(f"{len(last)} touches, stuck: {stuck}")
sys.exit(1 if stuck else 0)
PY
  ui syn tap 960 540 || return
  wait_for 30 has_message "$file" action action=tap state=ended || fail "no tap after the resync" || return
  ui syn pan 200 600 900 600 20 || return
  wait_for 30 has_message "$file" action action=pan state=ended || fail "no pan after the resync" || return
  grep -ai 'drop\|sync' "$OUT/touchd-syn.log" | head -5
  ui_stop syn
  stop_subscriber
  stop_touchd
  note "$(tail -1 "$SCRATCH/witness.out"); touchd: $down touches down after resync, tap and pan recognized"
}

# --- latency ---------------------------------------------------------------------------------------
# Kernel frame timestamp -> subscriber's receipt (both CLOCK_MONOTONIC), touchd vs evforward (a
# minimal libevdev reader writing each frame to a socket), same device, same stream, one at a time.
LATENCY_FRAMES=200
check_latency() {
  need_daemon || return
  local lat_touchd lat_base
  ui_start lat touchscreen "touchd VM latency" || return
  start_touchd lat "$SCENE" || return
  wait_for 60 opens "$TOUCHD_PID" "$NODE" || fail "touchd did not open $NODE" || return
  $PY "$VM/latency.py" "$SOCK" "$LATENCY_FRAMES" 120 --subscribe >"$SCRATCH/lat-touchd.json" 2>"$SCRATCH/lat-touchd.err" &
  local sub=$!
  wait_for 30 grep -q READY "$SCRATCH/lat-touchd.err" || fail "latency subscriber not ready" || return
  ui lat stream "$LATENCY_FRAMES" 20 || return
  wait "$sub"
  stop_touchd
  lat_touchd=$(cat "$SCRATCH/lat-touchd.json")
  "$TOOLS/evforward" "$NODE" "$SCRATCH/evforward.sock" >"$SCRATCH/evforward.out" 2>&1 &
  local fwd=$!
  wait_for 30 grep -q READY "$SCRATCH/evforward.out" || fail "evforward not ready" || return
  $PY "$VM/latency.py" "$SCRATCH/evforward.sock" "$LATENCY_FRAMES" 120 >"$SCRATCH/lat-base.json" 2>"$SCRATCH/lat-base.err" &
  sub=$!
  wait_for 30 grep -q READY "$SCRATCH/lat-base.err" || fail "baseline subscriber not ready" || return
  ui lat stream "$LATENCY_FRAMES" 20 || return
  wait "$sub"
  kill "$fwd" 2>/dev/null
  ui_stop lat
  lat_base=$(cat "$SCRATCH/lat-base.json")
  echo "touchd: $lat_touchd"
  echo "evforward: $lat_base"
  $PY - "$lat_touchd" "$lat_base" "$OUT/latency.json" <<'PY'
import json, sys
t, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if t.get("samples", 0) < 100 or b.get("samples", 0) < 100:
    print(f"NOTE: too few samples: touchd {t.get('samples')}, evforward {b.get('samples')}")
    sys.exit(1)
ratio = t["median_ms"] / b["median_ms"]
json.dump({"touchd": t, "evforward": b, "ratio": round(ratio, 2)}, open(sys.argv[3], "w"))
print(f"NOTE: median touchd {t['median_ms']} ms, evforward {b['median_ms']} ms, ratio {ratio:.2f} "
      f"(p90 {t['p90_ms']} / {b['p90_ms']} ms; TCG)")
PY
}

# --- run ------------------------------------------------------------------------------------------
run_check guest-kernel-uinput check_kernel
run_check devices-lists-touchscreens-only check_devices
for line in "${RECORDINGS_LIST[@]}"; do
  read -r name recording desc <<<"$line"
  run_check "live-equals-replay-$name" live_equals_replay "$name" "$recording" "$desc"
done
run_check hotplug-discovery check_hotplug_discovery
run_check hotplug-remove-cancels check_hotplug_remove
run_check hotplug-readd check_hotplug_readd
run_check ignores-non-touchscreens check_ignores
ui_stop hot2
stop_subscriber
stop_touchd
run_check syn-dropped-resync check_syn_dropped
stop_subscriber
stop_touchd
run_check latency check_latency
stop_touchd
log "plain guest done"
exit 0
