#!/bin/sh
# PID 1 shim of the systemd guest: puts a copy-on-write overlay (tmpfs upper) over the read-only
# 9p host root, so systemd, install.sh and the units can write anywhere; then execs systemd.
# In the overlay it
#  - removes /.dockerenv: systemd would think it runs in a container and ignore the kernel command
#    line (systemd.run= would never run);
#  - empties /etc/fstab: the host's entries name disks the guest does not have (boot hangs);
#  - masks tmp.conf with an empty /etc/tmpfiles.d/tmp.conf: else systemd-tmpfiles-setup empties
#    /tmp at boot ("D /tmp"), deleting the host's /tmp file by file in the overlay: 85 s under TCG.
#  - removes /usr/sbin/policy-rc.d: Debian's container images have one that answers 101 ("do not
#    start services") to deb-systemd-invoke, so the package's postinst would not start touchd.socket
#    nor its prerm stop the daemon; a booted kiosk has none;
#  - removes /var/lib/man-db/auto-update: with it, every dpkg run (the package's install, upgrade,
#    remove) ends with man-db's trigger re-indexing the host's manual pages through 9p, minutes
#    under TCG.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
fail() { echo "init-systemd: $*" >/dev/console; echo o >/proc/sysrq-trigger; sleep 30; }
mount -t proc proc /proc
echo 1 >/proc/sys/kernel/sysrq
mount -t tmpfs -o mode=0755 tmpfs /run || fail "tmpfs /run"
mkdir -p /run/ov/upper /run/ov/work /run/ov/root
mount -t overlay overlay -o lowerdir=/,upperdir=/run/ov/upper,workdir=/run/ov/work /run/ov/root ||
  fail "overlay mount failed"
rm -f /run/ov/root/.dockerenv
rm -f /run/ov/root/usr/sbin/policy-rc.d /run/ov/root/var/lib/man-db/auto-update
: >/run/ov/root/etc/fstab
mkdir -p /run/ov/root/etc/tmpfiles.d
: >/run/ov/root/etc/tmpfiles.d/tmp.conf
mkdir -p /run/ov/root/oldroot
umount /proc
cd /run/ov/root || fail "cd overlay"
pivot_root . oldroot || fail "pivot_root"
exec chroot . /bin/sh -c 'umount -l /oldroot; rmdir /oldroot; exec /lib/systemd/systemd'
