// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys while CPUs go offline and come back (tests/guest's
 * cpu_hotplug.sh takes them down and up).  Two keys:
 *
 * - cpu1_key follows CPU 1: a CPU hotplug callback enables it when the
 *   CPU comes online and disables it when it goes, from the hotplug
 *   thread with the hotplug lock held, as drivers flip keys from their
 *   notifiers (static_key_enable_cpuslocked(): the plain call would take
 *   that lock again);
 * - flip_key is flipped by a writer thread every millisecond, through the
 *   hotplug operations, so that a flip's text patching and its CPU syncs
 *   meet CPUs on their way down and up.
 *
 * Reading the parameter "verify" pauses the writer and runs every site of
 * both keys on every online CPU (on_each_cpu()): each must take the
 * branch its key's state says.  It answers
 * "cpus=N mismatches=M cpu1_key=Y|N cpu1_online=Y|N flips=F".
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#define WATCHED_CPU	1

static DEFINE_STATIC_KEY_FALSE(cpu1_key);
static DEFINE_STATIC_KEY_FALSE(flip_key);

/* Sites in functions of their own, both branch forms. */
static noinline bool cpu1_unlikely(void)
{
	return static_branch_unlikely(&cpu1_key);
}

static noinline bool cpu1_likely(void)
{
	return static_branch_likely(&cpu1_key);
}

static noinline bool flip_unlikely(void)
{
	return static_branch_unlikely(&flip_key);
}

static noinline bool flip_likely(void)
{
	return static_branch_likely(&flip_key);
}

static int hotplug_state;
static struct task_struct *writer;
static DEFINE_MUTEX(writer_lock);
static atomic_t mismatches = ATOMIC_INIT(0);
static unsigned long flips;

static int watched_online(unsigned int cpu)
{
	if (cpu == WATCHED_CPU)
		static_branch_enable_cpuslocked(&cpu1_key);
	return 0;
}

static int watched_offline(unsigned int cpu)
{
	if (cpu == WATCHED_CPU)
		static_branch_disable_cpuslocked(&cpu1_key);
	return 0;
}

static int writer_fn(void *unused)
{
	while (!kthread_should_stop()) {
		mutex_lock(&writer_lock);
		if (static_key_enabled(&flip_key))
			static_branch_disable(&flip_key);
		else
			static_branch_enable(&flip_key);
		flips++;
		mutex_unlock(&writer_lock);
		/* sleep, not spin: the other vCPUs run meanwhile */
		msleep(1);
	}
	return 0;
}

/* On each CPU: every site against its key's state. */
static void verify_on_cpu(void *unused)
{
	bool cpu1 = static_key_enabled(&cpu1_key);
	bool flip = static_key_enabled(&flip_key);

	if (cpu1_unlikely() != cpu1 || cpu1_likely() != cpu1 ||
	    flip_unlikely() != flip || flip_likely() != flip)
		atomic_inc(&mismatches);
}

static int verify_get(char *buffer, const struct kernel_param *kp)
{
	int ret;

	mutex_lock(&writer_lock);
	cpus_read_lock();
	atomic_set(&mismatches, 0);
	on_each_cpu(verify_on_cpu, NULL, 1);
	ret = sysfs_emit(buffer, "cpus=%u mismatches=%d cpu1_key=%c cpu1_online=%c flips=%lu\n",
			 num_online_cpus(), atomic_read(&mismatches),
			 static_key_enabled(&cpu1_key) ? 'Y' : 'N',
			 cpu_online(WATCHED_CPU) ? 'Y' : 'N', flips);
	cpus_read_unlock();
	mutex_unlock(&writer_lock);
	return ret;
}

static const struct kernel_param_ops verify_ops = {
	.get = verify_get,
};
module_param_cb(verify, &verify_ops, NULL, 0444);
MODULE_PARM_DESC(verify, "every site on every CPU against its key");

static int __init hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "static_keys_hotplug:online",
				watched_online, watched_offline);
	if (ret < 0)
		return ret;
	hotplug_state = ret;
	writer = kthread_run(writer_fn, NULL, "static_keys_hotplug_writer");
	if (IS_ERR(writer)) {
		cpuhp_remove_state(hotplug_state);
		return PTR_ERR(writer);
	}
	return 0;
}

static void __exit hotplug_exit(void)
{
	kthread_stop(writer);
	cpuhp_remove_state(hotplug_state);
	static_branch_disable(&flip_key);
}

module_init(hotplug_init);
module_exit(hotplug_exit);
MODULE_DESCRIPTION("Static keys: flips from CPU hotplug callbacks and across CPU hotplug");
MODULE_LICENSE("GPL");
