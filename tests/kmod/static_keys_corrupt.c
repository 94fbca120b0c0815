// SPDX-License-Identifier: GPL-2.0
/*
 * A fault test, loaded only by /fault/insmod.sh in a boot of its
 * own: it overwrites its own static branch site with two INT3s, as a
 * stray write or a corrupt table would leave it, and then enables the
 * site's key.  The kernel must stop rather than write over bytes it does
 * not know: the series with "jump_label: site <site> of key <key>:
 * expected <bytes>, found cc cc", the distro with a BUG in
 * arch_jump_entry_size().  If the kernel writes the site anyway, the
 * module says so and loads.
 *
 * text_poke() and text_mutex are not exported: harness_lookup.h finds them.
 */
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "harness_lookup.h"

static struct static_key corrupt_key = STATIC_KEY_INIT_FALSE;

static noinline bool corrupt_site(void)
{
	return static_key_false(&corrupt_key);
}

static int __init corrupt_init(void)
{
	void *(*poke)(void *addr, const void *opcode, size_t len);
	static const u8 int3s[2] = { 0xcc, 0xcc };
	struct mutex *text_lock;
	struct jump_entry *entry;
	void *code;

	if (!THIS_MODULE->num_jump_entries) {
		pr_err("static_keys_corrupt: no jump entries (CONFIG_JUMP_LABEL=n?)\n");
		return -ENODEV;
	}
	entry = &THIS_MODULE->jump_entries[0];
	code = (void *)jump_entry_code(entry);
	poke = (void *)harness_lookup("text_poke");
	text_lock = (void *)harness_lookup("text_mutex");
	/* The site is corrupt_site()'s first instruction or near it. */
	if (!poke || !text_lock || code < (void *)corrupt_site ||
	    code >= (void *)corrupt_site + 16) {
		pr_err("static_keys_corrupt: cannot find text_poke, text_mutex or the site (%pS)\n",
		       code);
		return -ENOENT;
	}

	pr_info("static_keys_corrupt: writing cc cc over the site at %pS, then enabling its key\n",
		code);
	mutex_lock(text_lock);
	poke(code, int3s, sizeof(int3s));
	mutex_unlock(text_lock);
	static_key_slow_inc(&corrupt_key);
	pr_err("static_keys_corrupt: the kernel flipped a corrupted site and went on\n");
	return 0;
}

module_init(corrupt_init);
MODULE_DESCRIPTION("Static keys: a corrupted site must stop the kernel");
MODULE_LICENSE("GPL");
