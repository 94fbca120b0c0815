# scripts/sorttable on relocatable objects, as Makefile.modfinal runs it
# on every x86-64 .ko of the series: a jump table whose entries come in
# the order key_b, key_a must come out key_a, key_b (the relocations
# moved); a table it does not know must be left byte for byte as it was,
# with exit status 0, so that the module still links and its loader sorts
# it: a key in a common symbol, an absolute key, and a table with its
# relocations in two sections (as a livepatch module's .klp.rela may be).
. "${CHECKS_LIB:?}"
root=$("$REPO/scripts/cache-root.sh")
sorttable=$root/series/src/.build/scripts/sorttable
[ -x "$sorttable" ] || skip_all "no $sorttable (make run VARIANT=series)"
command -v as > /dev/null && command -v ld > /dev/null || skip_all "no binutils"
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# object NAME KEY-DIRECTIVES KEY1 KEY2 [LD-FLAGS]: an object with two
# sites, on KEY1 then KEY2, linked with ld -r as Makefile.modfinal links a
# .ko.
object() {
	cat > "$tmp/$1.s" <<EOS
	.text
$2
site1:	jmp out1
site2:	jmp out2
out1:	ret
out2:	ret
	.section __jump_table, "aw"
	.balign 8
	.long site1 - ., out1 - .
	.quad $3 - .
	.long site2 - ., out2 - .
	.quad $4 - .
EOS
	as --64 -o "$tmp/$1.o" "$tmp/$1.s" &&
		ld -r -m elf_x86_64 ${5:-} -o "$tmp/$1.ko" "$tmp/$1.o"
}

# The table's relocations, in order: offset and symbol.
relocs() {
	readelf -rW "$1" | awk '/__jump_table/ { p = 1; next } /^$/ { p = 0 } p && /^[0-9a-f]/ { print $1, $5 }'
}

object sorted '	.globl key_a, key_b' key_b key_a
before=$(relocs "$tmp/sorted.ko" | awk '$1 ~ /8$/ { print $2 }' | tr '\n' ' ')
"$sorttable" "$tmp/sorted.ko"
rc=$?
after=$(relocs "$tmp/sorted.ko" | awk '$1 ~ /8$/ { print $2 }' | tr '\n' ' ')
[ $rc = 0 ] && [ "$before" = "key_b key_a " ] && [ "$after" = "key_a key_b " ]
result $? sorts_by_key "exit $rc; keys before: $before; after: $after"

# unchanged NAME: sorttable exits 0 and leaves the file as it was.
unchanged() {
	sum=$(sha256sum < "$tmp/$1.ko")
	"$sorttable" "$tmp/$1.ko"
	rc=$?
	[ $rc = 0 ] && [ "$(sha256sum < "$tmp/$1.ko")" = "$sum" ]
	result $? "leaves_$1" "exit $rc; $(sha256sum < "$tmp/$1.ko" | cut -c1-12) (was ${sum%% *})"
}

object common '	.comm key_c, 16, 8
	.globl key_a' key_c key_a
unchanged common
# (an absolute key symbol: ld -r --defsym, as gas folds its own into the
# relocation's addend)
object absolute '' key_b key_abs --defsym=key_abs=0x1000
unchanged absolute

# two_relas: the sorted object with its table's relocation section split
# in two, the second a new section header with the same target.
python3 - "$tmp/sorted.o" "$tmp/two_relas.ko" <<'EOP'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
hdrs = [bytearray(d[shoff + i * shentsize:shoff + (i + 1) * shentsize]) for i in range(shnum)]
strtab_off = struct.unpack_from('<Q', hdrs[shstrndx], 0x18)[0]
def name(h):
    off = strtab_off + struct.unpack_from('<I', h, 0)[0]
    return bytes(d[off:d.index(b'\0', off)]).decode()
rela = next(h for h in hdrs if name(h) == '.rela__jump_table')
size, = struct.unpack_from('<Q', rela, 0x20)
half = size // 2 // 24 * 24
second = bytearray(rela)
struct.pack_into('<Q', rela, 0x20, half)
struct.pack_into('<Q', second, 0x18, struct.unpack_from('<Q', rela, 0x18)[0] + half)
struct.pack_into('<Q', second, 0x20, size - half)
hdrs.append(second)
body = d[:shoff] + b''.join(hdrs)
struct.pack_into('<Q', body, 0x28, shoff)
struct.pack_into('<H', body, 0x3c, shnum + 1)
open(sys.argv[2], 'wb').write(body)
EOP
unchanged two_relas

# Not an x86-64 relocatable object at all: refused, as any file it cannot
# read is.
printf 'not an ELF file\n' > "$tmp/garbage.ko"
! "$sorttable" "$tmp/garbage.ko" 2> /dev/null
result $? refuses_a_non_elf_file
finish
