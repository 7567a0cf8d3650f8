# shellcheck shell=bash
# A real Wayland compositor in the guest (sourced by guest-plain.sh after lib.sh): cage 0.1.4
# (wlroots 0.15) on the headless backend with libinput, and wev as its one fullscreen client, whose
# log shows the wl_touch events the compositor delivered. See docs/vm-tests.md, "cage and wev".
#
# How it runs without logind, a VT or a GPU:
# - cage refuses to run as root (it checks that it cannot get root back), so it runs as nobody,
#   with the group input for the /dev/input nodes (udev makes them root:input 0660).
# - a seatd daemon (root, started here, its socket the user's, VT binding off: SEATD_VTBOUND=0)
#   opens the input nodes for cage (LIBSEAT_BACKEND=seatd). libseat 0.7's noop backend
#   (CAGE_SEAT=noop: no daemon, the user opens the nodes through the group input) does not work
#   with wlroots 0.15: its fd never becomes readable, so wlroots never sees the seat enabled
#   ("Timeout waiting session to become active" after 10 s).
# - WLR_BACKENDS=headless,libinput: one headless output (1280x720) and libinput's udev seat0;
#   WLR_RENDERER=pixman (no DRM node). WLR_LIBINPUT_NO_DEVICES=1 only when there is no input
#   device at all: with it, wlroots 0.15 does not read libinput's queue at start, so the devices
#   already plugged in reach cage only with libinput's next event (a touch, a hotplug). The guest
#   always has its ACPI/PS2 devices, so it is never set there.
# - Debian's cage is built with Xwayland (lazy): it needs /usr/bin/Xwayland to exist and
#   /tmp/.X11-unix to create its sockets in, though no X client ever starts.
# - wev's stdout is a file: stdbuf -oL makes it line-buffered so the log is current.

CAGE_USER=nobody
CAGE_GROUP=nogroup

# sway >= 1.9 (wlroots 0.17), which passes libinput's TOUCH_CANCEL on as wl_touch.cancel, built from
# source into SWAY_PREFIX, which the host's vm-test.sh writes into env.sh (Debian 12 has sway 1.7;
# docs/forward.md says how it is built).
SWAY_PREFIX=${SWAY_PREFIX:-}

# have_cage: whether cage, wev, seatd and Xwayland are installed (the check skips otherwise).
have_cage() {
  command -v cage >/dev/null && command -v wev >/dev/null && command -v seatd >/dev/null &&
    [[ -x /usr/bin/Xwayland ]] && command -v setpriv >/dev/null && command -v stdbuf >/dev/null
}
need_cage() {
  have_cage || skip "cage, wev, seatd or Xwayland not installed (scripts/setup.sh --vm installs them)"
}
need_sway() {
  [[ -n $SWAY_PREFIX && -x $SWAY_PREFIX/bin/sway ]] && command -v wev >/dev/null && command -v seatd >/dev/null &&
    command -v setpriv >/dev/null && command -v stdbuf >/dev/null ||
    skip "no sway in $SWAY_PREFIX (sway >= 1.9 built from source, docs/forward.md), or no wev or seatd"
}

# wl_touch_count LOG KIND: how many wl_touch events of KIND (down, up, motion, frame, cancel, ...)
# wev logged, e.g. "[12:        wl_touch] down: serial: 8; time: 50; id: 0; x: 640.00, y: 360.00".
# Events with arguments end their name with a colon ("down: serial: …"), those without end the
# line ("[14:        wl_touch] cancel").
wl_touch_count() {
  grep -acE "wl_touch\] $2(:|\$)" "$1"
}

# The wl_seat capabilities wev last saw (e.g. "touch"; "none" while the seat has no device).
wev_capabilities() {
  grep -a 'wl_seat\] capabilities:' "$1" | tail -1 | sed 's/.*capabilities: *//'
}
# cage_has_touch LOG: the seat offers touch (cage took a touchscreen; wev asked for wl_touch).
cage_has_touch() { [[ $(wev_capabilities "$1") == *touch* ]]; }

