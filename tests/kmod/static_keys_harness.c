// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's own view of static keys, as a module: it defines keys of
 * both defaults, uses them in both branch forms at several sites each, and
 * checks what the branches return and what instruction sits at each site as
 * the keys are counted up and down.  It is built unchanged against every
 * variant (series, distro, off), so it uses only the API they share.
 *
 * The sites are read through this module's own jump entries: a NOP where
 * the straight-line path must run, a JMP to the entry's target where the
 * out-of-line path must run.
 */
#include <kunit/test.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/string.h>
/* 6.12 moved it (6.1: asm/unaligned.h). */
#if __has_include(<linux/unaligned.h>)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
#include <trace/events/sched.h>

/*
 * Every check asserts: a case stops at its first failure, with one message.
 * 6.1's KUnit keeps 512 bytes of a case's log for the debugfs results the
 * guest reads, and a second failure's message pushes the case's own
 * result line out of them.
 */
#define SITES_PER_KEY	3
#define TAKEN		100	/* added to a site's number when its branch is taken */

/* The seeds' API: a key's initial value names the branch form to use. */
static struct static_key plain_false = STATIC_KEY_INIT_FALSE;
static struct static_key plain_true = STATIC_KEY_INIT_TRUE;
/* The typed API most of the tree uses. */
static DEFINE_STATIC_KEY_FALSE(typed_false);
static DEFINE_STATIC_KEY_TRUE(typed_true);

/*
 * One site per function; noinline and a distinct return value keep the
 * compiler from merging them, so each key really has SITES_PER_KEY sites.
 */
#define DEFINE_SITE(name, n, cond)			\
static noinline int name##_site##n(void)		\
{							\
	if (cond)					\
		return TAKEN + (n);			\
	return (n);					\
}

#define DEFINE_SITES(name, cond)			\
	DEFINE_SITE(name, 0, cond)			\
	DEFINE_SITE(name, 1, cond)			\
	DEFINE_SITE(name, 2, cond)			\
	static int (*const name##_sites[SITES_PER_KEY])(void) = { \
		name##_site0, name##_site1, name##_site2 }

DEFINE_SITES(plain_false, static_key_false(&plain_false));
DEFINE_SITES(plain_true, static_key_true(&plain_true));
DEFINE_SITES(typed_false, static_branch_unlikely(&typed_false));
DEFINE_SITES(typed_true, static_branch_likely(&typed_true));

struct harness_key {
	const char *name;
	struct static_key *key;
	bool initial;
	int (*const *sites)(void);
};

static const struct harness_key harness_keys[] = {
	{ "plain_false", &plain_false, false, plain_false_sites },
	{ "plain_true", &plain_true, true, plain_true_sites },
	{ "typed_false", &typed_false.key, false, typed_false_sites },
	{ "typed_true", &typed_true.key, true, typed_true_sites },
};

#ifdef HARNESS_MODULE_SITES
#ifdef CONFIG_X86_64
static const u8 nop2[] = { 0x66, 0x90 };
static const u8 nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

static bool site_is_nop(const u8 *code)
{
	return !memcmp(code, nop2, sizeof(nop2)) ||
	       !memcmp(code, nop5, sizeof(nop5));
}

/* Where the JMP at @code goes; false if it is not a JMP. */
static bool site_jump_dest(const u8 *code, unsigned long *dest)
{
	if (code[0] == 0xeb)
		*dest = (unsigned long)code + 2 + (s8)code[1];
	else if (code[0] == 0xe9)
		*dest = (unsigned long)code + 5 + get_unaligned((s32 *)(code + 1));
	else
		return false;
	return true;
}
#else /* arm64: every site is one instruction, NOP or B */
static bool site_is_nop(const u8 *code)
{
	return le32_to_cpu(*(const __le32 *)code) == 0xd503201f;
}

static bool site_jump_dest(const u8 *code, unsigned long *dest)
{
	u32 insn = le32_to_cpu(*(const __le32 *)code);

	if ((insn & 0xfc000000) != 0x14000000)
		return false;
	*dest = (unsigned long)code + (sign_extend32(insn & 0x03ffffff, 25) << 2);
	return true;
}
#endif

/*
 * Check the instruction at every site of @hk's key: a JMP to the entry's
 * target when the key's state and the site's branch form say the
 * out-of-line block runs, a NOP otherwise.  Returns the number of sites.
 */
static int check_site_bytes(struct kunit *test, const struct harness_key *hk)
{
	struct jump_entry *entry = THIS_MODULE->jump_entries;
	struct jump_entry *end = entry + THIS_MODULE->num_jump_entries;
	bool enabled = static_key_enabled(hk->key);
	int sites = 0;

	for (; entry < end; entry++) {
		const u8 *code = (const u8 *)jump_entry_code(entry);
		unsigned long target = jump_entry_target(entry);
		bool want_jmp = enabled ^ jump_entry_is_branch(entry);
		unsigned long dest;

		if (jump_entry_key(entry) != hk->key)
			continue;
		sites++;
		if (!want_jmp) {
			KUNIT_ASSERT_TRUE_MSG(test, site_is_nop(code),
				"%s site %pS: want a NOP, found %5ph",
				hk->name, code, code);
			continue;
		}
		KUNIT_ASSERT_TRUE_MSG(test, site_jump_dest(code, &dest),
				      "%s site %pS: want a JMP to %pS, found %5ph",
				      hk->name, code, (void *)target, code);
		KUNIT_ASSERT_EQ_MSG(test, dest, target,
				    "%s site %pS: JMP to %pS, want %pS",
				    hk->name, code, (void *)dest, (void *)target);
	}
	return sites;
}
#endif

/* The branches and, where there are any, the bytes of every site of @hk. */
static void expect_key_state(struct kunit *test, const struct harness_key *hk,
			     bool want)
{
	/*
	 * Through a variable: static_key_enabled() is a macro whose expansion
	 * KUnit would print whole on a failure, most of the log's room.
	 */
	bool enabled = static_key_enabled(hk->key);
	int i;

	KUNIT_ASSERT_EQ_MSG(test, enabled, want,
			    "%s: count %d", hk->name, static_key_count(hk->key));
	for (i = 0; i < SITES_PER_KEY; i++)
		KUNIT_ASSERT_EQ_MSG(test, hk->sites[i](), i + (want ? TAKEN : 0),
				    "%s site %d", hk->name, i);
#ifdef HARNESS_MODULE_SITES
	KUNIT_ASSERT_GE_MSG(test, check_site_bytes(test, hk), SITES_PER_KEY,
			    "%s: sites in the jump table", hk->name);
#endif
}

/* Every key: its initial state, flipped by one inc or dec, and back. */
static void branches_follow_counting(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(harness_keys); i++) {
		const struct harness_key *hk = &harness_keys[i];

		expect_key_state(test, hk, hk->initial);
		if (hk->initial) {
			static_key_slow_dec(hk->key);
			expect_key_state(test, hk, false);
			static_key_slow_inc(hk->key);
		} else {
			static_key_slow_inc(hk->key);
			expect_key_state(test, hk, true);
			static_key_slow_dec(hk->key);
		}
		expect_key_state(test, hk, hk->initial);
	}
}

