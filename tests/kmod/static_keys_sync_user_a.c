// SPDX-License-Identifier: GPL-2.0
/*
 * Sites on static_keys_sync.ko's key in another module (see there): 160
 * of them, so that the key's sites in three modules are more than a page
 * of text_poke_queue() entries holds (256 on x86-64) and a flip must grow
 * the batch to write them in one, and a load while the key is enabled has
 * 160 sites to write, which must go in one batch too.  Parameter "sites"
 * reads how many of them are taken now, running each.
 * static_keys_sync_user_b.c is this file under another module name.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

DECLARE_STATIC_KEY_FALSE(static_keys_sync_key);

/* 160 functions, each one site: sync_user_site_0 ... _159. */
#define SYNC_USER_SITE(n)						\
static noinline bool sync_user_site_##n(void)				\
{									\
	return static_branch_unlikely(&static_keys_sync_key);		\
}
#define SITES10(t) SYNC_USER_SITE(t##0) SYNC_USER_SITE(t##1)		\
	SYNC_USER_SITE(t##2) SYNC_USER_SITE(t##3) SYNC_USER_SITE(t##4)	\
	SYNC_USER_SITE(t##5) SYNC_USER_SITE(t##6) SYNC_USER_SITE(t##7)	\
	SYNC_USER_SITE(t##8) SYNC_USER_SITE(t##9)
SYNC_USER_SITE(0) SYNC_USER_SITE(1) SYNC_USER_SITE(2) SYNC_USER_SITE(3)
SYNC_USER_SITE(4) SYNC_USER_SITE(5) SYNC_USER_SITE(6) SYNC_USER_SITE(7)
SYNC_USER_SITE(8) SYNC_USER_SITE(9)
SITES10(1) SITES10(2) SITES10(3) SITES10(4) SITES10(5) SITES10(6)
SITES10(7) SITES10(8) SITES10(9) SITES10(10) SITES10(11) SITES10(12)
SITES10(13) SITES10(14) SITES10(15)

#define SITE_PTR(n) sync_user_site_##n,
#define PTRS10(t) SITE_PTR(t##0) SITE_PTR(t##1) SITE_PTR(t##2)		\
	SITE_PTR(t##3) SITE_PTR(t##4) SITE_PTR(t##5) SITE_PTR(t##6)	\
	SITE_PTR(t##7) SITE_PTR(t##8) SITE_PTR(t##9)

static bool (*const sync_user_sites[])(void) = {
	SITE_PTR(0) SITE_PTR(1) SITE_PTR(2) SITE_PTR(3) SITE_PTR(4)
	SITE_PTR(5) SITE_PTR(6) SITE_PTR(7) SITE_PTR(8) SITE_PTR(9)
	PTRS10(1) PTRS10(2) PTRS10(3) PTRS10(4) PTRS10(5) PTRS10(6)
	PTRS10(7) PTRS10(8) PTRS10(9) PTRS10(10) PTRS10(11) PTRS10(12)
	PTRS10(13) PTRS10(14) PTRS10(15)
};

static int sites_get(char *buffer, const struct kernel_param *kp)
{
	unsigned int i, taken = 0;

	for (i = 0; i < ARRAY_SIZE(sync_user_sites); i++)
		taken += sync_user_sites[i]();
	return sysfs_emit(buffer, "%u\n", taken);
}

static const struct kernel_param_ops sites_ops = {
	.get = sites_get,
};
module_param_cb(sites, &sites_ops, NULL, 0444);
MODULE_PARM_DESC(sites, "how many of the module's 160 sites on sync_key are taken");

MODULE_DESCRIPTION("Static keys: sites on a key of another module");
MODULE_LICENSE("GPL");
