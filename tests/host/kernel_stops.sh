# Kernels that must stop: each row boots a kernel with /fault/insmod.sh,
# which loads one test module.  The report must fail the boot, the serial
# log must be kept and hold the line the row names, and the kernel must
# not have gone on.
#
# corrupted site: static_keys_corrupt.ko overwrites its own site with
# cc cc and enables the key.  The series must stop naming the site, the
# key, the bytes it expected and the cc cc it found, after saying that a
# first byte of cc leaves the site's size unknown; the distro stops too,
# with a bare BUG (its arch_jump_entry_size() cannot decode the INT3 as a
# 2- or 5-byte instruction; it names neither site nor bytes).
#
# read-only key: static_keys_ro_user.ko has a site on a core key in
# __ro_after_init data that has no site in the core kernel (the checks'
# kernel patch lib/static_keys_ro_key.c).  The distro's loader writes that
# key in static_key_set_mod() and faults (6.1 seals no key; 6.12 seals
# only the read-only keys that have core sites); the series attaches the
# site without writing the key (guest check module_site_on_ro_key).  A
# kernel built without the checks' patches has no such module: skipped.
. "${CHECKS_LIB:?}"
. "$REPO/scripts/lib.sh"
root=$("$REPO/scripts/cache-root.sh")
# NAME VARIANT MODULE PATTERN...: the lines (extended regexps) the kernel
# must print, one argument each, the row ended by '--'
set -- \
	series_stops_at_a_corrupted_site series static_keys_corrupt \
		'cc starts no NOP or JMP of a site' \
		'jump_label: site corrupt_site\+[^ ]* \[static_keys_corrupt\] of key corrupt_key \[static_keys_corrupt\]: expected [0-9a-f ]+, found cc cc' -- \
	distro_stops_at_a_corrupted_site distro static_keys_corrupt \
		'RIP: 0010:arch_jump_entry_size\+' -- \
	distro_faults_at_a_module_site_of_a_read_only_key distro static_keys_ro_user \
		'BUG: unable to handle page fault' 'RIP: 0010:static_key_set_mod\+' --
plan "$(for a; do [ "$a" = -- ] && echo; done | wc -l)"
stopped=0 booted=0
while [ $# -ge 4 ]; do
	name=$1 v=$2 module=$3
	shift 3
	patterns='' last=''
	while [ "$1" != -- ]; do
		patterns="$patterns$1
"
		last=$1
		shift
	done
	shift
	logs=$root/$v/logs
	boot=fault-$module
	serial=$logs/$boot.serial
	if ! variant_bootable "$v"; then
		skip "$name" "the $v kernel is not built (make run VARIANT=$v)"
		continue
	fi
	if ! cpio -it < "$root/$v/initramfs.cpio" 2>/dev/null | grep -qx "modules/$module.ko"; then
		skip "$name" "no $module.ko in the $v kernel's initramfs (not in this tree's checks)"
		continue
	fi
	booted=$((booted + 1))
	TIMEOUT=120 "$REPO/scripts/boot.sh" "$v" "$boot" rdinit=/fault/insmod.sh "fault_module=$module" 2>/dev/null
	missing=$(echo "$patterns" | while IFS= read -r pattern; do
		[ -z "$pattern" ] || grep -Eq -- "$pattern" "$serial" || echo "'$pattern'"
	done)
	if "$REPO/scripts/report.py" "$v=$logs:$boot" > "$logs/$boot.report"; then
		result 1 "$name" "the report passed the boot; serial log: $serial"
	elif grep -q "the kernel survived $module.ko" "$serial"; then
		result 1 "$name" "the kernel went on; serial log: $serial"
	elif [ -n "$missing" ]; then
		result 1 "$name" "no line like $(echo $missing); serial log: $serial"
	else
		diag "$v: $(grep -Eo -- "$last" "$serial" | head -1)"
		stopped=$((stopped + 1))
		result 0 "$name"
	fi
done
diag "figure: faulty modules: $stopped of $booted boots stopped the kernel as they must"
finish