/* Two increments need two decrements before the branch flips back. */
static void reference_counting(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(harness_keys); i++) {
		const struct harness_key *hk = &harness_keys[i];
		int base = static_key_count(hk->key);

		static_key_slow_inc(hk->key);
		static_key_slow_inc(hk->key);
		KUNIT_ASSERT_EQ(test, static_key_count(hk->key), base + 2);
		expect_key_state(test, hk, true);
		static_key_slow_dec(hk->key);
		expect_key_state(test, hk, true);
		static_key_slow_dec(hk->key);
		KUNIT_ASSERT_EQ(test, static_key_count(hk->key), base);
		expect_key_state(test, hk, hk->initial);
	}
}

/* The instruction at each site in each state, checked on its own. */
static void site_instructions(struct kunit *test)
{
#ifdef HARNESS_MODULE_SITES
	int i;

	for (i = 0; i < ARRAY_SIZE(harness_keys); i++) {
		const struct harness_key *hk = &harness_keys[i];

		KUNIT_ASSERT_GE(test, check_site_bytes(test, hk), SITES_PER_KEY);
		static_key_slow_inc(hk->key);
		KUNIT_ASSERT_GE(test, check_site_bytes(test, hk), SITES_PER_KEY);
		static_key_slow_dec(hk->key);
		KUNIT_ASSERT_GE(test, check_site_bytes(test, hk), SITES_PER_KEY);
	}
#else
	kunit_skip(test, "no patched sites in this kernel's modules (CONFIG_JUMP_LABEL=n, or a series prefix before modules)");
#endif
}

/*
 * A dec below zero must warn once and leave the key usable.  The guest's
 * check counts the warnings between the two markers; the host accepts
 * warnings only inside them.  A kernel whose static_key_slow_dec() has no
 * underflow check (the distro tree with CONFIG_JUMP_LABEL=n) lets the
 * count go to -1: that is undone by hand and the case skipped.
 */
