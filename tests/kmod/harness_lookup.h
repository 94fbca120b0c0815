/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbol of the kernel that is not exported (text_poke, text_mutex),
 * through kallsyms_lookup_name(), whose address a kprobe gives.  A test
 * module may do that; nothing else should.
 */
#ifndef HARNESS_LOOKUP_H
#define HARNESS_LOOKUP_H
#include <linux/kprobes.h>

static unsigned long harness_lookup(const char *name)
{
	static unsigned long (*lookup_name)(const char *name);
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (!lookup_name) {
		if (register_kprobe(&kp))
			return 0;
		lookup_name = (void *)kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup_name(name);
}
#endif
