#!/bin/sh
# PID 1 of the plain guest (no systemd). The root is the host's, read-only over 9p: scratch space is
# tmpfs (/run, /tmp), results go to the host through the writable 9p share "vmout" (/run/vmout).
# Runs the script named by vmtest.script= and powers off through sysrq on every path, so qemu exits
# instead of waiting for the host's timeout.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
# devtmpfs has no /dev/fd: bash's process substitution <(...) needs it.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
echo 1 >/proc/sys/kernel/sysrq
script=$(sed -n 's/.*vmtest\.script=\([^ ]*\).*/\1/p' /proc/cmdline)
rc=99
if mkdir -p /run/vmout && mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 vmout /run/vmout; then
  OUT=/run/vmout "$script" >/dev/ttyS0 2>&1
  rc=$?
else
  echo "init-plain: cannot mount the results share" >/dev/ttyS0
fi
sync
echo "GUEST-EXIT rc=$rc" >/dev/ttyS0
echo o >/proc/sysrq-trigger
sleep 30
