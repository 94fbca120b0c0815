// SPDX-License-Identifier: GPL-2.0
/*
 * A network device with four transmit queues, for the XPS check: lo has
 * one queue, and XPS needs a multiqueue device.  "skmq0" takes no ARP
 * (IFF_NOARP), so IPv4 packets routed to it go straight to its transmit
 * function, which counts each packet on the queue the stack chose and
 * drops it.  The read-only parameter "tx_packets" shows the counts, one
 * per queue ("a,b,c,d"), so that a check can see XPS steer packets.
 */
#include <linux/atomic.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>

#define SKMQ_TX_QUEUES	4

static atomic_t tx_packets[SKMQ_TX_QUEUES];
static struct net_device *skmq_dev;

static int tx_packets_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d,%d,%d,%d\n", atomic_read(&tx_packets[0]),
			  atomic_read(&tx_packets[1]),
			  atomic_read(&tx_packets[2]),
			  atomic_read(&tx_packets[3]));
}

static const struct kernel_param_ops tx_packets_ops = {
	.get = tx_packets_get,
};
module_param_cb(tx_packets, &tx_packets_ops, NULL, 0444);
MODULE_PARM_DESC(tx_packets, "packets transmitted, per queue");

static netdev_tx_t skmq_xmit(struct sk_buff *skb, struct net_device *dev)
{
	u16 queue = skb_get_queue_mapping(skb);

	if (queue < SKMQ_TX_QUEUES)
		atomic_inc(&tx_packets[queue]);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops skmq_ops = {
	.ndo_start_xmit = skmq_xmit,
};

static void skmq_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &skmq_ops;
	dev->flags |= IFF_NOARP;
	dev->needs_free_netdev = true;
	eth_hw_addr_random(dev);
}

static int __init skmq_init(void)
{
	int err;

	BUILD_BUG_ON(SKMQ_TX_QUEUES != 4);	/* tx_packets_get() */
	skmq_dev = alloc_netdev_mqs(0, "skmq%d", NET_NAME_ENUM, skmq_setup,
				    SKMQ_TX_QUEUES, 1);
	if (!skmq_dev)
		return -ENOMEM;
	err = register_netdev(skmq_dev);
	if (err)
		free_netdev(skmq_dev);
	return err;
}

static void __exit skmq_exit(void)
{
	unregister_netdev(skmq_dev);
}

module_init(skmq_init);
module_exit(skmq_exit);
MODULE_DESCRIPTION("Static keys: a multiqueue device that counts per queue");
MODULE_LICENSE("GPL");