static void underflow_warns_once(struct kunit *test)
{
	const struct harness_key *hk = &harness_keys[0];

	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	pr_info("static_keys_harness: expected warning begins\n");
	static_key_slow_dec(hk->key);
	pr_info("static_keys_harness: expected warning ends\n");
	if (static_key_count(hk->key) < 0) {
		atomic_set(&hk->key->enabled, 0);
		kunit_skip(test, "static_key_slow_dec() has no underflow check here: the count went to -1");
	}
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	expect_key_state(test, hk, false);
	static_key_slow_inc(hk->key);
	expect_key_state(test, hk, true);
	static_key_slow_dec(hk->key);
	expect_key_state(test, hk, false);
}

/*
 * An increment that would take the count past INT_MAX must fail and leave
 * the count and the sites as they are: a count that wrapped to INT_MIN
 * would read as false while INT_MAX users hold the key, and the next
 * decrement would warn.  Every kernel here refuses it: the series since
 * its counting patch, quietly, by returning false; the distro tree through
 * the overflow check of static_key_fast_inc_not_disabled(), which its
 * static_key_slow_inc_cpuslocked() also warns about (WARN_ON_ONCE, once a
 * boot) when the key is already enabled, hence the window below, which
 * only a kernel without the series' entries word (STATIC_KEY_INITIALLY_TRUE)
 * opens: on the series any warning here fails the boot.  The count is set by hand,
 * as INT_MAX real references are out of reach.
 */
static void overflow_is_refused(struct kunit *test)
{
	const struct harness_key *hk = &harness_keys[0];

	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	KUNIT_ASSERT_TRUE(test, static_key_slow_inc(hk->key));
	atomic_set(&hk->key->enabled, INT_MAX);
#ifdef STATIC_KEY_INITIALLY_TRUE
	/* The series refuses quietly: a warning here fails the boot. */
	KUNIT_ASSERT_FALSE(test, static_key_slow_inc(hk->key));
#else
	pr_info("static_keys_harness_overflow: expected warning begins\n");
	KUNIT_ASSERT_FALSE(test, static_key_slow_inc(hk->key));
	pr_info("static_keys_harness_overflow: expected warning ends\n");
#endif
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), INT_MAX);
	expect_key_state(test, hk, true);
	/* Back to one reference, whatever the increment did, and let it go. */
	atomic_set(&hk->key->enabled, 1);
	static_key_slow_dec(hk->key);
	expect_key_state(test, hk, false);
}

/*
 * The series keeps a key's initial value in bit 0 of its entries word;
 * the module loader must keep it when it points the word at the key's
 * first site in this module's table.  The distro encodes it differently,
 * and a kernel without module sites has nothing to attach: skip there.
 */
static void initial_value_survives_module_load(struct kunit *test)
{
#if defined(HARNESS_MODULE_SITES) && defined(STATIC_KEY_INITIALLY_TRUE)
	struct jump_entry *start = THIS_MODULE->jump_entries;
	struct jump_entry *end = start + THIS_MODULE->num_jump_entries;
	int i;

	for (i = 0; i < ARRAY_SIZE(harness_keys); i++) {
		const struct harness_key *hk = &harness_keys[i];
		struct jump_entry *first = static_key_entries(hk->key);

		KUNIT_ASSERT_NOT_NULL_MSG(test, first, "%s", hk->name);
		KUNIT_ASSERT_TRUE_MSG(test, first >= start && first < end,
				      "%s: first entry outside the module's table",
				      hk->name);
		KUNIT_ASSERT_PTR_EQ(test, jump_entry_key(first), hk->key);
		KUNIT_ASSERT_TRUE_MSG(test, first == start ||
				      jump_entry_key(first - 1) != hk->key,
				      "%s: not the key's first entry", hk->name);
		KUNIT_ASSERT_EQ_MSG(test, static_key_initially_true(hk->key),
				    hk->initial, "%s", hk->name);
	}
#else
	kunit_skip(test, "not the series' entries word, or no module sites");
#endif
}

/*
 * A key of the core kernel with a site in this module: the bare
 * sched_update_nr_running_tp tracepoint, which nothing else in the test
 * guest attaches to.  Registering a probe enables its key from here; the
 * kernel has to find this module's site of a key that is not the
 * module's own.
 */
static noinline bool core_key_site(void)
{
	return trace_sched_update_nr_running_tp_enabled();
}

static void core_key_probe(void *data, struct rq *rq, int change)
{
}

