# A module with a site on a core-kernel key in __ro_after_init data
# (the checks' kernel patch: static_keys_ro_key, enabled by an initcall
# before that data became read-only): static_keys_ro_user.ko must load
# (attaching its site may not write the key: a fault would stop the
# kernel) and its site must read true, at init and after.
#
# The tree's loader writes such a key when it has no site in the core
# kernel (6.1 seals none; 6.12 seals, at mark_rodata_ro(), only those that
# have core sites), and faults in static_key_set_mod(): the distro is not
# run (see tests/expected-skips; tests/host/kernel_stops.sh boots it to
# that fault); the host says whose keys the kernel has (boot.sh:
# harness.static_keys), and a kernel without jump labels touches no key
# at load.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
if [ ! -f /modules/static_keys_ro_user.ko ]; then
	skip_all "no static_keys_ro_user.ko (no read-only key in this kernel's checks' patches)"
fi
keys=$(sed -n 's/.*harness\.static_keys=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ "$keys" != series ] && has_sites; then
	skip_all "the tree's loader writes a read-only key without core sites: it would fault"
fi
site=/sys/module/static_keys_ro_user/parameters/site
plan 3
insmod /modules/static_keys_ro_user.ko
result $? load_site_on_ro_key
[ "$(cat $site 2>/dev/null)" = Y ]
result $? site_reads_ro_key_true
rmmod static_keys_ro_user
result $? unload
finish
