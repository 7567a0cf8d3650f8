#!/bin/bash
# shellcheck disable=SC2317  # the check functions are called indirectly, through run_check
# The systemd guest's checks: systemd is PID 1 with udevd and journald, the root is a writable overlay
# over the host's (init-systemd.sh). touchd is installed the way a Debian kiosk gets it: the .deb of
# scripts/package-deb.sh (built on the host: DEB, and DEB_UPGRADE of a higher version), with apt-get,
# and run by its own units; then upgraded, removed and purged; then installed again the way a
# non-Debian system gets it, `scripts/install.sh --bin-dir` with the prebuilt release binaries.
set -uo pipefail # not -e: a failing check reports FAIL and the next one runs
# shellcheck source=scripts/vm/lib.sh
. "$(dirname "$0")/lib.sh"
export PATH="$PATH:$SWIFT_BIN"
SOCK=/run/touchd/touchd.sock   # the installed touchd.socket's
EVENTS="$OUT/systemd-events.jsonl"
# shellcheck source=scripts/vm/forward.sh
. "$VM/forward.sh"
# cage.sh for wev's helpers (wl_touch_count), kwin.sh for KWin in a logind session (forward-kwin).
# shellcheck source=scripts/vm/cage.sh
. "$VM/cage.sh"
# shellcheck source=scripts/vm/kwin.sh
. "$VM/kwin.sh"
# web-kiosk.sh: Chromium in kiosk mode under KWin on a page served on loopback (web-kiosk-kwin).
# shellcheck source=scripts/vm/web-kiosk.sh
. "$VM/web-kiosk.sh"

BUILD_BIN=$BIN                 # the release binaries, for install.sh
BIN=/usr/bin                   # the package's
# Whether the daemon is built is asked of the release binaries (the package is not installed yet).
BIN=$BUILD_BIN have_daemon || true
export DEBIAN_FRONTEND=noninteractive
# apt-get without the host's package lists: the guest has no network, the package's dependencies
# are all installed, and parsing the lists again after every dpkg run costs ~40 s under TCG.
mkdir -p "$SCRATCH/apt-lists/partial"
offline_apt() { apt-get -o Dir::State::Lists="$SCRATCH/apt-lists" "$@"; }

plan systemd-boot systemd-deb-install systemd-socket-activation systemd-socket-group systemd-udev-rule systemd-reload-bad-scene \
  systemd-watchdog systemd-websocket-socket systemd-metrics-textfile systemd-metrics-socket systemd-speech systemd-forward forward-kwin web-kiosk-kwin systemd-security-score systemd-deb-upgrade-keeps-conffile systemd-stop-clean \
  systemd-bad-scene-at-start systemd-deb-remove systemd-deb-purge systemd-install

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

# The packaged files, where Debian wants them (the paths of package-deb.sh's header).
DEB_FILES=(/usr/bin/touchd /usr/bin/touchctl /usr/lib/systemd/system/touchd.service
  /usr/lib/systemd/system/touchd.socket /usr/lib/systemd/system/touchd-websocket.socket
  /usr/lib/systemd/system/touchd-metrics-textfile.service /usr/lib/systemd/system/touchd-metrics-textfile.timer
  /usr/lib/systemd/system/touchd-metrics.socket /usr/lib/systemd/system/touchd-speech.service
  /usr/share/touchd/prometheus/touchd-alerts.yml /usr/share/touchd/prometheus/touchd-alerts.test.yml
  /usr/lib/udev/rules.d/70-touchd.rules /usr/lib/sysusers.d/touchd.conf
  /usr/share/touchd/scene.schema.json /usr/share/touchd/kiosk.yaml /etc/touchd/scene.yaml
  /usr/share/man/man8/touchd.8.gz /usr/share/man/man5/touchd.scene.5.gz /usr/share/man/man1/touchctl.1.gz
  /usr/share/bash-completion/completions/touchd /usr/share/bash-completion/completions/touchctl
  /usr/share/zsh/vendor-completions/_touchd /usr/share/zsh/vendor-completions/_touchctl
  /usr/share/fish/vendor_completions.d/touchd.fish /usr/share/fish/vendor_completions.d/touchctl.fish
  /usr/share/doc/touchd/copyright /usr/share/doc/touchd/changelog.gz)

# deb_version: the installed package's version, empty when it is not installed.
deb_version() { dpkg-query -W -f='${db:Status-Abbrev} ${Version}' touchd 2>/dev/null | sed -n 's/^ii  *//p'; }

