# shellcheck shell=bash
# shellcheck disable=SC2317  # helpers defined inside functions are called through wait_for
# The web kiosk end to end (issue #44) in the systemd guest: the forwarding kiosk example
# (examples/forward-kiosk: native controls beside touchd views, its scene pushed by PageScene with
# forward:) set up as docs/integration.md, "A browser kiosk", says: touchd as its service with
# forwarding on and the WebSocket endpoint (touchd-websocket.socket, the page's origin allowed), the
# example's display unit (touchd-web-kiosk.service: KWin 5.27 in a logind session) running its
# kiosk-browser (Chromium in kiosk mode) on the page, served on loopback. The unit and the launcher
# are the example's files, installed as the docs say; a drop-in adds only what the guest differs in
# (the user, the QPainter compositing, the page's URL with ?report, the emulation's switches). The
# page reports what it gets to the check's server (scripts/vm/web-kiosk/server.py), which writes it
# to $OUT/web-kiosk-report.jsonl; the check reads it. Sourced by guest-systemd.sh after kwin.sh.
#
# Chromium under TCG (software emulation), in WK_VM_FLAGS: --disable-gpu (software compositing,
# shm buffers to KWin's QPainter) and the switches below. Its sandbox (user namespaces: Debian's
# chromium has no setuid helper) runs as the kiosk user: no --no-sandbox.

WK_PORT=8080
WK_ORIGIN="http://127.0.0.1:$WK_PORT"
WK_EXAMPLE="$ROOT/examples/forward-kiosk"
WK_PAGE="$WK_ORIGIN/examples/forward-kiosk/index.html?forward=Kiosk%20touchscreen&report"
WK_REPORT="$OUT/web-kiosk-report.jsonl"
WK_SCENE="$WK_EXAMPLE/start-scene.yaml"
WK_UNIT=touchd-web-kiosk # the example's unit (check_web_kiosk_kwin makes it KIOSK_UNIT)
# Under TCG the browser process is so slow to answer that its children (the network service, the
# renderer) gave up after Chromium's default 15 s ("Terminating current process after 15 seconds
# with no connection"), and the page never loaded: --ipc-connection-timeout. Fewer processes to
# start (each maps the 280 MB binary through 9p): the GPU process's (software) compositor in the
# browser process, one renderer, no site isolation, no WebUI preloading; no background work.
WK_VM_FLAGS=(--disable-gpu --in-process-gpu --disable-component-update --disable-background-networking
  --disable-sync --disable-default-apps --disable-extensions --disable-breakpad --disable-site-isolation-trials
  --renderer-process-limit=1 --ipc-connection-timeout=600
  --disable-features=Translate,MediaRouter,OptimizationHints,PreloadTopChromeWebUI,OnDeviceModelService,WebGPUService
  --enable-logging=stderr)

have_chromium() { command -v chromium >/dev/null; }

# wk_server_start: the page's server (root, loopback) serving the repository; sets WK_SERVER.
wk_server_start() {
  $PY "$VM/web-kiosk/server.py" "$ROOT" "$WK_PORT" "$WK_REPORT" >"$SCRATCH/wk-server.out" 2>&1 &
  WK_SERVER=$!
  wait_for 30 grep -q listening "$SCRATCH/wk-server.out" || { cat "$SCRATCH/wk-server.out"; fail "the page's server did not start"; }
}
wk_server_stop() {
  [[ -n ${WK_SERVER:-} ]] || return 0
  kill "$WK_SERVER" 2>/dev/null || true
  wait "$WK_SERVER" 2>/dev/null || true
  WK_SERVER=""
}

