# shellcheck shell=bash
# shellcheck disable=SC2317  # the check functions are called indirectly, through run_check
# The plain guest's forwarding checks (issue #25, docs/forward.md), sourced by guest-plain.sh: touchd
# grabs a uinput touchscreen, runs config/kiosk-forward.yaml's recognizers, and forwards what they
# do not claim to its virtual touchscreen, which libinput reads as a compositor would.

FORWARD_SCENE="$ROOT/config/kiosk-forward.yaml"
FORWARD_NAME="Kiosk touchscreen" # the scene's forward.name

# forward_node: the virtual node touchd reports in status (devices[0].forward.node), empty if none.
forward_node() {
  "$BIN/touchctl" status --json --socket "$SOCK" 2>/dev/null |
    $PY -c 'import json, sys
d = [x for x in json.load(sys.stdin)["devices"] if x.get("forward")]
print(d[0]["forward"]["node"] if d else "")'
}
# forward_status KEY: a field of devices[0] in touchd's status (grabbed), or of its forward object.
forward_status() {
  "$BIN/touchctl" status --json --socket "$SOCK" 2>/dev/null |
    $PY -c 'import json, sys
d = json.load(sys.stdin)["devices"][0]
k = sys.argv[1]
print(json.dumps(d[k] if k in d else (d.get("forward") or {}).get(k)))' "$1"
}
# li_at LOG WHICH X Y: whether the first (WHICH=head) or last (tail) TOUCH_DOWN in a libinput
# debug-events log is within 0.15 mm of (X, Y) mm (one device unit either way: 10 units/mm).
li_at() {
  grep 'TOUCH_DOWN' "$1" | "$2" -1 | $PY -c 'import re, sys
m = re.search(r"\(\s*([0-9.]+)/\s*([0-9.]+)mm\)", sys.stdin.read())
sys.exit(0 if m and abs(float(m[1]) - float(sys.argv[1])) <= 0.15 and abs(float(m[2]) - float(sys.argv[2])) <= 0.15 else 1)' "$3" "$4"
}
# input_id NODE: the kernel's input device behind an event node (input42): never reused, unlike
# the node's number, which a device created after another's removal may take again.
input_id() { basename "$(readlink -f "/sys/class/input/$(basename "$1")/device")"; }
# li_count LOG PATTERN: how many lines of a libinput debug-events log match PATTERN.
li_count() { grep -c "$2" "$1" || true; }
# li_touches LOG: how many touch events it has (down, up, cancel, motion; frames not counted).
li_touches() { li_count "$1" 'TOUCH_\(DOWN\|UP\|CANCEL\|MOTION\)'; }
have_forward_node() { [[ -n $(forward_node) && -c $(forward_node) ]]; }

# start_forwarding NAME: a uinput touchscreen (ui id fw) and touchd on the kiosk-forward scene; waits
# for the virtual node (VNODE) and for udev to settle.
start_forwarding() {
  ui_start fw touchscreen "touchd VM forwarded panel" || return
  PNODE=$NODE
  start_touchd "$1" "$FORWARD_SCENE" || return
  wait_for 60 have_forward_node || {
    tail -20 "$OUT/touchd-$1.log"
    fail "touchd reports no virtual touchscreen within 60 s"
    return
  }
  VNODE=$(forward_node)
  udevadm settle -t 30 || true
  log "physical $PNODE, virtual $VNODE"
}
stop_forwarding() {
  [[ -n ${WITNESS:-} ]] && { kill -TERM "$WITNESS" 2>/dev/null; wait "$WITNESS" 2>/dev/null; WITNESS=""; }
  pkill -f 'libinput debug-events --device' 2>/dev/null || true
  stop_touchd
  ui_stop fw
}

# witness SECONDS: a second plain libevdev reader of the physical node (evforward --count) in the
# background; `witness_result` stops it and prints its "frames=N drops=D touches_down=T" line.
witness() {
  "$TOOLS/evforward" --count "$PNODE" "$1" >"$SCRATCH/fw-witness.out" 2>&1 &
  WITNESS=$!
  wait_for 30 grep -q READY "$SCRATCH/fw-witness.out" || fail "evforward --count did not start"
}
witness_result() {
  kill -TERM "$WITNESS" 2>/dev/null
  wait "$WITNESS" 2>/dev/null
  tail -1 "$SCRATCH/fw-witness.out"
}

