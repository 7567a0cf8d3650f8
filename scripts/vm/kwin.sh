# shellcheck shell=bash
# shellcheck disable=SC2317  # helpers defined inside functions are called through wait_for
# KWin 5.27 (Debian 12's kwin-wayland) as a kiosk's compositor in the systemd guest, in a real
# systemd-logind session, with wev as its one client (sourced by guest-systemd.sh after lib.sh and
# cage.sh, whose wl_touch_count reads wev's log). See docs/vm-tests.md, "KWin in a logind session".
#
# What it takes:
# - KWin 5.27 reads input only with its DRM backend (--drm; --virtual has no input backend), and
#   opens the DRM and input nodes only through logind (TakeControl, TakeDevice): its fallback
#   session (noop) opens nothing. So it runs as a kiosk's display unit does: a service with
#   PAMName=login, User= and TTYPath=/dev/ttyN, whose pam_systemd registers a logind session on
#   seat0 with VT N, active while N is the foreground VT. Here a transient unit (systemd-run) on
#   tty1, the foreground VT at boot (no getty runs: the guest never reaches multi-user.target).
# - The guest boots into kernel-command-line.target: D-Bus, systemd-logind and
#   systemd-user-sessions are started here, as a kiosk's multi-user.target would have them.
# - /dev/dri/card0: qemu's q35 machine has its default VGA even with -nographic; udev loads
#   bochs-drm for it. No GL for that card: KWIN_COMPOSE=Q (QPainter).
# - --no-global-shortcuts: with global shortcuts, KWin 5.27 takes any three fingers that land
#   within 250 ms of each other and close together for its own touchscreen swipe gesture
#   (GlobalShortcutFilter: it cancels them to the client and swallows the third), which would
#   stand in for touchd's cancel of the admin hold.
# - wev is the session program (--exit-with-session): KWin keeps that program's stdout on a pipe it
#   never reads, so `sh -c` sends wev's output to the log file (line-buffered: stdbuf -oL).
# - KWin places a new window centred, at the size it asks for (wev: 640x480 of the 1280x800
#   output); a window rule (kwinrulesrc) makes wev fullscreen, as a kiosk's app is, so that the
#   taps in the screen's edge zone land on it.

KIOSK_USER=touchd-kiosk
KIOSK_HOME=/var/lib/touchd-kiosk
KIOSK_UNIT=touchd-kiosk-kwin
KIOSK_VT=1
KWIN_SCRATCH="$SCRATCH/kwin" # the kiosk user's: wev writes its log here

have_kwin() { command -v kwin_wayland >/dev/null && command -v wev >/dev/null && command -v stdbuf >/dev/null; }
need_kwin() {
  have_kwin || skip "kwin_wayland or wev not installed (scripts/setup.sh --vm installs kwin-wayland and wev)"
}

# kiosk_session: the id of the kiosk user's logind session, empty when it has none.
kiosk_session() {
  loginctl list-sessions --no-legend 2>/dev/null | awk -v u="$KIOSK_USER" '$3 == u { print $1; exit }'
}
# session_prop ID NAME: one property of a logind session (Active, Seat, VTNr, Type, Class, Remote).
session_prop() { loginctl show-session "$1" -p "$2" --value 2>/dev/null; }

# kwin_journal [FORMAT]: the kiosk unit's journal: systemd's lines about it, the PAM lines, and KWin's
# output (by KWin's name too: pam_systemd moves the process into the session's scope).
kwin_journal() {
  journalctl -b --no-pager -o "${1:-cat}" _SYSTEMD_UNIT="$KIOSK_UNIT.service" + UNIT="$KIOSK_UNIT.service" + SYSLOG_IDENTIFIER=kwin_wayland
}