# The page's reports are read with grep and awk, not Python: under TCG each Python start costs
# about a second, and the waits poll ten times a second. server.py writes json.dumps' lines
# ("key": value, ...), so a report of TYPE with KEY=VALUE has the text `"type": "TYPE"` and
# `"KEY": "VALUE"` (`"KEY": VALUE,` for numbers, and for True and False, written true and false).
# wk_match TYPE [KEY=VALUE...]: the lines of stdin that are such reports.
wk_match() {
  local frags="\"type\": \"$1\"" kv k v
  shift
  for kv in "$@"; do
    k=${kv%%=*} v=${kv#*=}
    case $v in
      True | true) v="true," ;;
      False | false) v="false," ;;
      '' | *[!0-9]*) v="\"$v\"" ;;
      *) v="$v," ;;
    esac
    frags+=$'\x1f'"\"$k\": $v"
  done
  awk -v frags="$frags" 'BEGIN { n = split(frags, f, "\x1f") }
    { for (i = 1; i <= n; i++) if (!index($0, f[i])) next; print }'
}
# wk_count TYPE [KEY=VALUE...]: how many of the page's reports are of TYPE with those fields.
wk_count() { wk_match "$@" <"$WK_REPORT" | wc -l; }
wk_has() { (($(wk_count "$@") > 0)); }
# wk_first_up TYPE [KEY=VALUE...]: the guest uptime at which the first such report arrived.
wk_first_up() { wk_match "$@" <"$WK_REPORT" | head -1 | sed -n 's/.*"up": \([0-9.]*\).*/\1/p'; }
# wk_lines: the number of reports so far (a mark: wk_since N ... reads the reports after it).
wk_lines() { wc -l <"$WK_REPORT"; }
# wk_since N TYPE [KEY=VALUE...]: how many reports after the first N are of TYPE with those fields.
wk_since() {
  local n=$1
  shift
  tail -n +"$((n + 1))" "$WK_REPORT" | wk_match "$@" | wc -l
}
# wk_last_scroll_top: the list's last reported scrollTop (0 before any).
wk_last_scroll_top() {
  local top
  top=$(grep -a '"type": "scroll\(Top\)\?"' "$WK_REPORT" | tail -1 | sed -n 's/.*"scrollTop": \([0-9-]*\).*/\1/p')
  echo "${top:-0}"
}
uptime_now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# wk_kiosk_start: the example's display unit and browser launcher installed as docs/integration.md
# says (/etc/systemd/system, /usr/local/bin, the kiosk user's kwinrulesrc), a drop-in for the guest,
# and the unit started. Returns once the unit runs (wk_kiosk_loaded waits for the page). Sets
# KWIN_PID and WK_T_KWIN (the unit's start).
wk_kiosk_start() {
  KWIN_PID="" KWIN_SESSION=""
  # The browser's files into the page cache (the root is 9p, cache=loose) while KWin starts.
  cat /usr/lib/chromium/chromium /usr/lib/chromium/*.pak /usr/lib/chromium/*.bin /usr/lib/chromium/icudtl.dat >/dev/null 2>&1 &
  kiosk_prepare "$WK_EXAMPLE/kwinrulesrc" || return
  rm -rf "$KIOSK_HOME/.config/chromium" # a fresh profile: the first run as a new kiosk's
  install -m 0644 "$WK_EXAMPLE/$KIOSK_UNIT.service" /etc/systemd/system/ || fail "cannot install the unit" || return
  install -m 0755 "$WK_EXAMPLE/kiosk-browser" /usr/local/bin/ || fail "cannot install kiosk-browser" || return
  install -d "/etc/systemd/system/$KIOSK_UNIT.service.d"
  {
    echo '[Service]'
    echo "User=$KIOSK_USER"
    echo 'Environment=KWIN_COMPOSE=Q' # qemu's VGA card has no GL
    echo "Environment=\"KIOSK_URL=${WK_PAGE//%/%%}\"" # % starts a unit file's specifier
    echo "Environment=\"KIOSK_BROWSER_FLAGS=${WK_VM_FLAGS[*]}\""
    echo 'Restart=no'
  } >"/etc/systemd/system/$KIOSK_UNIT.service.d/vm.conf"
  cat "/etc/systemd/system/$KIOSK_UNIT.service.d/vm.conf"
  systemctl daemon-reload
  WK_T_KWIN=$(uptime_now)
  systemctl start --no-block "$KIOSK_UNIT.service" || fail "systemctl start $KIOSK_UNIT exited $?" || return
  wait_for 30 systemctl is-active -q "$KIOSK_UNIT.service" ||
    fail "the kiosk unit is not active ($(systemctl show -p Result --value "$KIOSK_UNIT"))" || return
  KWIN_PID=$(systemctl show -p MainPID --value "$KIOSK_UNIT")
  log "kiosk unit $KIOSK_UNIT started, KWin pid $KWIN_PID"
}

# wk_chromium_up: the guest's uptime at the browser's first line in the journal (its start, near
# enough: --enable-logging=stderr writes from the first seconds), empty before.
wk_chromium_up() {
  journalctl -b -t kiosk-browser --no-pager -o short-monotonic 2>/dev/null | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p' | head -1
}

# wk_kiosk_loaded: waits up to 420 s from the kiosk unit's start for the page's load report (under
# TCG: KWin ~50 s, Chromium ~150 s more), then checks the kiosk user's logind session. Sets
# KWIN_SESSION.
wk_kiosk_loaded() {
  loaded() { ! systemctl is-active -q "$KIOSK_UNIT" || wk_has load; }
  wait_for "$((420 + ${WK_T_KWIN%.*} - $(cut -d. -f1 /proc/uptime)))" loaded
  KWIN_SESSION=$(kiosk_session)
  if ! wk_has load; then
    journalctl -b -t kiosk-browser --no-pager -o cat 2>/dev/null | tail -30
    kwin_journal | tail -30
    cat "$WK_REPORT"
    free -m
    dmesg | grep -i -A3 'out of memory\|oom' | tail -8
    echo "KWin's unit started at $WK_T_KWIN, Chromium's first line at $(wk_chromium_up), now $(uptime_now)"
    local why="the page reported no load within 420 s of the kiosk unit's start"
    systemctl is-active -q "$KIOSK_UNIT" || why="the kiosk unit stopped before the page loaded ($(systemctl show -p Result --value "$KIOSK_UNIT"))"
    [[ -n $(wk_chromium_up) ]] || why+="; Chromium wrote nothing (did KWin run kiosk-browser?)"
    fail "$why: $(journalctl -b -t kiosk-browser --no-pager -o cat 2>/dev/null | grep -ai 'error\|fatal' | tail -2 | tr '\n' ' ')"
    return
  fi
  [[ -n $KWIN_SESSION && $(session_prop "$KWIN_SESSION" Active) == yes ]] ||
    fail "the kiosk user's session '$KWIN_SESSION' is not active" || return
}

# wk_kiosk_stop: stops the kiosk unit (KWin ends Chromium), copies Chromium's and KWin's journal,
# and takes the unit and the launcher away again.
wk_kiosk_stop() {
  kiosk_unit_stop
  # KWin ends its session program (Chromium's browser process), whose children follow it; whatever
  # of the kiosk user's is left (its user manager, a straggler) goes with the user, so the later
  # checks get the memory back.
  local left
  gone() { ! pgrep -u "$KIOSK_USER" chromium >/dev/null; }
  wait_for 20 gone || true
  left=$(pgrep -u "$KIOSK_USER" -a 2>/dev/null)
  if [[ -n $left ]]; then
    echo "the kiosk user's processes after the kiosk unit stopped:"
    echo "$left"
    loginctl terminate-user "$KIOSK_USER" 2>/dev/null || true
  fi
  journalctl -b -t kiosk-browser --no-pager -o short-monotonic >"$OUT/web-kiosk-chromium.log" 2>&1
  kwin_journal short-monotonic >"$OUT/web-kiosk-kwin-journal.log" 2>&1
  rm -rf "/etc/systemd/system/$KIOSK_UNIT.service" "/etc/systemd/system/$KIOSK_UNIT.service.d" /usr/local/bin/kiosk-browser
  systemctl daemon-reload
  KWIN_PID=""
}

# --- the check ------------------------------------------------------------------------------------
# Panel units (uinput.py: 1920x1080) of page points (the 1280x800 window): x * 1.5, y * 1.35.
# The page (examples/forward-kiosk/kiosk.css): #native (120..540, 120..280), #claimed (120..540,
# 360..520), #list (700..1160, 120..680).
WK_NATIVE="495 270"     # #native's centre (330, 200)
WK_CLAIMED="495 594"    # #claimed's centre (330, 440)

# wk_settle: the reports of a gesture's stray events (a late click) have time to arrive.
wk_settle() { sleep "${1:-1.5}"; }

# web_kiosk_kwin: the check's body (check_web_kiosk_kwin in guest-systemd.sh puts the system back
# after it). Each gesture's expectations are read from the page's reports after a mark (wk_lines);
# the ones that failed are collected, so one run shows them all.
web_kiosk_kwin() {
  local t_check t_chromium t_load t_connected t_scene bad="" mark n
  t_check=$(uptime_now)
  # As a kiosk boots: the compositor and the browser start while touchd takes its new options (the
  # WebSocket socket, the page's origin) and scene; the page connects once the endpoint is up.
  cp "$WK_SCENE" /etc/touchd/scene.yaml
  echo "TOUCHD_OPTIONS=\"--websocket-origin $WK_ORIGIN\"" >/etc/default/touchd
  : >"$WK_REPORT"
  wk_kiosk_start || return
  wk_server_start || return
  enable_socket_unit touchd-websocket.socket || return
  service_forwarding || return
  local vnode=$SERVICE_VNODE
  log "touchd forwards to $vnode"
  wk_kiosk_loaded || return
  t_chromium=$(wk_chromium_up)
  t_load=$(wk_first_up load)
  grep -a '"type": "load' "$WK_REPORT" | cut -c1-300
  free -m
  opens "$KWIN_PID" "$vnode" || fail "KWin (pid $KWIN_PID) has not opened touchd's virtual touchscreen $vnode" || return
  # The page connects and pushes its scene: the window at the output's size, forwarding.
  pushed() { wk_has scene width=1280 height=800 forward="Kiosk touchscreen"; }
  wait_for 120 pushed || { cat "$WK_REPORT"; fail "the page pushed no 1280x800 forwarding scene within 120 s of its load"; return; }
  t_connected=$(wk_first_up connected)
  t_scene=$(wk_first_up scene width=1280 height=800)
  grep -a '"type": "\(connected\|scene\|resize\)' "$WK_REPORT"
  log "Chromium started $(elapsed "$WK_T_KWIN" "$t_chromium") s after KWin, page loaded $(elapsed "$t_chromium" "$t_load") s later, connected $(elapsed "$t_load" "$t_connected") s after, scene $(elapsed "$t_load" "$t_scene") s after the load"
  [[ -n $(wk_first_up touchstart) ]] && bad+=" touches reached the page before any gesture;"
  wk_settle 2

  # 1. A tap on the native button: one click, on it.
  mark=$(wk_lines)
  ui ts tap $WK_NATIVE || return
  clicked() { (($(wk_since "$mark" click) >= 1)); }
  wait_for 30 clicked
  wk_settle
  n=$(wk_since "$mark" click)
  ((n == 1 && $(wk_since "$mark" click id=native) == 1)) || bad+=" the native tap gave $n click(s) ($(wk_since "$mark" click id=native) on #native), not 1;"
  (($(wk_since "$mark" touchstart id=native) == 1)) || bad+=" the native tap gave $(wk_since "$mark" touchstart id=native) touchstart on #native, not 1;"
  echo "native tap: $(tail -n +"$((mark + 1))" "$WK_REPORT" | tr '\n' ' ')"

  # 2. A drag on the list (300 points up, held still before the lift: no fling): it scrolls by
  # about the drag.
  local top0 top1 delta
  top0=$(wk_last_scroll_top)
  mark=$(wk_lines)
  ui ts drag 1395 810 1395 405 30 || return
  ui ts sleep 0.6 || return
  ui ts up || return
  scrolled() { (($(wk_since "$mark" scroll) >= 1)); }
  wait_for 30 scrolled
  wk_settle
  top1=$(wk_last_scroll_top)
  delta=$((top1 - top0))
  echo "list drag: scrollTop $top0 -> $top1"
  # Chromium starts scrolling after its touch slop, and the lift after 0.6 s still leaves no fling:
  # measured 256 and 285.
  ((delta >= 210 && delta <= 360)) || bad+=" the list's drag of 300 scrolled it by $delta (scrollTop $top0 -> $top1), not about 300;"
  (($(wk_since "$mark" click) == 0)) || bad+=" the list's drag gave a click;"

  # 3. A tap on the touchd view: touchd's action, and the browser does not click under it.
  mark=$(wk_lines)
  ui ts tap $WK_CLAIMED || return
  tapped() { wk_has action action=claimed-tap; }
  wait_for 30 tapped || bad+=" no claimed-tap action over the WebSocket for the tap on the touchd view;"
  wk_settle
  (($(wk_since "$mark" click) == 0)) || bad+=" the tap on the touchd view clicked the element under it ($(wk_since "$mark" click id=claimed) on #claimed);"
  local claimed_touches
  claimed_touches="$(wk_since "$mark" touchstart) touchstart, $(wk_since "$mark" touchend) touchend, $(wk_since "$mark" touchcancel) touchcancel"
  echo "touchd view tap: $claimed_touches: $(tail -n +"$((mark + 1))" "$WK_REPORT" | tr '\n' ' ')"

  # 4. The three-finger admin hold over the native button: the admin action, the button's touches
  # cancelled, no click.
  mark=$(wk_lines)
  ui ts hold 3 330 290 150 2.5 || return
  admin() { (($(wk_since "$mark" action action=open-admin) >= 1)); }
  wait_for 30 admin || bad+=" no open-admin action over the WebSocket for the three-finger hold;"
  wk_settle 2
  local hold_cancels
  hold_cancels=$(($(wk_since "$mark" touchcancel) + $(wk_since "$mark" pointercancel)))
  ((hold_cancels >= 1)) || bad+=" the admin hold's fingers were not cancelled in the page (no touchcancel or pointercancel);"
  (($(wk_since "$mark" click) == 0)) || bad+=" the admin hold clicked ($(wk_since "$mark" click id=native) on #native);"
  local hold_touches
  hold_touches="$(wk_since "$mark" touchstart) touchstart, $(wk_since "$mark" touchend) touchend, $(wk_since "$mark" touchcancel) touchcancel, $(wk_since "$mark" pointercancel) pointercancel"
  echo "admin hold: $hold_touches: $(tail -n +"$((mark + 1))" "$WK_REPORT" | tr '\n' ' ')"

  # 5. The edge swipe: the back action, and no touch at all in the page.
  mark=$(wk_lines)
  ui ts pan 4 540 600 540 25 || return
  back() { wk_has action action=go-back; }
  wait_for 30 back || bad+=" no go-back action over the WebSocket for the edge swipe;"
  wk_settle
  n=$(($(wk_since "$mark" touchstart) + $(wk_since "$mark" touchend) + $(wk_since "$mark" touchcancel) + $(wk_since "$mark" click)))
  ((n == 0)) || bad+=" the claimed edge swipe reached the page ($n touch and click events);"
  echo "edge swipe: $(tail -n +"$((mark + 1))" "$WK_REPORT" | tr '\n' ' ')"

  # 6. kill -9 of touchd: the kernel drops the grab and the virtual touchscreen, KWin reads the
  # panel itself: a tap on the native button clicks while touchd is down (fail-open). systemd
  # restarts touchd (Restart=on-failure, RestartSec=1s); the page reconnects and pushes its scene
  # again, and touchd's view works again.
  local pid new_pid t_kill t_tap t_tapped t_new t_ready t_reconnected t_again
  pid=$(systemctl show -p MainPID --value touchd.service)
  mark=$(wk_lines)
  t_kill=$(uptime_now)
  kill -KILL "$pid"
  t_tap=$(uptime_now)
  ui ts tap $WK_NATIVE || return
  t_tapped=$(uptime_now) # the tap was written by then (uinput.py answered)
  wait_for 30 clicked || bad+=" no click for the tap on the native button while touchd was down (kill -9): not fail-open;"
  (($(wk_since "$mark" click id=native) <= 1)) || bad+=" the tap while touchd was down gave $(wk_since "$mark" click id=native) clicks;"
  restarted() {
    new_pid=$(systemctl show -p MainPID --value touchd.service)
    [[ $new_pid != 0 && $new_pid != "$pid" ]] && systemctl is-active -q touchd.service
  }
  wait_for 60 restarted || bad+=" systemd did not restart touchd within 60 s of kill -9;"
  t_new=$(awk -v us="$(systemctl show -p ExecMainStartTimestampMonotonic --value touchd.service)" 'BEGIN { printf "%.2f", us / 1e6 }')
  # When the new touchd was ready (its devices opened, grabbed, forwarding), for the detail.
  ready() { journalctl -u touchd.service "_PID=$new_pid" --no-pager -o short-monotonic | grep -aq 'touchd ready'; }
  wait_for 30 ready
  t_ready=$(journalctl -u touchd.service "_PID=$new_pid" --no-pager -o short-monotonic | grep -a 'touchd ready' | head -1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p')
  again() { (($(wk_since "$mark" reconnected restarted=True) >= 1 && $(wk_since "$mark" scene whole=True width=1280) >= 1)); }
  wait_for 60 again || bad+=" the page did not reconnect and push its whole scene again after the restart;"
  t_reconnected=$(wk_first_up reconnected)
  t_again=$(tail -n +"$((mark + 1))" "$WK_REPORT" | grep -a '"type": "scene"' | head -1 | sed -n 's/.*"up": \([0-9.]*\).*/\1/p')
  wait_for 30 have_forward_node || bad+=" the restarted touchd has no virtual touchscreen;"
  # The click came while no touchd read the panel: the new touchd has read no frame of the tap (a
  # tap that overlapped its start would show at least the lift's frame).
  local frames_after
  frames_after=$(status_counter frames)
  [[ $frames_after == 0 ]] ||
    bad+=" the new touchd read $frames_after frame(s) of the tap meant for the time it was down (the tap ended by $t_tapped, touchd was ready at $t_ready): the tap proves nothing;"
  sleep 1
  local mark2
  mark2=$(wk_lines)
  ui ts tap $WK_CLAIMED || return
  tapped_again() { (($(wk_since "$mark2" action action=claimed-tap) >= 1)); }
  wait_for 30 tapped_again || bad+=" no claimed-tap action after the restart and the page's new push;"
  wk_settle
  (($(wk_since "$mark2" click) == 0)) || bad+=" after the restart, the tap on the touchd view clicked;"
  echo "kill -9: killed at $t_kill, tap at $t_tap (done by $t_tapped), touchd started again at $t_new and ready at $t_ready (pid $pid -> $new_pid), page reconnected at $t_reconnected, scene pushed at $t_again"
  echo "after kill -9: $(tail -n +"$((mark + 1))" "$WK_REPORT" | tr '\n' ' ')"

  (($(wk_count page-error) == 0)) || bad+=" the page reported errors: $(grep -a page-error "$WK_REPORT" | head -2 | tr '\n' ' ');"
  (($(wk_count scene-error) == 0)) || bad+=" touchd refused the page's scene: $(grep -a scene-error "$WK_REPORT" | head -1);"
  bad=${bad%;}
  [[ -z $bad ]] || fail "${bad# }" || return
  note "chromium under kwin (logind session $KWIN_SESSION): chromium started $(elapsed "$WK_T_KWIN" "$t_chromium") s after KWin, page loaded $(elapsed "$t_chromium" "$t_load") s after chromium's start, WebSocket connected $(elapsed "$t_load" "$t_connected") s after the load, scene pushed $(elapsed "$t_load" "$t_scene") s after; native tap 1 click; list drag 300 -> scrollTop +$delta; touchd view tap: claimed-tap, no click ($claimed_touches); admin hold: open-admin, no click ($hold_touches); edge swipe: go-back, no touch; kill -9: a click while down, touchd ready again $(elapsed "$t_kill" "$t_ready") s after the kill, scene pushed again $(elapsed "$t_kill" "$t_again") s after the kill; check $(elapsed "$t_check" "$(uptime_now)") s"
}