static void core_key_sites_follow(struct kunit *test)
{
	struct static_key *key = &__tracepoint_sched_update_nr_running_tp.key;
	const struct harness_key hk __maybe_unused = {
		"sched_update_nr_running_tp", key, false, NULL
	};

	KUNIT_ASSERT_FALSE_MSG(test, core_key_site(),
			       "the tracepoint already has a probe");
	KUNIT_ASSERT_EQ(test, register_trace_sched_update_nr_running_tp(core_key_probe, NULL), 0);
	KUNIT_ASSERT_TRUE(test, core_key_site());
#ifdef HARNESS_MODULE_SITES
	KUNIT_ASSERT_GE(test, check_site_bytes(test, &hk), 1);
#endif
	unregister_trace_sched_update_nr_running_tp(core_key_probe, NULL);
	tracepoint_synchronize_unregister();
	KUNIT_ASSERT_FALSE(test, core_key_site());
#ifdef HARNESS_MODULE_SITES
	KUNIT_ASSERT_GE(test, check_site_bytes(test, &hk), 1);
#endif
}

/*
 * static_key_fast_inc_not_disabled(), which TCP calls to add a reference
 * to a key it enabled earlier: a reference to a true key, with no site
 * written; none to a false key (count 0, and again once the last
 * reference is gone), whatever CONFIG_JUMP_LABEL says; none past INT_MAX.
 * A count it should not have taken is put back by hand.
 */
static void fast_inc_not_disabled(struct kunit *test)
{
#ifdef HARNESS_FAST_INC
	const struct harness_key *hk = &harness_keys[0];

	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	KUNIT_ASSERT_FALSE_MSG(test, static_key_fast_inc_not_disabled(hk->key),
			       "a reference to a false key (count 0)");
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	atomic_set(&hk->key->enabled, 0);
	expect_key_state(test, hk, false);

	KUNIT_ASSERT_TRUE(test, static_key_slow_inc(hk->key));
	KUNIT_ASSERT_TRUE_MSG(test, static_key_fast_inc_not_disabled(hk->key),
			      "no reference to a true key (count 1)");
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 2);
	expect_key_state(test, hk, true);
	atomic_set(&hk->key->enabled, 2);
	static_key_slow_dec(hk->key);
	static_key_slow_dec(hk->key);
	expect_key_state(test, hk, false);

	KUNIT_ASSERT_FALSE_MSG(test, static_key_fast_inc_not_disabled(hk->key),
			       "a reference to a key whose last reference went");
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), 0);
	atomic_set(&hk->key->enabled, 0);

	KUNIT_ASSERT_TRUE(test, static_key_slow_inc(hk->key));
	atomic_set(&hk->key->enabled, INT_MAX);
	KUNIT_ASSERT_FALSE_MSG(test, static_key_fast_inc_not_disabled(hk->key),
			       "a reference past INT_MAX");
	KUNIT_ASSERT_EQ(test, static_key_count(hk->key), INT_MAX);
	atomic_set(&hk->key->enabled, 1);
	static_key_slow_dec(hk->key);
	expect_key_state(test, hk, false);
#else
	kunit_skip(test, "no static_key_fast_inc_not_disabled() in this tree");
#endif
}

/* What patching costs in data: no more than the distro's 16 + 16 bytes. */
static void struct_sizes(struct kunit *test)
{
#ifdef HARNESS_MODULE_SITES
	kunit_info(test, "sizeof(struct jump_entry) %zu, sizeof(struct static_key) %zu\n",
		   sizeof(struct jump_entry), sizeof(struct static_key));
	KUNIT_ASSERT_LE(test, sizeof(struct jump_entry), 16);
	KUNIT_ASSERT_LE(test, sizeof(struct static_key), 16);
#else
	kunit_skip(test, "no jump entries in this kernel");
#endif
}

static struct kunit_case static_keys_harness_cases[] = {
	KUNIT_CASE(branches_follow_counting),
	KUNIT_CASE(reference_counting),
	KUNIT_CASE(site_instructions),
	KUNIT_CASE(underflow_warns_once),
	KUNIT_CASE(overflow_is_refused),
	KUNIT_CASE(initial_value_survives_module_load),
	KUNIT_CASE(struct_sizes),
	KUNIT_CASE(core_key_sites_follow),
	KUNIT_CASE(fast_inc_not_disabled),
	{}
};

static struct kunit_suite static_keys_harness_suite = {
	.name = "static_keys_harness",
	.test_cases = static_keys_harness_cases,
};
kunit_test_suite(static_keys_harness_suite);

MODULE_DESCRIPTION("Static keys: branches and site bytes, checked from a module");
MODULE_LICENSE("GPL");
