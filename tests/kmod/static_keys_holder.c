// SPDX-License-Identifier: GPL-2.0
/*
 * Holds a core-kernel static key enabled while it is loaded: a probe on the
 * bare sched_update_nr_running_tp tracepoint enables the tracepoint's key.
 * static_keys_late.ko, loaded after it, then comes up with a site on a key
 * that has changed since the site was compiled.
 */
#include <linux/module.h>
#include <trace/events/sched.h>

static void holder_probe(void *data, struct rq *rq, int change)
{
}

static int __init holder_init(void)
{
	return register_trace_sched_update_nr_running_tp(holder_probe, NULL);
}

static void __exit holder_exit(void)
{
	unregister_trace_sched_update_nr_running_tp(holder_probe, NULL);
	tracepoint_synchronize_unregister();
}

module_init(holder_init);
module_exit(holder_exit);
MODULE_DESCRIPTION("Static keys: hold a core-kernel key enabled");
MODULE_LICENSE("GPL");
