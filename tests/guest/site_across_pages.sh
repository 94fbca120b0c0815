# Sites whose instruction crosses a page boundary
# (tests/kmod/static_keys_straddle.c, x86-64): writing one writes two
# pages of text.  The module's fixture must have at least one such site,
# and one whose write after the INT3 crosses the boundary (a 5-byte site;
# else the check fails: the fixture is broken); each is written on and
# off, read back as a JMP to its target and as a NOP, and every function
# takes the branch its key says.
. "${CHECKS_LIB:-/lib/checks.sh}"
[ -f /modules/static_keys_straddle.ko ] ||
	skip_all "no page-straddling fixture (x86-64 modules with patched sites only)"
P=/sys/module/static_keys_straddle/parameters
plan 5
insmod /modules/static_keys_straddle.ko
result $? load
state=$(cat $P/state)
diag "before: $state"
# field NAME: its value in $state
field() {
	echo "$state" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"
}
n=$(field straddling)
[ "${n:-0}" -gt 0 ] && [ "$(field tails_crossing)" -gt 0 ] && [ "$(field nop)" = "$n" ]
result $? fixture_straddles "$state"
echo Y > $P/flip
state=$(cat $P/state)
[ "${n:-0}" -gt 0 ] && [ "$(field jmp)" = "$n" ] && [ "$(field taken)" = 12 ]
result $? written_on_across_pages "$state"
echo N > $P/flip
state=$(cat $P/state)
[ "${n:-0}" -gt 0 ] && [ "$(field nop)" = "$n" ] && [ "$(field jmp)" = 0 ] && [ "$(field taken)" = 0 ]
result $? written_off_across_pages "$state"
diag "figure: sites across a page boundary: $n written on and off"
rmmod static_keys_straddle
result $? unload
finish
