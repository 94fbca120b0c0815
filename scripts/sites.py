#!/usr/bin/env python3
"""sites.py [--by-insn] VMLINUX: count a kernel's static branch sites.

Reads the __jump_table of an x86-64 or arm64 vmlinux (between
__start___jump_table and __stop___jump_table; entries of s32 code, s32
target, s64 key, each relative to its own field) and the bytes at every
site as linked, and prints one line of key=value pairs:

    sites=N keys=K short=S long=L other=O long_in_reach=R unsorted=U
    table_bytes=B

short: 2-byte sites (NOP2 66 90 or JMP rel8 EB), long: 5-byte (NOP5
0f 1f 44 00 00 or JMP rel32 E9), other: anything else; on arm64 every
site is long (NOP or B, 4 bytes).  With --by-insn the line is the sites
by instruction as linked instead:

    nop2=A jmp8=B nop5=C jmp32=D other=O    (arm64: nop=A b=B other=O)

long_in_reach: the 5-byte sites a 2-byte one would have reached;
unsorted: the entries that follow one of a later key (or the same key and
a later site), the order jump_label_init() sorts into;
table_bytes: the jump table's size (__stop___jump_table less
__start___jump_table).  As modules: function_sizes() and by_key() (make
bench's code size and sites per key).  Standard library only.
"""
import bisect
import struct
import sys

NOP2 = bytes([0x66, 0x90])
NOP5 = bytes([0x0F, 0x1F, 0x44, 0x00, 0x00])
EM_X86_64, EM_AARCH64 = 62, 183


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise SystemExit(f"{path}: not a little-endian ELF64 file")
        self.machine = struct.unpack_from("<H", d, 0x12)[0]
        if self.machine not in (EM_X86_64, EM_AARCH64):
            raise SystemExit(f"{path}: neither x86-64 nor arm64")
        (self.phoff, self.shoff) = struct.unpack_from("<QQ", d, 0x20)
        (self.phentsize, self.phnum, self.shentsize, self.shnum) = \
            struct.unpack_from("<HHHH", d, 0x36)
        self.segments = []
        for i in range(self.phnum):
            off = self.phoff + i * self.phentsize
            (ptype, _flags, poff, vaddr, _paddr, filesz) = \
                struct.unpack_from("<IIQQQQ", d, off)
            if ptype == 1:  # PT_LOAD
                self.segments.append((vaddr, filesz, poff))
        self.symbols = self._symbols()

    def _sections(self):
        d = self.data
        for i in range(self.shnum):
            off = self.shoff + i * self.shentsize
            (_name, stype, _flags, _addr, soff, size, link) = \
                struct.unpack_from("<IIQQQQI", d, off)
            yield stype, soff, size, link

    def _symbols(self):
        """{name: (value, size)}; also self.functions and self.objects,
        every (value, size, name) of STT_FUNC and STT_OBJECT symbols,
        static ones of the same name included."""
        sections = list(self._sections())
        syms = {}
        self.functions, self.objects = set(), []
        for stype, soff, size, link in sections:
            if stype != 2:  # SHT_SYMTAB
                continue
            strtab = sections[link]
            for k in range(0, size, 24):
                (name, info, _other, _shndx, value, ssize) = \
                    struct.unpack_from("<IBBHQQ", self.data, soff + k)
                start = strtab[1] + name
                end = self.data.index(b"\0", start)
                name = self.data[start:end].decode()
                syms[name] = (value, ssize)
                if info & 0xF == 2:
                    self.functions.add((value, ssize, name))
                elif info & 0xF == 1:
                    self.objects.append((value, ssize, name))
        if not syms:
            raise SystemExit("no symbol table (a stripped vmlinux?)")
        return syms

    def read(self, vaddr, n):
        for base, size, off in self.segments:
            if base <= vaddr and vaddr + n <= base + size:
                return self.data[off + vaddr - base:off + vaddr - base + n]
        raise SystemExit(f"address {vaddr:#x} is in no loaded segment")


