#!/usr/bin/env bash
# Builds touchd in release mode (scripts/build-release.sh: the Swift runtime linked in, so the
# target needs no Swift toolchain) and installs it as a systemd service, in the vendor paths under
# PREFIX (default /usr/local; the Debian package, scripts/package-deb.sh, stages this with /usr):
#   binaries      -> $PREFIX/bin/touchd, touchctl
#   units         -> $PREFIX/lib/systemd/system/touchd.{service,socket}
#   udev rule     -> $PREFIX/lib/udev/rules.d/70-touchd.rules
#   clients' group-> $PREFIX/lib/sysusers.d/touchd.conf (the group "touchd")
#   examples      -> $PREFIX/share/touchd/*.yaml, with the JSON Schema scene.schema.json
#   alerting rules-> $PREFIX/share/touchd/prometheus/touchd-alerts.yml and its promtool unit tests
#   example scene -> /etc/touchd/scene.yaml (kept if it exists)
#   docs          -> $PREFIX/share/doc/touchd
#   manual pages  -> $PREFIX/share/man/man{1,5,8}: touchctl(1), touchd.scene(5), touchd(8), gzipped
#   completions   -> $PREFIX/share/bash-completion/completions, $PREFIX/share/zsh/site-functions,
#                    $PREFIX/share/fish/vendor_completions.d (touchd's and touchctl's)
# systemd, udev and systemd-sysusers read $PREFIX/lib/... for PREFIX /usr and /usr/local only
# (systemd-analyze unit-paths; udev and sysusers.d have the same list). For any other PREFIX the
# units, the rule and touchd.conf go to /etc/systemd/system, /etc/udev/rules.d and /etc/sysusers.d.
# Then, unless --destdir, creates the "touchd" group (members may connect to the socket), reloads
# systemd and udev, re-triggers the input devices, and enables and starts touchd.socket (the
# service starts on the first client or touchscreen).
#
#   scripts/install.sh [--no-build] [--bin-dir DIR] [--no-start] [--destdir DIR] [--prefix DIR]
# --bin-dir takes touchd and touchctl from DIR (prebuilt; implies --no-build, needs no swift).
# --destdir installs into a staging root (packaging, tests) and skips every system change.
# --prefix (or the environment's PREFIX) replaces /usr/local.
set -euo pipefail
caller=$(pwd) # relative --destdir and --bin-dir are the caller's
cd "$(dirname "$0")/.."
absolute() { if [[ $1 == /* ]]; then echo "$1"; else echo "$caller/$1"; fi; }

build=1 start=1 destdir="" bindir="" prefix="${PREFIX:-/usr/local}"
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --no-start) start=0 ;;
    --destdir) destdir=$(absolute "$2"); shift ;;
    --bin-dir) bindir=$(absolute "$2"); build=0; shift ;;
    --prefix) prefix="$2"; shift ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
prefix=${prefix%/}
[[ $prefix == /* ]] || { echo "install.sh: the prefix must be an absolute path (got '$prefix')" >&2; exit 2; }

if ((build)); then
  scripts/setup.sh
  bindir=$(scripts/build-release.sh --quiet)
fi
bin=${bindir:-$(scripts/build-release.sh --bin-path)}
for tool in touchd touchctl; do
  [[ -x $bin/$tool ]] || { echo "install.sh: no executable $bin/$tool (build it: scripts/build-release.sh)" >&2; exit 1; }
done

case "$prefix" in
  /usr | /usr/local) unitdir=$prefix/lib/systemd/system rulesdir=$prefix/lib/udev/rules.d sysusersdir=$prefix/lib/sysusers.d ;;
  *) unitdir=/etc/systemd/system rulesdir=/etc/udev/rules.d sysusersdir=/etc/sysusers.d ;;
esac
docdir=$prefix/share/doc/touchd datadir=$prefix/share/touchd mandir=$prefix/share/man
promdir=$datadir/prometheus
bashdir=$prefix/share/bash-completion/completions zshdir=$prefix/share/zsh/site-functions
fishdir=$prefix/share/fish/vendor_completions.d
root=$destdir

install -d "$root$prefix/bin" "$root$unitdir" "$root$rulesdir" "$root$sysusersdir" "$root/etc/touchd" \
  "$root$docdir" "$root$datadir" "$root$promdir" "$root$bashdir" "$root$zshdir" "$root$fishdir"
install -m 0755 "$bin/touchd" "$bin/touchctl" "$root$prefix/bin/"
# The units name /usr/local (the binary, the docs): rewritten for this prefix.
for unit in touchd.service touchd.socket touchd-websocket.socket touchd-metrics.socket \
  touchd-metrics-textfile.service touchd-metrics-textfile.timer touchd-speech.service; do
  sed "s|/usr/local/|$prefix/|g" "systemd/$unit" >"$root$unitdir/$unit"
  chmod 0644 "$root$unitdir/$unit"
done
install -m 0644 systemd/70-touchd.rules "$root$rulesdir/"
install -m 0644 systemd/touchd.sysusers "$root$sysusersdir/touchd.conf"
install -m 0644 config/*.yaml config/scene.schema.json "$root$datadir/"
# Prometheus alerting rules for a fleet's central Prometheus (docs/operations.md, "Alerting rules"),
# with their unit tests: `promtool test rules` runs them where they are installed.
install -m 0644 packaging/prometheus/touchd-alerts.yml packaging/prometheus/touchd-alerts.test.yml \
  "$root$promdir/"
if [[ ! -e "$root/etc/touchd/scene.yaml" ]]; then
  # The editor's schema comment names the installed schema (the relative one of the repository
  # would look for /etc/touchd/scene.schema.json).
  sed "1s|\$schema=scene.schema.json|\$schema=$datadir/scene.schema.json|" config/scene.yaml >"$root/etc/touchd/scene.yaml"
  chmod 0644 "$root/etc/touchd/scene.yaml"
fi
install -m 0644 README.md docs/*.md "$root$docdir/"
for page in docs/man/*.[158]; do
  section=${page##*.}
  install -d "$root$mandir/man$section"
  # -n: no name or time stamp in the gzip header, so two builds give the same file.
  gzip -9n <"$page" >"$root$mandir/man$section/${page##*/}.gz"
  chmod 0644 "$root$mandir/man$section/${page##*/}.gz"
done
# Completions: touchd's are written by hand (completions/), touchctl's generated by its argument
# parser. Every option of `touchd --help` must appear in touchd's, or the install fails here.
install -m 0644 completions/touchd.bash "$root$bashdir/touchd"
install -m 0644 completions/_touchd "$root$zshdir/_touchd"
install -m 0644 completions/touchd.fish "$root$fishdir/touchd.fish"
missing=""
for option in $("$bin/touchd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
  grep -q -- "$option\b" completions/touchd.bash || missing+=" completions/touchd.bash:$option"
  grep -q -- "$option\(\[\|}\)" completions/_touchd || missing+=" completions/_touchd:$option"
  grep -q -- "-l ${option#--} " completions/touchd.fish || missing+=" completions/touchd.fish:$option"
done
[[ -z $missing ]] || { echo "install.sh: touchd's completions lack options of 'touchd --help':$missing" >&2; exit 1; }
"$bin/touchctl" --generate-completion-script bash | sed '1{/^#!/d}' >"$root$bashdir/touchctl"
"$bin/touchctl" --generate-completion-script zsh >"$root$zshdir/_touchctl"
"$bin/touchctl" --generate-completion-script fish >"$root$fishdir/touchctl.fish"
chmod 0644 "$root$bashdir/touchctl" "$root$zshdir/_touchctl" "$root$fishdir/touchctl.fish"
echo "install: files installed under ${destdir:-/} (prefix $prefix)"

[[ -n "$destdir" ]] && exit 0
# Files of an older install.sh, which put the units and the rule in /etc: they would override the
# ones just installed.
for old in /etc/systemd/system/touchd.service /etc/systemd/system/touchd.socket /etc/udev/rules.d/70-touchd.rules; do
  [[ $old == "$unitdir"/* || $old == "$rulesdir"/* ]] && continue
  [[ -e $old ]] && echo "install: warning: $old overrides $unitdir or $rulesdir (an older install.sh put it there?); remove it unless it is a deliberate local override" >&2
done
if command -v systemd-sysusers >/dev/null; then
  systemd-sysusers "$sysusersdir/touchd.conf"
else
  getent group touchd >/dev/null || groupadd --system touchd
  getent group touchd-uinput >/dev/null || groupadd --system touchd-uinput
fi
systemd=0
if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
  systemd=1
  systemctl daemon-reload
fi
if command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
  udevadm control --reload || true
  # Touchscreens already plugged get the rule's SYSTEMD_WANTS now rather than at their next plug.
  udevadm trigger --subsystem-match=input --action=change || true
  # /dev/uinput gets the touchd-uinput group (forward:) now if its module is loaded.
  udevadm trigger --subsystem-match=misc --sysname-match=uinput --action=change || true
fi
if ((systemd)); then
  if ((start)); then
    systemctl enable --now touchd.socket
    echo "install: touchd.socket enabled; add users to the 'touchd' group to let them connect"
  fi
else
  echo "install: systemd is not running here; enable touchd.socket on the target system"
fi
