#!/bin/sh
# rdinit for the harness's own tests: tests/kmod/static_keys_corrupt.ko
# overwrites its own static branch site, then enables the site's key.  The
# kernel must stop with a report naming the site (BUG, then panic: the
# boot has oops=panic); if it goes on, this init says so and exits QEMU.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
echo "harness: corrupt-site: loading static_keys_corrupt.ko" > /dev/kmsg
insmod /modules/static_keys_corrupt.ko
echo "harness: corrupt-site: the kernel survived the corrupted site (insmod: $?)" > /dev/kmsg
reboot -f
