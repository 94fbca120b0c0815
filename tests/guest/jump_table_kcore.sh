# The core kernel's jump table as /bin/kcore-sites reads it from
# /proc/kcore: as many sites and keys as the host counted in the vmlinux
# it booted (/lib/sites, from scripts/sites.py), every site a NOP or a JMP
# as its key's count says, and, where the series' debugfs view exists,
# the view saying the same of every key and site.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
has_sites || skip_all "no sites in the jump table (CONFIG_JUMP_LABEL=n)"
plan 3

if ! kcore-sites --summary > $KEYS_TMP/summary 2>&1; then
	result 1 kcore_matches_vmlinux "$(cat $KEYS_TMP/summary)"
else
	diag "kcore: $(cat $KEYS_TMP/summary)"
	diag "vmlinux: $(cat /lib/sites)"
	got=$(sed 's/ short=.*//' $KEYS_TMP/summary)
	want=$(sed 's/ short=.*//' /lib/sites)
	[ "$got" = "$want" ]
	result $? kcore_matches_vmlinux "kcore: $got, vmlinux: $want"
fi

if ! kcore-sites > $KEYS_TMP/all 2> $KEYS_TMP/all.err; then
	result 1 every_site_follows_its_key "$(cat $KEYS_TMP/all.err)"
elif bad=$(sites_follow $KEYS_TMP/all); then
	result 0 every_site_follows_its_key
else
	result 1 every_site_follows_its_key "$bad"
fi

if [ ! -r $VIEW ]; then
	skip view_matches_kcore "no $VIEW (the distro kernel has no view)"
else
	# The view's keys of the core kernel: module keys carry "[module]".
	view_unsized | awk '$1 == "key" { p = index($0, "[") == 0 } p' > $KEYS_TMP/view
	if cmp -s $KEYS_TMP/view $KEYS_TMP/all; then
		diag "view: $(grep -c '^key' $KEYS_TMP/view) keys, $(grep -c '^  site' $KEYS_TMP/view) sites, all as in kcore"
		result 0 view_matches_kcore
	else
		diff $KEYS_TMP/view $KEYS_TMP/all | head -20 | sed 's/^/#   /'
		result 1 view_matches_kcore "the view and /proc/kcore disagree (- view, + kcore)"
	fi
fi
finish
