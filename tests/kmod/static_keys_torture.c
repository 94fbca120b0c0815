// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys under load and misuse, as a KUnit suite in a module, built
 * unchanged against every variant, so it uses only the API they share.
 *
 * torture: one reader kthread per CPU runs every site of three keys in a
 * tight loop while two writer kthreads flip the same keys: counted
 * (static_key_slow_inc/dec), boolean (static_key_enable/disable, one
 * writer) and deferred (static_key_slow_dec_deferred).  Writers publish
 * when they hold a key (from the return of the call that takes it to the
 * call that lets it go), with an epoch that changes at each of those
 * moments; a reader that saw the key held, with the same epoch before and
 * after running a site, requires the site to have taken its true branch:
 * a key whose taking returned before its sites were written fails here.
 * Writers also publish when they are letting a counted or boolean key go
 * (from just before the call that drops it to its return); a reader that
 * saw static_key_enabled() true while no writer was letting the key go,
 * with the same epoch before and after, requires the true branch too: a
 * count that says true before the sites are written fails there (not
 * on the distro, whose count says true while its first increment writes
 * the sites: shown in the figure).  At the
 * end each key must be back to its count, and every site must
 * return its key's state.  concurrent_enable_disable: the same with both
 * writers on the boolean key (not on the distro, which warns there).
 *
 * mismatched_forms: a key whose default does not match its branch form
 * (static_key_true() on a key defined false, static_key_false() on one
 * defined true) must still return the key's state in both states.  The
 * series makes such a site right when its table is attached; so does a
 * kernel without jump labels, where a branch is a test.  The distro's
 * implementation requires the forms to match (its static-keys.rst): it
 * leaves such a site as compiled, so it returns the wrong value, and the
 * next flip of its key stops at "unexpected op" (a BUG).  There the
 * mismatched sites are not built at all, and the case is skipped.
 *
 * idempotent_enable_disable: enabling an enabled key and disabling a
 * disabled one change nothing.
 *
 * text_is_read_only: a site's text cannot be written directly (the write
 * faults); flipping its key, which goes through the text-poke path, still
 * works.
 *
 * Figures go to the KUnit log as "figure: ..." lines; a misuse case
 * states its figure only when it passed.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static unsigned int torture_ops = 200;
module_param(torture_ops, uint, 0444);
MODULE_PARM_DESC(torture_ops, "flips each writer makes at least, in each torture case");

/*
 * Flips are cheap without jump labels: their writers would be done long
 * before the readers had run much.  So writers go on flipping until the
 * readers have made torture_passes branch passes, or torture_seconds are
 * up (the case then fails, as it checked less than it must).
 */
static unsigned long torture_passes = 100000000;
module_param(torture_passes, ulong, 0444);
MODULE_PARM_DESC(torture_passes, "branch passes the readers make at least, in each torture case");

static unsigned int torture_seconds = 120;
module_param(torture_seconds, uint, 0444);
MODULE_PARM_DESC(torture_seconds, "seconds after which writers stop, passes made or not");

#define TORTURE_WRITERS	2

/*
 * The distro's implementation (jump labels, and not the series' entries
 * word): no mismatched sites there, and no concurrent enable/disable.
 */
#if defined(CONFIG_JUMP_LABEL) && !defined(STATIC_KEY_INITIALLY_TRUE)
#define TORTURE_DISTRO_KEYS
#endif

static struct static_key counted = STATIC_KEY_INIT_FALSE;
static struct static_key boolean = STATIC_KEY_INIT_TRUE;
static struct static_key_deferred deferred;

/* Each site in a function of its own, so that none is merged away. */
static noinline bool counted_matched(void)
{
	return static_key_false(&counted);
}

#ifndef TORTURE_DISTRO_KEYS
static noinline bool counted_mismatched(void)
{
	return static_key_true(&counted);
}
#endif

static noinline bool boolean_matched(void)
{
	return static_key_true(&boolean);
}

#ifndef TORTURE_DISTRO_KEYS
static noinline bool boolean_mismatched(void)
{
	return static_key_false(&boolean);
}
#endif

