# The guest checks' own helpers and readers, on the host with made-up
# input, so that each is seen to fail when what it reads is wrong or
# missing: kernel_log reads past CONFIG_PRINTK_TIME's stamps (a
# defconfig kernel has them); sites_follow fails on a state with no key,
# and on a site that does not follow its key; wx_after_flips (its
# PTDUMP_FILE) fails on a writable and executable range and on a dump it
# cannot read, and passes a good one.
. "${CHECKS_LIB:?}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
plan 6

# kernel_log, log_mark and log_since, with dmesg a stand-in on PATH
mkdir "$t/bin"
cat > "$t/bin/dmesg" << 'EOF'
#!/bin/sh
printf '%s\n' '[    3.159838] static_keys_kunit: expected warning begins' \
	'[    3.160001] WARNING: CPU: 0 PID: 1 at kernel/jump_label.c:1 x' \
	'[   13.2] static_keys_kunit: expected warning ends'
EOF
chmod +x "$t/bin/dmesg"
got=$(PATH=$t/bin:$PATH; kernel_log | sed -n 's/^\(.*\): expected warning begins$/\1/p')
[ "$got" = static_keys_kunit ]
result $? kernel_log_without_timestamps "the announcer read as '$got'"
got=$(PATH=$t/bin:$PATH; window_warnings static_keys_kunit; log_since 2)
[ "$got" = "1
static_keys_kunit: expected warning ends" ]
result $? windows_and_marks_read_stamped_lines "$(echo $got)"

# sites_follow (initramfs/keys.sh), on a state of nothing, a bad one and
# a good one
(
	. "$REPO/initramfs/keys.sh"
	: > "$t/empty"
	printf 'key k+0x0 default=false count=1 sites=1\n  site f+0x4 unlikely nop2\n' > "$t/bad"
	printf 'key k+0x0 default=false count=1 sites=1\n  site f+0x4 unlikely jmp8\n' > "$t/good"
	! sites_follow "$t/empty" > /dev/null && ! sites_follow "$t/bad" > /dev/null &&
		sites_follow "$t/good" > /dev/null
)
result $? sites_follow_fails_on_nothing_and_on_a_wrong_site

# wx_after_flips on dumps of x86-64's format: a good one, one with a
# writable and executable range, one whose ranges say neither x nor NX
wx() {
	PTDUMP_FILE=$1 sh "$REPO/tests/guest/wx_after_flips.sh" > "$1.out" 2>&1
}
printf '%s\n' '---[ High Kernel Mapping ]---' \
	'0xffffffff81000000-0xffffffff82000000   16M     ro         PSE     GLB x  pmd' \
	'0xffffffff82000000-0xffffffff82200000    2M     RW         PSE     GLB NX pmd' \
	'0xffffffff82200000-0xffffffff82400000    2M                               pmd' > "$t/good.dump"
sed 's/RW         PSE     GLB NX/RW         PSE     GLB x /' "$t/good.dump" > "$t/wx.dump"
sed 's/ x  pmd/    pmd/; s/ NX pmd/    pmd/' "$t/good.dump" > "$t/unread.dump"
wx "$t/good.dump"
result $? wx_passes_a_good_dump "$(grep 'not ok' "$t/good.dump.out")"
wx "$t/wx.dump"
[ $? != 0 ] && grep -q 'not ok 2 no_wx_after_flips' "$t/wx.dump.out"
result $? wx_fails_a_writable_executable_range "$(cat "$t/wx.dump.out")"
wx "$t/unread.dump"
[ $? != 0 ] && grep -q 'not ok 1 dump_read .*without x or NX' "$t/unread.dump.out"
result $? wx_fails_a_dump_it_cannot_read "$(cat "$t/unread.dump.out")"
finish
