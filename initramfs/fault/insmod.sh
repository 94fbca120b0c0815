#!/bin/sh
# rdinit for the harness's own tests (tests/host/kernel_stops.sh): load
# /modules/$fault_module.ko, which must stop the kernel (a BUG or a fault,
# then panic: the boot has oops=panic).  fault_module= is on the kernel's
# command line, which hands a parameter it does not know to init in its
# environment.  If the kernel goes on, this init says so and exits QEMU.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
# shellcheck disable=SC2154 # fault_module: from the command line
echo "harness: fault: loading $fault_module.ko" > /dev/kmsg
insmod "/modules/$fault_module.ko"
echo "harness: fault: the kernel survived $fault_module.ko (insmod: $?)" > /dev/kmsg
reboot -f
