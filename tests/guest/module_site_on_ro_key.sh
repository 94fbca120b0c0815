# A module with a site on a core-kernel key in __ro_after_init data
# (6.12's checks' kernel patch: static_keys_ro_key, enabled by an initcall
# before that data became read-only): static_keys_ro_user.ko must load
# (attaching its site may not write the key: a fault would stop the
# kernel) and its site must read true, at init and after.
. "${CHECKS_LIB:-/lib/checks.sh}"
if [ ! -f /modules/static_keys_ro_user.ko ]; then
	skip_all "no static_keys_ro_user.ko (no read-only key in this kernel's checks' patches)"
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
