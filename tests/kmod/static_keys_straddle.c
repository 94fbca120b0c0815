// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 sites that straddle a page boundary, so that writing one means
 * writing two pages of text (tests/guest's site_across_pages.sh).  Each
 * function pads itself to the end of a page before its site: to a page
 * boundary, then PAD_BASE + n bytes of NOPs, so that its site begins one
 * to a few bytes before the next boundary whatever the compiler puts
 * between the padding and the site; at init the module counts, from its
 * own jump entries, the sites that do cross a boundary.
 *
 * Writing Y or N to the parameter "flip" enables or disables the key; the
 * parameter "state" reads back, for the sites that straddle, how many
 * hold a NOP and how many a JMP to their entry's target, and how many of
 * the functions took the branch:
 * "sites=S straddling=T tails_crossing=C nop=A jmp=B taken=K", where C
 * counts the straddling sites whose write of all but their first byte
 * crosses the boundary (5-byte sites: a 2-byte one's crosses only
 * between its two writes).
 */
#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
/* 6.12 moved it (6.1: asm/unaligned.h). */
#if __has_include(<linux/unaligned.h>)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#define PAD_BASE	4090

static DEFINE_STATIC_KEY_FALSE(straddle_key);

/*
 * A function whose site begins PAD_BASE + N bytes into a page, or a few
 * bytes later, the compiler's, with FAR bytes on the path that does not
 * jump: 200 put the jump's target out of rel8 reach, which makes a 5-byte
 * site.  Of a site's three writes (its first byte, the rest, the first
 * byte again), only the rest can cross a boundary, and only a 5-byte
 * site's.
 */
#define DEFINE_STRADDLER(name, n, far)					\
static noinline int name(void)						\
{									\
	asm volatile(".balign 4096\n\t.skip %c0, 0x90" :: "i" (PAD_BASE + (n))); \
	if (static_branch_unlikely(&straddle_key))			\
		return 1;						\
	if (far)							\
		asm volatile(".skip %c0, 0x90" :: "i" (far));		\
	return 0;							\
}

DEFINE_STRADDLER(straddler0, 0, 0)
DEFINE_STRADDLER(straddler1, 1, 0)
DEFINE_STRADDLER(straddler2, 2, 0)
DEFINE_STRADDLER(straddler3, 3, 0)
DEFINE_STRADDLER(straddler4, 4, 0)
DEFINE_STRADDLER(straddler5, 5, 0)
DEFINE_STRADDLER(far_straddler0, 0, 200)
DEFINE_STRADDLER(far_straddler1, 1, 200)
DEFINE_STRADDLER(far_straddler2, 2, 200)
DEFINE_STRADDLER(far_straddler3, 3, 200)
DEFINE_STRADDLER(far_straddler4, 4, 200)
DEFINE_STRADDLER(far_straddler5, 5, 200)

static int (*const straddlers[])(void) = {
	straddler0, straddler1, straddler2, straddler3, straddler4, straddler5,
	far_straddler0, far_straddler1, far_straddler2, far_straddler3,
	far_straddler4, far_straddler5,
};

/* The length of the site's instruction: NOP2 or JMP rel8, else 5. */
static unsigned int site_length(const u8 *code)
{
	return (code[0] == 0x66 || code[0] == 0xeb) ? 2 : 5;
}

static bool straddles(const u8 *code)
{
	return offset_in_page(code) + site_length(code) > PAGE_SIZE;
}

/* Whether the write of all but the site's first byte crosses a boundary. */
static bool tail_crosses(const u8 *code)
{
	return offset_in_page(code + 1) + site_length(code) - 1 > PAGE_SIZE;
}

static const u8 nop2[] = { 0x66, 0x90 };
static const u8 nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

static int state_get(char *buffer, const struct kernel_param *kp)
{
	struct jump_entry *entry = THIS_MODULE->jump_entries;
	struct jump_entry *end = entry + THIS_MODULE->num_jump_entries;
	unsigned int sites = 0, straddling = 0, tails = 0, nop = 0, jmp = 0, taken = 0, i;

	for (; entry < end; entry++) {
		const u8 *code = (const u8 *)jump_entry_code(entry);
		unsigned long dest = 0;

		if (jump_entry_key(entry) != &straddle_key.key)
			continue;
		sites++;
		if (!straddles(code))
			continue;
		straddling++;
		tails += tail_crosses(code);
		if (!memcmp(code, nop2, sizeof(nop2)) || !memcmp(code, nop5, sizeof(nop5)))
			nop++;
		else if (code[0] == 0xeb)
			dest = (unsigned long)code + 2 + (s8)code[1];
		else if (code[0] == 0xe9)
			dest = (unsigned long)code + 5 + get_unaligned((s32 *)(code + 1));
		if (dest && dest == jump_entry_target(entry))
			jmp++;
	}
	for (i = 0; i < ARRAY_SIZE(straddlers); i++)
		taken += straddlers[i]();
	return sysfs_emit(buffer, "sites=%u straddling=%u tails_crossing=%u nop=%u jmp=%u taken=%u\n",
			  sites, straddling, tails, nop, jmp, taken);
}

static const struct kernel_param_ops state_ops = {
	.get = state_get,
};
module_param_cb(state, &state_ops, NULL, 0444);
MODULE_PARM_DESC(state, "the straddling sites' instructions, and the branches taken");

static int flip_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on)
		static_branch_enable(&straddle_key);
	else
		static_branch_disable(&straddle_key);
	return 0;
}

static const struct kernel_param_ops flip_ops = {
	.set = flip_set,
};
module_param_cb(flip, &flip_ops, NULL, 0200);
MODULE_PARM_DESC(flip, "Y or N: enable or disable the key");

MODULE_DESCRIPTION("Static keys: sites across a page boundary");
MODULE_LICENSE("GPL");
