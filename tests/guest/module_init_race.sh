# A flip that writes a module's init site while the module's init returns
# (tests/kmod/static_keys_init_race.ko: the flip decides while the module
# is coming up, then waits 2 s for text_mutex, which the module holds on
# purpose).  The module's init text must stay until the flip is done: the
# load must succeed, the flip must end, and nothing may fault (PTI and, in
# the debug variant, debug_pagealloc make a read or write of freed memory
# one; report.py fails the boot on an oops).  The tree frees a module's
# init text without waiting for a flip: the distro is not run (see
# tests/expected-skips); the series is told by its debugfs view.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
[ -f /modules/static_keys_init_race.ko ] || skip_all "no static_keys_init_race.ko (x86 with jump entries in modules)"
[ -r "$VIEW" ] || skip_all "the tree frees init text under a pending flip: it would fault"
plan 3
start=$(date +%s)
insmod /modules/static_keys_init_race.ko "text_mutex=0x$(sed -n 's/^\([0-9a-f]*\) . text_mutex$/\1/p' /proc/kallsyms)"
result $? load_while_flip_waits "$(($(date +%s) - start)) s"
flips=$(cat /sys/module/static_keys_init_race/parameters/flips 2>/dev/null)
[ "$flips" = 1 ]
result $? flip_ended "flips of init_key: ${flips:-unreadable}"
rmmod static_keys_init_race
result $? unload
finish
