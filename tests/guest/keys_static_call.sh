# A tracepoint's two kinds of rewritten text side by side: kfree_skb's key,
# whose sites jump into the tracepoint's block, and its static call, whose
# sites in that block call the tracepoint's one probe, or its iterator
# when it has none or several.  tests/kmod/static_keys_tp_probe.ko attaches
# one probe and detaches it again.  The key's sites must follow it
# (flip_check); every live static call site must call the iterator
# before, the probe while it is attached and the iterator after; and UDP
# datagrams to a port nobody listens on, which the stack drops through
# kfree_skb(), must reach the probe only while it is attached.  On x86
# the static call sites are written by text_poke_bp(), which the series
# changes, next to the sites it writes for the key.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
call_key=__SCK__tp_func_kfree_skb
grep -q ' __start_static_call_sites$' /proc/kallsyms ||
	skip_all "no inline static call sites in this kernel"
ip link set lo up
plan 8
insmod /modules/static_keys_tp_probe.ko
result $? load
p=/sys/module/static_keys_tp_probe/parameters
probe=0x$(awk '$3 == "kfree_skb_probe" && $4 == "[static_keys_tp_probe]" { print $1 }' /proc/kallsyms)
iter=0x$(awk '$3 == "__traceiter_kfree_skb" && NF == 3 { print $1 }' /proc/kallsyms)

read_static_calls() {
	kcore-sites --static-call $call_key > $KEYS_TMP/static_calls.$1 2>&1
}

# static_calls WHEN WANT NAME: in what read_static_calls WHEN read, every
# live static call site of the key calls (or tail-jumps to) WANT, and
# there is at least one.
static_calls() {
	awk -v want="$2" '$1 == "call" && $3 != "freed" { n++; if ($4 != want) bad++ }
		END { exit !(n > 0 && !bad) }' $KEYS_TMP/static_calls.$1
	result $? "static_calls_$1" "want every site to go to $3 ($2): $(grep -v freed $KEYS_TMP/static_calls.$1 | tr '\n' ';')"
}

# dropped: send 20 datagrams that nobody receives, print the probe's hits
# after them.
dropped() {
	key-trigger udp-to 127.0.0.1 20 > /dev/null && sleep 0.2 && cat $p/hits
}

read_static_calls before
static_calls before "$iter" __traceiter_kfree_skb
h0=$(cat $p/hits)
flip_check tracepoint_kfree_skb __tracepoint_kfree_skb+0x8 \
	"echo 1 > $p/attach && h1=\$(dropped) && read_static_calls attached" \
	"echo 0 > $p/attach"
h2=$(dropped)
static_calls attached "$probe" kfree_skb_probe
read_static_calls after
static_calls after "$iter" __traceiter_kfree_skb
[ "${h1:-0}" -ge $((h0 + 20)) ] && [ "$h2" = "$h1" ]
result $? probe_called_while_attached "probe hits: ${h0:-?} before, ${h1:-?} after 20 drops attached, ${h2:-?} after 20 more detached"
rmmod static_keys_tp_probe
result $? unload
diag "figure: static calls: $(grep -c -v freed $KEYS_TMP/static_calls.attached) live sites of $call_key read before, while and after the probe is attached, probe hits ${h0:-?}/${h1:-?}/${h2:-?}"
finish
