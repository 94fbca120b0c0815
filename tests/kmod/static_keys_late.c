// SPDX-License-Identifier: GPL-2.0
/*
 * A module with a site on a core-kernel key that is already enabled when
 * the module loads (static_keys_holder.ko holds it): the site was compiled
 * for the key's initial value, false, so the module loader has to rewrite
 * it before the module's init runs.  Init fails if the branch reads false;
 * parameter "site" reads the branch afterwards, to see it follow the key
 * once the holder is gone.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <trace/events/sched.h>

static noinline bool late_site(void)
{
	return trace_sched_update_nr_running_tp_enabled();
}

static int late_site_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", late_site() ? 'Y' : 'N');
}

static const struct kernel_param_ops late_site_ops = {
	.get = late_site_get,
};
module_param_cb(site, &late_site_ops, NULL, 0444);
MODULE_PARM_DESC(site, "what the module's site on the core key reads now");

static int __init late_init(void)
{
	if (late_site())
		return 0;
	pr_err("static_keys_late: the site on an enabled core key reads false at load\n");
	return -EINVAL;
}

static void __exit late_exit(void)
{
}

module_init(late_init);
module_exit(late_exit);
MODULE_DESCRIPTION("Static keys: a module site on a key changed before load");
MODULE_LICENSE("GPL");
