// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's guest program.  Each mode prints one "name=value" line,
 * value in CLOCK_MONOTONIC nanoseconds (guest instructions, under QEMU's
 * -icount shift=0):
 *
 *   bench pipe N       N round trips of one byte between two processes
 *                      over two pipes (the seeds' pipe-test): pipe_ns=
 *   bench getppid N    N getppid() calls, the system call with the demo
 *                      branch of patches/bench: getppid_ns=
 *   bench pipe-self N  pipe-test's system calls without its context
 *                      switches: N writes and reads of one byte by one
 *                      process: pipe_self_ns=
 *   bench yield N      pipe-test's context switches without its pipes:
 *                      two processes on one CPU, N sched_yield() each
 *                      (when both are runnable every yield switches):
 *                      yield_ns=
 *   bench load FILE    finit_module() of FILE: load_ns=
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pipe_test(long rounds)
{
	int there[2], back[2];
	long long start;
	pid_t child;
	char c = 0;
	long i;

	if (pipe(there) || pipe(back))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		for (i = 0; i < rounds; i++) {
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				die("child");
		}
		_exit(0);
	}
	start = now_ns();
	for (i = 0; i < rounds; i++) {
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			die("parent");
	}
	printf("pipe_ns=%lld\n", now_ns() - start);
	waitpid(child, NULL, 0);
}

static void getppid_test(long calls)
{
	long long start = now_ns();
	long i;

	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	printf("getppid_ns=%lld\n", now_ns() - start);
}

static void pipe_self(long rounds)
{
	int fds[2];
	long long start;
	char c = 0;
	long i;

	if (pipe(fds))
		die("pipe");
	start = now_ns();
	for (i = 0; i < rounds; i++) {
		if (write(fds[1], &c, 1) != 1 || read(fds[0], &c, 1) != 1)
			die("pipe-self");
	}
	printf("pipe_self_ns=%lld\n", now_ns() - start);
}

static void yield_pair(long rounds)
{
	long long start;
	pid_t child;
	long i;

	child = fork();
	if (child < 0)
		die("fork");
	start = now_ns();
	for (i = 0; i < rounds; i++)
		sched_yield();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	printf("yield_ns=%lld\n", now_ns() - start);
}

static void load(const char *path)
{
	long long start;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	start = now_ns();
	if (syscall(SYS_finit_module, fd, "", 0))
		die("finit_module");
	printf("load_ns=%lld\n", now_ns() - start);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pipe"))
		pipe_test(atol(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "getppid"))
		getppid_test(atol(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "pipe-self"))
		pipe_self(atol(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "yield"))
		yield_pair(atol(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "load"))
		load(argv[2]);
	else {
		fprintf(stderr, "usage: bench pipe N | getppid N | pipe-self N | yield N | load FILE\n");
		return 2;
	}
	return 0;
}
