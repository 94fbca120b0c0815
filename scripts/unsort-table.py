#!/usr/bin/env python3
"""unsort-table.py IN.ko OUT.ko: a copy of a relocatable ELF64 module
whose __jump_table entries are in the reverse order: each entry's three
relocations move to the mirrored entry's offsets, as scripts/sorttable
moves them to sort.  The loader must then sort the table itself
(module_table_order).  Standard library only."""
import struct
import sys


def main(src, dst):
    d = bytearray(open(src, 'rb').read())
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        sys.exit(f'{src}: not a little-endian ELF64 file')
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    hdr = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
           for i in range(shnum)]
    names = hdr[shstrndx][4]

    def name(h):
        off = names + h[0]
        return bytes(d[off:d.index(b'\0', off)]).decode()
    table = [i for i, h in enumerate(hdr) if name(h) == '__jump_table']
    if not table:
        sys.exit(f'{src}: no __jump_table')
    n = hdr[table[0]][5] // 16
    for h in hdr:
        if h[1] == 4 and h[7] == table[0]:  # SHT_RELA for the table
            for k in range(h[5] // 24):
                at = h[4] + 24 * k
                off, = struct.unpack_from('<Q', d, at)
                entry, field = divmod(off, 16)
                struct.pack_into('<Q', d, at, 16 * (n - 1 - entry) + field)
    open(dst, 'wb').write(d)


if __name__ == '__main__':
    main(*sys.argv[1:])