static noinline bool deferred_matched(void)
{
	return static_key_false(&deferred.key);
}

/*
 * Whether writers hold a key: @holders counts the writers between taking
 * it and letting it go (the boolean key starts held: it is defined true);
 * @epoch changes whenever @holders does.
 */
struct torture_hold {
	atomic_t holders;
	atomic_t epoch;
	atomic_t leaving;	/* writers between torture_let_go() and torture_gone() */
};

static struct torture_hold counted_hold, boolean_hold, deferred_hold;

/* After the call that takes the key has returned. */
static void torture_take(struct torture_hold *hold)
{
	atomic_inc(&hold->holders);
	smp_mb__after_atomic();
	atomic_inc(&hold->epoch);
}

/* Before the call that lets the key go. */
static void torture_let_go(struct torture_hold *hold)
{
	atomic_inc(&hold->leaving);
	smp_mb__after_atomic();
	atomic_inc(&hold->epoch);
	smp_mb__after_atomic();
	atomic_dec(&hold->holders);
}

/*
 * After that call has returned, if it changes the key then and there (a
 * deferred key's last reference is dropped later, by a work item: its
 * writer never calls this, so its readers never check its count).
 */
static void torture_gone(struct torture_hold *hold)
{
	smp_mb__before_atomic();
	atomic_dec(&hold->leaving);
}

struct torture_site {
	const char *name;
	struct static_key *key;
	bool (*site)(void);
	struct torture_hold *hold;
	bool true_branch;	/* what the site returns while its key is true */
	bool count_checked;	/* its writers say when they let it go */
};

static const struct torture_site torture_sites[] = {
	{ "counted, static_key_false()", &counted, counted_matched, &counted_hold, true, true },
	{ "boolean, static_key_true()", &boolean, boolean_matched, &boolean_hold, true, true },
	{ "deferred, static_key_false()", &deferred.key, deferred_matched, &deferred_hold, true, false },
#ifndef TORTURE_DISTRO_KEYS
	{ "counted, static_key_true()", &counted, counted_mismatched, &counted_hold, true, true },
	{ "boolean, static_key_false()", &boolean, boolean_mismatched, &boolean_hold, true, true },
#endif
};

/* Every site returns its key's state; the number of sites that do not. */
static int sites_follow_keys(struct kunit *test)
{
	int i, wrong = 0;

	for (i = 0; i < ARRAY_SIZE(torture_sites); i++) {
		const struct torture_site *ts = &torture_sites[i];
		bool want = static_key_enabled(ts->key);

		if (ts->site() != want) {
			KUNIT_FAIL(test, "site of %s returns %d, key is %d",
				   ts->name, !want, want);
			wrong++;
		}
	}
	return wrong;
}

static atomic_t writers_left;
static atomic64_t writer_flips;
static unsigned long torture_deadline;	/* jiffies */
static atomic64_t reader_passes, held_passes;
static atomic64_t enabled_passes;
static atomic_t held_but_false, enabled_but_false;

/* What torture_read() could check of one pass over a site. */
#define READ_HELD	BIT(0)	/* its key was held all along */
#define READ_ENABLED	BIT(1)	/* its count said true, none letting it go */

/*
 * Run the site; if its key was held by a writer for all of that time, or
 * static_key_enabled() said true before it ran while no writer was
 * letting the key go, it must have taken its true branch.  Returns what
 * was checked (READ_*).
 */
static unsigned int torture_read(const struct torture_site *ts)
{
	int epoch = atomic_read_acquire(&ts->hold->epoch);
	bool held = atomic_read(&ts->hold->holders) > 0;
	bool leaving = atomic_read(&ts->hold->leaving) > 0;
	bool enabled, taken;

	smp_rmb();
	enabled = static_key_enabled(ts->key);
	taken = ts->site();
	smp_rmb();
	if (atomic_read(&ts->hold->epoch) != epoch)
		return 0;
	if (held && taken != ts->true_branch && atomic_inc_return(&held_but_false) == 1)
		pr_err("static_keys_torture: site of %s took its false branch while its key was held\n",
		       ts->name);
	if (!ts->count_checked || leaving || !enabled)
		return held ? READ_HELD : 0;
	if (taken != ts->true_branch && atomic_inc_return(&enabled_but_false) == 1)
		pr_err("static_keys_torture: site of %s took its false branch after static_key_enabled() said true\n",
		       ts->name);
	return (held ? READ_HELD : 0) | READ_ENABLED;
}

