#!/bin/sh
# rdinit for the harness's own tests: results that are not KTAP.
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox printf 'KTAP version 1\n1..2\nok 1 fine\nthis is not KTAP\n' > /dev/ttyS1
/bin/busybox reboot -f
