#!/usr/bin/env bash
# Builds sway 1.9 (wlroots 0.17.4, wayland 1.22.0, wayland-protocols 1.32) into a prefix of its
# own, for the VM check forward-sway (scripts/vm/forward.sh): Debian 12 ships sway 1.7, whose
# wlroots 0.15 drops libinput's TOUCH_CANCEL; from wlroots 0.17 the client gets wl_touch.cancel.
#   scripts/vm/build-sway.sh [--src DIR] [--prefix DIR]
#
#   --src DIR      where the four source trees are, or are cloned to (default .build/sway-src):
#                  DIR/wayland-1.22.0, DIR/wayland-protocols-1.32, DIR/wlroots-0.17.4, DIR/sway-1.9
#                  (a release tarball or a checkout of the tag); a missing one is cloned from
#                  upstream at its tag (needs the network)
#   --prefix DIR   where to install (default SWAY_PREFIX, else /opt/touchd-sway: where vm-test.sh
#                  looks; the guest boots this machine's root, so it finds it there)
#
# Clones the sources that are missing, installs the build dependencies with apt when missing (as
# root), builds each project with meson (release, each with an rpath to the prefix so nothing else
# on the machine links against it), and installs it. Only what the check needs is built: wlroots with the libinput backend alone, no
# renderer, no Xwayland; sway without bar, nag, tray, man pages or wallpaper. About a minute of
# building on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/.build/sway-src"
prefix=${SWAY_PREFIX:-/opt/touchd-sway}
while (($#)); do
  case "$1" in
    --src) src=${2:?--src needs a directory}; shift 2 ;;
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-sway: unknown argument $1" >&2; exit 2 ;;
  esac
done

# name tag upstream meson-options, in build order (each builds against the ones before it).
projects=(
  "wayland-1.22.0|1.22.0|https://gitlab.freedesktop.org/wayland/wayland.git|-Ddocumentation=false -Dtests=false"
  "wayland-protocols-1.32|1.32|https://gitlab.freedesktop.org/wayland/wayland-protocols.git|-Dtests=false"
  "wlroots-0.17.4|0.17.4|https://gitlab.freedesktop.org/wlroots/wlroots.git|-Dbackends=libinput -Drenderers=[] -Dallocators=[] -Dxwayland=disabled -Dexamples=false -Dsession=enabled"
  "sway-1.9|1.9|https://github.com/swaywm/sway.git|-Dman-pages=disabled -Dgdk-pixbuf=disabled -Dtray=disabled -Dswaybar=false -Dswaynag=false -Dxwayland=disabled -Ddefault-wallpaper=false -Dbash-completions=false -Dfish-completions=false -Dzsh-completions=false"
)

# The sources first: without them (no network, say) nothing is installed or built.
mkdir -p "$src"
for project in "${projects[@]}"; do
  IFS='|' read -r name tag url _ <<<"$project"
  dir="$src/$name"
  [[ -f $dir/meson.build ]] && continue
  echo "build-sway: cloning $url at $tag into $dir"
  git clone -q --depth 1 --branch "$tag" "$url" "$dir" || {
    echo "build-sway: cannot clone $url; put the $name sources in $dir (a release tarball or a checkout of $tag)" >&2
    exit 1
  }
done

# Debian 12 packages the four builds need (wlroots: libinput, xkbcommon, pixman, drm, seat, udev;
# sway: json-c, pcre2, pango, cairo, evdev; wayland: expat, ffi, xml2).
packages=(meson ninja-build pkg-config libexpat1-dev libffi-dev libxml2-dev libinput-dev
  libxkbcommon-dev libpixman-1-dev libdrm-dev libseat-dev libudev-dev libgbm-dev hwdata
  libjson-c-dev libpcre2-dev libpango1.0-dev libcairo2-dev libevdev-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || { echo "build-sway: missing ${missing[*]}; run as root to install them" >&2; exit 1; }
  echo "build-sway: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$prefix"
lib="$prefix/lib/$(gcc -print-multiarch)"
export PKG_CONFIG_PATH="$lib/pkgconfig:$prefix/share/pkgconfig"
export LDFLAGS="-Wl,-rpath,$lib"
export PATH="$prefix/bin:$PATH" # wayland-scanner 1.22 for the projects after wayland
for project in "${projects[@]}"; do
  IFS='|' read -r name _ _ options <<<"$project"
  build="$src/build-$name"
  echo "build-sway: building $name into $prefix"
  rm -rf "$build"
  # shellcheck disable=SC2086  # options are several words on purpose
  if ! { meson setup "$build" "$src/$name" --prefix="$prefix" -Dbuildtype=release $options &&
    ninja -C "$build" && ninja -C "$build" install; } >"$src/$name.log" 2>&1; then
    tail -30 "$src/$name.log" >&2
    echo "build-sway: $name failed (whole log: $src/$name.log)" >&2
    exit 1
  fi
done
"$prefix/bin/sway" --version