static int torture_reader(void *unused)
{
	u64 passes = 0, held = 0, enabled = 0;
	unsigned int i, checked;

	while (!kthread_should_stop()) {
		for (i = 0; i < ARRAY_SIZE(torture_sites); i++) {
			checked = torture_read(&torture_sites[i]);
			held += !!(checked & READ_HELD);
			enabled += !!(checked & READ_ENABLED);
		}
		/* Published as they go: writers stop on their total. */
		if (!(++passes & 1023)) {
			atomic64_add(1024, &reader_passes);
			cond_resched();
		}
	}
	atomic64_add(passes & 1023, &reader_passes);
	atomic64_add(held, &held_passes);
	atomic64_add(enabled, &enabled_passes);
	return 0;
}

/* What a writer flips: bit i set for op i of torture_writer(). */
#define FLIP_COUNTED	BIT(0)
#define FLIP_BOOLEAN	BIT(1)
#define FLIP_DEFERRED	BIT(2)

/* Branch passes the readers have made so far, over all their sites. */
static u64 branch_passes(void)
{
	return atomic64_read(&reader_passes) * ARRAY_SIZE(torture_sites);
}

static bool torture_done(unsigned int flips)
{
	return flips >= torture_ops &&
	       (branch_passes() >= torture_passes ||
		time_after(jiffies, torture_deadline));
}

static int torture_writer(void *data)
{
	unsigned long ops = (unsigned long)data;
	unsigned int i, op;

	for (i = 0; !torture_done(i); i++) {
		for (op = i % 3; !(ops & BIT(op)); op = (op + 1) % 3)
			;
		switch (op) {
		case 0:
			static_key_slow_inc(&counted);
			torture_take(&counted_hold);
			udelay(20);	/* for readers to see it held */
			torture_let_go(&counted_hold);
			static_key_slow_dec(&counted);
			torture_gone(&counted_hold);
			break;
		case 1:
			torture_let_go(&boolean_hold);
			static_key_disable(&boolean);
			torture_gone(&boolean_hold);
			static_key_enable(&boolean);
			torture_take(&boolean_hold);
			break;
		case 2:
			static_key_slow_inc(&deferred.key);
			torture_take(&deferred_hold);
			udelay(20);	/* for readers to see it held */
			torture_let_go(&deferred_hold);
			static_key_slow_dec_deferred(&deferred);
			break;
		}
		cond_resched();
	}
	atomic64_add(i, &writer_flips);
	atomic_dec(&writers_left);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/*
 * Readers on every CPU, and one writer per entry of @writer_ops, each
 * flipping what its entry says; then every key must be back where it
 * started and every site must follow its key.
 */
static void run_torture(struct kunit *test, const char *what,
			const unsigned long *writer_ops, int nr_writers)
{
	struct task_struct *readers[NR_CPUS], *writers[TORTURE_WRITERS];
	unsigned int cpu, nr_readers = 0;
	int w;

	atomic_set(&writers_left, nr_writers);
	atomic64_set(&writer_flips, 0);
	torture_deadline = jiffies + torture_seconds * HZ;
	atomic64_set(&reader_passes, 0);
	atomic64_set(&held_passes, 0);
	atomic64_set(&enabled_passes, 0);
	atomic_set(&held_but_false, 0);
	atomic_set(&enabled_but_false, 0);
	atomic_set(&boolean_hold.holders, static_key_enabled(&boolean));
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create(torture_reader, NULL, "sk_reader/%u", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, cpu);
		wake_up_process(t);
		readers[nr_readers++] = t;
	}
	for (w = 0; w < nr_writers; w++) {
		writers[w] = kthread_run(torture_writer, (void *)writer_ops[w],
					 "sk_writer/%d", w);
		KUNIT_ASSERT_FALSE(test, IS_ERR(writers[w]));
	}
	while (atomic_read(&writers_left))
		msleep(10);
	for (w = 0; w < nr_writers; w++)
		kthread_stop(writers[w]);
	while (nr_readers)
		kthread_stop(readers[--nr_readers]);
	static_key_deferred_flush(&deferred);

	KUNIT_EXPECT_EQ(test, static_key_count(&counted), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&boolean), 1);
	KUNIT_EXPECT_EQ(test, static_key_count(&deferred.key), 0);
	KUNIT_EXPECT_EQ(test, sites_follow_keys(test), 0);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&held_but_false), 0,
			    "sites took their false branch while their key was held");
