// SPDX-License-Identifier: GPL-2.0
/*
 * kcore-sites [KEY]: the core kernel's static keys and their sites, read
 * from the running kernel without its help: /proc/kallsyms gives the jump
 * table's bounds and the symbols, /proc/kcore the memory.  It trusts
 * nothing of the kernel under test but the layout of struct jump_entry
 * (three offsets from themselves: s32 code, s32 target, long key, with
 * bit 0 of the key word the branch form and bit 1 init) and of struct
 * static_key (int count, then the entries word, bit 0 the initial value),
 * which the distro kernel and the series share.
 *
 * Output: the format of /sys/kernel/debug/static_keys without the "/size"
 * of each symbol, and without modules (whose tables are not in kallsyms):
 *
 *   key <symbol+offset> default=<true|false> count=<n> sites=<n>
 *     site <symbol+offset> <likely|unlikely> <insn>
 *
 * insn is nop2, nop5, jmp8 or jmp32 (a jump to the entry's target) on
 * x86-64, nop or b (a branch to the target) on arm64, unknown, or freed:
 * a site in init memory (__init_begin to __init_end: .init.text, and the
 * .exit.text of built-in code where the image keeps it), gone after boot.
 * With KEY, only that key's lines (exit 1 if it has none); with
 * --summary, one line
 * "sites=N keys=K short=S long=L other=O freed=F".
 *
 * kcore-sites --static-call KEY (x86-64): the core kernel's static call
 * sites of the static_call_key KEY (a symbol), from the table between
 * __start_static_call_sites and __stop_static_call_sites (struct
 * static_call_site: s32 addr, s32 key, both from themselves, the key's
 * low two bits flags), one line each:
 *
 *   call <symbol+offset> <call|jmp|nop5|unknown> <target address>
 *
 * in init memory "freed" with no target; exit 1 if KEY has no site.
 *
 * kcore-sites --entries (x86-64): for each function name on standard
 * input (ftrace's enabled_functions), the instruction at its entry (a
 * "call" only if it goes to ftrace_caller, ftrace_regs_caller or an
 * ftrace trampoline, else "call-elsewhere" and where it goes), one
 * line each:
 *
 *   entry <name> <call|call-elsewhere <symbol+offset>|nop5|unknown <bytes> at +<offset>|ambiguous|missing>
 *
 * ambiguous: several core-kernel symbols have that name; missing: none.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sym {
	uint64_t addr;
	char name[128];
};

struct site {
	uint64_t code, target, key;
	int likely, init;
};

static struct sym *syms;
static size_t nsyms;
static int kcore;
static Elf64_Phdr *phdrs;
static int nphdrs;

static void fail(const char *what)
{
	fprintf(stderr, "kcore-sites: %s: %s\n", what, errno ? strerror(errno) : "bad input");
	exit(2);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y; /* stable: kallsyms order among aliases */
}

/* Core-kernel symbols only: module lines end in "[module]". */
static void read_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t cap = 0;
	char line[256];

	if (!f)
		fail("/proc/kallsyms");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[128];

		/*
		 * Of what modules add, only ftrace's trampolines
		 * ("[__builtin__ftrace]"), which a traced function's entry
		 * calls when one callback traces it.
		 */
		if (strchr(line, '[') && !strstr(line, "[__builtin__ftrace]"))
			continue;
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3)
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				fail("out of memory");
		}
		syms[nsyms].addr = addr;
		strcpy(syms[nsyms].name, name);
		nsyms++;
	}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	if (!nsyms || !syms[nsyms - 1].addr)
		fail("/proc/kallsyms shows no addresses (kptr_restrict?)");
}

static uint64_t sym_addr(const char *name)
{
	for (size_t i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	fprintf(stderr, "kcore-sites: no symbol %s in /proc/kallsyms\n", name);
	exit(2);
}

/* "symbol+0xoffset" as %pS prints it, less the size. */
static void symbolise(uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = nsyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && syms[lo - 1].addr == syms[lo].addr)
		lo--;
	snprintf(buf, len, "%s+0x%llx", syms[lo].name,
		 (unsigned long long)(addr - syms[lo].addr));
}

