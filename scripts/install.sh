#!/usr/bin/env bash
# Builds touchd in release mode (scripts/build-release.sh: the Swift runtime linked in, so the
# target needs no Swift toolchain) and installs it as a systemd service:
#   binaries      -> $PREFIX/bin (default /usr/local/bin)
#   units, rule   -> /etc/systemd/system/touchd.{service,socket}, /etc/udev/rules.d/70-touchd.rules
#   example scene -> /etc/touchd/scene.yaml (kept if it exists)
#   docs          -> $PREFIX/share/doc/touchd
#   manual pages  -> $PREFIX/share/man/man{1,5,8}: touchctl(1), touchd.scene(5), touchd(8)
# then creates the "touchd" group (members may connect to the socket), reloads systemd and udev,
# and enables and starts touchd.socket (the service starts on the first client or touchscreen).
#
#   scripts/install.sh [--no-build] [--bin-dir DIR] [--no-start] [--destdir DIR]
# --bin-dir takes touchd and touchctl from DIR (prebuilt; implies --no-build, needs no swift).
# --destdir installs into a staging root (packaging, tests) and skips every system change.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1 start=1 destdir="" bindir="" prefix="${PREFIX:-/usr/local}"
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --no-start) start=0 ;;
    --destdir) destdir="$2"; shift ;;
    --bin-dir) bindir="$2"; build=0; shift ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

if ((build)); then
  scripts/setup.sh
  bindir=$(scripts/build-release.sh --quiet)
fi
bin=${bindir:-$(scripts/build-release.sh --bin-path)}

install -d "$destdir$prefix/bin" "$destdir/etc/systemd/system" "$destdir/etc/udev/rules.d" \
  "$destdir/etc/touchd" "$destdir$prefix/share/doc/touchd"
install -m 0755 "$bin/touchd" "$bin/touchctl" "$destdir$prefix/bin/"
sed "s|/usr/local/|$prefix/|g" systemd/touchd.service > "$destdir/etc/systemd/system/touchd.service"
sed "s|/usr/local/|$prefix/|g" systemd/touchd.socket > "$destdir/etc/systemd/system/touchd.socket"
chmod 0644 "$destdir/etc/systemd/system/touchd.service" "$destdir/etc/systemd/system/touchd.socket"
install -m 0644 systemd/70-touchd.rules "$destdir/etc/udev/rules.d/"
if [[ ! -e "$destdir/etc/touchd/scene.yaml" ]]; then
  install -m 0644 config/scene.yaml "$destdir/etc/touchd/scene.yaml"
fi
install -m 0644 README.md docs/*.md "$destdir$prefix/share/doc/touchd/"
for page in docs/man/*.[158]; do
  section=${page##*.}
  install -d "$destdir$prefix/share/man/man$section"
  install -m 0644 "$page" "$destdir$prefix/share/man/man$section/"
done
echo "install: files installed under ${destdir:-/}"

[[ -n "$destdir" ]] && exit 0
getent group touchd >/dev/null || groupadd --system touchd
if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
  systemctl daemon-reload
  udevadm control --reload || true
  if ((start)); then
    systemctl enable --now touchd.socket
    echo "install: touchd.socket enabled; add users to the 'touchd' group to let them connect"
  fi
else
  echo "install: systemd is not running here; enable touchd.socket on the target system"
fi