# cage_start LOG [touch]: cage with wev in the background: wev's log in LOG, cage's log (its errors) in
# LOG.cage. Waits up to 180 s until wev's toplevel is configured fullscreen (a non-zero size) and
# acknowledged (the xdg_surface configure after it), and with `touch` (a touchscreen is already
# plugged in) until the seat offers touch. Sets CAGE_PID (setpriv, which execs cage).
cage_start() {
  local log=$1 want=${2:-} env seat=${CAGE_SEAT:-seatd}
  local xdg="$SCRATCH/cage-xdg"
  rm -rf "$xdg"
  mkdir -p "$xdg" /tmp/.X11-unix
  chmod 1777 /tmp/.X11-unix
  chown "$CAGE_USER:$CAGE_GROUP" "$xdg"
  chmod 0700 "$xdg"
  env=(XDG_RUNTIME_DIR="$xdg" "WLR_BACKENDS=headless,libinput" WLR_RENDERER=pixman
    WLR_HEADLESS_OUTPUTS=1 LIBSEAT_BACKEND="$seat" HOME="$xdg" PATH=/usr/local/bin:/usr/bin:/bin)
  compgen -G '/dev/input/event*' >/dev/null || env+=(WLR_LIBINPUT_NO_DEVICES=1)
  # CAGE_ENV: more variables for cage and wev, e.g. WAYLAND_DEBUG=client (wev's protocol
  # messages, with millisecond times, in LOG.cage).
  [[ -z ${CAGE_ENV:-} ]] || env+=("$CAGE_ENV")
  if [[ $seat == seatd ]]; then
    if [[ -z ${SEATD_PID:-} ]]; then
      rm -f /run/seatd.sock
      SEATD_VTBOUND=0 seatd -u "$CAGE_USER" -g "$CAGE_GROUP" -l debug >"$log.seatd" 2>&1 &
      SEATD_PID=$!
      wait_for 60 test -S /run/seatd.sock || { fail "seatd made no /run/seatd.sock: $(tail -3 "$log.seatd" | tr '\n' ' ')"; return; }
    fi
  fi
  : >"$log"
  # COMPOSITOR=sway: sway instead of cage, with a config that starts wev fullscreen on a 1280x720
  # headless output (wev inherits sway's standard output, the log).
  local cmd=(cage -- stdbuf -oL wev)
  if [[ ${COMPOSITOR:-cage} == sway ]]; then
    printf '%s\n' 'output HEADLESS-1 mode --custom 1280x720' 'for_window [app_id="wev"] fullscreen enable' \
      'exec stdbuf -oL wev' >"$xdg/sway.conf"
    chown "$CAGE_USER:$CAGE_GROUP" "$xdg/sway.conf"
    cmd=("$SWAY_PREFIX/bin/sway" -c "$xdg/sway.conf")
  fi
  setpriv --reuid="$CAGE_USER" --regid="$CAGE_GROUP" --groups=input \
    env -i "${env[@]}" "${cmd[@]}" >"$log" 2>"$log.cage" &
  CAGE_PID=$!
  log "cage started, pid $CAGE_PID (seat $seat)"
  configured() {
    exited "$CAGE_PID" && return 0
    grep -aA2 'xdg_toplevel\] configure: width: [1-9]' "$log" | grep -aq 'xdg_surface\] configure'
  }
  wait_for 180 configured
  if exited "$CAGE_PID"; then
    tail -20 "$log.cage"
    wait "$CAGE_PID" 2>/dev/null
    fail "cage exited ($?) before wev was configured: $(grep -a ERROR "$log.cage" | tail -2 | tr '\n' ' ')"
    return
  fi
  configured || { tail -20 "$log.cage"; fail "wev's surface was not configured within 180 s"; return; }
  log "wev configured: $(grep -a 'xdg_toplevel\] configure: width: [1-9]' "$log" | tail -1)"
  if [[ $want == touch ]]; then
    wait_for 120 cage_has_touch "$log" || {
      cat "$log"
      local fd
      for fd in /proc/"$CAGE_PID"/fd/*; do readlink "$fd"; done | grep -a '^/dev/input/' | sed 's/^/cage has open: /'
      fail "the seat never offered touch (cage took no touchscreen)"
      return
    }
  fi
  sleep 1 # wev's first buffer committed: the view is mapped
}

# cage_stop: SIGTERM to cage (it ends wev), SIGKILL after 15 s; then seatd, when it runs.
cage_stop() {
  if [[ -n ${CAGE_PID:-} ]]; then
    kill -TERM "$CAGE_PID" 2>/dev/null || true
    wait_for 15 exited "$CAGE_PID" || kill -KILL "$CAGE_PID" 2>/dev/null || true
    local rc=0
    wait "$CAGE_PID" 2>/dev/null || rc=$?
    log "cage $CAGE_PID stopped, exit status $rc"
    CAGE_PID=""
  fi
  pkill_wev_left
  if [[ -n ${SEATD_PID:-} ]]; then
    kill -TERM "$SEATD_PID" 2>/dev/null || true
    wait "$SEATD_PID" 2>/dev/null || true
    SEATD_PID=""
  fi
}
# A wev left behind by a killed cage: the guest's only wev processes are cage's clients (user nobody).
pkill_wev_left() {
  local pid
  for pid in $(pgrep -x -u "$CAGE_USER" wev 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
}