static void open_kcore(void)
{
	Elf64_Ehdr eh;

	kcore = open("/proc/kcore", O_RDONLY);
	if (kcore < 0)
		fail("/proc/kcore");
	if (pread(kcore, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		fail("/proc/kcore is not an ELF64 core");
	nphdrs = eh.e_phnum;
	phdrs = calloc(nphdrs, sizeof(*phdrs));
	if (!phdrs || pread(kcore, phdrs, nphdrs * sizeof(*phdrs), eh.e_phoff) !=
		      (ssize_t)(nphdrs * sizeof(*phdrs)))
		fail("/proc/kcore program headers");
}

static void read_kernel(uint64_t addr, void *buf, size_t len)
{
	for (int i = 0; i < nphdrs; i++) {
		Elf64_Phdr *ph = &phdrs[i];

		if (ph->p_type != PT_LOAD || addr < ph->p_vaddr ||
		    addr + len > ph->p_vaddr + ph->p_filesz)
			continue;
		if (pread(kcore, buf, len, ph->p_offset + (addr - ph->p_vaddr)) == (ssize_t)len)
			return;
	}
	fprintf(stderr, "kcore-sites: cannot read %zu bytes at %#llx from /proc/kcore\n",
		len, (unsigned long long)addr);
	exit(2);
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->code < y->code ? -1 : x->code > y->code;
}

#if defined(__x86_64__)
/* The instruction at a site: the NOP or the JMP of its size, or neither. */
static const char *decode(const struct site *s, int *size)
{
	static const uint8_t nop2[] = { 0x66, 0x90 };
	static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	uint8_t b[5];
	int32_t rel32;

	read_kernel(s->code, b, sizeof(b));
	*size = (b[0] == 0xeb || b[0] == 0x66) ? 2 : (b[0] == 0xe9 || b[0] == 0x0f) ? 5 : 0;
	if (!memcmp(b, nop2, 2))
		return "nop2";
	if (!memcmp(b, nop5, 5))
		return "nop5";
	if (b[0] == 0xeb && s->code + 2 + (int8_t)b[1] == s->target)
		return "jmp8";
	memcpy(&rel32, b + 1, 4);
	if (b[0] == 0xe9 && s->code + 5 + rel32 == s->target)
		return "jmp32";
	return "unknown";
}
#elif defined(__aarch64__)
/* The instruction at a site: NOP, or B to the entry's target, or neither. */
static const char *decode(const struct site *s, int *size)
{
	uint32_t insn;
	int64_t offset;

	read_kernel(s->code, &insn, sizeof(insn));
	*size = 4;
	if (insn == 0xd503201f)
		return "nop";
	/* B: imm26, in instructions, signed */
	offset = (int64_t)((int32_t)(insn << 6) >> 6) * 4;
	if ((insn & 0xfc000000) == 0x14000000 && s->code + offset == s->target)
		return "b";
	return "unknown";
}
#else
#error "kcore-sites: no decoder for this architecture"
#endif

#if defined(__x86_64__)
static int static_call_sites(const char *key_name)
{
	uint64_t start = sym_addr("__start_static_call_sites");
	uint64_t stop = sym_addr("__stop_static_call_sites");
	uint64_t key = sym_addr(key_name);
	uint64_t inittext = sym_addr("__init_begin");
	uint64_t einittext = sym_addr("__init_end");
	int32_t *table;
	size_t n, i;
	int found = 0;

	if (stop < start || (stop - start) % 8)
		fail("__start_static_call_sites/__stop_static_call_sites");
	n = (stop - start) / 8;
	table = malloc(stop - start + 1);
	if (!table)
		fail("out of memory");
	read_kernel(start, table, stop - start);
	for (i = 0; i < n; i++) {
		uint64_t addr = start + 8 * i + (int64_t)table[2 * i];
		uint64_t site_key = (start + 8 * i + 4 + (int64_t)table[2 * i + 1]) & ~3ULL;
		static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
		const char *insn = "unknown";
		char where[160];
		uint8_t b[5];
		int32_t rel32;

		if (site_key != key)
			continue;
		found = 1;
		symbolise(addr, where, sizeof(where));
		if (addr >= inittext && addr < einittext) {
			printf("call %s freed\n", where);
			continue;
		}
		read_kernel(addr, b, sizeof(b));
		memcpy(&rel32, b + 1, 4);
		if (b[0] == 0xe8 || b[0] == 0xe9) {
			printf("call %s %s %#llx\n", where, b[0] == 0xe8 ? "call" : "jmp",
			       (unsigned long long)(addr + 5 + rel32));
			continue;
		}
		if (!memcmp(b, nop5, 5))
			insn = "nop5";
		printf("call %s %s -\n", where, insn);
	}
	if (!found)
		fprintf(stderr, "kcore-sites: no static call site of %s\n", key_name);
	return !found;
}
#else
static int static_call_sites(const char *key_name)
{
	fprintf(stderr, "kcore-sites: no static call sites read on this architecture\n");
	return 2;
}
#endif

#if defined(__x86_64__)
static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

/*
 * An ENDBR64 or ENDBR32 (f3 0f 1e fa/fb), or a 4-byte NOP the kernel
 * writes over one at boot: the poison where indirect branches may not
 * land (0f 1f 40 d6), or a plain one (0f 1f 40 00, 66 0f 1f 00; seen
 * on 6.12 under a CPU without IBT).
 */
static bool starts_with_endbr(const uint8_t *b)
{
	static const uint8_t nops[][4] = {
		{ 0x0f, 0x1f, 0x40, 0xd6 },
		{ 0x0f, 0x1f, 0x40, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x00 },
	};

	if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && (b[3] & ~1) == 0xfa)
		return true;
	for (size_t i = 0; i < sizeof(nops) / sizeof(nops[0]); i++)
		if (!memcmp(b, nops[i], 4))
			return true;
	return false;
}

static int function_entries(void)
{
	static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	struct sym *by_name = malloc(nsyms * sizeof(*by_name));
	char line[256];

	if (!by_name)
		fail("out of memory");
	memcpy(by_name, syms, nsyms * sizeof(*by_name));
	qsort(by_name, nsyms, sizeof(*by_name), name_cmp);
	while (fgets(line, sizeof(line), stdin)) {
		struct sym want, *hit;
		const char *insn = "unknown";
		char where[160] = "";
		uint64_t entry;
		uint8_t b[5];
		size_t at;

		if (sscanf(line, "%127s", want.name) != 1)
			continue;
		hit = bsearch(&want, by_name, nsyms, sizeof(*by_name), name_cmp);
		if (!hit) {
			printf("entry %s missing\n", want.name);
			continue;
		}
		at = hit - by_name;
		if ((at > 0 && !strcmp(by_name[at - 1].name, want.name)) ||
		    (at + 1 < nsyms && !strcmp(by_name[at + 1].name, want.name))) {
			printf("entry %s ambiguous\n", want.name);
			continue;
		}
		entry = hit->addr;
		read_kernel(entry, b, sizeof(b));
		if (starts_with_endbr(b)) {
			/* -mfentry's call follows the ENDBR (X86_KERNEL_IBT). */
			entry += 4;
			read_kernel(entry, b, sizeof(b));
		}
		if (b[0] == 0xe8) {
			/* A call counts only if it goes to the tracer. */
			int32_t rel32;

			memcpy(&rel32, b + 1, 4);
			symbolise(entry + 5 + (int64_t)rel32, where, sizeof(where));
			insn = "call-elsewhere";
			if (!strncmp(where, "ftrace_caller+", 14) ||
			    !strncmp(where, "ftrace_regs_caller+", 19) ||
			    !strncmp(where, "ftrace_trampoline+", 18))
				insn = "call";
		} else if (!memcmp(b, nop5, sizeof(nop5))) {
			insn = "nop5";
		}
		if (!strcmp(insn, "call-elsewhere"))
			printf("entry %s %s %s\n", want.name, insn, where);
		else if (!strcmp(insn, "unknown"))
			printf("entry %s %s %02x %02x %02x %02x %02x at +%llu\n", want.name, insn,
			       b[0], b[1], b[2], b[3], b[4], (unsigned long long)(entry - hit->addr));
		else
			printf("entry %s %s\n", want.name, insn);
	}
	free(by_name);
	return 0;
}
#else
static int function_entries(void)
{
	fprintf(stderr, "kcore-sites: no function entries read on this architecture\n");
	return 2;
}
#endif

int main(int argc, char **argv)
{
	const char *only = argc > 1 && strcmp(argv[1], "--summary") ? argv[1] : NULL;
	int summary = argc > 1 && !strcmp(argv[1], "--summary");
	uint64_t start, stop, inittext, einittext;
	unsigned int keys = 0, shorts = 0, longs = 0, other = 0, freed = 0;
	int found = 0;
	struct site *sites;
	size_t n, i, j;
	uint8_t *table;

	read_kallsyms();
	open_kcore();
	if (argc == 3 && !strcmp(argv[1], "--static-call"))
		return static_call_sites(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--entries"))
		return function_entries();
	start = sym_addr("__start___jump_table");
	stop = sym_addr("__stop___jump_table");
	inittext = sym_addr("__init_begin");
	einittext = sym_addr("__init_end");
	if (stop < start || (stop - start) % 16)
		fail("__start___jump_table/__stop___jump_table");
	n = (stop - start) / 16;
	table = malloc(stop - start + 1);
	sites = calloc(n + 1, sizeof(*sites));
	if (!table || !sites)
		fail("out of memory");
	read_kernel(start, table, stop - start);

	for (i = 0; i < n; i++) {
		uint64_t entry = start + 16 * i;
		int32_t code, target;
		int64_t key;

		memcpy(&code, table + 16 * i, 4);
		memcpy(&target, table + 16 * i + 4, 4);
		memcpy(&key, table + 16 * i + 8, 8);
		sites[i].code = entry + code;
		sites[i].target = entry + 4 + target;
		sites[i].key = entry + 8 + key;
		sites[i].likely = sites[i].key & 1;
		sites[i].init = sites[i].code >= inittext && sites[i].code < einittext;
		sites[i].key &= ~3ULL;
	}
	qsort(sites, n, sizeof(*sites), site_cmp);

	for (i = 0; i < n; i = j) {
		struct { int32_t count; int32_t pad; uint64_t entries; } key;
		char name[160], where[160];

		for (j = i; j < n && sites[j].key == sites[i].key; j++)
			;
		keys++;
		read_kernel(sites[i].key, &key, sizeof(key));
		symbolise(sites[i].key, name, sizeof(name));
		if (only && strcmp(only, name))
			continue;
		found = 1;
		if (!summary)
			printf("key %s default=%s count=%d sites=%zu\n", name,
			       key.entries & 1 ? "true" : "false", key.count, j - i);
		for (size_t k = i; k < j; k++) {
			const char *insn = "freed";
			int size = 0;

			if (!sites[k].init)
				insn = decode(&sites[k], &size);
			shorts += size == 2;
			longs += size >= 4;
			other += !sites[k].init && size == 0;
			freed += sites[k].init;
			if (summary)
				continue;
			symbolise(sites[k].code, where, sizeof(where));
			printf("  site %s %s %s\n", where,
			       sites[k].likely ? "likely" : "unlikely", insn);
		}
	}
	if (summary)
		printf("sites=%zu keys=%u short=%u long=%u other=%u freed=%u\n",
		       n, keys, shorts, longs, other, freed);
	if (only && !found) {
		fprintf(stderr, "kcore-sites: no key %s has sites\n", only);
		return 1;
	}
	return 0;
}