# --- the grab and the virtual device --------------------------------------------------------------
# The physical node is grabbed: a second reader gets nothing of a tap while touchd holds it. The
# virtual node exists with the scene's name, INPUT_PROP_DIRECT and a touchd/ phys, udev tags it a
# touchscreen, touchd does not open it, and status counts the tap as forwarded.
check_forward_grab() {
  need_daemon || return
  command -v libinput >/dev/null || skip "libinput (libinput-tools) is not installed" || return
  # A copy of the scene, which the second reload below changes.
  local scene=$SCRATCH/fwgrab.yaml
  cp "$FORWARD_SCENE" "$scene"
  FORWARD_SCENE=$scene start_forwarding fwgrab || return
  [[ $(forward_status grabbed) == true ]] || fail "status: the physical device is not grabbed" || return
  opens "$TOUCHD_PID" "$VNODE" && { fail "touchd opened its own virtual node $VNODE"; return; }
  local sys props phys name
  sys=/sys/class/input/$(basename "$VNODE")/device
  name=$(cat "$sys/name")
  phys=$(cat "$sys/phys")
  props=$(cat "$sys/properties")
  [[ $name == "$FORWARD_NAME" ]] || fail "virtual device named '$name', not '$FORWARD_NAME'" || return
  [[ $phys == touchd/* ]] || fail "virtual device phys '$phys' does not start with touchd/" || return
  (((16#$props & 2) != 0)) || fail "virtual device lacks INPUT_PROP_DIRECT (properties $props)" || return
  udevadm info --query=property --name="$VNODE" | grep -q '^ID_INPUT_TOUCHSCREEN=1' ||
    fail "udev does not tag $VNODE ID_INPUT_TOUCHSCREEN=1" || return
  witness 120 || return
  ui fw tap 960 540 || return
  sleep 1
  local seen
  seen=$(witness_result)
  echo "second reader of $PNODE: $seen"
  [[ $seen == frames=0\ * ]] || fail "a second reader of the grabbed $PNODE got events: $seen" || return
  forwarded() { [[ $(forward_status forwarded) == 1 ]]; }
  wait_for 30 forwarded || fail "status forward.forwarded is $(forward_status forwarded), not 1" || return
  "$BIN/touchctl" status --socket "$SOCK" | grep -i -A2 forward | head -5
  # A reload (SIGHUP) of the same scene keeps the virtual touchscreen: the same node (udev saw no
  # remove, libinput no DEVICE_REMOVED), the panel still grabbed. A finger down through the reload
  # is cancelled on it (TOUCH_CANCEL) and then ignored until it lifts: its move and lift reach
  # nothing. The new scene's counters start at 0 and count the next tap alone.
  local kept=$VNODE kept_id reloaded log="$SCRATCH/fwgrab-libinput.log" li
  kept_id=$(input_id "$kept")
  udevadm monitor --kernel --subsystem-match=input >"$SCRATCH/fwgrab-udev.log" 2>&1 &
  local monitor=$!
  stdbuf -oL libinput debug-events --device "$kept" >"$log" 2>&1 &
  li=$!
  wait_for 60 grep -q 'DEVICE_ADDED' "$log" || { cat "$log"; fail "libinput debug-events did not open $kept"; return; }
  ui fw down 960 540 || return
  down() { (($(li_count "$log" TOUCH_DOWN) == 1)); }
  wait_for 30 down || { cat "$log"; fail "libinput saw no TOUCH_DOWN of the finger held through the reload"; return; }
  kill -HUP "$TOUCHD_PID"
  reloaded() { [[ $(forward_status forwarded) == 0 ]]; }
  wait_for 30 reloaded || fail "forward.forwarded still $(forward_status forwarded) after the reload" || return
  [[ $(forward_node) == "$kept" && -c $kept && $(input_id "$kept") == "$kept_id" ]] ||
    fail "the reload replaced the virtual touchscreen $kept ($kept_id) by '$(forward_node)'" || return
  [[ $(forward_status grabbed) == true ]] || fail "the panel is not grabbed after the reload" || return
  held_cancelled() { (($(li_count "$log" TOUCH_CANCEL) == 1)); }
  wait_for 30 held_cancelled || { cat "$log"; fail "the finger held through the reload was not cancelled"; return; }
  ui fw move 1000 580 || return
  ui fw up || return
  sleep 1
  (($(li_touches "$log") == 2 && $(touches_down) == 0)) ||
    { cat "$log"; fail "the held finger's move and lift after the reload reached libinput or touchd"; return; }
  ui fw tap 960 540 || return
  wait_for 30 forwarded || fail "after the reload, forward.forwarded is $(forward_status forwarded), not 1" || return
  tapped() { (($(li_count "$log" TOUCH_UP) == 1)); }
  wait_for 30 tapped || { cat "$log"; fail "libinput saw no TOUCH_UP of the tap after the reload"; return; }
  kill "$li" "$monitor" 2>/dev/null
  wait "$li" "$monitor" 2>/dev/null
  ! grep -q DEVICE_REMOVED "$log" || fail "libinput saw $kept removed during the reload" || return
  ! grep -q "remove.*/$kept_id\b" "$SCRATCH/fwgrab-udev.log" ||
    fail "udev saw $kept_id removed during the reload: $(grep remove "$SCRATCH/fwgrab-udev.log" | head -3)" || return
  # A reload that renames the virtual touchscreen (forward.name) replaces it: the old node goes,
  # a new one comes with the new name, the panel grabbed again, a tap forwarded again.
  sed -i "s/name: \"$FORWARD_NAME\"/name: \"$FORWARD_NAME 2\"/" "$scene"
  grep -q "\"$FORWARD_NAME 2\"" "$scene" || fail "could not rename forward.name in $scene" || return
  kill -HUP "$TOUCHD_PID"
  replaced() { [[ -n $(forward_node) && -c $(forward_node) && $(input_id "$(forward_node)") != "$kept_id" ]]; }
  wait_for 30 replaced || fail "after renaming, the virtual node is still $kept_id ('$(forward_node)')" || return
  [[ ! -e /sys/devices/virtual/input/$kept_id ]] || fail "the old virtual touchscreen $kept_id is still there" || return
  reloaded=$(forward_node)
  local reloaded_id
  reloaded_id=$(input_id "$reloaded")
  udevadm settle -t 30 || true
  local renamed
  renamed=$(cat "/sys/class/input/$(basename "$reloaded")/device/name")
  [[ $renamed == "$FORWARD_NAME 2" ]] || fail "the new virtual touchscreen is named '$renamed'" || return
  [[ $(forward_status grabbed) == true ]] || fail "the panel is not grabbed after the second reload" || return
  ui fw tap 960 540 || return
  wait_for 30 forwarded || fail "after renaming, forward.forwarded is $(forward_status forwarded), not 1" || return
  VNODE=$reloaded
  stop_touchd
  gone() { [[ ! -e $VNODE ]]; }
  wait_for 30 gone || fail "the virtual node $VNODE outlived touchd's SIGTERM" || return
  stop_forwarding
  note "reload: virtual $kept ($kept_id) kept, a finger held through it cancelled then ignored, a tap forwarded; renamed: $reloaded ($reloaded_id) '$renamed' anew, a tap forwarded; gone with SIGTERM; $PNODE grabbed (a second reader got $seen), virtual $kept '$name' phys $phys, direct, udev touchscreen, not opened by touchd; a tap counted forwarded"
}

# --- what libinput sees on the virtual node -------------------------------------------------------
# libinput debug-events on the virtual node, as a compositor reads it: a plain tap is TOUCH_DOWN and
# TOUCH_UP at the tap's place; a back swipe from the left edge (claimed) is nothing; the three-finger
# admin hold is three TOUCH_DOWN, then three TOUCH_CANCEL when it recognizes; a tap in the edge zone
# arrives once the edge pan fails, at its own place.
check_forward_libinput() {
  need_daemon || return
  command -v libinput >/dev/null || skip "libinput (libinput-tools) is not installed" || return
  start_forwarding fwli || return
  local log="$SCRATCH/fw-libinput.log" li
  stdbuf -oL libinput debug-events --device "$VNODE" >"$log" 2>&1 &
  li=$!
  wait_for 60 grep -q 'DEVICE_ADDED' "$log" || { cat "$log"; fail "libinput debug-events did not open $VNODE"; return; }
  local before
  # A tap in the middle: down at 960,540 (96.00/54.00 mm at 10 units/mm), up.
  ui fw tap 960 540 || return
  tapped() { (($(li_count "$log" TOUCH_UP) >= 1)); }
  wait_for 30 tapped || { cat "$log"; fail "libinput saw no TOUCH_UP of the tap"; return; }
  li_at "$log" head 96 54 ||
    { cat "$log"; fail "the tap's TOUCH_DOWN is not at 96.00/54.00 mm: $(grep TOUCH_DOWN "$log" | head -1)"; return; }
  [[ $(li_count "$log" TOUCH_DOWN) == 1 && $(li_count "$log" TOUCH_UP) == 1 ]] || { cat "$log"; fail "the tap is not one TOUCH_DOWN and one TOUCH_UP"; return; }
  # The back swipe: claimed by the screen-edge pan, which holds its touch from the start: nothing.
  before=$(li_touches "$log")
  ui fw pan 4 540 600 540 25 || return
  sleep 2
  [[ $(li_touches "$log") == "$before" ]] || { tail -20 "$log"; fail "the claimed edge swipe reached libinput"; return; }
  # The admin hold: three fingers 2.5 s; the long press recognizes at 2 s and cancels them.
  ui fw hold 3 700 500 150 2.5 || return
  cancelled() { (($(li_count "$log" TOUCH_CANCEL) >= 3)); }
  wait_for 30 cancelled || { tail -30 "$log"; fail "libinput saw $(li_count "$log" TOUCH_CANCEL) TOUCH_CANCEL of the admin hold, not 3"; return; }
  [[ $(li_count "$log" TOUCH_DOWN) == 4 && $(li_count "$log" TOUCH_UP) == 1 ]] ||
    { tail -30 "$log"; fail "the hold is not three more TOUCH_DOWN and no TOUCH_UP: $(li_count "$log" TOUCH_DOWN) down, $(li_count "$log" TOUCH_UP) up"; return; }
  # A tap in the edge zone: held by the edge pan, released when it fails at the lift: down, then up.
  ui fw tap 4 300 || return
  edge_tapped() { (($(li_count "$log" TOUCH_UP) >= 2)); }
  wait_for 30 edge_tapped || { tail -20 "$log"; fail "the edge-zone tap never reached libinput"; return; }
  li_at "$log" tail 0.4 30 ||
    { tail -20 "$log"; fail "the edge tap's TOUCH_DOWN is not at 0.40/30.00 mm: $(grep TOUCH_DOWN "$log" | tail -1)"; return; }
  kill "$li" 2>/dev/null
  wait "$li" 2>/dev/null
  grep 'TOUCH_' "$log"
  local counters
  counters=$(for k in forwarded held released cancelled; do printf '%s %s ' "$k" "$(forward_status $k)"; done)
  echo "status: $counters"
  grep -a 'action' "$OUT/touchd-fwli.log" | tail -5
  stop_forwarding
  note "libinput on $VNODE: tap down+up at 96.00/54.00 mm; edge swipe nothing; admin hold 3 down + 3 cancel; edge tap down+up at 0.40/30.00 mm after the pan failed; $counters"
}

# --- a forwarded pen: what libinput reads on the virtual pen (issue #41) --------------------------
# A pen display made from pen-forward.evemu (PenForwardingTests writes and checks it) under
# scenes/pen-forward.yaml, whose window forwards: touchd's virtual device of it is a pen, which udev
# tags ID_INPUT_TABLET, touchd leaves alone, and libinput takes as a tablet (cap:T) and reads as a
# compositor would. The pen hovers in, strokes on
# the app's half (tip down, axes, up), hovers across, strokes on the left, where the pan claims
# it (the virtual pen leaves proximity), lifts, hovers (in again) and leaves. libinput's
# proximity and tip events, in order, must be what `touchctl replay --forward` writes for the same
# recording and scene: live equals replay on the virtual pen.
PEN_FORWARD_RECORDING="$ROOT/Tests/TouchdSceneTests/Fixtures/pen-forward.evemu"
PEN_FORWARD_SCENE="$VM/scenes/pen-forward.yaml"
check_forward_pen_libinput() {
  need_daemon || return
  command -v libinput >/dev/null || skip "libinput (libinput-tools) is not installed" || return
  "$BIN/touchctl" replay --scene "$PEN_FORWARD_SCENE" "$PEN_FORWARD_RECORDING" \
    --forward "$SCRATCH/pen-forward.replay.evemu" >/dev/null 2>"$SCRATCH/pen-forward.replay.err" ||
    { cat "$SCRATCH/pen-forward.replay.err"; fail "touchctl replay --forward failed"; return; }
  # The replay's virtual pen: BTN_TOOL_PEN (0x140) in/out, BTN_TOUCH (0x14a) down/up.
  local expected
  expected=$(awk '$1 == "E:" && $3 == "0001" && $4 == "0140" { print ($5 == "0001" ? "in" : "out") }
    $1 == "E:" && $3 == "0001" && $4 == "014a" { print ($5 == "0001" ? "down" : "up") }' \
    "$SCRATCH/pen-forward.replay.evemu" | tr '\n' ' ')
  [[ -n $expected ]] || { head -40 "$SCRATCH/pen-forward.replay.evemu"; fail "the replay's virtual pen has no proximity or tip"; return; }
  unfuzzed_description "$PEN_FORWARD_RECORDING" "$SCRATCH/pen-forward.desc"
  evemu_create penfw "$SCRATCH/pen-forward.desc" || return
  local pen=$NODE
  start_touchd penfw "$PEN_FORWARD_SCENE" || { evemu_remove penfw; return 1; }
  wait_for 60 have_forward_node || {
    tail -20 "$OUT/touchd-penfw.log"
    stop_touchd
    evemu_remove penfw
    fail "touchd reports no virtual pen within 60 s"
    return
  }
  local vnode log="$SCRATCH/pen-forward-libinput.log" li
  vnode=$(forward_node)
  udevadm settle -t 30 || true
  local classes
  classes=$(udevadm info --query=property --name="$vnode" | grep -E '^(ID_INPUT_TABLET|ID_INPUT_TOUCHSCREEN)=' | tr '\n' ' ')
  stdbuf -oL libinput debug-events --device "$vnode" >"$log" 2>&1 &
  li=$!
  wait_for 60 grep -q 'DEVICE_ADDED' "$log" || { cat "$log"; kill "$li"; stop_touchd; evemu_remove penfw; fail "libinput debug-events did not open $vnode"; return; }
  local bad=""
  grep 'DEVICE_ADDED' "$log" | grep -q 'cap:[a-zA-Z]*T' || bad+=" libinput does not take $vnode as a tablet: $(grep DEVICE_ADDED "$log");"
  log "physical pen $pen, virtual pen $vnode ($classes)"
  timeout 120 evemu-play "$pen" < <(grep '^E:' "$PEN_FORWARD_RECORDING") || note "evemu-play exited $?"
  outs() { (($(grep -c 'TABLET_TOOL_PROXIMITY.*proximity-out' "$log") >= 2)); }
  wait_for 60 outs || bad+=" libinput saw $(grep -c 'TABLET_TOOL_PROXIMITY.*proximity-out' "$log") proximity-out, not 2;"
  sleep 1
  kill "$li" 2>/dev/null
  wait "$li" 2>/dev/null
  local seen
  seen=$(awk '/TABLET_TOOL_PROXIMITY/ { print (/proximity-in/ ? "in" : "out") }
    /TABLET_TOOL_TIP/ { print (/ down/ ? "down" : "up") }' "$log" | tr '\n' ' ')
  grep 'TABLET_TOOL_\(PROXIMITY\|TIP\)' "$log"
  echo "replay: $expected"
  echo "live:   $seen"
  [[ $seen == "$expected" ]] || bad+=" libinput's tool events ($seen) are not the replay's ($expected);"
  local axes
  axes=$(grep -c 'TABLET_TOOL_AXIS' "$log" || true)
  ((axes > 0)) || bad+=" no TABLET_TOOL_AXIS: the hover and strokes did not move the pen;"
  [[ $classes == *ID_INPUT_TABLET=1* ]] || bad+=" udev does not tag the virtual pen a tablet ($classes);"
  # touchd never reads its own device (its touchd/ phys; the packaged udev rule adds TOUCHD_IGNORE).
  ! opens "$TOUCHD_PID" "$vnode" || bad+=" touchd opened its own virtual pen $vnode;"
  local counters
  counters=$(for k in forwarded cancelled; do printf '%s %s ' "$k" "$(forward_status $k)"; done)
  stop_touchd
  evemu_remove penfw
  [[ -z $bad ]] || { tail -30 "$log"; fail "${bad# }"; return; }
  note "libinput on the virtual pen $vnode (cap:T; $classes): $seen= the replay's; $axes axis events; $counters"
}

# --- hotplug --------------------------------------------------------------------------------------
# touchd first, the panel later: its virtual touchscreen appears with it. A finger down on it is
# forwarded; unplugging the panel mid-touch cancels the touch on the virtual device and removes it,
# while touchd runs on; a second panel gets a virtual touchscreen of its own.
check_forward_hotplug() {
  need_daemon || return
  start_touchd fwhot "$FORWARD_SCENE" || return
  [[ -z $(forward_node) ]] || fail "a virtual touchscreen before any panel: $(forward_node)" || return
  ui_start fw touchscreen "touchd VM hotplugged panel" || return
  PNODE=$NODE
  wait_for 60 have_forward_node || fail "no virtual touchscreen after the panel appeared" || return
  VNODE=$(forward_node)
  udevadm settle -t 30 || true
  local log="$SCRATCH/fw-hot-libinput.log" li
  stdbuf -oL libinput debug-events --device "$VNODE" >"$log" 2>&1 &
  li=$!
  wait_for 60 grep -q 'DEVICE_ADDED' "$log" || { cat "$log"; fail "libinput debug-events did not open $VNODE"; return; }
  ui fw drag 900 500 1000 500 5 || return
  downed() { grep -q TOUCH_DOWN "$log"; }
  wait_for 30 downed || { cat "$log"; fail "the finger down never reached libinput"; return; }
  ui_stop fw KILL
  gone() { [[ ! -e $VNODE ]]; }
  wait_for 30 gone || fail "the virtual node $VNODE outlived its panel" || return
  sleep 1
  kill "$li" 2>/dev/null
  wait "$li" 2>/dev/null
  grep 'TOUCH_\|DEVICE_' "$log"
  grep -q TOUCH_CANCEL "$log" || fail "libinput saw no TOUCH_CANCEL of the finger down when its panel went" || return
  kill -0 "$TOUCHD_PID" || fail "touchd exited with the panel" || return
  ui_start fw touchscreen "touchd VM second panel" || return
  wait_for 60 have_forward_node || fail "no virtual touchscreen for the second panel" || return
  local second
  second=$(forward_node)
  stop_forwarding
  note "panel after touchd: $VNODE appeared; unplugged mid-touch: TOUCH_CANCEL, node removed, touchd up; second panel: $second"
}

# --- fail-open ------------------------------------------------------------------------------------
# touchd killed with SIGKILL: the kernel releases the grab and removes the virtual device with the
# process's file descriptors, and the physical node delivers to its other reader again.
check_forward_kill9() {
  need_daemon || return
  start_forwarding fwkill || return
  witness 120 || return
  ui fw tap 960 540 || return
  sleep 1
  kill -KILL "$TOUCHD_PID"
  wait "$TOUCHD_PID" 2>/dev/null
  TOUCHD_PID=""
  gone() { [[ ! -e $VNODE ]]; }
  wait_for 30 gone || fail "the virtual node $VNODE outlived touchd" || return
  ui fw tap 960 540 || return
  sleep 1
  local seen
  seen=$(witness_result)
  echo "second reader of $PNODE across the kill: $seen"
  [[ $seen == frames=2\ * ]] || fail "the second reader got '$seen': expected the 2 frames of the tap after the kill only" || return
  ui_stop fw
  note "after kill -9: $VNODE removed, $PNODE delivers to its other reader again ($seen: the tap after the kill, none of the one before)"
}

# Without uinput (here: --uinput naming no node) touchd reads the touchscreen without a grab and
# says why: the compositor keeps every touch.
check_forward_no_uinput() {
  need_daemon || return
  ui_start fw touchscreen "touchd VM forwarded panel" || return
  PNODE=$NODE
  start_touchd fwnou "$FORWARD_SCENE" --uinput /run/no-such-uinput || return
  wait_for 60 opens "$TOUCHD_PID" "$PNODE" || fail "touchd did not open $PNODE" || return
  [[ $(forward_status grabbed) == false && $(forward_status node) == null ]] ||
    fail "status: grabbed $(forward_status grabbed), forward $(forward_status node)" || return
  grep -a 'cannot forward' "$OUT/touchd-fwnou.log" | head -1 | tee "$SCRATCH/fwnou.err"
  grep -q '/run/no-such-uinput' "$SCRATCH/fwnou.err" || fail "no error naming /run/no-such-uinput in touchd's log" || return
  witness 60 || return
  ui fw tap 960 540 || return
  sleep 1
  local seen
  seen=$(witness_result)
  [[ $seen == frames=2\ * ]] || fail "a second reader got '$seen' of a tap: the device should not be grabbed" || return
  stop_forwarding
  note "no uinput: read ungrabbed ($seen for another reader), error: $(cut -c1-160 "$SCRATCH/fwnou.err")"
}

# --- through a real compositor --------------------------------------------------------------------
# forward_gestures LOG UI KIND AT: config/kiosk-forward.yaml's gestures on the uinput panel UI (its
# ui_start id) that touchd forwards, while wev, the compositor KIND's one client, logs what it gets to
# LOG: a tap at the panel's centre is one wl_touch down, at AT on wev's surface ("X, Y", e.g.
# "640.000000, 360.000000"), and one up; the claimed edge swipe is nothing; the admin hold's three
# fingers go down and are cancelled: three downs, never an up, and at least one wl_touch.cancel
# (except for KIND cage, which drops the cancel); a tap in the edge zone is one down and one up once
# the edge pan fails. wl_touch frame lines are not counted (cage sends none, KWin and sway do).
# Leaves the expectations that failed in GESTURES_BAD ("" when all held) and the number of
# wl_touch.cancel in GESTURES_CANCELS; returns non-zero only when the panel could not be driven.
forward_gestures() {
  local log=$1 dev=$2 kind=$3 at=$4 bad="" d0 u0
  GESTURES_BAD="" GESTURES_CANCELS=0
  ui "$dev" tap 960 540 || return
  tap_up() { (($(wl_touch_count "$log" up) >= 1)); }
  wait_for 30 tap_up || bad+=" no wl_touch up after the tap;"
  sleep 1
  d0=$(wl_touch_count "$log" down) u0=$(wl_touch_count "$log" up)
  ((d0 == 1 && u0 == 1)) || bad+=" the tap gave $d0 down, $u0 up (not 1 and 1);"
  grep -a 'wl_touch\] down:' "$log" | head -1 | grep -q "x, y: $at" ||
    bad+=" the tap's down is not at $at, the centre of wev's surface: $(grep -a 'wl_touch\] down:' "$log" | head -1);"
  ui "$dev" pan 4 540 600 540 25 || return
  sleep 2
  (($(wl_touch_count "$log" down) == d0)) || bad+=" the claimed edge swipe reached the client;"
  ui "$dev" hold 3 700 500 150 2.5 || return
  sleep 2
  local hd hu hc
  hd=$(($(wl_touch_count "$log" down) - d0)) hu=$(($(wl_touch_count "$log" up) - u0)) hc=$(wl_touch_count "$log" cancel)
  ((hd == 3)) || bad+=" the admin hold gave $hd wl_touch down, not 3;"
  ((hu == 0)) || bad+=" the admin hold's cancelled fingers reached the client as $hu up (a tap);"
  [[ $kind == cage ]] || ((hc >= 1)) || bad+=" the admin hold gave no wl_touch.cancel;"
  ui "$dev" tap 4 300 || return
  edge_up() { (($(wl_touch_count "$log" up) > u0)); }
  wait_for 30 edge_up || bad+=" the edge-zone tap never reached the client;"
  sleep 1
  local ed eu
  ed=$(($(wl_touch_count "$log" down) - d0 - hd)) eu=$(($(wl_touch_count "$log" up) - u0))
  ((ed == 1 && eu == 1)) || bad+=" the edge-zone tap gave $ed down, $eu up;"
  bad=${bad%;}
  GESTURES_BAD=${bad# } GESTURES_CANCELS=$hc
}

# cage (wlroots, libinput) with wev as its client (scripts/vm/cage.sh), reading every input device:
# the grabbed physical panel sends it nothing, touchd's virtual touchscreen the unclaimed touches.
# forward_gestures: a tap is one wl_touch down and one up; the claimed edge swipe nothing; the admin
# hold's three fingers go down, then are cancelled: libinput's TOUCH_CANCEL (forward-libinput)
# reaches cage, but cage 0.1.4 passes no wl_touch.cancel on (seat.c handles down, up and motion
# only; sway >= 1.9 does, weston 10 does not), so wev sees the downs and nothing after them, never an
# up: the app sees no tap. A tap in the edge zone is one down and one up once the edge pan fails.
# KIND sway: the same through sway >= 1.9 (built from source, need_sway), which does pass the cancel
# on: the admin hold must then give the client wl_touch.cancel. (forward-kwin, in the systemd guest:
# the same through KWin.)
check_forward_compositor() {
  local kind=$1
  need_daemon || return
  if [[ $kind == sway ]]; then need_sway || return; else need_cage || return; fi
  start_forwarding "fw$kind" || return
  local log="$OUT/forward-$kind-wev.log"
  COMPOSITOR=$kind cage_start "$log" touch || return
  forward_gestures "$log" fw "$kind" "640.000000, 360.000000" || return
  grep -a 'wl_touch\|wl_seat' "$log"
  cage_stop
  stop_forwarding
  [[ -z $GESTURES_BAD ]] || fail "$GESTURES_BAD" || return
  local cancel="no wl_touch.cancel (cage 0.1.4 sends none; libinput's TOUCH_CANCEL: forward-libinput)"
  ((GESTURES_CANCELS > 0)) && cancel="$GESTURES_CANCELS wl_touch.cancel"
  note "$kind+wev: tap 1 down + 1 up at 640,360; edge swipe nothing; admin hold 3 down, no up, $cancel; edge tap 1 down + 1 up"
}

# --- live == replay, for the virtual touchscreen ---------------------------------------------------
# A bundled recording played into a device touchd forwards: what the virtual node delivers
# (evemu-record of it) is, frame by frame, what `touchctl replay --scene ... --forward` writes for the
# same recording (times aside: the kernel stamps live events when touchd writes them). ORDER:
# daemon-first or device-first. The replay's file is also a description evemu-device accepts.
check_forward_live_equals_replay() {
  local order=$1 rec="$RECORDINGS/atmel-03eb-201c-cdt10-2finger-taps-pinch-in-out.evemu"
  need_daemon || return
  [[ -f $rec ]] || skip "no $rec" || return
  local name="fwler-$order" replay="$SCRATCH/fwler-replay.evemu" live="$SCRATCH/fwler-$order-live.evemu"
  "$BIN/touchctl" replay "$rec" --scene "$FORWARD_SCENE" --forward "$replay" >/dev/null 2>"$SCRATCH/fwler-replay.err" ||
    fail "touchctl replay --forward exited $?: $(head -3 "$SCRATCH/fwler-replay.err")" || return
  evemu_create fwler-check "$replay" || fail "evemu-device refused touchctl replay --forward's output" || return
  local checked=$NODE
  evemu_remove fwler-check
  unfuzzed_description "$rec" "$SCRATCH/$name.desc"
  grep '^E:' "$rec" >"$SCRATCH/$name.events"
  if [[ $order == daemon-first ]]; then start_touchd "$name" "$FORWARD_SCENE" || return; fi
  evemu_create "$name" "$SCRATCH/$name.desc" || return
  PNODE=$NODE
  if [[ $order == device-first ]]; then start_touchd "$name" "$FORWARD_SCENE" || return; fi
  wait_for 60 have_forward_node || fail "no virtual touchscreen ($order)" || return
  VNODE=$(forward_node)
  udevadm settle -t 30 || true
  evemu-record "$VNODE" >"$live" 2>/dev/null &
  local recorder=$!
  sleep 1
  timeout 180 evemu-play "$PNODE" <"$SCRATCH/$name.events" || note "evemu-play exited $?"
  sleep 3 # the recognizers' timers after the last frame
  kill "$recorder" 2>/dev/null
  wait "$recorder" 2>/dev/null
  # The forwarding shortcut (docs/forward.md, "Frames and time"): the motion frames it wrote as
  # they were read, each then confirmed by the pipeline's own events for the frame.
  local shortcut mismatches
  shortcut=$(forward_status shortcutFrames)
  mismatches=$(forward_status shortcutMismatches)
  evemu_remove "$name"
  stop_touchd
  [[ $mismatches == 0 ]] || fail "the forwarding shortcut wrote $mismatches frame(s) otherwise than the pipeline ($order)" || return
  [[ $shortcut =~ ^[1-9][0-9]*$ ]] || fail "the forwarding shortcut wrote no frame ($order: shortcutFrames $shortcut)" || return
  $PY - "$replay" "$live" >"$SCRATCH/fwler-$order.cmp" <<'PY'
import sys
def frames(path):
    out, cur = [], []
    for line in open(path):
        if not line.startswith("E:"):
            continue
        _, _, t, c, v = line.split()[:5]
        if (t, c) == ("0000", "0000"):
            out.append(" ".join(cur))
            cur = []
        else:
            cur.append(f"{t}:{c}={int(v)}")
    return out
r, l = frames(sys.argv[1]), frames(sys.argv[2])
print(f"replay {len(r)} frames, live {len(l)} frames")
for i, (a, b) in enumerate(zip(r, l)):
    if a != b:
        print(f"first difference at frame {i}: replay [{a}] live [{b}]")
        break
sys.exit(0 if r == l and r else 1)
PY
  local rc=$?
  cat "$SCRATCH/fwler-$order.cmp"
  ((rc == 0)) || fail "the virtual node's frames differ from touchctl replay --forward's ($order; see the log)" || return
  note "$order: $(head -1 "$SCRATCH/fwler-$order.cmp"): the virtual node's frames equal touchctl replay --forward's, $shortcut of them written by the shortcut; evemu-device accepted the replay's file ($checked)"
}
