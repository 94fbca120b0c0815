// SPDX-License-Identifier: GPL-2.0
/*
 * A netfilter hook on IPv4 LOCAL_OUT in the initial network namespace,
 * registered while the module is loaded: registering it takes the key
 * nf_hooks_needed[NFPROTO_IPV4][NF_INET_LOCAL_OUT], which lets packets
 * into the hook.  The hook accepts every packet and counts it in the
 * read-only parameter "packets", so that a check can see it was reached.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <net/net_namespace.h>

static atomic_t packets = ATOMIC_INIT(0);

static int packets_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&packets));
}

static const struct kernel_param_ops packets_ops = {
	.get = packets_get,
};
module_param_cb(packets, &packets_ops, NULL, 0444);
MODULE_PARM_DESC(packets, "IPv4 packets seen at LOCAL_OUT");

static unsigned int count_packet(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	atomic_inc(&packets);
	return NF_ACCEPT;
}

static const struct nf_hook_ops count_ops = {
	.hook = count_packet,
	.pf = NFPROTO_IPV4,
	.hooknum = NF_INET_LOCAL_OUT,
	.priority = NF_IP_PRI_FIRST,
};

static int __init nf_hook_init(void)
{
	return nf_register_net_hook(&init_net, &count_ops);
}

static void __exit nf_hook_exit(void)
{
	nf_unregister_net_hook(&init_net, &count_ops);
}

module_init(nf_hook_init);
module_exit(nf_hook_exit);
MODULE_DESCRIPTION("Static keys: a netfilter hook that takes nf_hooks_needed");
MODULE_LICENSE("GPL");