# kiosk_prepare RULES: what a kiosk unit needs before it starts, for forward-kwin and web-kiosk-kwin:
# D-Bus and systemd-logind running, the kiosk user, KWin's window rules RULES as its kwinrulesrc, an
# empty KWIN_SCRATCH of its own, the DRM card, no getty on the kiosk's VT, and $KIOSK_UNIT's last
# failure forgotten.
kiosk_prepare() {
  systemctl start dbus.socket systemd-logind.service systemd-user-sessions.service ||
    fail "could not start D-Bus and systemd-logind (systemctl start exited $?)" || return
  wait_for 60 systemctl is-active -q systemd-logind.service || fail "systemd-logind not active after 60 s" || return
  if ! id "$KIOSK_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$KIOSK_HOME" --create-home --shell /usr/sbin/nologin "$KIOSK_USER" ||
      fail "useradd $KIOSK_USER exited $?" || return
  fi
  install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$KIOSK_HOME/.config"
  install -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0644 "$1" "$KIOSK_HOME/.config/kwinrulesrc"
  rm -rf "$KWIN_SCRATCH"
  install -d -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0700 "$KWIN_SCRATCH"
  echo "seat0 before the session:"
  loginctl seat-status seat0 --no-pager 2>&1 | head -30
  echo "active VT: $(cat /sys/class/tty/tty0/active 2>/dev/null)"
  udevadm info --query=property --name=/dev/dri/card0 2>&1 | grep -E '^(DEVNAME|ID_SEAT|TAGS|CURRENT_TAGS)=' ||
    fail "no /dev/dri/card0 (bochs-drm on qemu's VGA)" || return
  systemctl stop "getty@tty$KIOSK_VT.service" 2>/dev/null || true
  systemctl reset-failed "$KIOSK_UNIT" 2>/dev/null || true
}

# kiosk_unit_stop: stops $KIOSK_UNIT (KWin ends its program) and waits for its session to close.
kiosk_unit_stop() {
  systemctl stop "$KIOSK_UNIT" 2>/dev/null || true
  local session
  session=$(kiosk_session)
  if [[ -n $session ]]; then
    session_closed() { [[ -z $(kiosk_session) || $(session_prop "$session" State) == closing ]]; }
    wait_for 20 session_closed || loginctl terminate-session "$session" 2>/dev/null || true
  fi
  systemctl reset-failed "$KIOSK_UNIT" 2>/dev/null || true
}

