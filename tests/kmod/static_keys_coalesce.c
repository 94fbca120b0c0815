// SPDX-License-Identifier: GPL-2.0
/*
 * A deferred key taken and dropped many times within its rate limit
 * (tests/guest's deferred_coalescing.sh).  Writing N to the parameter
 * "churn" takes a reference to the key and drops it with
 * static_key_slow_dec_deferred(), N times over: the first take enables
 * the key, and every drop within the rate limit is held back, so N takes
 * and drops write the key's sites once on and, when the rate limit is up,
 * once off, without a flush.  The parameter "site" reads the key's site.
 * Without CONFIG_JUMP_LABEL (or rate limits) a drop is immediate.
 */
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#define COALESCE_RATE_LIMIT	HZ

static struct static_key_deferred coalesce_key;

static noinline bool coalesce_site(void)
{
	return static_key_false(&coalesce_key.key);
}

static int churn_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		static_key_slow_inc(&coalesce_key.key);
		static_key_slow_dec_deferred(&coalesce_key);
	}
	return 0;
}

static const struct kernel_param_ops churn_ops = {
	.set = churn_set,
};
module_param_cb(churn, &churn_ops, NULL, 0200);
MODULE_PARM_DESC(churn, "take and drop the deferred key this many times");

static int site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", coalesce_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops site_ops = {
	.get = site_get,
};
module_param_cb(site, &site_ops, NULL, 0444);
MODULE_PARM_DESC(site, "what the site on the deferred key reads now");

static int __init coalesce_init(void)
{
	jump_label_rate_limit(&coalesce_key, COALESCE_RATE_LIMIT);
	return 0;
}

static void __exit coalesce_exit(void)
{
	static_key_deferred_flush(&coalesce_key);
}

module_init(coalesce_init);
module_exit(coalesce_exit);
MODULE_DESCRIPTION("Static keys: a deferred key's takes and drops within its rate limit");
MODULE_LICENSE("GPL");