#ifdef TORTURE_DISTRO_KEYS
	/*
	 * The distro's static_key_count() reads 1 while the first increment
	 * is still writing the sites (its count is -1 then): there
	 * static_key_enabled() may say true early, by design.  Shown in the
	 * figure, not failed; whether a run sees it is a matter of timing.
	 */
#else
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&enabled_but_false), 0,
			    "sites took their false branch after static_key_enabled() said true");
#endif
	KUNIT_EXPECT_GT_MSG(test, atomic64_read(&held_passes), 0LL,
			    "no site was run while its key was held: nothing was checked");
	KUNIT_EXPECT_GT_MSG(test, atomic64_read(&enabled_passes), 0LL,
			    "no site was run after its count said true: nothing was checked");
	KUNIT_EXPECT_GE_MSG(test, branch_passes(), (u64)torture_passes,
			    "fewer branch passes than torture_passes in %u s", torture_seconds);
	kunit_info(test, "figure: %s: %d writers, %lld flips, %u readers, %lld branch passes (%lld while their key was held, %d of them false; %lld after static_key_enabled() said true, %d of them false), %d of %d sites follow their keys\n",
		   what, nr_writers, (long long)atomic64_read(&writer_flips),
		   num_online_cpus(), (long long)branch_passes(),
		   (long long)atomic64_read(&held_passes),
		   atomic_read(&held_but_false),
		   (long long)atomic64_read(&enabled_passes),
		   atomic_read(&enabled_but_false),
		   (int)ARRAY_SIZE(torture_sites) - sites_follow_keys(test),
		   (int)ARRAY_SIZE(torture_sites));
}

/*
 * Counted and deferred keys are flipped by both writers; the boolean key
 * by one, as a boolean key has one owner in the kernel's uses of it.
 */
static void torture(struct kunit *test)
{
	static const unsigned long ops[TORTURE_WRITERS] = {
		FLIP_COUNTED | FLIP_BOOLEAN | FLIP_DEFERRED,
		FLIP_COUNTED | FLIP_DEFERRED,
	};

	run_torture(test, "torture", ops, TORTURE_WRITERS);
}

/*
 * Two writers enabling and disabling one boolean key at once.  The
 * series does both under jump_label_mutex.  The distro reads the count
 * before taking the mutex, sees the -1 of a flip in progress and warns
 * ("WARNING: ... at kernel/jump_label.c:231 static_key_disable_cpuslocked").
 * The case runs inside an announced window, so that such a warning does
 * not fail the boot by itself: tests/guest/torture.sh counts the window's
 * warnings, and the distro must show one (tests/expected-failures).
 */
static void concurrent_enable_disable(struct kunit *test)
{
	static const unsigned long ops[TORTURE_WRITERS] = {
		FLIP_BOOLEAN, FLIP_BOOLEAN,
	};

	pr_info("static_keys_torture_concurrent: expected warning begins\n");
	run_torture(test, "concurrent enable/disable", ops, TORTURE_WRITERS);
	pr_info("static_keys_torture_concurrent: expected warning ends\n");
}