def instruction(elf, code):
    """The instruction a site holds, as linked."""
    if elf.machine == EM_AARCH64:
        insn = struct.unpack("<I", elf.read(code, 4))[0]
        if insn == 0xD503201F:
            return "nop"
        return "b" if insn & 0xFC000000 == 0x14000000 else "other"
    head = elf.read(code, 5)
    if head[:2] == NOP2:
        return "nop2"
    if head[0] == 0xEB:
        return "jmp8"
    if head == NOP5:
        return "nop5"
    if head[0] == 0xE9:
        return "jmp32"
    return "other"


def sites(elf):
    """(site address, key address, target address) of every entry of the
    jump table."""
    try:
        start = elf.symbols["__start___jump_table"][0]
        stop = elf.symbols["__stop___jump_table"][0]
    except KeyError:
        return
    table = elf.read(start, stop - start) if stop > start else b""
    for i in range(0, len(table), 16):
        code_rel, target_rel, key_rel = struct.unpack_from("<iiq", table, i)
        yield (start + i + code_rel,
               (start + i + 8 + key_rel) & ~3 & 0xFFFFFFFFFFFFFFFF,
               start + i + 4 + target_rel)


def in_rel8_reach(code, target):
    """Whether an x86 2-byte JMP at CODE reaches TARGET."""
    return -128 <= target - (code + 2) <= 127


def count(path):
    """Sites, keys, sites by size, and long_in_reach: the x86 5-byte sites
    that a 2-byte instruction would have reached (the assembler sizes each
    site's jump, so there should be none)."""
    elf = Elf(path)
    keys = set()
    stats = {"short": 0, "long": 0, "other": 0, "long_in_reach": 0}
    size = {"nop2": "short", "jmp8": "short", "nop5": "long", "jmp32": "long",
            "nop": "long", "b": "long", "other": "other"}
    n = unsorted = 0
    last = None
    for code, key, target in sites(elf):
        n += 1
        keys.add(key)
        if last is not None and (key, code) < last:
            unsorted += 1
        last = (key, code)
        insn = instruction(elf, code)
        stats[size[insn]] += 1
        if insn in ("nop5", "jmp32") and in_rel8_reach(code, target):
            stats["long_in_reach"] += 1
    out = {"sites": n, "keys": len(keys)}
    out.update(stats)
    out["unsorted"] = unsorted
    try:
        out["table_bytes"] = (elf.symbols["__stop___jump_table"][0] -
                              elf.symbols["__start___jump_table"][0])
    except KeyError:
        out["table_bytes"] = 0
    return out


def function_sizes(path):
    """{name: bytes} of the image's functions (st_size of its STT_FUNC
    symbols; static functions of one name summed)."""
    out = {}
    for _value, size, name in Elf(path).functions:
        out[name] = out.get(name, 0) + size
    return out


def by_key(path):
    """{key: [instruction of each of its sites]}, a key named by its
    symbol (name+offset inside an array of keys)."""
    elf = Elf(path)
    objects = sorted(elf.objects)
    starts = [v for v, _s, _n in objects]
    out = {}
    for code, key, _target in sites(elf):
        i = bisect.bisect_right(starts, key) - 1
        name = f"{key:#x}"
        if i >= 0 and key < objects[i][0] + max(objects[i][1], 1):
            off = key - objects[i][0]
            name = objects[i][2] + (f"+{off:#x}" if off else "")
        out.setdefault(name, []).append(instruction(elf, code))
    return out


def by_instruction(path):
    elf = Elf(path)
    names = ("nop", "b") if elf.machine == EM_AARCH64 else \
        ("nop2", "jmp8", "nop5", "jmp32")
    stats = dict.fromkeys(names + ("other",), 0)
    for code, _key, _target in sites(elf):
        stats[instruction(elf, code)] += 1
    return stats


def main(argv):
    if len(argv) == 3 and argv[1] == "--by-insn":
        stats = by_instruction(argv[2])
    elif len(argv) == 2:
        stats = count(argv[1])
    else:
        raise SystemExit("usage: sites.py [--by-insn] VMLINUX")
    print(" ".join(f"{k}={v}" for k, v in stats.items()))


if __name__ == "__main__":
    main(sys.argv)
