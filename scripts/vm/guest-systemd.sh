#!/bin/bash
# shellcheck disable=SC2317  # the check functions are called indirectly, through run_check
# The systemd guest's checks: systemd is PID 1 with udevd and journald, the root is a writable overlay
# over the host's (init-systemd.sh). touchd is installed the way an administrator does it,
# `scripts/install.sh --bin-dir` with the prebuilt release binaries, and run by its own units.
set -uo pipefail # not -e: a failing check reports FAIL and the next one runs
# shellcheck source=scripts/vm/lib.sh
. "$(dirname "$0")/lib.sh"
export PATH="$PATH:$SWIFT_BIN"
SOCK=/run/touchd/touchd.sock   # the installed touchd.socket's
EVENTS="$OUT/systemd-events.jsonl"

plan systemd-boot systemd-install systemd-socket-activation systemd-udev-rule systemd-reload-bad-scene \
  systemd-watchdog systemd-security-score systemd-stop-clean systemd-bad-scene-at-start

check_boot() {
  local state
  # Not --wait: this script *is* the boot's default unit (kernel-command-line.service), so start-up
  # only finishes when it does.
  state=$(systemctl is-system-running 2>&1)
  echo "system state: $state"
  systemctl --failed --no-legend --no-pager
  systemctl list-jobs --no-pager
  # The boot's timeline (blame needs a finished boot, which this one is not until the script ends).
  journalctl -b --no-pager -o short-monotonic >"$OUT/journal-boot.log" 2>&1
  modprobe uinput || fail "modprobe uinput failed" || return
  systemctl is-active -q systemd-udevd systemd-journald || fail "udevd or journald not active" || return
  note "PID 1 $(cat /proc/1/comm), state $state, udevd and journald active"
}

check_install() {
  need_daemon || return
  local t0=$SECONDS
  scripts/install.sh --bin-dir "$BIN" || fail "install.sh --bin-dir exited $?" || return
  local missing=""
  for f in /usr/local/bin/touchd /usr/local/bin/touchctl /etc/systemd/system/touchd.service \
    /etc/systemd/system/touchd.socket /etc/udev/rules.d/70-touchd.rules /etc/touchd/scene.yaml \
    /usr/local/share/man/man8/touchd.8 /usr/local/share/man/man5/touchd.scene.5 /usr/local/share/man/man1/touchctl.1; do
    [[ -e $f ]] || missing+=" $f"
  done
  [[ -z $missing ]] || fail "not installed:$missing" || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active after install" || return
  systemctl is-active -q touchd.service && { fail "touchd.service already running before any client"; return; }
  note "install.sh --bin-dir took $((SECONDS - t0)) s; touchd.socket listening, service not started"
}

# A client connecting to the socket starts the service (Type=notify: systemd waits for READY=1);
# a uinput touchscreen plugged in then gets a tap on the example scene's "buy ticket" button.
check_socket_activation() {
  need_daemon || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active" || return
  BIN=/usr/local/bin
  subscribe "$EVENTS" || {
    systemctl status --no-pager touchd.service touchd.socket
    journalctl -b --no-pager -o cat -u touchd.service -u touchd.socket | tail -30
    return 1
  }
  # The daemon greets a client as soon as it accepts it; systemd calls the service active only at
  # READY=1, after the first device scan (a few hundred ms later under TCG): wait for that.
  wait_for 15 systemctl is-active -q touchd.service \
    || fail "a client connected but touchd.service did not become active within 15 s" || return
  ui_start ts touchscreen "touchd VM systemd touchscreen" || return
  local pid
  pid=$(systemctl show -p MainPID --value touchd.service)
  wait_for 60 opens "$pid" "$NODE" || fail "touchd (pid $pid) did not open $NODE" || return
  ui ts tap 400 480 || return
  wait_for 30 has_message "$EVENTS" action action=buy-ticket || fail "no buy-ticket action for a tap on the button" || return
  note "client started touchd.service (pid $pid, $(systemctl show -p Type --value touchd.service)); tap -> buy-ticket"
}

# The udev rule: the touchscreen is tagged for systemd and wants touchd.service. (Independent of the
# daemon: it plugs its own touchscreen when the activation check did not get that far.)
check_udev_rule() {
  [[ -n ${UI_PID[ts]:-} ]] || ui_start ts touchscreen "touchd VM systemd touchscreen" || return
  local props
  props=$(udevadm info --query=property --name="$NODE")
  echo "$props"
  grep -qx 'ID_INPUT_TOUCHSCREEN=1' <<<"$props" || fail "not ID_INPUT_TOUCHSCREEN=1" || return
  grep -q '^SYSTEMD_WANTS=.*touchd.service' <<<"$props" || fail "no SYSTEMD_WANTS=touchd.service" || return
  grep -q '^TAGS=.*:systemd:' <<<"$props" || fail "not tagged systemd" || return
  note "$NODE: ID_INPUT_TOUCHSCREEN=1, TAGS systemd, SYSTEMD_WANTS=touchd.service"
}

