# A corrupted site: /fault/corrupt-site.sh loads static_keys_corrupt.ko,
# which overwrites its own site with cc cc and enables the key.  On the
# series the kernel must stop naming the site, the key, the bytes it
# expected and the cc cc it found, and saying that a first byte of cc
# leaves the site's size unknown; the distro stops too, with a bare BUG
# (its arch_jump_entry_size() cannot decode the INT3 as a 2- or 5-byte
# instruction; it names neither site nor bytes).  Either way the report
# must fail the boot, the serial log must be kept, and the kernel must
# not have gone on.
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
# VARIANT PATTERN: the line the kernel must print
set -- \
	series 'jump_label: site corrupt_site\+[^ ]* \[static_keys_corrupt\] of key corrupt_key \[static_keys_corrupt\]: expected [0-9a-f ]+, found cc cc' \
	distro 'RIP: 0010:arch_jump_entry_size\+'
plan $(($# / 2))
stopped=0
while [ $# -ge 2 ]; do
	v=$1 pattern=$2
	shift 2
	logs=$root/$v/logs
	if [ ! -f "$root/$v/src/.build/arch/x86/boot/bzImage" ] || [ ! -f "$root/$v/initramfs.cpio" ]; then
		skip "${v}_stops_at_a_corrupted_site" "the $v kernel is not built (make run VARIANT=$v)"
		continue
	fi
	TIMEOUT=120 "$REPO/scripts/boot.sh" "$v" fault-corrupt-site rdinit=/fault/corrupt-site.sh 2>/dev/null
	serial=$logs/fault-corrupt-site.serial
	if "$REPO/scripts/report.py" "$v=$logs:fault-corrupt-site" > "$logs/fault-corrupt-site.report"; then
		result 1 "${v}_stops_at_a_corrupted_site" "the report passed the boot; serial log: $serial"
	elif grep -q 'survived the corrupted site' "$serial"; then
		result 1 "${v}_stops_at_a_corrupted_site" "the kernel went on; serial log: $serial"
	elif ! grep -Eq "$pattern" "$serial"; then
		result 1 "${v}_stops_at_a_corrupted_site" "no line like '$pattern'; serial log: $serial"
	elif [ "$v" = series ] && ! grep -q 'cc starts no NOP or JMP of a site' "$serial"; then
		result 1 "${v}_stops_at_a_corrupted_site" "no line saying the site's size is not known; serial log: $serial"
	else
		diag "$v: $(grep -Eo "$pattern" "$serial" | head -1)"
		stopped=$((stopped + 1))
		result 0 "${v}_stops_at_a_corrupted_site"
	fi
done
diag "figure: corrupted site: $stopped of $subtests kernels stopped before writing over it"
finish
