#!/usr/bin/env bash
# Installs what touchd needs to build on Debian or Ubuntu, only when missing.
# Idempotent: a second run installs nothing and prints nothing but the summary.
#   scripts/setup.sh          build dependencies (libevdev, libudev, pkg-config), Prometheus and
#                             node_exporter for the metrics' tests, speech-dispatcher with
#                             espeak-ng for VoiceOver's speech test, jsonschema for the
#                             scene schema's cross-check when no python3 has it, and pytest for
#                             the Python client's tests when no python3 has it; and, when apt can
#                             install them (else their tests skip, saying so), chromium for the
#                             web kiosk's browser test, node-typescript (tsc) for the JS
#                             client's declarations, and node-ws (with nodejs when there is no
#                             node) for the JS client on a node without WebSocket (Debian 12's 18)
#   scripts/setup.sh --deb    also the Debian packaging tools (scripts/package-deb.sh: dpkg-dev,
#                             lintian)
#   scripts/setup.sh --vm     also the packages of the qemu VM test suite (scripts/vm-test.sh),
#                             which include --deb's (the systemd guest installs the package)
set -euo pipefail

# prometheus and prometheus-node-exporter: promtool, which checks the metrics' exposition
# (MetricsDaemonTests), and the real Prometheus and node_exporter that scrape touchd's endpoint and
# its textfile (PrometheusScrapeTests). speech-dispatcher, its espeak-ng module and espeak-ng
# (libao, its null audio driver, comes with it): the real speech service VoiceOver speaks through
# (SpeechDispatcherTests).
packages=(libevdev-dev libudev-dev pkg-config prometheus prometheus-node-exporter
  speech-dispatcher speech-dispatcher-espeak-ng espeak-ng)
deb=0 vm=0
for arg in "$@"; do
  case "$arg" in
    --deb) deb=1 ;;
    --vm) deb=1 vm=1 ;;
    *) echo "setup: unknown option $arg (--deb, --vm)" >&2; exit 2 ;;
  esac
done
if ((deb)); then
  # dpkg-dev: dpkg-shlibdeps (the package's Depends:); lintian: the package's check.
  packages+=(dpkg-dev lintian)
fi
if ((vm)); then
  # The guest boots this machine's own root: every tool the guest runs is installed here.
  # linux-image-amd64: the guest kernel and its modules (uinput, 9p, overlay); busybox-static and
  # cpio: the initramfs; evemu-tools and python3-libevdev: uinput devices and event playback; gcc
  # (+ libevdev-dev, pkg-config above): the C latency baseline; libinput-tools: libinput
  # debug-events, the other latency reference; systemd and udev: the systemd guest; cage, wev,
  # seatd and xwayland: a real Wayland compositor and client in the plain guest (scripts/vm/cage.sh;
  # Debian's cage will not start without the Xwayland binary); kwin-wayland: KWin 5.27, the
  # compositor of the systemd guest's forward-kwin (scripts/vm/kwin.sh: in a logind session, it
  # passes the admin hold's cancel on to wev; without it vm-test.sh leaves the check out).
  packages+=(linux-image-amd64 qemu-system-x86 busybox-static cpio evemu-tools python3-libevdev
    libevdev-dev gcc libinput-tools systemd udev cage wev seatd xwayland kwin-wayland)
fi

# jsonschema, the scene schema's second validator in the tests, unless a python3 on the PATH has it.
if ! python3 -c 'import jsonschema' 2>/dev/null && ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  packages+=(python3 python3-jsonschema)
fi

# pytest for the Python client's tests (scripts/test.sh), unless a python3 on the PATH has it.
if ! python3 -c 'import pytest' 2>/dev/null && ! /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
  packages+=(python3 python3-pytest python3-venv)
fi

# Wanted, not needed: Debian's chromium (the web kiosk's test in headless Chromium), tsc (the JS
# client's TypeScript declarations) and node-ws (below). When apt cannot install them, their tests
# skip and say so.
optional=()
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && [[ -z "${CHROMIUM:-}" ]]; then
  optional+=(chromium)
fi
if ! command -v tsc >/dev/null; then optional+=(node-typescript); fi
# Debian 12's Node 18 has no WebSocket of its own: the JS client (and its tests) use Debian's
# node-ws there. A node without one gets node-ws; no node at all, Debian's nodejs with it.
if ! command -v node >/dev/null; then
  optional+=(nodejs node-ws)
elif ! node -e 'if (typeof WebSocket !== "function") process.exit(1)' 2>/dev/null &&
  ! dpkg-query -W -f='${Status}' node-ws 2>/dev/null | grep -q "install ok installed"; then
  optional+=(node-ws)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0 && ${#optional[@]} == 0)); then
  echo "setup: all build dependencies present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ((${#missing[@]} > 0)); then
  if ! command -v apt-get >/dev/null; then
    echo "setup: missing ${missing[*]} and no apt-get: install them with your package manager" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done"
fi
if ((${#optional[@]} > 0)); then
  if ! command -v apt-get >/dev/null; then
    echo "setup: no apt-get to install ${optional[*]}: the tests that need them will skip"
    exit 0
  fi
  echo "setup: installing ${optional[*]} (optional)"
  if { ((${#missing[@]} > 0)) || $sudo apt-get update -qq; } &&
    $sudo apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null; then
    echo "setup: done"
  else
    echo "setup: could not install ${optional[*]}: the tests that need them will skip"
  fi
fi
