#!/bin/bash
# shellcheck disable=SC2317  # the check functions are called indirectly, through run_check
# The plain guest's checks (no systemd; runs as root under init-plain.sh, OUT=/run/vmout is the host's
# .build/vm/plain). udevd runs so discovery and hotplug work as on a real system; everything else
# is the project's binaries on real /dev/input nodes. See docs/vm-tests.md for what each proves.
set -uo pipefail # not -e: a failing check reports FAIL and the next one runs
# shellcheck source=scripts/vm/lib.sh
. "$(dirname "$0")/lib.sh"

SCENE="$VM/scenes/equivalence.yaml"
# The live == replay cases, written by the host (scripts/vm/recordings.sh): NAME RECORDING DESC ORDER.
mapfile -t RECORDINGS_LIST < "$OUT/recordings.list"
replay_checks=()
for line in "${RECORDINGS_LIST[@]}"; do replay_checks+=("live-equals-replay-${line%% *}"); done

plan guest-kernel-uinput devices-lists-touchscreens-only udev-classification ignore-rules-and-notices \
  "${replay_checks[@]}" hotplug-discovery hotplug-remove-cancels hotplug-readd ignores-non-touchscreens \
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

# --- udev and touchd classify alike ---------------------------------------------------------------
# Every bundled description (recordings, companion .desc files, touchpads, evemu-devices and
# evemu-data descriptions) becomes a uinput device at once; udevd classifies each, and
# `touchctl devices --json --all` reports touchd's copy of udev's rule (`touchdRule`) and its
# decision for each. They must agree: the pointer classes, and touchd takes exactly the devices
# udev tags ID_INPUT_TOUCHSCREEN=1. A description the kernel refuses is reported with its reason.
check_udev_classification() {
  local f i=0 id table="$SCRATCH/classify.table" refused=""
  : >"$table"
  for f in "$RECORDINGS"/*.evemu "$RECORDINGS"/*.desc "$RECORDINGS"/touchpad/*.evemu \
    "$RECORDINGS"/descriptions/evemu-devices/*.desc "$RECORDINGS"/descriptions/evemu-data/*.prop; do
    i=$((i + 1))
    id="cls$i"
    unfuzzed_description "$f" "$SCRATCH/$id.desc"
    if evemu_create "$id" "$SCRATCH/$id.desc" >/dev/null 2>&1; then
      udevadm info --query=property --name="$NODE" >"$SCRATCH/$id.udev"
      echo "$(basename "$f") $NODE $SCRATCH/$id.udev" >>"$table"
    else
      refused+=" $(basename "$f") ($(tr '\n' ' ' <"$SCRATCH/evemu-$id.out"));"
    fi
  done
  udevadm settle -t 60 || true
  "$BIN/touchctl" devices --json --all >"$SCRATCH/classify.json" 2>"$SCRATCH/classify.err" || {
    cat "$SCRATCH/classify.err"
    fail "touchctl devices --json --all failed"
    return
  }
  "$BIN/touchctl" devices
  $PY - "$table" "$SCRATCH/classify.json" <<'PY'
import json, sys
POINTER = {"TOUCHSCREEN": "touchscreen", "TOUCHPAD": "touchpad", "TABLET": "tablet", "MOUSE": "mouse",
           "JOYSTICK": "joystick", "ACCELEROMETER": "accelerometer", "POINTINGSTICK": "pointing stick"}
reports = {r["path"]: r for r in json.load(open(sys.argv[2]))}
bad = []
for line in open(sys.argv[1]):
    name, node, props = line.split()
    udev = dict(l.strip().split("=", 1) for l in open(props) if "=" in l)
    classes = {v for k, v in POINTER.items() if udev.get("ID_INPUT_" + k) == "1"}
    r = reports.get(node)
    if r is None:
        bad.append(f"{name}: {node} not listed by touchctl devices")
        continue
    rule = set() if r.get("touchdRule") in (None, "none") else set(r["touchdRule"].split("+"))
    rule &= set(POINTER.values())
    udev_touch = udev.get("ID_INPUT_TOUCHSCREEN") == "1"
    verdict = "taken" if r["touchscreen"] else "not taken"
    print(f"{name:70} udev {'+'.join(sorted(classes)) or 'none':22} rule {'+'.join(sorted(rule)) or 'none':22} "
          f"{verdict} ({r['decidedBy']})")
    if rule != classes:
        bad.append(f"{name}: udev {sorted(classes)} but touchd's rule {sorted(rule)}")
    if r["touchscreen"] != udev_touch or r["decidedBy"] != "udev":
        bad.append(f"{name}: ID_INPUT_TOUCHSCREEN={int(udev_touch)} but touchd {verdict} by {r['decidedBy']}")
for b in bad:
    print("DIFFERENT:", b)
sys.exit(1 if bad else 0)
PY
  local rc=$? count
  count=$(wc -l <"$table")
  for ((j = 1; j <= i; j++)); do evemu_remove "cls$j"; done
  ((rc == 0)) || { fail "touchd's rule and udev differ (see DIFFERENT lines)"; return; }
  [[ -z $refused ]] || { skip "$count descriptions agree; the kernel refused:$refused"; return; }
  note "udev and touchd agree on all $count descriptions"
}

# --- TOUCHD_IGNORE, local rules, touchd's own devices, notices ---------------------------------------
# docs/operations.md's worked examples as local rules in /run/udev/rules.d (the root is read-only):
# one gives a touchscreen to another program (TOUCHD_IGNORE=1), one makes the recorded Synaptics
# touchpad a touchscreen (a rule after udev's input_id). A device whose phys starts with touchd/ is
# one touchd made itself. Started with no other touchscreen, touchd must take none, say so at
# notice level with each reason, then take the touchpad when udev's change event brings the rule,
# and let it go when the rule is gone.
check_ignore_rules() {
  need_daemon || return
  mkdir -p /run/udev/rules.d
  cat >/run/udev/rules.d/61-touchd-vm.rules <<'RULES'
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="touchd VM ignored", ENV{TOUCHD_IGNORE}="1"
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Synaptics TM3276-022", ENV{TOUCHD_VM_PROMOTE}=="1", ENV{ID_INPUT_TOUCHPAD}="0", ENV{ID_INPUT_TOUCHSCREEN}="1"
RULES
  udevadm control --reload
  ui_start ign touchscreen "touchd VM ignored" || return
  local ign=$NODE own pad log="$OUT/touchd-ignore.log" bad=""
  ui_start own touchscreen "touchd VM own" "touchd/vm-own" || return
  own=$NODE
  unfuzzed_description "$RECORDINGS/touchpad/synaptics-tm3276-thinkpad-t480-2finger-swipe-left.evemu" "$SCRATCH/touchpad.desc"
  evemu_create pad3 "$SCRATCH/touchpad.desc" || return
  pad=$NODE
  udevadm info --query=property --name="$ign" | grep -qx 'TOUCHD_IGNORE=1' || bad+=" the rule did not set TOUCHD_IGNORE=1 on $ign;"
  start_touchd ignore "$SCENE" || return
  "$BIN/touchctl" devices
  [[ $(status_devices) == "" ]] || bad+=" status lists devices: $(status_devices);"
  grep "notice: touch device not taken.*decidedBy=TOUCHD_IGNORE.*device.path=$ign " "$log" >/dev/null || bad+=" no notice for the ignored $ign;"
  grep "notice: touch device not taken.*decidedBy=udev.*device.path=$pad .*remedy=a udev rule that sets ENV{ID_INPUT_TOUCHSCREEN}" "$log" >/dev/null || bad+=" no notice (with the remedy) for the touchpad $pad;"
  grep -q "notice: no touchscreen taken" "$log" || bad+=" no 'no touchscreen taken' notice;"
  grep "notice: .*device.path=$own " "$log" >/dev/null && bad+=" a notice for touchd's own device $own;"
  "$BIN/touchctl" devices --json --all >"$SCRATCH/ignore-devices.json"
  $PY - "$SCRATCH/ignore-devices.json" "$ign" "$own" "$pad" <<'PY' || bad+=" touchctl devices decisions differ;"
import json, sys
want = {sys.argv[2]: "TOUCHD_IGNORE", sys.argv[3]: "own-device", sys.argv[4]: "udev"}
reports = {r["path"]: r for r in json.load(open(sys.argv[1]))}
ok = True
for path, source in want.items():
    r = reports[path]
    print(path, r["decidedBy"], r["touchscreen"], r["reason"])
    ok &= r["decidedBy"] == source and not r["touchscreen"]
sys.exit(0 if ok else 1)
PY
  # The local rule turns the touchpad into a touchscreen: on udev's change event touchd takes it;
  # without the rule, on the next change, it lets it go again.
  cat >/run/udev/rules.d/60-touchd-vm-promote.rules <<'RULES'
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Synaptics TM3276-022", ENV{TOUCHD_VM_PROMOTE}="1"
RULES
  udevadm control --reload
  udevadm trigger --action=change "$(udevadm info --query=path --name="$pad" | sed 's|^|/sys|')"
  udevadm settle -t 30 || true
  udevadm info --query=property --name="$pad" | grep -qx 'ID_INPUT_TOUCHSCREEN=1' || bad+=" the local rule did not make $pad a touchscreen;"
  wait_for 30 opens "$TOUCHD_PID" "$pad" || bad+=" touchd did not take $pad after the change event (a touchscreen by a local rule);"
  rm -f /run/udev/rules.d/60-touchd-vm-promote.rules
  udevadm control --reload
  udevadm trigger --action=change "$(udevadm info --query=path --name="$pad" | sed 's|^|/sys|')"
  udevadm settle -t 30 || true
  not_open() { ! opens "$TOUCHD_PID" "$pad"; }
  wait_for 30 not_open || bad+=" touchd kept $pad after the rule was removed;"
  grep -q "notice: touchscreen no longer taken.*device.path=$pad " "$log" || bad+=" no notice when $pad was let go;"
  # The shipped rule marks touchd's own devices (phys touchd/...) TOUCHD_IGNORE=1.
  cp "$ROOT/systemd/70-touchd.rules" /run/udev/rules.d/
  udevadm control --reload
  udevadm trigger --action=change "$(udevadm info --query=path --name="$own" | sed 's|^|/sys|')"
  udevadm settle -t 30 || true
  udevadm info --query=property --name="$own" | grep -qx 'TOUCHD_IGNORE=1' || bad+=" 70-touchd.rules did not set TOUCHD_IGNORE=1 on $own (phys touchd/);"
  rm -f /run/udev/rules.d/61-touchd-vm.rules /run/udev/rules.d/60-touchd-vm-promote.rules /run/udev/rules.d/70-touchd.rules
  udevadm control --reload
  evemu_remove pad3
  ui_stop ign
  ui_stop own
  stop_touchd
  [[ -z $bad ]] || { fail "$bad"; return; }
  note "ignored $ign (TOUCHD_IGNORE), own $own (phys touchd/), touchpad $pad noticed with its remedy, taken and let go as a local rule came and went"
}

# --- live == replay -------------------------------------------------------------------------------
# live_equals_replay NAME RECORDING DESC ORDER: the recording's device is created (fuzz 0) with
# udevd running, touchd starts before it (daemon-first: hotplug) or after it (device-first:
# enumeration), evemu-play plays the events in real time, and a subscriber's messages must equal
# the host's `touchctl replay --scene` (compare.py: minus time/seq/velocity, touch ids by first
# appearance). A device the kernel refuses to create is skipped with the kernel's reason.
live_equals_replay() {
  local name=$1 recording=$2 desc=$3 order=$4
  local live="$OUT/live-$name.jsonl" # (a separate `local`: its words expand before any assignment)
  need_daemon || return
  [[ -s $EXPECTED/$name.jsonl ]] || fail "no host replay ($(cat "$EXPECTED/$name.err" 2>/dev/null))" || return
  [[ $desc == - ]] && desc=$recording
  unfuzzed_description "$desc" "$SCRATCH/$name.desc"
  grep '^E:' "$recording" >"$SCRATCH/$name.events"
  if [[ $order == daemon-first ]]; then start_touchd "$name" "$SCENE" || return; fi
  evemu_create "$name" "$SCRATCH/$name.desc" || {
    stop_touchd
    skip "the kernel refused the device: $(tr '\n' ' ' <"$SCRATCH/evemu-$name.out")"
    return
  }
  local node=$NODE
  if [[ $order == device-first ]]; then start_touchd "$name" "$SCENE" || { evemu_remove "$name"; return 1; }; fi
  log "udev: $(udevadm info --query=property --name="$node" | grep '^ID_INPUT_' | tr '\n' ' ')"
  wait_for 60 opens "$TOUCHD_PID" "$node" || {
    grep -a "$node" "$OUT/touchd-$name.log"
    evemu_remove "$name"
    stop_touchd
    fail "touchd did not open $node ($order)"
    return
  }
  subscribe "$live" || { evemu_remove "$name"; stop_touchd; return 1; }
  log "playing $(wc -l <"$SCRATCH/$name.events") events into $node ($order)"
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
  note "$order; $(head -1 "$OUT/diff-$name.txt"); frames live $frames, replay $(cat "$EXPECTED/$name.frames")"
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
run_check udev-classification check_udev_classification
run_check ignore-rules-and-notices check_ignore_rules
stop_touchd
differing=()
for line in "${RECORDINGS_LIST[@]}"; do
  read -r name recording desc order <<<"$line"
  run_check "live-equals-replay-$name" live_equals_replay "$name" "$recording" "$desc" "$order"
  ((LAST_CHECK_RC == 0)) || differing+=("$name")
  stop_subscriber
  stop_touchd
done
log "live == replay: ${#RECORDINGS_LIST[@]} cases; not equal (or skipped): ${differing[*]:-none}"
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
