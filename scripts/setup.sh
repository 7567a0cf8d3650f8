#!/usr/bin/env bash
# Installs what touchd needs to build on Debian or Ubuntu, only when missing.
# Idempotent: a second run installs nothing and prints nothing but the summary.
#   scripts/setup.sh          build dependencies (libevdev, libudev, pkg-config)
#   scripts/setup.sh --vm     also the packages of the qemu VM test suite (scripts/vm-test.sh)
set -euo pipefail

packages=(libevdev-dev libudev-dev pkg-config)
if [[ "${1:-}" == "--vm" ]]; then
  # The guest boots this machine's own root: every tool the guest runs is installed here.
  # linux-image-amd64: the guest kernel and its modules (uinput, 9p, overlay); busybox-static and
  # cpio: the initramfs; evemu-tools and python3-libevdev: uinput devices and event playback; gcc
  # (+ libevdev-dev, pkg-config above): the C latency baseline; libinput-tools: libinput
  # debug-events, the other latency reference; systemd and udev: the systemd guest.
  packages+=(linux-image-amd64 qemu-system-x86 busybox-static cpio evemu-tools python3-libevdev
    libevdev-dev gcc libinput-tools systemd udev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all build dependencies present"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "setup: missing ${missing[*]} and no apt-get: install them with your package manager" >&2
  exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
