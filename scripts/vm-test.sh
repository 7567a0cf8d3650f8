#!/usr/bin/env bash
# The real-kernel test suite: boots Debian's kernel under qemu (TCG software emulation) with this
# machine's root filesystem as the guest's read-only root (9p), and runs touchd and touchctl
# against uinput touchscreens on real /dev/input nodes, udev and systemd. One boot per mode:
#   plain    the guest script is PID 1's child: live == replay, hotplug, SYN_DROPPED, latency
#   systemd  systemd is PID 1: the .deb (scripts/package-deb.sh, lintian on the host) installed,
#            upgraded, removed and purged; socket activation, reload, watchdog, stop, sandbox
#            score; install.sh
# Prints one line per check (PASS/FAIL/SKIP name) and `vm: N passed, M failed`; exits 0 only when
# every check passed, or when the suite cannot run here at all (then it says why and skips).
#
#   scripts/vm-test.sh [--mode plain|systemd|all] [--no-build] [--only REGEX]
# --only runs just the checks whose names match the (bash) regular expression, e.g.
# --only 'guest-kernel|ignore-rules' (later checks may need earlier ones: guest-kernel starts udevd).
# Environment: VM_TIMEOUT (seconds per boot; default 2700 for the plain guest, which plays every
# bundled recording in real time, and 1800 for the systemd guest: its package checks and forward-kwin
# took over 900 s on a loaded host, and web-kiosk-kwin adds 315-480 s), KVER (guest kernel version),
# VM_APPEND (more guest kernel arguments, e.g. "clocksource=tsc tsc=reliable"), SWAY_PREFIX (where
# forward-sway's sway 1.9 is, or is built to: default /opt/touchd-sway).
# Results, guest serial logs and per-check logs: .build/vm/, or VM_RESULTS (a folder under the
# repository: the guest sees it through the root share), for two runs at once (see docs/vm-tests.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=all build=1 only=""
while (($#)); do
  case "$1" in
    --mode) mode="$2"; shift ;;
    --only) only="$2"; shift ;;
    --no-build) build=0 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "vm-test: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$mode" in plain | systemd | all) ;; *) echo "vm-test: --mode plain|systemd|all" >&2; exit 2 ;; esac

results="${VM_RESULTS:-$root/.build/vm}"  # VM_RESULTS: another folder, for two runs at once
# The shared recordings beside the repository (../shared), wherever the clone is.
shared_recordings="$(cd "$root/.." && pwd)/shared/recordings"
# The keypad of the key checks' live == replay cases: ENTER, F1 held 1 s, UP with autorepeats.
keypad_recording="$root/Tests/TouchdSceneTests/Fixtures/keypad.evemu"
# The headphone cases' jack: plugged in at 2 s, pulled out at 6 s (VoiceOver's headphones switch).
headphones_recording="$root/Tests/TouchdSceneTests/Fixtures/headphone-jack.evemu"
# ...and the touchscreen's finger meanwhile: it explores to the button at 3 s and a double tap
# activates it (VoiceOverHeadphonesTests writes and checks this fixture).
headphones_touches="$root/Tests/TouchdSceneTests/Fixtures/headphones-touches.evemu"
# The pen cases: a pen that signs and hovers, and the hand on its panel (PenRejectionTests writes
# and checks both fixtures).
pen_recording="$root/Tests/TouchdSceneTests/Fixtures/pen-signs.evemu"
hand_recording="$root/Tests/TouchdSceneTests/Fixtures/hand-taps.evemu"
# The zoom cases' pinches: the shared recording with the most two-finger episodes (SOURCES.md).
zoom_recording="$shared_recordings/atmel-03eb-201c-cdt10-2finger-taps-pinch-in-out.evemu"

skip_suite() {
  echo "vm: SKIPPED: $*"
  exit 0
}

# What the guest needs from the host: the guest boots *this* machine's filesystem, so every tool
# it runs (evemu, python3-libevdev, udevd, systemd) must be installed here.
vm_packages_present() {
  command -v qemu-system-x86_64 >/dev/null && [[ -x /bin/busybox ]] &&
    command -v evemu-device >/dev/null && command -v gcc >/dev/null &&
    [[ -x /lib/systemd/systemd-udevd ]] && /usr/bin/python3 -c 'import libevdev' 2>/dev/null &&
    command -v dpkg-shlibdeps >/dev/null && command -v lintian >/dev/null &&
    compgen -G '/boot/vmlinuz-*' >/dev/null
}