static void mismatched_forms(struct kunit *test)
{
#ifdef TORTURE_DISTRO_KEYS
	kunit_skip(test, "the distro's static keys require a key's default to match its branch form");
#else
	KUNIT_EXPECT_FALSE(test, counted_mismatched());
	KUNIT_EXPECT_TRUE(test, boolean_mismatched());
	static_key_slow_inc(&counted);
	static_key_disable(&boolean);
	KUNIT_EXPECT_TRUE(test, counted_mismatched());
	KUNIT_EXPECT_FALSE(test, boolean_mismatched());
	KUNIT_EXPECT_EQ(test, sites_follow_keys(test), 0);
	static_key_slow_dec(&counted);
	static_key_enable(&boolean);
	KUNIT_EXPECT_FALSE(test, counted_mismatched());
	KUNIT_EXPECT_TRUE(test, boolean_mismatched());
	KUNIT_EXPECT_EQ(test, sites_follow_keys(test), 0);
	if (test->status == KUNIT_SUCCESS)
		kunit_info(test, "figure: misuse: 2 keys with mismatched branch forms, right in both states\n");
#endif
}

static void idempotent_enable_disable(struct kunit *test)
{
	static_key_enable(&boolean);
	static_key_enable(&boolean);
	KUNIT_EXPECT_EQ(test, static_key_count(&boolean), 1);
	static_key_disable(&counted);
	static_key_disable(&counted);
	KUNIT_EXPECT_EQ(test, static_key_count(&counted), 0);
	KUNIT_EXPECT_EQ(test, sites_follow_keys(test), 0);
	if (test->status == KUNIT_SUCCESS)
		kunit_info(test, "figure: misuse: enable of an enabled key, disable of a disabled key: no change\n");
}

/*
 * Whether a plain write of the byte already at @dst faults (text that is
 * read-only); if it does not, the text is unchanged all the same.
 */
static bool write_faults(void *dst)
{
	u8 byte = *(u8 *)dst;

	pagefault_disable();
	__put_kernel_nofault(dst, &byte, u8, fault);
	pagefault_enable();
	return false;
fault:
	pagefault_enable();
	return true;
}

static void text_is_read_only(struct kunit *test)
{
	void *code = counted_matched;

	KUNIT_EXPECT_TRUE_MSG(test, write_faults(code),
			      "a plain write to module text at %pS succeeded", code);
	KUNIT_EXPECT_TRUE_MSG(test, write_faults(schedule),
			      "a plain write to kernel text at %pS succeeded", schedule);
	static_key_slow_inc(&counted);
	KUNIT_EXPECT_TRUE(test, counted_matched());
	static_key_slow_dec(&counted);
	KUNIT_EXPECT_FALSE(test, counted_matched());
}

static int torture_suite_init(struct kunit_suite *suite)
{
	jump_label_rate_limit(&deferred, HZ / 50);
	return 0;
}

static struct kunit_case torture_cases[] = {
	KUNIT_CASE(mismatched_forms),
	KUNIT_CASE(idempotent_enable_disable),
	KUNIT_CASE(text_is_read_only),
	KUNIT_CASE(torture),
	KUNIT_CASE(concurrent_enable_disable),
	{}
};

static struct kunit_suite torture_suite = {
	.name = "static_keys_torture",
	.suite_init = torture_suite_init,
	.test_cases = torture_cases,
};
/*
 * Run from module_init, not registered with kunit_test_suite(): KUnit
 * runs a module's registered suites while the module is coming up,
 * before its parameters (torture_ops) are set.
 */
static struct kunit_suite *torture_suites[] = { &torture_suite };

static int __init torture_module_init(void)
{
	return __kunit_test_suites_init(torture_suites, ARRAY_SIZE(torture_suites));
}

static void __exit torture_module_exit(void)
{
	__kunit_test_suites_exit(torture_suites, ARRAY_SIZE(torture_suites));
}

module_init(torture_module_init);
module_exit(torture_module_exit);

MODULE_DESCRIPTION("Static keys: torture, misuse and read-only text");
MODULE_LICENSE("GPL");
