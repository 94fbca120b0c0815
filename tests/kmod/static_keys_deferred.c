// SPDX-License-Identifier: GPL-2.0
/*
 * A deferred key in a module that is unloaded while the work of its rate
 * limit is pending.  Loading takes a reference and drops it with
 * static_key_slow_dec_deferred(): the key stays true for the rate limit
 * (DEFERRED_RATE_LIMIT), with its last decrement queued as delayed work
 * that lives in this module's memory.  Unloading at once must not leave
 * that work behind: the exit calls static_key_deferred_flush(), which has
 * to drop the pending reference then and there and cancel the work, so
 * that nothing runs in freed module memory when the rate limit is up.
 * The exit logs what it found after the flush; tests/guest's
 * module_deferred.sh reads that line, and waits out the rate limit.
 * Without CONFIG_JUMP_LABEL (and before the series' deferred keys) a
 * deferred decrement is immediate: the key is false once loaded.
 */
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#define DEFERRED_RATE_LIMIT	(2 * HZ)

static struct static_key_deferred deferred_key;

static noinline bool deferred_site(void)
{
	return static_key_false(&deferred_key.key);
}

static int deferred_site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", deferred_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops deferred_site_ops = {
	.get = deferred_site_get,
};
module_param_cb(site, &deferred_site_ops, NULL, 0444);
MODULE_PARM_DESC(site, "what the site on the deferred key reads now");

static int __init deferred_init(void)
{
	jump_label_rate_limit(&deferred_key, DEFERRED_RATE_LIMIT);
	static_key_slow_inc(&deferred_key.key);
	static_key_slow_dec_deferred(&deferred_key);
	return 0;
}

static void __exit deferred_exit(void)
{
	static_key_deferred_flush(&deferred_key);
	pr_info("static_keys_deferred: after the flush at unload: count %d, site %s\n",
		static_key_count(&deferred_key.key),
		deferred_site() ? "true" : "false");
}

module_init(deferred_init);
module_exit(deferred_exit);
MODULE_DESCRIPTION("Static keys: a deferred key's pending work at module unload");
MODULE_LICENSE("GPL");
