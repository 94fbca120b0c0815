// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-test ROUNDS: two processes pass one byte back and forth over two
 * pipes ROUNDS times, as the seeds' pipe-test did, and print
 * "ROUNDS round trips in NS ns".  Every round trip is two context switches
 * and four system calls, so the figure moves with the cost of the
 * scheduler's and the syscall path's static keys.  Exits 1 on any error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static void pass_byte(int in, int out)
{
	char byte = 0;

	if (read(in, &byte, 1) != 1)
		fail("read");
	if (write(out, &byte, 1) != 1)
		fail("write");
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 0;
	int ping[2], pong[2], status;
	struct timespec start, end;
	char byte = 0;
	pid_t child;
	long i;

	if (rounds <= 0) {
		fprintf(stderr, "usage: pipe-test ROUNDS\n");
		return 2;
	}
	if (pipe(ping) || pipe(pong))
		fail("pipe");
	child = fork();
	if (child < 0)
		fail("fork");
	if (child == 0) {
		for (i = 0; i < rounds; i++)
			pass_byte(ping[0], pong[1]);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < rounds; i++) {
		if (write(ping[1], &byte, 1) != 1)
			fail("write");
		if (read(pong[0], &byte, 1) != 1)
			fail("read");
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("child");
	printf("%ld round trips in %lld ns\n", rounds,
	       (end.tv_sec - start.tv_sec) * 1000000000LL +
	       (end.tv_nsec - start.tv_nsec));
	return 0;
}