# `systemctl reload` (SIGHUP) with a scene that fails validation: rejected, old scene kept, same
# process; then the good scene again, and a tap still works.
check_reload_bad_scene() {
  need_daemon || return
  systemctl is-active -q touchd.service || fail "touchd.service not active" || return
  local pid good=/etc/touchd/scene.yaml taps
  pid=$(systemctl show -p MainPID --value touchd.service)
  cp "$good" "$SCRATCH/scene.good"
  cp "$VM/scenes/bad.yaml" "$good"
  systemctl reload touchd.service || fail "systemctl reload exited $?" || return
  sleep 2
  cp "$SCRATCH/scene.good" "$good"
  journalctl -u touchd.service --no-pager -o cat | tail -8
  systemctl is-active -q touchd.service || fail "touchd.service died on a bad scene" || return
  [[ $(systemctl show -p MainPID --value touchd.service) == "$pid" ]] || fail "touchd restarted (pid changed)" || return
  [[ $(systemctl show -p NRestarts --value touchd.service) == 0 ]] || fail "touchd restarted (NRestarts)" || return
  taps=$(messages "$EVENTS" action action=buy-ticket)
  ui ts tap 400 480 || return
  more_taps() { (($(messages "$EVENTS" action action=buy-ticket) > taps)); }
  wait_for 30 more_taps || fail "no action after the rejected reload" || return
  note "bad scene rejected, pid $pid kept, taps still recognized"
}

# WatchdogSec= is armed and touchd pets it: still the same process after longer than the timeout.
check_watchdog() {
  need_daemon || return
  local usec pid
  usec=$(systemctl show -p WatchdogUSec --value touchd.service)
  pid=$(systemctl show -p MainPID --value touchd.service)
  echo "WatchdogUSec=$usec MainPID=$pid"
  [[ -n $usec && $usec != 0 && $usec != infinity ]] || fail "watchdog not armed (WatchdogUSec=$usec)" || return
  local seconds
  seconds=$($PY -c 'import sys; v = sys.argv[1]; print(int(v[:-1]) if v.endswith("s") and v[:-1].isdigit() else 10)' "$usec")
  sleep $((seconds + 3))
  journalctl -u touchd.service --no-pager -o cat | grep -i watchdog
  systemctl is-active -q touchd.service || fail "touchd.service not active after ${seconds}+3 s" || return
  [[ $(systemctl show -p MainPID --value touchd.service) == "$pid" ]] || fail "touchd was restarted (watchdog?)" || return
  note "WatchdogUSec=$usec; same pid $pid after $((seconds + 3)) s"
}

check_security() {
  local out score
  out=$(systemd-analyze security --no-pager touchd.service 2>&1)
  echo "$out"
  score=$(sed -n 's/.*Overall exposure level for touchd.service: \([0-9.]*\).*/\1/p' <<<"$out")
  [[ -n $score ]] || fail "no exposure score" || return
  echo "$score" >"$OUT/exposure-score"
  awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' || fail "exposure $score, above the 2.0 target" || return
  note "exposure $score (target <= 2.0)"
}

# `systemctl stop`: the daemon exits on SIGTERM within TimeoutStopSec, status 0, no SIGKILL.
check_stop() {
  need_daemon || return
  stop_subscriber
  local t0=$SECONDS result status code
  systemctl stop touchd.socket touchd.service || fail "systemctl stop exited $?" || return
  result=$(systemctl show -p Result --value touchd.service)
  status=$(systemctl show -p ExecMainStatus --value touchd.service)
  code=$(systemctl show -p ExecMainCode --value touchd.service)
  journalctl -u touchd.service --no-pager -o cat | tail -5
  [[ $result == success ]] || fail "Result=$result" || return
  [[ $status == 0 ]] || fail "ExecMainStatus=$status (code $code)" || return
  [[ -e $SOCK ]] && { fail "socket $SOCK left behind"; return; }
  note "stopped in $((SECONDS - t0)) s, Result=success, status 0, socket removed"
}

# An invalid scene at start: touchd exits with EX_CONFIG (78), the unit's RestartPreventExitStatus=78
# keeps systemd from restarting it (RestartSec=1s would loop), and the journal has the error with
# its file:line:column at priority err.
check_bad_scene_at_start() {
  need_daemon || return
  local scene=/etc/touchd/scene.yaml status result restarts
  cp "$scene" "$SCRATCH/scene.before-bad"
  cp "$VM/scenes/bad.yaml" "$scene"
  systemctl start touchd.service 2>&1 | head -3
  sleep 5 # five RestartSec= periods: a restart loop would show in NRestarts
  status=$(systemctl show -p ExecMainStatus --value touchd.service)
  result=$(systemctl show -p Result --value touchd.service)
  restarts=$(systemctl show -p NRestarts --value touchd.service)
  journalctl -u touchd.service --no-pager -o cat | tail -6
  cp "$SCRATCH/scene.before-bad" "$scene"
  systemctl stop touchd.socket 2>/dev/null
  systemctl reset-failed touchd.service 2>/dev/null
  [[ $status == 78 ]] || fail "ExecMainStatus=$status, not 78 (EX_CONFIG)" || return
  [[ $result == exit-code ]] || fail "Result=$result" || return
  [[ $restarts == 0 ]] || fail "restarted $restarts times despite RestartPreventExitStatus=78" || return
  local position
  # At priority err: touchd found JOURNAL_STREAM to be its stderr and prefixed the line with <3>.
  position=$(journalctl -u touchd.service -p err --no-pager -o cat | grep -o -m1 "$scene:[0-9]*:[0-9]*: error: .*") ||
    fail "no file:line:column error at priority err in the journal" || return
  note "exit status 78, Result=exit-code, NRestarts 0; journal: ${position:0:120}"
}

run_check systemd-boot check_boot
run_check systemd-install check_install
run_check systemd-socket-activation check_socket_activation
run_check systemd-udev-rule check_udev_rule
run_check systemd-reload-bad-scene check_reload_bad_scene
run_check systemd-watchdog check_watchdog
run_check systemd-security-score check_security
run_check systemd-stop-clean check_stop
run_check systemd-bad-scene-at-start check_bad_scene_at_start
ui_stop ts
journalctl -b --no-pager -o short-monotonic -u touchd.service -u touchd.socket >"$OUT/journal-touchd.log" 2>&1
log "systemd guest done"
exit 0
