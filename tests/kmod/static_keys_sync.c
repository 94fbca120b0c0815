// SPDX-License-Identifier: GPL-2.0
/*
 * A key with sites in several modules, for the key_sync_rounds check:
 * this module defines sync_key (false), exports it and has sites on it;
 * static_keys_sync_user_a.ko and _b.ko have sites on it too.  Writing
 * Y or N to the parameter "enabled" enables or disables the key, so that
 * the check can count the CPU synchronisation rounds of one flip: one
 * batch's, however many modules hold its sites and in whatever order of
 * address the core walks them.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

DEFINE_STATIC_KEY_FALSE(static_keys_sync_key);
EXPORT_SYMBOL_GPL(static_keys_sync_key);

static noinline bool sync_site(void)
{
	return static_branch_unlikely(&static_keys_sync_key);
}

static int enabled_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on)
		static_branch_enable(&static_keys_sync_key);
	else
		static_branch_disable(&static_keys_sync_key);
	return 0;
}

static int enabled_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", sync_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops enabled_ops = {
	.set = enabled_set,
	.get = enabled_get,
};
module_param_cb(enabled, &enabled_ops, NULL, 0644);
MODULE_PARM_DESC(enabled, "sync_key: write Y or N to flip it; reads this module's site");

MODULE_DESCRIPTION("Static keys: a key with sites in several modules");
MODULE_LICENSE("GPL");
