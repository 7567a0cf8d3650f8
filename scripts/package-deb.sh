#!/usr/bin/env bash
# Builds the Debian package touchd_<version>_<arch>.deb, offline, with dpkg-deb (Debian 12):
#   - the files of `scripts/install.sh --prefix /usr` (one list of files for both): the static
#     binaries in /usr/bin, the units in /usr/lib/systemd/system, the udev rule in
#     /usr/lib/udev/rules.d, the clients' group in /usr/lib/sysusers.d/touchd.conf, the examples and
#     the JSON Schema in /usr/share/touchd, the manual pages, the completions (zsh's in Debian's
#     /usr/share/zsh/vendor-completions), and /etc/touchd/scene.yaml as a conffile;
#   - /usr/share/doc/touchd/copyright and changelog.gz, lintian's overrides;
#   - the maintainer scripts of packaging/deb/ (what debhelper would generate: sysusers, the udev
#     rule's reload and trigger, touchd.socket enabled and started);
#   - Depends: from dpkg-shlibdeps on the binaries.
# The version is scripts/version.sh's (the one of `touchd --version`), unless --version. The
# Maintainer: is "$DEBFULLNAME <$DEBEMAIL>" when set, else the author of the commit it is built from.
#
#   scripts/package-deb.sh [--bin-dir DIR] [--out DIR] [--version VERSION] [--lintian]
# --bin-dir  prebuilt touchd and touchctl (default: build them with scripts/build-release.sh)
# --out      where the .deb goes (default .build/deb)
# --version  another package version, e.g. a higher one to test upgrades (the binaries keep theirs)
# --lintian  run lintian on the result; its errors and warnings fail the script
# Prints the .deb's path as its last line.
set -euo pipefail
caller=$(pwd) # relative --bin-dir and --out are the caller's
cd "$(dirname "$0")/.."
repo=$(pwd)
absolute() { if [[ $1 == /* ]]; then echo "$1"; else echo "$caller/$1"; fi; }

bindir="" out="$repo/.build/deb" version="" run_lintian=0
while (($#)); do
  case "$1" in
    --bin-dir) bindir=$(absolute "$2"); shift ;;
    --out) out=$(absolute "$2"); shift ;;
    --version) version="$2"; shift ;;
    --lintian) run_lintian=1 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

# The build dependencies and dpkg-dev, lintian (installed when missing, as root or through sudo).
scripts/setup.sh --deb >&2
if [[ -z $bindir ]]; then
  bindir=$(scripts/build-release.sh --quiet)
fi
bindir=$(cd "$bindir" && pwd) || { echo "package-deb: no folder $bindir (--bin-dir)" >&2; exit 1; }
version=${version:-$(scripts/version.sh)}
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || { echo "package-deb: '$version' is not a (native) Debian version" >&2; exit 2; }
arch=$(dpkg --print-architecture)
mkdir -p "$out"
out=$(cd "$out" && pwd)
deb="$out/touchd_${version}_$arch.deb"

work=$(mktemp -d "$out/.stage.XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg="$work/root"

# The files: install.sh's, staged with prefix /usr.
scripts/install.sh --bin-dir "$bindir" --destdir "$pkg" --prefix /usr >/dev/null
# zsh on Debian reads packages' completions from vendor-completions (site-functions is the local
# administrator's, under /usr/local).
install -d "$pkg/usr/share/zsh/vendor-completions"
mv "$pkg"/usr/share/zsh/site-functions/* "$pkg/usr/share/zsh/vendor-completions/"
rmdir "$pkg/usr/share/zsh/site-functions"

doc="$pkg/usr/share/doc/touchd"
install -m 0644 packaging/deb/copyright "$doc/copyright"
# The changelog: one entry per package version, dated by the commit it is built from (two builds
# of one commit give the same file). A native package: changelog.gz, not changelog.Debian.gz.
maintainer=${DEBFULLNAME:+$DEBFULLNAME <${DEBEMAIL:-}>}
maintainer=${maintainer:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
maintainer_re='^[^<>]+ <[^<>@]+@[^<>]+>$'
[[ $maintainer =~ $maintainer_re ]] || {
  echo "package-deb: no maintainer ('$maintainer'): set DEBFULLNAME and DEBEMAIL" >&2
  exit 1
}
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
date=$(date -R -u --date="@$epoch")
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "touchd ($version) unstable; urgency=medium"
  echo
  echo "  * Built by scripts/package-deb.sh from commit $commit of the touchd"
  echo "    repository; its changes are in the repository's history."
  echo
  echo " -- $maintainer  $date"
} | gzip -9n >"$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"
install -d "$pkg/usr/share/lintian/overrides"
install -m 0644 packaging/deb/lintian-overrides "$pkg/usr/share/lintian/overrides/touchd"

# Control files.
install -d "$pkg/DEBIAN"
install -m 0755 packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm "$pkg/DEBIAN/"
install -m 0644 packaging/deb/conffiles "$pkg/DEBIAN/conffiles"
while read -r conffile; do
  [[ -f $pkg$conffile ]] || { echo "package-deb: packaging/deb/conffiles names $conffile, which install.sh did not install" >&2; exit 1; }
done <packaging/deb/conffiles

# Depends: the shared libraries the binaries link (libc, libudev, libevdev, libstdc++, libgcc),
# at the versions dpkg's symbols files give. DT_RELR (scripts/build-release.sh) needs glibc 2.36,
# which the symbols files do not know of: the libc6 floor is raised to it.
mkdir -p "$work/debian"
printf 'Source: touchd\n\nPackage: touchd\nArchitecture: any\n' >"$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e root/usr/bin/touchd -e root/usr/bin/touchctl 2>"$work/shlibdeps.log") || {
  cat "$work/shlibdeps.log" >&2
  echo "package-deb: dpkg-shlibdeps failed" >&2
  exit 1
}
depends=${shlibs#shlibs:Depends=}
if readelf -V "$pkg/usr/bin/touchd" | grep -q GLIBC_ABI_DT_RELR; then
  depends=$(sed -E 's/libc6 \(>= [^)]*\)/libc6 (>= 2.36)/' <<<"$depends")
fi
# systemd-sysusers (postinst), as dh_installsysusers adds it.
depends+=", systemd | systemd-standalone-sysusers | systemd-sysusers"
installed_size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: touchd
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: udev
Suggests: speech-dispatcher, speech-dispatcher-espeak-ng
Section: utils
Priority: optional
Description: touchscreen gesture daemon with UIKit's touch-delivery rules
 touchd reads touchscreens through libevdev, delivers every touch with
 UIKit's rules (hit-testing, the responder chain, gesture recognizers and
 their conflicts) to the views of a YAML scene file, and publishes the
 recognized gestures as JSON lines on a Unix socket to a kiosk app.
 .
 The package has the daemon (a systemd service, socket-activated, started
 too when udev finds a touchscreen), touchctl (inspect devices, record and
 replay touches, validate scenes, talk to the daemon), example scenes and
 their JSON Schema. Members of the group "touchd" may connect to the socket.
CONTROL
(cd "$pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/md5sums" "$pkg/DEBIAN/control"

# Every file dated by the commit, so two builds of one commit give the same archive members.
find "$pkg" -newermt "@$epoch" -exec touch --no-dereference --date="@$epoch" {} +

# gzip at level 6: level 9 (dpkg-deb's default) takes three times as long for 0.5% less, xz
# minutes for 180 MB of binaries here and as long again to unpack on a slow kiosk (and in the VM
# suite's emulated guest); zstd is not a format lintian accepts in Debian 12.
rm -f "$deb"
dpkg-deb --root-owner-group -Zgzip -z6 --build "$pkg" "$deb" >/dev/null
echo "package-deb: $(du -h "$deb" | cut -f1) $(basename "$deb"): Depends: $depends" >&2

if ((run_lintian)); then
  # --fail-on error,warning: a new warning fails the build until it is fixed or overridden (with its
  # reason) in packaging/deb/lintian-overrides.
  lintian --fail-on error,warning --tag-display-limit 0 "$deb" >&2 ||
    { echo "package-deb: lintian found problems in $deb" >&2; exit 1; }
  echo "package-deb: lintian clean (errors and warnings)" >&2
fi
echo "$deb"