# `apt-get install ./touchd_VERSION_ARCH.deb` (no network: every dependency is installed already):
# the files in the vendor paths, the group through sysusers, touchd.socket enabled and listening,
# the service not started (no client, no touchscreen yet).
check_deb_install() {
  [[ -f ${DEB:-} ]] || fail "no package built on the host (DEB='${DEB:-}'; see the host's deb-package line)" || return
  local t0=$SECONDS missing="" f
  log "apt-get install $DEB"
  offline_apt install -y --no-install-recommends "$DEB" || fail "apt-get install $DEB exited $?" || return
  log "apt-get install done"
  [[ -n $(deb_version) ]] || fail "touchd not installed after apt-get install" || return
  for f in "${DEB_FILES[@]}"; do [[ -e $f ]] || missing+=" $f"; done
  [[ -z $missing ]] || fail "not installed:$missing" || return
  dpkg-query -W -f='${Conffiles}\n' touchd | grep -q ' /etc/touchd/scene.yaml ' ||
    fail "/etc/touchd/scene.yaml is not a conffile" || return
  getent group touchd || fail "no group touchd (systemd-sysusers in the postinst)" || return
  systemctl show -p ExecStart --value touchd.service | grep -q 'path=/usr/bin/touchd ' ||
    fail "ExecStart is not /usr/bin/touchd: $(systemctl show -p ExecStart --value touchd.service)" || return
  systemctl is-enabled -q touchd.socket || fail "touchd.socket not enabled" || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active after install" || return
  systemctl is-active -q touchd.service && { fail "touchd.service already running before any client"; return; }
  [[ $(stat -c %G "$SOCK") == touchd ]] || fail "$SOCK is not group touchd: $(stat -c %G "$SOCK")" || return
  note "$(basename "$DEB") installed by apt-get in $((SECONDS - t0)) s ($(deb_version)); socket enabled and listening, group touchd"
}

