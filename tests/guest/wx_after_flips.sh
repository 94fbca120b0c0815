# After every other check has flipped keys, loaded and unloaded modules
# and patched sites (this check runs last), no kernel mapping may be both
# writable and executable: the page tables are walked again, as
# CONFIG_DEBUG_WX did once at boot (boot_log.wx_mappings), through
# CONFIG_PTDUMP_DEBUGFS's dump (configs/static-keys.config).  A line of the dump is one range with its attributes:
# "RW" or "ro", and "x" or "NX".  PTDUMP_FILE names another dump (a
# host-side try of this script).
. "${CHECKS_LIB:-/lib/checks.sh}"
dump=
for f in ${PTDUMP_FILE:-/sys/kernel/debug/page_tables/kernel /sys/kernel/debug/kernel_page_tables}; do
	[ -r "$f" ] && dump=$f && break
done
[ -n "$dump" ] ||
	skip_all "no page table dump (CONFIG_PTDUMP_DEBUGFS)"
plan 2
ranges=$(grep -c '^0x' "$dump")
# The dump is read as the tokens it is made of: a mapped range says "RW"
# or "ro", and "x" or "NX" (an unmapped one says neither).  A mapped range
# without its execute token, or a dump with no writable or no executable
# range at all (a kernel has both), is a dump this check cannot read: it
# fails rather than find nothing.
unread=$(awk '/^0x/ { w = e = ""
	for (i = 2; i <= NF; i++) {
		if ($i == "RW" || $i == "ro") w = $i
		if ($i == "x" || $i == "NX") e = $i
	}
	if (w != "" && e == "") bad++
	if (w == "RW") rw++
	if (e == "x") x++ }
	END { if (bad) print bad " mapped ranges without x or NX"
	      else if (!rw || !x) print "no writable (" rw + 0 ") or no executable (" x + 0 ") range" }' "$dump")
[ "$ranges" -gt 0 ] && [ -z "$unread" ]
result $? dump_read "$ranges ranges in $dump${unread:+: $unread}"
wx=$(awk '/^0x/ { rw = x = 0
	for (i = 2; i <= NF; i++) { if ($i == "RW") rw = 1; if ($i == "x") x = 1 }
	if (rw && x) print }' "$dump")
diag "figure: $ranges kernel ranges walked after the flips, $(echo "$wx" | grep -c .) writable and executable"
[ -z "$wx" ]
result $? no_wx_after_flips "writable and executable: $(echo "$wx" | head -3)"
finish
