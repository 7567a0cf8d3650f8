#!/usr/bin/env bash
# mkinitrd.sh KVER OUT.img
# Builds the guest's initramfs: busybox-static plus the virtio-pci and 9p modules of kernel KVER,
# and an /init that mounts the host's root (exported by qemu as 9p tag "hostroot") read-only and
# switch_roots to the init= named on the kernel command line (scripts/vm/init-*.sh).
# Debian's own initrd cannot do this: it has no 9p root support. The result is about 1.5 MB.
set -euo pipefail

kver=$1 out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,newroot,modules}
cp /bin/busybox "$work/bin/busybox"
for applet in sh mount umount insmod switch_root sed sleep; do ln -s busybox "$work/bin/$applet"; done

# Modules in dependency order (modprobe resolves it, insmod needs it spelled out); the kernel
# keeps them loaded after switch_root, so the guest can mount more 9p shares (the results share).
modprobe -a -S "$kver" --show-depends 9p 9pnet_virtio virtio_pci |
  awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
  while read -r ko; do
    cp "$ko" "$work/modules/"
    echo "insmod /modules/${ko##*/}"
  done >"$work/load-modules.sh"

cat >"$work/init" <<'INIT'
#!/bin/sh
# Runs from the initramfs: load virtio/9p, mount the host root, hand over to init=.
mount -t proc proc /proc
mount -t devtmpfs dev /dev
. /load-modules.sh
# cache=loose: the root is read-only and the host does not change it during a run, so the guest may
# cache pages; without it every exec of a large Swift binary re-reads it through 9p (slow under TCG).
init=$(sed -n 's/.*\binit=\([^ ]*\).*/\1/p' /proc/cmdline)
if ! mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=524288,cache=loose hostroot /newroot; then
  echo "initrd: 9p root mount failed"
  echo o >/proc/sysrq-trigger   # power off rather than hang until the host's timeout
fi
umount /dev /proc
exec switch_root /newroot "${init:-/sbin/init}"
INIT
chmod +x "$work/init"
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
echo "mkinitrd: $out ($(du -h "$out" | cut -f1))"
