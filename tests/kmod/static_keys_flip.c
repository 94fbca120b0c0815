// SPDX-License-Identifier: GPL-2.0
/*
 * What flipping a key costs as its number of sites grows: five keys, with
 * 1, 10, 100, 1,000 and 10,000 branch sites, each site in a function of
 * its own so that every jump is short, as nearly all of the kernel's are.
 * Writing N to /sys/kernel/debug/static_keys_flip times enabling, then
 * disabling, the key with N sites; reading the file gives the result:
 *
 *   sites=N enable_ns=E disable_ns=D taken=T after=A
 *
 * T counts the sites that took their branch while the key was on (it
 * must be N), A those that took it after it was off again (it must be 0),
 * so that a timing of a flip that did not happen cannot pass for a fast
 * one.  The API is the one both the series and the packaged tree have:
 * struct static_key, static_key_false(), static_key_slow_inc()/_dec().
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

static unsigned long flip_taken;

/* Ten, a hundred, ... applications of M(key, n), n unique within key. */
#define FLIP_X10(M, k, p)	M(k, p##0) M(k, p##1) M(k, p##2) M(k, p##3) \
	M(k, p##4) M(k, p##5) M(k, p##6) M(k, p##7) M(k, p##8) M(k, p##9)
#define FLIP_X100(M, k, p)	FLIP_X10(M, k, p##0) FLIP_X10(M, k, p##1) \
	FLIP_X10(M, k, p##2) FLIP_X10(M, k, p##3) FLIP_X10(M, k, p##4) \
	FLIP_X10(M, k, p##5) FLIP_X10(M, k, p##6) FLIP_X10(M, k, p##7) \
	FLIP_X10(M, k, p##8) FLIP_X10(M, k, p##9)
#define FLIP_X1000(M, k, p)	FLIP_X100(M, k, p##0) FLIP_X100(M, k, p##1) \
	FLIP_X100(M, k, p##2) FLIP_X100(M, k, p##3) FLIP_X100(M, k, p##4) \
	FLIP_X100(M, k, p##5) FLIP_X100(M, k, p##6) FLIP_X100(M, k, p##7) \
	FLIP_X100(M, k, p##8) FLIP_X100(M, k, p##9)
#define FLIP_X10000(M, k, p)	FLIP_X1000(M, k, p##0) FLIP_X1000(M, k, p##1) \
	FLIP_X1000(M, k, p##2) FLIP_X1000(M, k, p##3) FLIP_X1000(M, k, p##4) \
	FLIP_X1000(M, k, p##5) FLIP_X1000(M, k, p##6) FLIP_X1000(M, k, p##7) \
	FLIP_X1000(M, k, p##8) FLIP_X1000(M, k, p##9)

#define FLIP_SITE(k, n)							\
	static noinline void k##_site_##n(void)				\
	{								\
		if (static_key_false(&k))				\
			flip_taken++;					\
	}
#define FLIP_SITE_PTR(k, n)	k##_site_##n,

/* A key, its sites, and the table that calls every one of them. */
#define FLIP_KEY(sites, X)						\
	static struct static_key flip_key_##sites = STATIC_KEY_INIT_FALSE; \
	X(FLIP_SITE, flip_key_##sites, 1)				\
	static void (*const flip_key_##sites##_sites[])(void) = {	\
		X(FLIP_SITE_PTR, flip_key_##sites, 1)			\
	}

#define FLIP_X1(M, k, p)	M(k, p)

FLIP_KEY(1, FLIP_X1);
FLIP_KEY(10, FLIP_X10);
FLIP_KEY(100, FLIP_X100);
FLIP_KEY(1000, FLIP_X1000);
FLIP_KEY(10000, FLIP_X10000);

struct flip_key {
	struct static_key *key;
	void (*const *sites)(void);
	unsigned int nr_sites;
};

#define FLIP_ENTRY(n) { &flip_key_##n, flip_key_##n##_sites, \
			ARRAY_SIZE(flip_key_##n##_sites) }
static const struct flip_key flip_keys[] = {
	FLIP_ENTRY(1), FLIP_ENTRY(10), FLIP_ENTRY(100), FLIP_ENTRY(1000),
	FLIP_ENTRY(10000),
};

static DEFINE_MUTEX(flip_lock);
static char flip_result[128];

static unsigned long flip_run_sites(const struct flip_key *fk)
{
	unsigned int i;

	flip_taken = 0;
	for (i = 0; i < fk->nr_sites; i++)
		fk->sites[i]();
	return flip_taken;
}

static void flip_measure(const struct flip_key *fk)
{
	unsigned long taken, after;
	u64 start, enabled, disabled;

	start = ktime_get_ns();
	static_key_slow_inc(fk->key);
	enabled = ktime_get_ns();
	taken = flip_run_sites(fk);
	/* The disable is timed from here: the calls above are not in it. */
	enabled -= start;
	start = ktime_get_ns();
	static_key_slow_dec(fk->key);
	disabled = ktime_get_ns() - start;
	after = flip_run_sites(fk);

	scnprintf(flip_result, sizeof(flip_result),
		  "sites=%u enable_ns=%llu disable_ns=%llu taken=%lu after=%lu\n",
		  fk->nr_sites, enabled, disabled, taken, after);
}

static ssize_t flip_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	unsigned int sites, i;
	int err;

	err = kstrtouint_from_user(buf, count, 10, &sites);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(flip_keys); i++) {
		if (flip_keys[i].nr_sites != sites)
			continue;
		mutex_lock(&flip_lock);
		flip_measure(&flip_keys[i]);
		mutex_unlock(&flip_lock);
		return count;
	}
	return -EINVAL;
}

static ssize_t flip_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&flip_lock);
	ret = simple_read_from_buffer(buf, count, ppos, flip_result,
				      strlen(flip_result));
	mutex_unlock(&flip_lock);
	return ret;
}

static const struct file_operations flip_fops = {
	.owner = THIS_MODULE,
	.read = flip_read,
	.write = flip_write,
	.llseek = default_llseek,
};

static struct dentry *flip_file;

static int __init flip_init(void)
{
	flip_file = debugfs_create_file("static_keys_flip", 0600, NULL, NULL,
					&flip_fops);
	return 0;
}

static void __exit flip_exit(void)
{
	debugfs_remove(flip_file);
}

module_init(flip_init);
module_exit(flip_exit);
MODULE_DESCRIPTION("Static keys: time flipping keys of 1 to 10,000 sites");
MODULE_LICENSE("GPL");
