// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded and unloaded in a loop by the module_churn check while a shell
 * loop flips the kfree_skb tracepoint's key: a module with a site on
 * that core-kernel key (exported for modules), a site on a key of another module
 * (test_static_key_base's base_old_true_key, the seeds' API), and a key
 * of its own that init flips and checks.  Parameters "core_site" and
 * "base_site" read the two foreign sites (Y or N) for the check.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <trace/events/skb.h>

extern struct static_key base_old_true_key;

static struct static_key churn_key = STATIC_KEY_INIT_FALSE;

static noinline bool core_site(void)
{
	return trace_kfree_skb_enabled();
}

static noinline bool base_site(void)
{
	return static_key_true(&base_old_true_key);
}

static noinline bool own_site(void)
{
	return static_key_false(&churn_key);
}

static int core_site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", core_site() ? 'Y' : 'N');
}

static int base_site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", base_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops core_site_ops = { .get = core_site_get };
static const struct kernel_param_ops base_site_ops = { .get = base_site_get };
module_param_cb(core_site, &core_site_ops, NULL, 0444);
MODULE_PARM_DESC(core_site, "what the site on the kfree_skb tracepoint's key reads");
module_param_cb(base_site, &base_site_ops, NULL, 0444);
MODULE_PARM_DESC(base_site, "what the site on test_static_key_base's key reads");

/*
 * Its own key on and off, and test_static_key_base's key (true) off and
 * on again: each site must follow, so that a load whose sites on another
 * module's key were not attached fails.
 */
static int __init churn_init(void)
{
	bool off, on, base_on, base_off;

	off = own_site();
	static_key_slow_inc(&churn_key);
	on = own_site();
	static_key_slow_dec(&churn_key);
	base_on = base_site();
	static_key_slow_dec(&base_old_true_key);
	base_off = base_site();
	static_key_slow_inc(&base_old_true_key);
	if (off || !on || own_site() || !base_on || base_off || !base_site()) {
		pr_err("static_keys_churn: own site read %d, %d, %d (want 0, 1, 0), base site %d, %d, %d (want 1, 0, 1)\n",
		       off, on, own_site(), base_on, base_off, base_site());
		return -EINVAL;
	}
	return 0;
}

static void __exit churn_exit(void)
{
}

module_init(churn_init);
module_exit(churn_exit);
MODULE_DESCRIPTION("Static keys: a module for load/unload churn");
MODULE_LICENSE("GPL");
