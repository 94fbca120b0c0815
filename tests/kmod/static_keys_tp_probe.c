// SPDX-License-Identifier: GPL-2.0
/*
 * One probe on the kfree_skb tracepoint, attached and detached through
 * parameter "attach" (1 or 0), for the tracepoint_static_call check.  A
 * tracepoint with one probe takes its key, whose sites jump into the
 * tracepoint's block, and points its static call, whose sites sit just
 * after them in the same functions, at that probe; with none it drops the
 * key and points the static call back at the tracepoint's iterator.  Both
 * are text the kernel rewrites, side by side.  Parameter "hits" counts
 * the probe's calls.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/tracepoint.h>
#include <linux/version.h>
#include <trace/events/skb.h>

static atomic_t hits = ATOMIC_INIT(0);
static bool attached;

/* 6.12's tracepoint also passes the receiving socket. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static void kfree_skb_probe(void *data, struct sk_buff *skb, void *location,
			    enum skb_drop_reason reason, struct sock *rx_sk)
#else
static void kfree_skb_probe(void *data, struct sk_buff *skb, void *location,
			    enum skb_drop_reason reason)
#endif
{
	atomic_inc(&hits);
}

static int attach_set(const char *val, const struct kernel_param *kp)
{
	bool attach;
	int ret = kstrtobool(val, &attach);

	if (ret || attach == attached)
		return ret;
	if (attach)
		ret = register_trace_kfree_skb(kfree_skb_probe, NULL);
	else
		ret = unregister_trace_kfree_skb(kfree_skb_probe, NULL);
	if (!ret)
		attached = attach;
	return ret;
}

static int attach_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n", attached ? 'Y' : 'N');
}

static int hits_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops attach_ops = {
	.set = attach_set,
	.get = attach_get,
};
static const struct kernel_param_ops hits_ops = { .get = hits_get };
module_param_cb(attach, &attach_ops, NULL, 0644);
MODULE_PARM_DESC(attach, "1 attaches the probe to kfree_skb, 0 detaches it");
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "calls of the probe so far");

static int __init tp_probe_init(void)
{
	return 0;
}

static void __exit tp_probe_exit(void)
{
	if (attached)
		unregister_trace_kfree_skb(kfree_skb_probe, NULL);
	/* No CPU may still be in the probe when its text goes. */
	tracepoint_synchronize_unregister();
}

module_init(tp_probe_init);
module_exit(tp_probe_exit);
MODULE_DESCRIPTION("Static keys: a tracepoint probe, for its key and static call");
MODULE_LICENSE("GPL");
