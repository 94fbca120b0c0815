// SPDX-License-Identifier: GPL-2.0
/*
 * A flip that writes this module's init site while its init returns
 * (x86).  Init holds text_mutex in a thread of its own (the holder), and
 * starts another (the flipper) that enables init_key, whose one site is
 * in this module's init text: the flipper decides under jump_label_mutex
 * that the site is still writable, since the module is coming up, and
 * then waits for text_mutex to queue it.  Init returns 200 ms later, and
 * the holder lets text_mutex go 2 s after that.  Meanwhile the module
 * goes live and its init text would be freed: the kernel must not free
 * it before the flip is done (the module notifier takes jump_label_mutex
 * when the module goes live).  If it did, the flipper would read and
 * write freed memory, which faults with PTI or debug_pagealloc.
 * Parameter "flips" reads how many flips of init_key ended (1 once the
 * flipper is through).  text_mutex's address comes as parameter
 * "text_mutex" (from /proc/kallsyms), not from a kprobe: unregistering one
 * queues the kprobe optimizer, which would wait for text_mutex holding
 * kprobe_mutex, and the module notifier of kprobes, waiting for that,
 * would hold the load back until the flip is done, fence or not.
 */
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

static DEFINE_STATIC_KEY_FALSE(init_key);
static struct mutex *text_lock;
static struct task_struct *holder, *flipper;
static unsigned int flips;
static unsigned long text_mutex;
module_param(flips, uint, 0444);
module_param(text_mutex, ulong, 0);
MODULE_PARM_DESC(text_mutex, "the address of text_mutex");
MODULE_PARM_DESC(flips, "flips of init_key that ended");

static noinline __init int init_site(void)
{
	return static_branch_unlikely(&init_key) ? 2 : 0;
}

static int hold(void *unused)
{
	mutex_lock(text_lock);
	msleep(2200);
	mutex_unlock(text_lock);
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int flip(void *unused)
{
	static_branch_enable(&init_key);
	WRITE_ONCE(flips, 1);
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int __init race_init(void)
{
	text_lock = (struct mutex *)text_mutex;
	if (!text_lock)
		return -EINVAL;
	holder = kthread_run(hold, NULL, "static_keys_hold");
	if (IS_ERR(holder))
		return PTR_ERR(holder);
	msleep(100);
	flipper = kthread_run(flip, NULL, "static_keys_flip");
	if (IS_ERR(flipper)) {
		kthread_stop(holder);
		return PTR_ERR(flipper);
	}
	msleep(200);
	return init_site() < 0 ? -EINVAL : 0;
}

static void __exit race_exit(void)
{
	kthread_stop(flipper);
	kthread_stop(holder);
	static_branch_disable(&init_key);
}

module_init(race_init);
module_exit(race_exit);
MODULE_DESCRIPTION("Static keys: a flip of init sites while init returns");
MODULE_LICENSE("GPL");
