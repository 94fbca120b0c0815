# Sites in a module's init text (tests/kmod/static_keys_init_text.ko).
# While its init runs, a kprobe on each of its init sites must be refused
# and one on the first instruction of an init function without sites
# accepted: the kernel may still
# rewrite those sites, so they are reserved text.  Once the module is live
# its init text is freed, which the check waits to see (the address of
# init's first instruction in no area of /proc/vmallocinfo): flipping the
# module's own key, and the core kfree_skb tracepoint key, must then write
# the sites in its core text (they must follow the keys) and nothing in
# the freed text, which is unmapped (an oops fails the boot's log check).
. "${CHECKS_LIB:-/lib/checks.sh}"
T=/sys/kernel/tracing
event=$T/events/skb/kfree_skb/enable
[ -f /modules/static_keys_init_text.ko ] ||
	skip_all "no static_keys_init_text.ko: modules carry no jump entries"
[ -w $event ] || skip_all "no $event"
plan 6
insmod /modules/static_keys_init_text.ko
result $? load
p=/sys/module/static_keys_init_text/parameters
sites=$(cat $p/init_sites 2>/dev/null)
refused=$(cat $p/init_sites_refused 2>/dev/null)
accepted=$(cat $p/init_probe_accepted 2>/dev/null)
[ "${sites:-0}" -ge 2 ] && [ "$refused" = "$sites" ] && [ "$accepted" = Y ]
result $? init_sites_reserved_while_live \
	"kprobes on ${refused:-?} of ${sites:-?} init sites refused (want all, at least 2), on an init function's first instruction accepted: ${accepted:-?} (want Y)"

# The loader drops the init text as init returns (initsize reads 0) and
# frees it from a work item after an RCU grace period: wait, up to 10 s,
# until no vmalloc area holds init's first instruction any more.
initsize=$(cat /sys/module/static_keys_init_text/initsize 2>/dev/null)
addr=$(cat $p/init_text 2>/dev/null)
mapped() {
	sed -n 's/^0x\([0-9a-f]*\)-0x\([0-9a-f]*\) .*/\1 \2/p' /proc/vmallocinfo |
		while read -r lo hi; do
			[ $((0x$lo <= 0x$1 && 0x$1 < 0x$hi)) = 1 ] && echo y && break
		done
}
tries=0
while [ -n "$addr" ] && [ "$addr" != 0 ] && [ -n "$(mapped "$addr")" ] && [ $tries -lt 100 ]; do
	sleep 0.1
	tries=$((tries + 1))
done
[ -n "$addr" ] && [ "$addr" != 0 ] && [ -z "$(mapped "$addr")" ]
result $? init_text_freed "init's first instruction (0x${addr:-?}) still in a vmalloc area after $((tries / 10)) s, or not given"
echo 1 > $p/own_key && on=$(cat $p/own_site) &&
	echo 0 > $p/own_key && off=$(cat $p/own_site)
[ "${on:-}/${off:-}" = Y/N ]
result $? own_key_after_init_freed "the core-text site on the module's key read ${on:-?} on, ${off:-?} off (want Y, N); init size ${initsize:-?}"
echo 1 > $event && on=$(cat $p/core_site) &&
	echo 0 > $event && off=$(cat $p/core_site)
[ "${on:-}/${off:-}" = Y/N ]
result $? core_key_after_init_freed "the core-text site on kfree_skb's key read ${on:-?} on, ${off:-?} off (want Y, N)"
rmmod static_keys_init_text
result $? unload
diag "figure: module init text: kprobes on ${refused:-?} of ${sites:-?} init sites refused while init ran; both keys flipped after the init text was freed (init size now ${initsize:-?})"
finish
