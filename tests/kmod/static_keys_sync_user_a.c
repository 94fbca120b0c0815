// SPDX-License-Identifier: GPL-2.0
/*
 * Sites on static_keys_sync.ko's key in another module (see there):
 * eight of them, so that a load while the key is enabled has eight sites
 * to write, which must go in one batch too.  Parameter "sites" reads how
 * many of them are taken now.  static_keys_sync_user_b.c is this file
 * under another module name.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

DECLARE_STATIC_KEY_FALSE(static_keys_sync_key);

#define SYNC_USER_SITE(n)						\
static noinline bool sync_user_site_##n(void)				\
{									\
	return static_branch_unlikely(&static_keys_sync_key);		\
}

SYNC_USER_SITE(0)
SYNC_USER_SITE(1)
SYNC_USER_SITE(2)
SYNC_USER_SITE(3)
SYNC_USER_SITE(4)
SYNC_USER_SITE(5)
SYNC_USER_SITE(6)
SYNC_USER_SITE(7)

static int sites_get(char *buffer, const struct kernel_param *kp)
{
	bool (*const sites[])(void) = {
		sync_user_site_0, sync_user_site_1, sync_user_site_2,
		sync_user_site_3, sync_user_site_4, sync_user_site_5,
		sync_user_site_6, sync_user_site_7,
	};
	unsigned int i, taken = 0;

	for (i = 0; i < ARRAY_SIZE(sites); i++)
		taken += sites[i]();
	return sysfs_emit(buffer, "%u\n", taken);
}

static const struct kernel_param_ops sites_ops = {
	.get = sites_get,
};
module_param_cb(sites, &sites_ops, NULL, 0444);
MODULE_PARM_DESC(sites, "how many of the module's 8 sites on sync_key are taken");

MODULE_DESCRIPTION("Static keys: sites on a key of another module");
MODULE_LICENSE("GPL");
