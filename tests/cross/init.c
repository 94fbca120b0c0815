// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the cross-architecture boots (scripts/cross-boot.sh), linked
 * statically with the cross compiler.  By the time it runs, the series'
 * KUnit suite has flipped its keys, a JMP-form site among them, and read
 * them back through the branches (the host reads those results from the
 * console).  This flips a key from user space as well: the sysctl
 * CROSS_SYSCTL, whose handler enables and disables the key CROSS_KEY (the
 * tree's sched conversion, from its row of configs/tree/), and reads the
 * key's count back from the debugfs view.  It prints "harness: ok" or
 * "harness: FAIL <why>", then powers the machine off, or restarts it if
 * the kernel's command line says "cross.reboot" (a row's BOOT_ARGS, for
 * a machine without a power-off: QEMU's -no-reboot ends the run).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <unistd.h>

#ifndef CROSS_SYSCTL
#error "build with -DCROSS_SYSCTL='\"kernel.NAME\"' -DCROSS_KEY='\"KEY\"'"
#endif

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* The count of KEY in the debugfs view, or -1. */
static int key_count(const char *key)
{
	FILE *f = fopen("/sys/kernel/debug/static_keys", "r");
	char line[512], want[128];
	int count = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "key %s+0x0/", key);
	while (fgets(line, sizeof(line), f)) {
		char *c = strstr(line, "count=");

		if (!strncmp(line, want, strlen(want)) && c) {
			sscanf(c, "count=%d", &count);
			break;
		}
	}
	fclose(f);
	return count;
}

/* Whether WORD is one of the kernel's command line words. */
static int on_cmdline(const char *word)
{
	FILE *f = fopen("/proc/cmdline", "r");
	char line[1024], *w, *save;
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (w = strtok_r(line, " \n", &save); w && !found; w = strtok_r(NULL, " \n", &save))
			found = !strcmp(w, word);
	fclose(f);
	return found;
}

int main(void)
{
	char sysctl[128] = "/proc/sys/";
	const char *why = NULL;
	char *c;
	int on, off;

	/* kernel.NAME is /proc/sys/kernel/NAME. */
	strncat(sysctl, CROSS_SYSCTL, sizeof(sysctl) - strlen(sysctl) - 1);
	for (c = sysctl; *c; c++)
		if (*c == '.')
			*c = '/';
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (write_file(sysctl, "1\n"))
		why = "cannot write 1 to " CROSS_SYSCTL;
	on = key_count(CROSS_KEY);
	if (!why && write_file(sysctl, "0\n"))
		why = "cannot write 0 to " CROSS_SYSCTL;
	off = key_count(CROSS_KEY);
	if (!why && (on != 1 || off != 0))
		why = CROSS_KEY "'s count did not follow " CROSS_SYSCTL;
	printf("harness: %s count %d after 1, %d after 0\n", CROSS_KEY,
	       on, off);
	if (why)
		printf("harness: FAIL %s\n", why);
	else
		printf("harness: ok\n");
	fflush(stdout);
	sync();
	reboot(on_cmdline("cross.reboot") ? RB_AUTOBOOT : RB_POWER_OFF);
	return 0;
}
