// SPDX-License-Identifier: GPL-2.0
/*
 * A module with a site on static_keys_ro_key, a core-kernel key in
 * __ro_after_init data that an initcall enabled (the checks' own kernel
 * patch, lib/static_keys_ro_key.c).  By the time the module
 * loads, the key is read-only: the loader must attach the site without
 * writing the key, and bring it to the key's value, true, before init
 * runs.  Init fails if the branch reads false; parameter "site" reads it.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

DECLARE_STATIC_KEY_FALSE(static_keys_ro_key);

static noinline bool ro_key_site(void)
{
	return static_branch_unlikely(&static_keys_ro_key);
}

static int ro_key_site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", ro_key_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops ro_key_site_ops = {
	.get = ro_key_site_get,
};
module_param_cb(site, &ro_key_site_ops, NULL, 0444);
MODULE_PARM_DESC(site, "what the module's site on the read-only key reads");

static int __init ro_user_init(void)
{
	if (ro_key_site())
		return 0;
	pr_err("static_keys_ro_user: the site on an enabled read-only key reads false at load\n");
	return -EINVAL;
}

static void __exit ro_user_exit(void)
{
}
module_init(ro_user_init);
module_exit(ro_user_exit);
MODULE_DESCRIPTION("A site on a core key in __ro_after_init data");
MODULE_LICENSE("GPL");
