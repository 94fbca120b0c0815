// SPDX-License-Identifier: GPL-2.0
/*
 * Says, for every module that comes up while it is loaded, whether the
 * module's jump table reaches jump label already in the order that
 * jump_label_add_module() needs, by key and then by site.  Its module
 * notifier runs before jump label's (priority 1), which sorts a table that
 * is not in order, so what it sees is the table as the .ko brought it,
 * relocated.  tests/guest's module_table_order.sh reads the lines this
 * logs, and compares them with what the host says the kernel must do.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>

/* The index of the first entry out of order, or 0 if none is. */
static unsigned int first_out_of_order(const struct jump_entry *entries,
				       unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++) {
		unsigned long prev_key = (unsigned long)jump_entry_key(&entries[i - 1]);
		unsigned long key = (unsigned long)jump_entry_key(&entries[i]);

		if (prev_key > key ||
		    (prev_key == key &&
		     jump_entry_code(&entries[i - 1]) > jump_entry_code(&entries[i])))
			return i;
	}
	return 0;
}

static int table_order_notify(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	struct module *mod = data;
	unsigned int bad;

	if (state != MODULE_STATE_COMING || !mod->num_jump_entries)
		return NOTIFY_DONE;
	bad = first_out_of_order(mod->jump_entries, mod->num_jump_entries);
	if (bad)
		pr_info("%s: %u entries, entry %u out of order\n", mod->name,
			mod->num_jump_entries, bad);
	else
		pr_info("%s: %u entries, in order\n", mod->name,
			mod->num_jump_entries);
	return NOTIFY_DONE;
}

static struct notifier_block table_order_nb = {
	.notifier_call = table_order_notify,
	.priority = 2,
};

static int __init table_order_init(void)
{
	return register_module_notifier(&table_order_nb);
}

static void __exit table_order_exit(void)
{
	unregister_module_notifier(&table_order_nb);
}

module_init(table_order_init);
module_exit(table_order_exit);
MODULE_DESCRIPTION("Static keys: is a coming module's jump table in order?");
MODULE_LICENSE("GPL");
