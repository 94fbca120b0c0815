// SPDX-License-Identifier: GPL-2.0
/*
 * Sites in a module's init text, before and after that text is freed.
 *
 * While the module's init function runs, its init text is live and the
 * kernel may still rewrite the sites there: a kprobe on one of them must
 * be refused (jump_label_text_reserved()), while a kprobe on the first
 * instruction of an init function without sites is accepted, which shows
 * that the refusals come from the sites and not from init text as such.
 * Parameters "init_sites", "init_sites_refused" and "init_probe_accepted"
 * give what init found.
 *
 * Once the module is live its init text is freed.  Flipping the module's
 * own key (parameter "own_key") and the kfree_skb tracepoint's core key
 * then has to write the sites in the module's core text and leave those
 * in the freed init text alone: text_poke() of freed module memory
 * faults.  Parameters "own_site" and "core_site" read the core-text
 * sites of the two keys.
 */
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <trace/events/skb.h>

static struct static_key init_text_key = STATIC_KEY_INIT_FALSE;

static noinline bool own_site(void)
{
	return static_key_false(&init_text_key);
}

/*
 * trace_kfree_skb_enabled() is only inline, and the distro's asm goto
 * sizes it so that GCC calls one out-of-line copy: the key's
 * static_key_false(), always inlined, puts a site in each function.
 */
static noinline bool core_site(void)
{
	return static_key_false(&__tracepoint_kfree_skb.key);
}

/*
 * The init sites return other values than the core-text ones, so that
 * the compiler cannot fold an init function into its core twin (GCC's
 * identical code folding makes one a jump to the other).
 */
static noinline __init int init_own_site(void)
{
	return static_key_false(&init_text_key) ? 2 : 0;
}

static noinline __init int init_core_site(void)
{
	return static_key_false(&__tracepoint_kfree_skb.key) ? 2 : 0;
}

static unsigned int init_sites;
module_param(init_sites, uint, 0444);
MODULE_PARM_DESC(init_sites, "sites in init text found by init");
static unsigned int init_sites_refused;
module_param(init_sites_refused, uint, 0444);
MODULE_PARM_DESC(init_sites_refused, "of those, how many refused a kprobe");
static bool init_probe_accepted;
module_param(init_probe_accepted, bool, 0444);
MODULE_PARM_DESC(init_probe_accepted, "a kprobe on an init function's first instruction was accepted");

static int read_site(char *buffer, bool taken)
{
	return sysfs_emit(buffer, "%c\n", taken ? 'Y' : 'N');
}

static int own_site_get(char *buffer, const struct kernel_param *kp)
{
	return read_site(buffer, own_site());
}

static int core_site_get(char *buffer, const struct kernel_param *kp)
{
	return read_site(buffer, core_site());
}

static bool own_key_held;

/* "1" takes a reference to the module's key, "0" drops it. */
static int own_key_set(const char *val, const struct kernel_param *kp)
{
	bool hold;
	int ret = kstrtobool(val, &hold);

	if (ret)
		return ret;
	if (hold && !own_key_held)
		static_key_slow_inc(&init_text_key);
	else if (!hold && own_key_held)
		static_key_slow_dec(&init_text_key);
	own_key_held = hold;
	return 0;
}

static int own_key_get(char *buffer, const struct kernel_param *kp)
{
	return read_site(buffer, own_key_held);
}

static const struct kernel_param_ops own_site_ops = { .get = own_site_get };
static const struct kernel_param_ops core_site_ops = { .get = core_site_get };
static const struct kernel_param_ops own_key_ops = {
	.set = own_key_set,
	.get = own_key_get,
};
module_param_cb(own_site, &own_site_ops, NULL, 0444);
MODULE_PARM_DESC(own_site, "what the core-text site on the module's key reads");
module_param_cb(core_site, &core_site_ops, NULL, 0444);
MODULE_PARM_DESC(core_site, "what the core-text site on the kfree_skb tracepoint's key reads");
module_param_cb(own_key, &own_key_ops, NULL, 0644);
MODULE_PARM_DESC(own_key, "1 holds a reference to the module's key, 0 drops it");

/* Where the init text was, for the check to see it gone (in hex). */
static unsigned long init_text;

static int init_text_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%lx\n", init_text);
}

static const struct kernel_param_ops init_text_ops = { .get = init_text_get };
module_param_cb(init_text, &init_text_ops, NULL, 0444);
MODULE_PARM_DESC(init_text, "the address of init's first instruction, in hex");

/*
 * What the accepted kprobe is put on: the first instruction of an init
 * function without sites, which init calls, so that the compiler emits it
 * ahead of init.  Not init's own: init is the last function of the init
 * text, and 6.12's x86 can_optimize() decodes the last function of a
 * module's text up to the end of its page, reading past it into the
 * unmapped page after where the padding falls so (a fault of 6.12's
 * kprobes, not of static keys).
 */
static unsigned int init_probe_calls;

static noinline __init void init_probe_target(void)
{
	WRITE_ONCE(init_probe_calls, init_probe_calls + 1);
}

static bool __init kprobe_accepted(unsigned long addr, int *err)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)addr };

	*err = register_kprobe(&kp);
	if (*err)
		return false;
	unregister_kprobe(&kp);
	return true;
}

static int __init init_text_init(void)
{
	unsigned long first_insn = (unsigned long)init_text_init;
	struct jump_entry *entry = THIS_MODULE->jump_entries;
	struct jump_entry *end = entry + THIS_MODULE->num_jump_entries;
	int err;

	init_text = first_insn;
	/* The init sites read their keys' states as the module came up. */
	if (init_own_site() || !!init_core_site() != core_site()) {
		pr_err("static_keys_init_text: an init site disagrees with its key\n");
		return -EINVAL;
	}
	for (; entry < end; entry++) {
		unsigned long code = jump_entry_code(entry);

		if (code == first_insn) {
			pr_err("static_keys_init_text: init starts with a site\n");
			return -EINVAL;
		}
		if (!within_module_init(code, THIS_MODULE))
			continue;
		init_sites++;
		if (!kprobe_accepted(code, &err))
			init_sites_refused++;
		else
			pr_err("static_keys_init_text: a kprobe on the init site %pS was accepted\n",
			       (void *)code);
	}
	init_probe_target();
	init_probe_accepted = kprobe_accepted((unsigned long)init_probe_target, &err);
	if (!init_probe_accepted)
		pr_err("static_keys_init_text: a kprobe on %pS refused: %d\n",
		       (void *)init_probe_target, err);
	return 0;
}

static void __exit init_text_exit(void)
{
	if (own_key_held)
		static_key_slow_dec(&init_text_key);
}

module_init(init_text_init);
module_exit(init_text_exit);
MODULE_DESCRIPTION("Static keys: sites in a module's init text, live and freed");
MODULE_LICENSE("GPL");
