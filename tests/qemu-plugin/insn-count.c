// SPDX-License-Identifier: GPL-2.0
/*
 * insn-count.c: a QEMU TCG plugin for make bench's instruction account
 * (scripts/bench-boot.sh's profile boots).  It counts how often each guest
 * instruction is executed, by its virtual address, and at QEMU's exit
 * writes one "ADDRESS COUNT" line (hex, decimal) per executed instruction
 * to the file its out= argument names.  scripts/insn-account.py maps the
 * addresses to functions through the vmlinux's symbols.
 *
 *   qemu-system-... -plugin insn-count.so,out=FILE
 *
 * Each instruction gets a counter when TCG first translates it, and an
 * inline add on that counter in front of it in the translated code, so no
 * helper call is made per instruction.  A re-translation of the same
 * address (a flushed or re-keyed block) adds to the same counter.
 *
 * Debian's QEMU ships no qemu-plugin.h, so the few declarations of its
 * plugin API (version 1, QEMU 7.2) that this uses are written out here.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plugin API, version 1 (include/qemu/qemu-plugin.h of QEMU 7.2) */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb,
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/*
 * Open addressing on the instruction's address.  The counters never move
 * (translated code holds their addresses), so the table is sized once; a
 * kernel boot translates well under a million distinct instructions.
 */
#define SLOT_BITS 22
#define SLOTS (1u << SLOT_BITS)

struct slot {
	uint64_t vaddr;
	uint64_t count;
};

static struct slot *slots;
static size_t used;
static char *out_path;

static struct slot *slot_of(uint64_t vaddr)
{
	size_t i = (size_t)((vaddr * 0x9e3779b97f4a7c15ull) >> (64 - SLOT_BITS));

	while (slots[i].vaddr && slots[i].vaddr != vaddr)
		i = (i + 1) & (SLOTS - 1);
	if (!slots[i].vaddr) {
		if (used >= SLOTS / 2)
			return NULL;
		slots[i].vaddr = vaddr;
		used++;
	}
	return &slots[i];
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct slot *s = slot_of(qemu_plugin_insn_vaddr(insn));

		/* A full table is reported at exit; counting stops growing. */
		if (s)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, &s->count, 1);
	}
}

static void finished(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");

	(void)id;
	(void)userdata;

	if (!f) {
		qemu_plugin_outs("insn-count: cannot write the out= file\n");
		return;
	}
	for (size_t i = 0; i < SLOTS; i++)
		if (slots[i].count)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", slots[i].vaddr,
				slots[i].count);
	if (used >= SLOTS / 2)
		fprintf(f, "# table full: instructions past %zu not counted\n",
			used);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
	if (!out_path) {
		fprintf(stderr, "insn-count: usage: -plugin insn-count.so,out=FILE\n");
		return -1;
	}
	slots = calloc(SLOTS, sizeof(*slots));
	if (!slots)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