# Skips (exit 0, with the reason) where the suite cannot run; installs the packages as root.
preflight() {
  [[ $(uname -s) == Linux && $(uname -m) == x86_64 ]] || skip_suite "needs Linux on x86_64 (this is $(uname -sm))"
  if ! vm_packages_present; then
    if [[ $(id -u) -ne 0 ]]; then
      skip_suite "qemu, a kernel image or the guest tools are missing and this is not root; run 'sudo scripts/setup.sh --vm'"
    fi
    scripts/setup.sh --vm
    vm_packages_present || skip_suite "packages still missing after 'scripts/setup.sh --vm'"
  fi
  # The guests boot this machine's root read-only and mount their own /tmp, /run and /dev/shm
  # over it: a repository there is invisible to them (the plain guest's script "not found").
  case "$root/" in
    /tmp/* | /run/* | /dev/shm/*)
      echo "FAIL setup  (the repository is at $root: the guests mount their own /tmp, /run and /dev/shm; clone it elsewhere)"
      echo "vm: 0 passed, 1 failed, 0 skipped"
      exit 1
      ;;
  esac
  kver=${KVER:-$(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -1)}
  kernel="/boot/vmlinuz-$kver"
  # Debian installs the kernel image mode 0600: without root it cannot be read.
  [[ -r $kernel ]] || skip_suite "cannot read $kernel (run as root)"
  [[ -d /lib/modules/$kver/kernel ]] || skip_suite "no modules for kernel $kver"
  [[ -f $shared_recordings/SOURCES.md ]] || skip_suite "no shared recordings at $shared_recordings"
}

# The project's binaries and the harness's C reader. Release builds: they are what install.sh
# installs, what the latency figure should describe, and a debug touchd is too slow under TCG to
# keep up with a 10-finger recording (the kernel drops its events: SYN_DROPPED).
build_binaries() {
  if ((build)); then
    scripts/setup.sh >/dev/null
    echo "vm: building touchd and touchctl"
    if ! scripts/build-release.sh >"$results/build.log" 2>&1; then
      tail -40 "$results/build.log"
      echo "FAIL build"
      echo "vm: 0 passed, 1 failed, 0 skipped"
      exit 1
    fi
  fi
  bindir=$(scripts/build-release.sh --bin-path)
  [[ -x $bindir/touchd && -x $bindir/touchctl ]] || {
    echo "FAIL build  (no release binaries in $bindir; run without --no-build)"
    echo "vm: 0 passed, 1 failed, 0 skipped"
    exit 1
  }
  mkdir -p "$results/bin"
  # shellcheck disable=SC2046  # pkg-config prints several words on purpose
  gcc -O2 -Wall -Wextra -o "$results/bin/evforward" scripts/vm/evforward.c $(pkg-config --cflags --libs libevdev)
  gcc -O2 -Wall -Wextra -o "$results/bin/evflood" scripts/vm/evflood.c
  gcc -O2 -Wall -Wextra -o "$results/bin/emucost" scripts/vm/emucost.c -lpthread
}

# Checks whose tools this host has not got are left out of the plan before the boot (LEFT_OUT in
# env.sh: a planned check that skips fails the suite), each with a `vm: left out NAME: why` line in
# the summary.
left_out=""
declare -A left_out_why=()
leave_out() { # leave_out NAME WHY
  left_out+="${left_out:+ }$1"
  left_out_why[$1]=$2
}

# forward-sway's compositor: sway 1.9 in SWAY_PREFIX (Debian 12 has only 1.7, which drops the
# cancel). When it is missing and this is root, scripts/vm/build-sway.sh builds it once (it clones
# the sources: that needs the network); when there is still none, the check is left out.
sway_prefix=${SWAY_PREFIX:-/opt/touchd-sway}
prepare_sway() {
  local prefix=$sway_prefix reason
  [[ $mode != systemd ]] || return 0
  if [[ ! -x $prefix/bin/sway && $(id -u) -eq 0 ]]; then
    echo "vm: building sway 1.9 into $prefix for forward-sway (scripts/vm/build-sway.sh)"
    timeout 900 scripts/vm/build-sway.sh --prefix "$prefix" >"$results/build-sway.log" 2>&1 || true
  fi
  if [[ ! -x $prefix/bin/sway ]]; then
    reason="no sway 1.9 in $prefix, and scripts/vm/build-sway.sh could not build one"
    [[ -s $results/build-sway.log ]] && reason+=" ($(tail -1 "$results/build-sway.log"))"
    leave_out forward-sway "$reason"
  fi
}

# forward-kwin's compositor and client (systemd guest): Debian 12's kwin-wayland (KWin 5.27) and
# wev, which `scripts/setup.sh --vm` installs (as root, here too, when they are missing); without
# them the check is left out.
prepare_kwin() {
  [[ $mode != plain ]] || return 0
  kwin_missing() {
    command -v kwin_wayland >/dev/null || printf ' kwin_wayland (package kwin-wayland)'
    command -v wev >/dev/null || printf ' wev'
  }
  if [[ -n $(kwin_missing) && $(id -u) -eq 0 ]]; then
    echo "vm: installing kwin-wayland and wev for forward-kwin (scripts/setup.sh --vm)"
    scripts/setup.sh --vm >"$results/setup-kwin.log" 2>&1 || true
  fi
  local missing
  missing=$(kwin_missing)
  [[ -z $missing ]] || leave_out forward-kwin "not installed:$missing; scripts/setup.sh --vm installs kwin-wayland and wev"
  # web-kiosk-kwin: the same KWin with Debian's chromium as its client (scripts/vm/web-kiosk.sh).
  missing=""
  command -v kwin_wayland >/dev/null || missing+=" kwin_wayland (package kwin-wayland)"
  command -v chromium >/dev/null || missing+=" chromium"
  [[ -z $missing ]] || leave_out web-kiosk-kwin "not installed:$missing; scripts/setup.sh --vm installs kwin-wayland, scripts/setup.sh chromium (when apt can)"
}

# The live == replay cases (scripts/vm/recordings.sh), and `touchctl replay --scene` of each on the
# host: what the live daemon in the guest must publish.
expected_replays() {
  local scene=scripts/vm/scenes/equivalence.yaml name rec desc order
  mkdir -p "$results/expected"
  scripts/vm/recordings.sh "$shared_recordings" >"$results/recordings.list"
  while read -r name rec desc order; do
    local args=(replay "$rec")
    [[ $desc != - ]] && args+=(--desc "$desc")
    "$bindir/touchctl" "${args[@]}" --scene "$scene" >"$results/expected/$name.jsonl" 2>"$results/expected/$name.err" ||
      echo "replay-failed $?" >>"$results/expected/$name.err"
    # The frame count (replay without a scene prints one line per frame) for the guest's diagnostics.
    "$bindir/touchctl" "${args[@]}" 2>/dev/null | wc -l >"$results/expected/$name.frames"
  done <"$results/recordings.list"
  # The keypad cases (live-equals-replay-keypad*): the unit tests' keypad fixture on its own scene.
  expected_case keypad "$keypad_recording"
  # The headphone cases (live-equals-replay-headphones*): the jack's switch turning VoiceOver on and
  # off, and the touchscreen exploring and activating while it is on.
  expected_case headphones "$headphones_recording" "$headphones_touches"
  # The pen cases (live-equals-replay-pen*): the pen signs; the hand's taps, ignored while it is near.
  expected_case pen "$pen_recording" "$hand_recording"
  # The zoom cases (live-equals-replay-zoom*): the pinches on a zooming scroll view.
  expected_case zoom "$zoom_recording"
}

# expected_case NAME RECORDING...: the host's replay of the RECORDINGs together (one device each) on
# scripts/vm/scenes/NAME.yaml, and the first one's frame count, for the guest's live == replay case NAME.
expected_case() {
  local name=$1 recording=$2
  "$bindir/touchctl" replay "${@:2}" --scene "scripts/vm/scenes/$name.yaml" \
    >"$results/expected/$name.jsonl" 2>"$results/expected/$name.err" || echo "replay-failed $?" >>"$results/expected/$name.err"
  "$bindir/touchctl" replay "$recording" 2>/dev/null | wc -l >"$results/expected/$name.frames"
}

# The systemd guest's packages (scripts/package-deb.sh): the version of `touchd --version`, checked
# with lintian here (the host line deb-package-lintian), and the same files as a higher version
# for the upgrade check. The guest finds them through env.sh (DEB, DEB_UPGRADE).
debs() {
  local out="$results/deb" version
  rm -rf "$out"
  mkdir -p "$out"
  version=$(scripts/version.sh)
  deb="" deb_upgrade=""
  local t0=$SECONDS
  if deb=$(scripts/package-deb.sh --bin-dir "$bindir" --out "$out" --lintian 2>"$out/package.log"); then
    record PASS deb-package-lintian "$((SECONDS - t0)) s; $(basename "$deb"), lintian: no error or warning (overrides: packaging/deb/lintian-overrides)"
  else
    tail -30 "$out/package.log"
    record FAIL deb-package-lintian "scripts/package-deb.sh --lintian failed; see $out/package.log"
    deb=""
  fi
  deb_upgrade=$(scripts/package-deb.sh --bin-dir "$bindir" --out "$out" --version "$version+vmtest1" 2>>"$out/package.log") ||
    deb_upgrade=""
  echo "vm: packages built in $((SECONDS - t0)) s"
}

initrd() {
  local img="$results/initrd-$kver.img"
  # Rebuilt when the script changes, so a fix to it cannot hide behind a stale image.
  if [[ ! -s $img || scripts/vm/mkinitrd.sh -nt $img ]]; then
    scripts/vm/mkinitrd.sh "$kver" "$img" >&2
  fi
  echo "$img"
}

# Boots one guest; its serial console goes to $out/serial.log. qemu itself exits 0 whatever the
# guest did, so the guest's verdict travels as VMCHECK lines and a final GUEST-EXIT line.
boot() {
  local mode=$1 out="$results/$1" append
  rm -rf "$out"
  mkdir -p "$out"
  # The guest reads its configuration from the results folder, which it sees through the root share.
  cat >"$out/env.sh" <<ENV
ROOT=$root
BIN=$bindir
TOOLS=$results/bin
EXPECTED=$results/expected
RECORDINGS=$shared_recordings
KEYPAD_RECORDING=$keypad_recording
HEADPHONES_RECORDING=$headphones_recording
HEADPHONES_TOUCHES=$headphones_touches
PEN_RECORDING=$pen_recording
HAND_RECORDING=$hand_recording
ZOOM_RECORDING=$zoom_recording
SWIFT_BIN=$(dirname "$(command -v swift)")
ONLY='$only'
LEFT_OUT='$left_out'
SWAY_PREFIX='$sway_prefix'
DEB=${deb:-}
DEB_UPGRADE=${deb_upgrade:-}
ENV
  cp "$results/recordings.list" "$out/recordings.list"
  # systemd: 15 checks took up to 542 s, forward-kwin adds ~170 s, and a boot of all 16 reached 900 s
  # (the package checks at their slowest); web-kiosk-kwin (Chromium under KWin) adds 315-480 s: 1800.
  local vm_timeout=${VM_TIMEOUT:-1800}
  [[ $mode == plain ]] && vm_timeout=${VM_TIMEOUT:-2700}
  if [[ $mode == plain ]]; then
    append="init=$root/scripts/vm/init-plain.sh vmtest.script=$root/scripts/vm/guest-plain.sh"
  else
    append="init=$root/scripts/vm/init-systemd.sh systemd.run=$root/scripts/vm/run-systemd.sh"
    append+=" systemd.run_success_action=poweroff systemd.run_failure_action=poweroff"
    append+=" systemd.show_status=0 vmtest.script=$root/scripts/vm/guest-systemd.sh"
    # apparmor=0: loading the host's AppArmor profiles holds up sysinit.target ~20 s under TCG, and
    # touchd's unit does not use AppArmor.
    append+=" apparmor=0"
  fi
  local t0=$SECONDS qrc=0
  # -accel tcg: nested KVM does not work on these hosts. -no-reboot: a guest panic or reboot ends
  # qemu. The second 9p share is the only writable path out of the guest (results).
  timeout --foreground -k 10 "$vm_timeout" qemu-system-x86_64 -accel tcg -machine q35 -cpu max \
    -smp "$(nproc)" -m 1G -nographic -no-reboot -nic none \
    -kernel "$kernel" -initrd "$(initrd)" \
    -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
    -fsdev "local,id=vmout,path=$out,security_model=none" \
    -device virtio-9p-pci,fsdev=vmout,mount_tag=vmout \
    -append "console=ttyS0 panic=-1 quiet ${VM_APPEND:-} $append" </dev/null >"$out/serial.raw" 2>&1 || qrc=$?
  # Strip terminal escapes and CRs so the log reads (and greps) as text.
  sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$out/serial.raw" | tr -d '\r' >"$out/serial.log"
  echo "vm: $mode boot took $((SECONDS - t0)) s (qemu rc=$qrc)" | tee "$out/timing"
  if [[ $qrc == 124 ]]; then echo "vm: $mode guest TIMEOUT after ${vm_timeout}s" >>"$out/serial.log"; fi
}

passed=0 failed=0 skipped=0
record() { # record STATUS NAME [DETAIL]
  local status=$1 name=$2 detail=${3:-}
  echo "$status $name${detail:+  ($detail)}"
  case "$status" in PASS) passed=$((passed + 1)) ;; FAIL) failed=$((failed + 1)) ;; *) skipped=$((skipped + 1)) ;; esac
}

# Reads the verdicts from the serial log. A check the guest planned but never reported (it hung or
# crashed) fails; so does a boot that never reached its GUEST-EXIT line.
collect() {
  local mode=$1 log="$results/$1/serial.log" status name detail planned reported=" " mode_failed=0
  # The PLAN line can follow the firmware's terminal codes on the same line of the serial log.
  planned=$(grep -ao 'VMCHECK PLAN .*' "$log" | cut -d' ' -f3- | tr '\n' ' ' || true)
  while read -r _ status name detail; do
    record "$status" "$name" "$detail"
    reported+="$name "
    [[ $status == FAIL ]] && mode_failed=1
  done < <(grep -a '^VMCHECK \(PASS\|FAIL\|SKIP\) ' "$log" || true)
  for name in $planned; do
    [[ $reported == *" $name "* ]] || { record FAIL "$name" "not reported: guest stopped early"; mode_failed=1; }
  done
  if ! grep -aq '^GUEST-EXIT rc=' "$log"; then
    record FAIL "boot-$mode" "no GUEST-EXIT line: kernel, init or timeout; see $log"
    mode_failed=1
  elif [[ -z $planned ]]; then
    # A guest that exits before planning anything ran no check: that is no pass.
    record FAIL "boot-$mode" "the guest planned no check ($(grep -ao '^GUEST-EXIT rc=[0-9]*' "$log" | tail -1)); see $log"
    mode_failed=1
  fi
  if ((mode_failed)); then
    echo "---- $mode guest serial log (last 150 lines of $log) ----"
    tail -n 150 "$log"
    echo "---- end of $mode serial log ----"
  fi
}

main() {
  preflight
  mkdir -p "$results"
  local t0=$SECONDS
  build_binaries
  prepare_sway
  prepare_kwin
  expected_replays
  echo "vm: host preparation took $((SECONDS - t0)) s; kernel $kver; results in $results"
  local modes=(plain systemd)
  [[ $mode != all ]] && modes=("$mode")
  [[ $mode == plain ]] || debs
  for m in "${modes[@]}"; do
    boot "$m"
    collect "$m"
  done
  echo "vm: whole suite took $((SECONDS - t0)) s"
  local name
  for name in $left_out; do echo "vm: left out $name: ${left_out_why[$name]}"; done
  echo "vm: $passed passed, $failed failed, $skipped skipped"
  # A skipped check did not pass: only a fully green run exits 0.
  ((failed == 0 && skipped == 0))
}

main
