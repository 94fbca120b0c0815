# What the kernel said while booting.
. "${CHECKS_LIB:-/lib/checks.sh}"
plan 1
kernel_log | grep -q 'Checked W+X mappings: passed'
result $? wx_mappings "no 'Checked W+X mappings: passed' in the boot log"
finish