# A client connecting to the socket starts the service (Type=notify: systemd waits for READY=1);
# a uinput touchscreen plugged in then gets a tap on the example scene's "buy ticket" button.
check_socket_activation() {
  need_daemon || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active" || return
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

# Enables and starts socket unit $1 of the package, then starts the service again to take it:
# systemd starts no socket unit for a service that is running (it would not get the socket), so the
# service stops first, as docs/protocol.md says.
enable_socket_unit() {
  systemctl stop touchd.service
  systemctl enable --now "$1" || {
    journalctl -b --no-pager -o cat -u "$1" | tail -10
    fail "systemctl enable --now $1 exited $?"
    return 1
  }
  systemctl start touchd.service || fail "systemctl start touchd.service exited $?" || return
  wait_for 30 systemctl is-active -q touchd.service || fail "touchd.service not active after the restart"
}

# The clients' group, as docs/protocol.md sets a kiosk app up: with touchd.service running (it
# took the socket), /run/touchd/touchd.sock is still root:touchd 0660 in a directory anyone may
# enter; a user in group touchd gets hello and status from it, a user outside gets EACCES.
check_socket_group() {
  need_daemon || return
  touchctl status >/dev/null || fail "touchctl status as root failed" || return
  systemctl is-active -q touchd.service || fail "touchd.service is not running" || return
  stat -L -c '%U:%G %a %n' /run/touchd "$SOCK"
  [[ $(stat -c '%U:%G %a' "$SOCK") == "root:touchd 660" ]] ||
    fail "$SOCK is $(stat -c '%U:%G %a' "$SOCK"), not root:touchd 660, with touchd running" || return
  id kioskapp >/dev/null 2>&1 || useradd --no-create-home --groups touchd kioskapp
  id outsider >/dev/null 2>&1 || useradd --no-create-home outsider
  runuser -u kioskapp -- touchctl status --socket "$SOCK" >"$SCRATCH/group-status" 2>&1 ||
    { cat "$SCRATCH/group-status"; fail "a user in group touchd could not run touchctl status"; return; }
  grep -q '"counters"' "$SCRATCH/group-status" || fail "no status for the user in group touchd" || return
  if runuser -u outsider -- touchctl status --socket "$SOCK" >"$SCRATCH/outsider-status" 2>&1; then
    fail "a user outside group touchd got the status"
    return
  fi
  cat "$SCRATCH/outsider-status"
  grep -q 'permission denied' "$SCRATCH/outsider-status" || fail "the outsider was not told permission denied" || return
  note "socket root:touchd 660 with touchd running; a member of touchd gets status, an outsider EACCES"
}

# touchd-websocket.socket, which the package installs but does not enable: enabled, with a page
# origin in /etc/default/touchd, the daemon restarted to take the second socket. Over
# ws://127.0.0.1:8765 a program and the listed page get hello (status names the address), another
# page an error and close 1008; a tap reaches a WebSocket subscriber. The unit filters IP to
# localhost (IPAddressAllow=). Disabled again afterwards.
check_websocket_socket() {
  need_daemon || return
  systemctl is-enabled -q touchd-websocket.socket && { fail "the package enabled touchd-websocket.socket"; return; }
  local out="$SCRATCH/ws" taps
  echo 'TOUCHD_OPTIONS="--websocket-origin http://kiosk.local:8080"' >/etc/default/touchd
  enable_socket_unit touchd-websocket.socket || return
  journalctl -u touchd.service --no-pager -o cat | grep -i websocket | tail -3
  $PY "$VM/ws.py" 127.0.0.1 8765 --send '{"cmd":"status","id":1}' --until '"id":1' >"$out.program" 2>&1
  cat "$out.program"
  grep -q '"type":"hello"' "$out.program" || fail "a program got no hello over ws://127.0.0.1:8765" || return
  grep -q '"webSocket":{"address":"127.0.0.1:8765","origins":\["http://kiosk.local:8080"\]' "$out.program" ||
    fail "status does not name the socket's address and the origin" || return
  $PY "$VM/ws.py" 127.0.0.1 8765 --origin http://evil.example --seconds 5 >"$out.evil" 2>&1
  cat "$out.evil"
  grep -q "origin 'http://evil.example' is not allowed" "$out.evil" && grep -qx 'close 1008' "$out.evil" ||
    fail "a page of another origin was not refused with close 1008" || return
  taps=$(messages "$EVENTS" action action=buy-ticket)
  $PY "$VM/ws.py" 127.0.0.1 8765 --origin http://kiosk.local:8080 --seconds 40 --until buy-ticket \
    --send '{"cmd":"subscribe","id":2,"types":["action"]}' >"$out.page" 2>&1 &
  local page=$!
  wait_for 20 grep -q '"id":2' "$out.page" || fail "the page's subscription got no reply" || return
  ui ts tap 400 480 || return
  wait "$page"
  cat "$out.page"
  grep -q '"action":"buy-ticket"' "$out.page" || fail "no buy-ticket action over the WebSocket for a tap" || return
  systemctl show -p IPAddressAllow -p IPAddressDeny touchd.service
  systemctl disable --now touchd-websocket.socket
  rm -f /etc/default/touchd
  systemctl restart touchd.service
  note "touchd-websocket.socket: program and listed page let in, another page closed 1008, a tap reached the page"
}

# touchd-metrics-textfile.timer, which the package installs but does not enable: enabled, it has
# touchctl write node_exporter's textfile (Debian's prometheus-node-exporter directory) under its
# sandbox, as root without capabilities; after a tap the file counts it. Disabled again afterwards.
check_metrics_textfile() {
  need_daemon || return
  systemctl is-enabled -q touchd-metrics-textfile.timer && { fail "the package enabled the metrics timer"; return; }
  local file=/var/lib/prometheus/node-exporter/touchd.prom before
  mkdir -p /var/lib/prometheus/node-exporter
  rm -f "$file"
  ui ts tap 400 480 || return
  systemctl enable --now touchd-metrics-textfile.timer || fail "systemctl enable --now the timer exited $?" || return
  wait_for 60 test -s "$file" || {
    journalctl -b --no-pager -o cat -u touchd-metrics-textfile.service | tail -10
    fail "no $file within 60 s of enabling the timer"
    return
  }
  grep -E '^touchd_(actions_total|frames_total|touchesBegan)' "$file" | head -5
  grep -q '^touchd_actions_total{action="buy-ticket",gesture="tap"} [1-9]' "$file" ||
    fail "$file does not count the tap's buy-ticket action" || return
  [[ $(stat -c %a "$file") == 644 ]] || fail "$file is mode $(stat -c %a "$file"), not 644 (node_exporter reads it)" || return
  ls -a /var/lib/prometheus/node-exporter | grep -q '\.tmp$' && { fail "a temporary file was left"; return; }
  before=$(stat -c %Y "$file")
  # bash -c: the file's time is read at every poll, not once when wait_for is called.
  wait_for 40 bash -c "(( \$(stat -c %Y '$file') > $before ))" || fail "the timer did not write the file again" || return
  systemctl disable --now touchd-metrics-textfile.timer
  rm -f "$file"
  note "touchd-metrics-textfile.timer: the textfile counts the tap, mode 644, rewritten every 15 s"
}

# touchd-metrics.socket, which the package installs but does not enable: enabled, with the service
# restarted to take it, GET http://127.0.0.1:9765/metrics answers with the exposition, which counts
# a tap; touchd knows the socket by its name (not as a WebSocket: status has none) and keeps its
# sandbox (RestrictAddressFamilies= without AF_INET). Disabled again afterwards.
check_metrics_socket() {
  need_daemon || return
  systemctl is-enabled -q touchd-metrics.socket && { fail "the package enabled touchd-metrics.socket"; return; }
  local out="$SCRATCH/metrics-http"
  enable_socket_unit touchd-metrics.socket || return
  journalctl -u touchd.service --no-pager -o cat | grep -i 'metrics' | tail -3
  journalctl -u touchd.service --no-pager -o cat | grep -q 'using the metrics socket passed by systemd' ||
    fail "touchd did not take the metrics socket" || return
  ui ts tap 400 480 || return
  sleep 1
  $PY -c 'import sys, urllib.request
r = urllib.request.urlopen("http://127.0.0.1:9765/metrics", timeout=10)
print(r.status, r.headers["Content-Type"]); sys.stdout.write(r.read().decode())' >"$out" 2>&1
  head -1 "$out"
  grep -qx '200 text/plain; version=0.0.4; charset=utf-8' "$out" || { tail -5 "$out"; fail "GET /metrics did not answer 200"; return; }
  grep -q '^touchd_actions_total{action="buy-ticket",gesture="tap"} [1-9]' "$out" ||
    fail "the metrics do not count the tap's buy-ticket action" || return
  touchctl status | tr -d ' ' | grep -q '"webSocket":null' || fail "touchd took the metrics socket for a WebSocket" || return
  systemctl show -p RestrictAddressFamilies touchd.service
  systemctl disable --now touchd-metrics.socket
  systemctl restart touchd.service
  note "touchd-metrics.socket: GET /metrics on 127.0.0.1:9765 answers and counts a tap, under the unchanged sandbox"
}

# touchd-speech.service (issue #40), which the package installs but does not enable: enabled, its
# speech-dispatcher runs as touchd.service's dynamic user (the same UID while both run), its socket
# /run/touchd-speech/speechd.sock is that user's, and VoiceOver turned on by `set` speaks through
# it from touchd's unchanged sandbox: touchd's metrics show the window's speech connected and its
# "VoiceOver on" said (speech-dispatcher answered the SPEAK; the guest has no sound card, so
# nothing is heard). Disabled again afterwards.
check_speech_service() {
  need_daemon || return
  systemctl is-enabled -q touchd-speech.service && { fail "the package enabled touchd-speech.service"; return; }
  local sock=/run/touchd-speech/speechd.sock out="$SCRATCH/speech-metrics"
  systemctl enable --now touchd-speech.service || {
    journalctl -b --no-pager -o cat -u touchd-speech.service | tail -10
    fail "systemctl enable --now touchd-speech.service exited $?"
    return
  }
  wait_for 60 test -S "$sock" || {
    journalctl -b --no-pager -o cat -u touchd-speech.service | tail -15
    fail "touchd-speech.service made no socket $sock within 60 s"
    return
  }
  touchctl status >/dev/null || fail "touchctl status failed" || return
  wait_for 30 systemctl is-active -q touchd.service || fail "touchd.service is not running" || return
  uid_of() { awk '/^Uid:/ { print $2 }' "/proc/$(systemctl show -p MainPID --value "$1")/status"; }
  local speech_uid touchd_uid
  speech_uid=$(uid_of touchd-speech.service) touchd_uid=$(uid_of touchd.service)
  log "speech-dispatcher uid $speech_uid, touchd uid $touchd_uid; $(stat -c '%U:%G %a' "$sock") $sock"
  [[ -n $speech_uid && $speech_uid == "$touchd_uid" ]] ||
    fail "speech-dispatcher runs as uid $speech_uid, touchd as $touchd_uid: not the one dynamic user" || return
  touchctl send '{"cmd":"set","window":"main","voiceOver":true}' >/dev/null || fail "set voiceOver true failed" || return
  speech_said() {
    touchctl metrics >"$out" 2>&1
    grep -q '^touchd_speech_connected{window="main"} 1' "$out" &&
      grep -q '^touchd_speech_utterances_total{[^}]*result="said"[^}]*} [1-9]' "$out"
  }
  wait_for 60 speech_said || {
    grep '^touchd_speech' "$out"
    journalctl -b --no-pager -o cat -u touchd.service | grep -i speech | tail -5
    journalctl -b --no-pager -o cat -u touchd-speech.service | tail -10
    touchctl send '{"cmd":"set","window":"main","voiceOver":false}' >/dev/null
    systemctl disable --now touchd-speech.service
    fail "touchd's speech did not reach touchd-speech.service within 60 s"
    return
  }
  grep '^touchd_speech' "$out"
  touchctl send '{"cmd":"set","window":"main","voiceOver":false}' >/dev/null
  systemctl disable --now touchd-speech.service
  note "touchd-speech.service: speech-dispatcher as touchd's dynamic user (uid $speech_uid); VoiceOver's speech said through $sock from touchd's sandbox"
}

# service_forwarding: waits up to 60 s for the service's virtual touchscreen and checks that the
# service grabbed the panel; sets SERVICE_VNODE to the virtual node.
service_forwarding() {
  wait_for 60 have_forward_node || {
    journalctl -u touchd.service --no-pager -o cat | tail -15
    fail "the service reports no virtual touchscreen within 60 s"
    return
  }
  SERVICE_VNODE=$(forward_node)
  [[ $(forward_status grabbed) == true ]] || fail "the service did not grab the touchscreen"
}

# forward: under the service's sandbox: 70-touchd.rules gives /dev/uinput to touchd-uinput (the
# package's sysusers group), the dynamic user joins it, DeviceAllow= lets it open the node. With
# config/kiosk-forward.yaml as the scene, the service grabs the touchscreen, creates "Kiosk
# touchscreen" and forwards a tap; the scene before is put back.
check_forward_service() {
  need_daemon || return
  [[ -n ${UI_PID[ts]:-} ]] || ui_start ts touchscreen "touchd VM systemd touchscreen" || return
  local perms good=/etc/touchd/scene.yaml
  perms=$(stat -c '%G %a' /dev/uinput)
  [[ $perms == "touchd-uinput 660" ]] || fail "/dev/uinput is '$perms', not 'touchd-uinput 660'" || return
  cp "$good" "$SCRATCH/scene.before-forward"
  cp "$FORWARD_SCENE" "$good"
  systemctl restart touchd.service || fail "systemctl restart exited $?" || return
  service_forwarding || return
  local vnode=$SERVICE_VNODE
  journalctl -u touchd.service --no-pager -o cat | grep -a 'virtual touchscreen' | tail -2
  udevadm info --query=property --name="$vnode" | grep -q '^TOUCHD_IGNORE=1' ||
    fail "70-touchd.rules did not set TOUCHD_IGNORE=1 on $vnode" || return
  ui ts tap 960 540 || return
  forwarded() { [[ $(forward_status forwarded) == 1 ]]; }
  wait_for 30 forwarded || fail "status forward.forwarded is $(forward_status forwarded), not 1" || return
  cp "$SCRATCH/scene.before-forward" "$good"
  systemctl restart touchd.service || fail "systemctl restart with the scene before exited $?" || return
  gone() { [[ ! -e $vnode ]]; }
  wait_for 30 gone || fail "the virtual node $vnode outlived the forwarding scene" || return
  note "/dev/uinput $perms; the service created $vnode (TOUCHD_IGNORE=1), grabbed the panel, forwarded a tap; gone with the scene"
}

# forward-kwin: the kiosk's gestures (forward_gestures, as forward-cage and forward-sway in the plain
# guest) through KWin 5.27 in a real logind session (kwin.sh): the installed service forwards with
# config/kiosk-forward.yaml as the scene, KWin runs in a kiosk unit (PAMName=login, a dedicated user,
# tty1) with wev fullscreen, and takes touchd's virtual touchscreen through logind. A tap is one
# wl_touch down at the centre of wev's surface and one up; the claimed edge swipe nothing; the admin
# hold three downs, no up and wl_touch.cancel; the edge-zone tap one down and one up. The scene
# before is put back and the kiosk unit stopped, whatever happened.
check_forward_kwin() {
  need_daemon || return
  need_kwin || return
  local rc=0 good=/etc/touchd/scene.yaml
  [[ -f $good ]] || fail "no $good: the package is not installed (systemd-deb-install)" || return
  [[ -n ${UI_PID[ts]:-} ]] || ui_start ts touchscreen "touchd VM systemd touchscreen" || return
  cp "$good" "$SCRATCH/scene.before-kwin"
  forward_kwin || rc=$?
  kwin_stop
  cp "$SCRATCH/scene.before-kwin" "$good"
  systemctl restart touchd.service || { note "systemctl restart with the scene before exited $?"; rc=1; }
  return "$rc"
}
forward_kwin() {
  cp "$FORWARD_SCENE" /etc/touchd/scene.yaml
  systemctl restart touchd.service || fail "systemctl restart with $FORWARD_SCENE exited $?" || return
  wait_for 60 have_forward_node || {
    journalctl -u touchd.service --no-pager -o cat | tail -15
    fail "the service reports no virtual touchscreen within 60 s"
    return
  }
  local vnode t0
  vnode=$(forward_node)
  [[ $(forward_status grabbed) == true ]] || fail "the service did not grab the touchscreen" || return
  udevadm settle -t 30 || true
  t0=$SECONDS
  kwin_start || return
  local started=$((SECONDS - t0)) size w h
  opens "$KWIN_PID" "$vnode" || fail "KWin (pid $KWIN_PID) has not opened touchd's virtual touchscreen $vnode" || return
  opens "$KWIN_PID" /dev/dri/card0 || fail "KWin (pid $KWIN_PID) has not opened /dev/dri/card0" || return
  size=$(kwin_surface)
  read -r w h <<<"$size"
  kwin_fullscreen || fail "wev is not fullscreen ($w x $h; the window rule did not apply): the edge-zone taps would miss it" || return
  # The tap at the panel's centre lands at the centre of the fullscreen surface (the output).
  forward_gestures "$KWIN_WEV_LOG" ts kwin "$((w / 2)).000000, $((h / 2)).000000" || return
  grep -a 'wl_touch\|wl_seat\|xdg_toplevel\] configure' -A1 "$KWIN_WEV_LOG" | grep -av 'wl_touch\] frame'
  local counters
  counters=$(for k in forwarded held released cancelled; do printf '%s %s ' "$k" "$(forward_status "$k")"; done)
  echo "touchd status: $counters"
  [[ -z $GESTURES_BAD ]] || fail "$GESTURES_BAD" || return
  note "kwin+wev in logind session $KWIN_SESSION (seat0, vt $KIOSK_VT, user $KIOSK_USER; KWin up in $started s, wev fullscreen ${w}x$h): tap 1 down + 1 up at $((w / 2)),$((h / 2)); edge swipe nothing; admin hold 3 down, no up, $GESTURES_CANCELS wl_touch.cancel; edge tap 1 down + 1 up"
}

# web-kiosk-kwin (issue #44): the web kiosk end to end (web-kiosk.sh): touchd as its service with
# the WebSocket endpoint (touchd-websocket.socket, the page's origin in /etc/default/touchd) and
# examples/forward-kiosk/start-scene.yaml (forwarding) as its scene; the example's display unit
# (KWin) runs its kiosk-browser (Chromium in kiosk mode) on the example's page, which pushes its
# scene (PageScene, forward:) and reports what it gets. A tap on a native button is one click on it; a drag on a
# native list scrolls it by about the drag; a tap on a touchd view is touchd's action and no click;
# the admin hold over the native button is the admin action and cancelled touches, no click; the
# edge swipe is the back action and no touch in the page; after kill -9 of touchd a tap clicks while
# it is down, and once systemd restarts it the page reconnects and pushes its scene again. The
# scene, /etc/default/touchd and the socket unit are put back and the kiosk unit stopped, whatever
# happened.
check_web_kiosk_kwin() {
  local KIOSK_UNIT=$WK_UNIT # the example's display unit, for kwin.sh's helpers too
  need_daemon || return
  command -v kwin_wayland >/dev/null || skip "kwin_wayland not installed (scripts/setup.sh --vm installs kwin-wayland)" || return
  have_chromium || skip "chromium is not installed (Debian's chromium package)" || return
  local rc=0 good=/etc/touchd/scene.yaml
  [[ -f $good ]] || fail "no $good: the package is not installed (systemd-deb-install)" || return
  [[ -n ${UI_PID[ts]:-} ]] || ui_start ts touchscreen "touchd VM systemd touchscreen" || return
  cp "$good" "$SCRATCH/scene.before-web-kiosk"
  web_kiosk_kwin || rc=$?
  wk_kiosk_stop
  wk_server_stop
  cp "$SCRATCH/scene.before-web-kiosk" "$good"
  systemctl disable --now touchd-websocket.socket
  rm -f /etc/default/touchd
  systemctl restart touchd.service || { note "systemctl restart with the scene before exited $?"; rc=1; }
  return "$rc"
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

# An upgrade to a package of a higher version (DEB_UPGRADE: the same files, another version) with
# the administrator's edit of /etc/touchd/scene.yaml: dpkg keeps the edit (a conffile; a plain
# file would be replaced), and the postinst restarts the running daemon on the new files.
check_deb_upgrade() {
  [[ -f ${DEB_UPGRADE:-} ]] || fail "no upgrade package built on the host (DEB_UPGRADE='${DEB_UPGRADE:-}')" || return
  local scene=/etc/touchd/scene.yaml before after pid t0=$SECONDS
  before=$(deb_version)
  [[ -n $before ]] || fail "touchd is not installed" || return
  echo "# edited on this kiosk by the VM suite" >>"$scene"
  # As a fleet upgrades: non-interactive, keep a changed conffile, take the default otherwise.
  # The daemon runs (socket activation, earlier checks), so the upgrade must restart it.
  wait_for 30 tctl status || fail "no answer to status before the upgrade" || return
  pid=$(systemctl show -p MainPID --value touchd.service)
  [[ $pid != 0 ]] || fail "touchd.service not running before the upgrade" || return
  offline_apt install -y --no-install-recommends -o Dpkg::Options::=--force-confdef \
    -o Dpkg::Options::=--force-confold "$DEB_UPGRADE" || fail "apt-get install $DEB_UPGRADE exited $?" || return
  after=$(deb_version)
  [[ -n $after && $after != "$before" ]] || fail "version '$before' -> '$after': not upgraded" || return
  tail -2 "$scene"
  grep -qx '# edited on this kiosk by the VM suite' "$scene" || fail "the upgrade replaced the edited $scene" || return
  [[ ! -e $scene.dpkg-new && ! -e $scene.dpkg-dist ]] || fail "dpkg left $scene.dpkg-new/-dist: the packaged scene changed?" || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active after the upgrade" || return
  local new_pid
  new_pid=$(systemctl show -p MainPID --value touchd.service)
  [[ $new_pid != 0 && $new_pid != "$pid" ]] ||
    fail "touchd.service (pid $pid) was not restarted by the upgrade (MainPID now $new_pid)" || return
  wait_for 30 tctl status || fail "no answer to status through the socket after the upgrade" || return
  # The subscriber of the earlier checks lost its daemon: a new one for the stop check's bookkeeping.
  stop_subscriber
  note "$before -> $after in $((SECONDS - t0)) s; edited scene kept, daemon restarted (pid $pid -> $new_pid)"
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

# `apt-get remove` with the daemon running: the prerm stops the service and the socket; the
# binaries go, the conffile stays (until purge).
check_deb_remove() {
  [[ -n $(deb_version) ]] || fail "touchd is not installed" || return
  systemctl start touchd.socket || fail "systemctl start touchd.socket exited $?" || return
  wait_for 30 tctl status || fail "no answer to status through the socket" || return
  systemctl is-active -q touchd.service || fail "touchd.service not running before the removal" || return
  local pid
  pid=$(systemctl show -p MainPID --value touchd.service)
  offline_apt remove -y touchd || fail "apt-get remove exited $?" || return
  dpkg-query -W -f='${db:Status-Abbrev}\n' touchd
  systemctl is-active -q touchd.service && { fail "touchd.service still active after remove"; return; }
  systemctl is-active -q touchd.socket && { fail "touchd.socket still active after remove"; return; }
  kill -0 "$pid" 2>/dev/null && { fail "touchd (pid $pid) still running after remove"; return; }
  [[ -e $SOCK ]] && { fail "socket $SOCK left behind"; return; }
  [[ -e /usr/bin/touchd || -e /usr/lib/systemd/system/touchd.service ]] && { fail "files left after remove"; return; }
  [[ -f /etc/touchd/scene.yaml ]] || fail "remove deleted the conffile (only purge should)" || return
  note "service (pid $pid) and socket stopped, files removed, /etc/touchd/scene.yaml kept"
}

# `apt-get purge`: the conffile and /etc/touchd go, and so does the socket's enablement.
check_deb_purge() {
  [[ $(dpkg-query -W -f='${db:Status-Abbrev}' touchd 2>/dev/null) == rc* ]] || fail "touchd is not in state rc (removed, config left)" || return
  offline_apt purge -y touchd || fail "apt-get purge exited $?" || return
  dpkg-query -W -f='${db:Status-Abbrev}\n' touchd 2>&1
  [[ -e /etc/touchd ]] && { ls -la /etc/touchd; fail "/etc/touchd left after purge"; return; }
  local links
  links=$(find /etc/systemd/system -name 'touchd.*' 2>/dev/null)
  [[ -z $links ]] || fail "enablement left after purge: $links" || return
  local status
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' touchd 2>/dev/null || true)
  [[ -z $status || $status == un* || $status == pn* ]] || fail "dpkg still has touchd in state '$status'" || return
  note "/etc/touchd and the socket's enablement removed"
}

# The install.sh way (non-Debian systems), after the purge: the same files in the vendor paths
# under /usr/local, touchd.socket enabled and listening, and a client starts the daemon from
# /usr/local/bin.
check_install() {
  need_daemon || return
  local t0=$SECONDS missing="" f
  # No touchscreen plugged in: install.sh's udev trigger gives a plugged one the rule's
  # SYSTEMD_WANTS, which starts touchd.service by itself (as it should), racing this check's
  # "a client starts it" (it lost once the trigger took longer, with /dev/uinput's).
  ui_stop ts
  scripts/install.sh --bin-dir "$BUILD_BIN" || fail "install.sh --bin-dir exited $?" || return
  for f in /usr/local/bin/touchd /usr/local/bin/touchctl /usr/local/lib/systemd/system/touchd.service \
    /usr/local/lib/systemd/system/touchd.socket /usr/local/lib/udev/rules.d/70-touchd.rules \
    /usr/local/lib/sysusers.d/touchd.conf /usr/local/share/touchd/scene.schema.json /etc/touchd/scene.yaml \
    /usr/local/share/man/man8/touchd.8.gz /usr/local/share/man/man5/touchd.scene.5.gz \
    /usr/local/share/man/man1/touchctl.1.gz /usr/local/share/bash-completion/completions/touchctl \
    /usr/local/share/zsh/site-functions/_touchd /usr/local/share/fish/vendor_completions.d/touchd.fish; do
    [[ -e $f ]] || missing+=" $f"
  done
  [[ -z $missing ]] || fail "not installed:$missing" || return
  systemctl is-active -q touchd.socket || fail "touchd.socket not active after install" || return
  systemctl is-active -q touchd.service && { fail "touchd.service already running before any client"; return; }
  BIN=/usr/local/bin
  wait_for 30 tctl status || fail "no answer to status through the socket" || return
  systemctl show -p ExecStart --value touchd.service | grep -q 'path=/usr/local/bin/touchd ' ||
    fail "touchd.service does not run /usr/local/bin/touchd" || return
  systemctl stop touchd.socket touchd.service
  note "install.sh --bin-dir took $((SECONDS - t0)) s; /usr/local vendor paths; a client started /usr/local/bin/touchd"
}

run_check systemd-boot check_boot
run_check systemd-deb-install check_deb_install
run_check systemd-socket-activation check_socket_activation
run_check systemd-socket-group check_socket_group
run_check systemd-udev-rule check_udev_rule
run_check systemd-reload-bad-scene check_reload_bad_scene
run_check systemd-watchdog check_watchdog
run_check systemd-websocket-socket check_websocket_socket
run_check systemd-metrics-textfile check_metrics_textfile
run_check systemd-metrics-socket check_metrics_socket
run_check systemd-speech check_speech_service
run_check systemd-forward check_forward_service
run_check forward-kwin check_forward_kwin
run_check web-kiosk-kwin check_web_kiosk_kwin
run_check systemd-security-score check_security
run_check systemd-deb-upgrade-keeps-conffile check_deb_upgrade
run_check systemd-stop-clean check_stop
run_check systemd-bad-scene-at-start check_bad_scene_at_start
run_check systemd-deb-remove check_deb_remove
run_check systemd-deb-purge check_deb_purge
run_check systemd-install check_install
ui_stop ts
journalctl -b --no-pager -o short-monotonic -u touchd.service -u touchd.socket >"$OUT/journal-touchd.log" 2>&1
log "systemd guest done"
exit 0