# kwin_start: KWin in the kiosk unit, wev's log in KWIN_WEV_LOG (the kiosk user's file under
# KWIN_SCRATCH; kwin_stop copies it to $OUT). Waits up to 240 s (under TCG it took 67-104 s) until
# wev's toplevel is configured (a non-zero size, acknowledged) and the seat offers touch, then checks
# that the kiosk user's session is active on seat0. Sets KWIN_PID and KWIN_SESSION; fails with the
# reason.
kwin_start() {
  KWIN_WEV_LOG="$KWIN_SCRATCH/wev.log" KWIN_PID="" KWIN_SESSION=""
  # The kiosk's window rule: every window of app id wev fullscreen (2 = Force, wmclassmatch 1 = exact).
  printf '%s\n' '[General]' 'count=1' 'rules=kiosk' '' '[kiosk]' 'Description=the kiosk app fullscreen' \
    'wmclass=wev' 'wmclassmatch=1' 'fullscreen=true' 'fullscreenrule=2' >"$SCRATCH/kwinrulesrc-wev"
  kiosk_prepare "$SCRATCH/kwinrulesrc-wev" || return
  # The display unit as a kiosk has it (a unit file would say the same under [Service]).
  systemd-run --unit="$KIOSK_UNIT" --description="KWin kiosk (VM check forward-kwin)" \
    -p PAMName=login -p User="$KIOSK_USER" -p WorkingDirectory='~' \
    -p TTYPath="/dev/tty$KIOSK_VT" -p TTYReset=yes -p TTYVHangup=yes -p StandardInput=tty-fail \
    -p StandardOutput=journal -p StandardError=journal --setenv=KWIN_COMPOSE=Q \
    /usr/bin/kwin_wayland --drm --no-lockscreen --no-global-shortcuts --no-kactivities \
    --socket wayland-kiosk --exit-with-session "sh -c 'exec stdbuf -oL wev >$KWIN_WEV_LOG 2>&1'" ||
    fail "systemd-run of the kiosk unit exited $?" || return
  KWIN_PID=$(systemctl show -p MainPID --value "$KIOSK_UNIT")
  log "kiosk unit $KIOSK_UNIT started, KWin pid $KWIN_PID"
  kwin_ready() {
    systemctl is-active -q "$KIOSK_UNIT" || return 0
    grep -aA2 'xdg_toplevel\] configure: width: [1-9]' "$KWIN_WEV_LOG" 2>/dev/null | grep -aq 'xdg_surface\] configure' &&
      cage_has_touch "$KWIN_WEV_LOG"
  }
  wait_for 240 kwin_ready
  KWIN_SESSION=$(kiosk_session)
  if [[ -n $KWIN_SESSION ]]; then
    echo "session $KWIN_SESSION:"
    loginctl show-session "$KWIN_SESSION" -p Active -p State -p Seat -p VTNr -p TTY -p Type -p Class -p Remote -p Service -p Leader
  fi
  if ! systemctl is-active -q "$KIOSK_UNIT"; then
    kwin_journal | tail -30
    fail "the kiosk unit stopped before wev was configured ($(systemctl show -p Result --value "$KIOSK_UNIT"), status $(systemctl show -p ExecMainStatus --value "$KIOSK_UNIT")): $(kwin_journal | grep -ai 'fail\|error\|cannot' | tail -2 | tr '\n' ' ')"
    return
  fi
  [[ -n $KWIN_SESSION ]] || fail "the kiosk user has no logind session (pam_systemd did not register one)" || return
  [[ $(session_prop "$KWIN_SESSION" Seat) == seat0 && $(session_prop "$KWIN_SESSION" Active) == yes ]] ||
    fail "session $KWIN_SESSION is not active on seat0 (Seat '$(session_prop "$KWIN_SESSION" Seat)', Active '$(session_prop "$KWIN_SESSION" Active)')" || return
  if ! kwin_ready; then
    head -40 "$KWIN_WEV_LOG" 2>/dev/null
    kwin_journal | tail -30
    local what="wev's surface was not configured"
    grep -aq 'xdg_toplevel\] configure: width: [1-9]' "$KWIN_WEV_LOG" 2>/dev/null &&
      what="the seat never offered touch (capabilities: $(wev_capabilities "$KWIN_WEV_LOG"))"
    fail "$what within 240 s of the kiosk unit's start"
    return
  fi
  log "wev configured: $(grep -a 'xdg_toplevel\] configure: width: [1-9]' "$KWIN_WEV_LOG" | tail -1)"
  sleep 1 # wev's first buffer committed: the window is mapped
}

# kwin_surface: wev's last configured size, "W H" (its fullscreen state on the line after).
kwin_surface() {
  grep -a 'xdg_toplevel\] configure: width: [1-9]' "$KWIN_WEV_LOG" | tail -1 |
    sed -n 's/.*width: \([0-9]*\); height: \([0-9]*\).*/\1 \2/p'
}
kwin_fullscreen() { grep -aA1 'xdg_toplevel\] configure: width: [1-9]' "$KWIN_WEV_LOG" | tail -1 | grep -q fullscreen; }

# kwin_stop: stops the kiosk unit (KWin ends wev) and waits for its session to close; copies wev's
# log to $OUT/forward-kwin-wev.log and the unit's journal (KWin's output) to forward-kwin-kwin.log.
kwin_stop() {
  kiosk_unit_stop
  [[ -f ${KWIN_WEV_LOG:-} ]] && cp "$KWIN_WEV_LOG" "$OUT/forward-kwin-wev.log"
  kwin_journal short-monotonic >"$OUT/forward-kwin-kwin.log" 2>&1
  KWIN_PID=""
}
