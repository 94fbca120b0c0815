// SPDX-License-Identifier: GPL-2.0
/*
 * key-trigger MODE [ARG]: take a static key through the user-space path
 * its subsystem offers, for the guest checks of tests/guest/keys_*.sh.
 *
 *   perf-sw CONFIG  open a software perf event (PERF_TYPE_SOFTWARE, the
 *                   given config) on this task, which makes it a per-task
 *                   event too; hold it until SIGTERM, then print
 *                   "counted=N", the event's count.
 *   perf-mmap N     open a dummy software event with attr.mmap on this
 *                   task, with its ring buffer; hold it until SIGTERM,
 *                   then map N executable pages and print
 *                   "mmap_records=M", the PERF_RECORD_MMAP records that
 *                   the ring buffer holds.
 *   fork-order N    on CPU 0 only, fork N children that each write "c"
 *                   to a pipe while the parent writes "p" on return from
 *                   fork(); print "child_first=K", the forks whose child
 *                   wrote first.
 *   session-share MS  on CPU 0 only, start one busy task in a session
 *                   of its own and four in another, let them run for MS
 *                   milliseconds and print "alone_share_pct=N", the
 *                   share of their CPU time that the lone one got (about
 *                   50 when each session is a group of its own, as
 *                   autogroup makes it, about 20 when they are not).
 *   busy-poll USEC  as a SCHED_FIFO task, poll() an idle UDP socket with
 *                   SO_BUSY_POLL at USEC for 2 * USEC microseconds, and
 *                   print "poll_cpu_us=N", the CPU time (user and system)
 *                   that the poll() took.
 *   timestamp       a UDP socket on 127.0.0.1 with SO_TIMESTAMP; hold it
 *                   until SIGTERM, then send itself a datagram, read it
 *                   100 ms later and print "timestamped=1" if it came
 *                   with a SCM_TIMESTAMP ("timestamped=0" if not), and
 *                   "stamp_after_send_us=N" and "stamp_age_at_read_us=N":
 *                   where the stamp lies between the send and the read.
 *   udp N           send N datagrams to a socket of its own on 127.0.0.1
 *                   and print "received=M", the number that arrived.
 *   udp-to ADDR N   send N datagrams to port 9 of the IPv4 address ADDR
 *                   and print "sent=N".
 *   tcp-hold N CGROUP  join the cgroup v2 directory CGROUP, send itself
 *                   up to N bytes over TCP on 127.0.0.1 that nobody reads,
 *                   print "sent=M", "ready", and hold until SIGTERM.
 *   kvm-vcpu noapic a VM with one vCPU and no in-kernel irqchip; it runs
 *                   a guest of one HLT in real mode and prints "exit=hlt"
 *                   if KVM_RUN returns for it; then holds until SIGTERM.
 *   kvm-vcpu irqchip a VM with the in-kernel irqchip and one vCPU (which
 *                   therefore has a local APIC); holds until SIGTERM,
 *                   then prints "vcpu=1".
 *
 * Holding modes print "ready" once they hold the key, and only then wait
 * for SIGTERM (blocked until then, so never lost): a caller that waits
 * for "ready" before killing always gets the output.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void hold(void)
{
	sigset_t none;

	printf("ready\n");
	sigemptyset(&none);
	while (!stop)
		sigsuspend(&none);
}

static void fail(const char *what)
{
	fprintf(stderr, "key-trigger: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int perf_sw(unsigned long config)
{
	struct perf_event_attr attr;
	long long count = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		fail("perf_event_open");
	hold();
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		fail("read of the perf event");
	printf("counted=%lld\n", count);
	return 0;
}

static int perf_mmap(int maps)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_mmap_page *meta;
	unsigned long long head, pos;
	char *ring;
	int fd, i, records = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.mmap = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		fail("perf_event_open");
	/* The metadata page, then a data area of 4 pages (a power of 2). */
	meta = mmap(NULL, 5 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		fail("mmap of the ring buffer");
	ring = (char *)meta + page;
	hold();
	for (i = 0; i < maps; i++) {
		void *p = mmap(NULL, page, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			fail("mmap of an executable page");
		munmap(p, page);
	}
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = 0; pos < head && pos + sizeof(struct perf_event_header) <= 4ULL * page;) {
		struct perf_event_header *h = (void *)(ring + pos);

		if (!h->size)
			break;
		records += h->type == PERF_RECORD_MMAP;
		pos += h->size;
	}
	printf("mmap_records=%d\n", records);
	return 0;
}

static int fork_order(int forks)
{
	int i, child_first = 0;
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		fail("sched_setaffinity to CPU 0");
	for (i = 0; i < forks; i++) {
		char first;
		int fds[2];
		pid_t pid;

		if (pipe(fds))
			fail("pipe");
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0) {
			if (write(fds[1], "c", 1) != 1)
				_exit(1);
			_exit(0);
		}
		if (write(fds[1], "p", 1) != 1)
			fail("write to the pipe");
		waitpid(pid, NULL, 0);
		if (read(fds[0], &first, 1) != 1)
			fail("read of the pipe");
		child_first += first == 'c';
		close(fds[0]);
		close(fds[1]);
	}
	printf("child_first=%d\n", child_first);
	return 0;
}

/* A child that spins until killed, in the session of the caller. */
static pid_t spinner(void)
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork");
	if (pid == 0)
		for (;;)
			;
	return pid;
}

/* utime + stime of PID, in clock ticks, from /proc/PID/stat. */
static long cpu_ticks(pid_t pid)
{
	unsigned long utime, stime;
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		fail(path);
	fclose(f);
	/* After the command name, in parentheses: fields 3 on; 14 and 15. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &utime, &stime) != 2)
		fail("parse of /proc/PID/stat");
	return utime + stime;
}

static int session_share(int ms)
{
	pid_t pids[5], leaders[2];
	long ticks[5], total = 0;
	cpu_set_t cpu0;
	int i, fds[2];

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		fail("sched_setaffinity to CPU 0");
	if (pipe(fds))
		fail("pipe");
	/* Two session leaders: one spins alone, one starts four spinners. */
	for (i = 0; i < 2; i++) {
		pid_t leader = fork();

		if (leader < 0)
			fail("fork");
		leaders[i] = leader;
		if (leader == 0) {
			pid_t own[4];
			int n = i ? 4 : 1, j;

			if (setsid() < 0)
				_exit(1);
			for (j = 0; j < n; j++)
				own[j] = spinner();
			if (write(fds[1], own, n * sizeof(pid_t)) != (ssize_t)(n * sizeof(pid_t)))
				_exit(1);
			pause();
			_exit(0);
		}
		if (read(fds[0], &pids[i], (i ? 4 : 1) * sizeof(pid_t)) !=
		    (ssize_t)((i ? 4 : 1) * sizeof(pid_t)))
			fail("read of the spinners' pids");
	}
	usleep(ms * 1000);
	for (i = 0; i < 5; i++) {
		ticks[i] = cpu_ticks(pids[i]);
		total += ticks[i];
	}
	for (i = 0; i < 5; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < 2; i++) {
		kill(leaders[i], SIGKILL);
		waitpid(leaders[i], NULL, 0);
	}
	if (!total)
		fail("no CPU time counted");
	printf("alone_share_pct=%ld\n", ticks[0] * 100 / total);
	return 0;
}

/* A UDP socket bound to an ephemeral port of 127.0.0.1. */
static int udp_socket(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		fail("socket");
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) ||
	    getsockname(fd, (struct sockaddr *)addr, &len))
		fail("bind to 127.0.0.1");
	return fd;
}

static long long cpu_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		fail("getrusage");
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static int busy_poll(int usec)
{
	struct sockaddr_in addr;
	struct pollfd pfd;
	long long before;
	int fd = udp_socket(&addr);

	struct sched_param fifo = { .sched_priority = 1 };

	/*
	 * Busy polling stops as soon as another task wants the CPU: as a
	 * real-time task, no kworker waking up here ends it early.
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		fail("sched_setscheduler SCHED_FIFO");
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &usec, sizeof(usec)))
		fail("setsockopt SO_BUSY_POLL");
	pfd.fd = fd;
	pfd.events = POLLIN;
	before = cpu_us();
	if (poll(&pfd, 1, 2 * usec / 1000) != 0)
		fail("poll of an idle socket");
	printf("poll_cpu_us=%lld\n", cpu_us() - before);
	return 0;
}

static long long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000LL + tv->tv_usec;
}

/*
 * The datagram waits 100 ms in the socket before it is read.  With
 * netstamp_needed_key on, the stamp is taken when it arrives, so it is
 * about 100 ms older than the read; with the key off, recvmsg() stamps it
 * with the time of the read itself.  So the age tells the two apart.
 */
static int timestamp(void)
{
	char data[16], control[CMSG_SPACE(sizeof(struct timeval))];
	struct iovec iov = { data, sizeof(data) };
	struct timeval sent, read_at, stamp = { 0, 0 };
	struct msghdr msg = { 0 };
	struct sockaddr_in addr;
	struct cmsghdr *cmsg;
	int on = 1, stamped = 0;
	int fd = udp_socket(&addr);

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &on, sizeof(on)))
		fail("setsockopt SO_TIMESTAMP");
	hold();
	gettimeofday(&sent, NULL);
	if (sendto(fd, "x", 1, 0, (struct sockaddr *)&addr, sizeof(addr)) != 1)
		fail("sendto");
	usleep(100000);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control;
	msg.msg_controllen = sizeof(control);
	if (recvmsg(fd, &msg, 0) < 0)
		fail("recvmsg");
	gettimeofday(&read_at, NULL);
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level == SOL_SOCKET &&
		    cmsg->cmsg_type == SCM_TIMESTAMP) {
			stamped = 1;
			memcpy(&stamp, CMSG_DATA(cmsg), sizeof(stamp));
		}
	}
	printf("timestamped=%d\n", stamped);
	printf("stamp_after_send_us=%lld\n", tv_us(&stamp) - tv_us(&sent));
	printf("stamp_age_at_read_us=%lld\n", tv_us(&read_at) - tv_us(&stamp));
	return 0;
}

/*
 * Join the cgroup v2 directory @cgroup, make a TCP connection to itself on
 * 127.0.0.1 and send up to @n bytes over it that nobody reads; hold them
 * until SIGTERM.  Both sockets belong to the group, so with
 * memcg_sockets_enabled_key on, their buffers are charged to it.
 */
static int tcp_hold(int n, const char *cgroup)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int listener, client, server, sent = 0;
	char path[256], buf[4096];
	FILE *procs;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	procs = fopen(path, "w");
	if (!procs || fprintf(procs, "%d\n", (int)getpid()) < 0 || fclose(procs))
		fail("joining the cgroup");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listener = socket(AF_INET, SOCK_STREAM, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(listener, 1) ||
	    getsockname(listener, (struct sockaddr *)&addr, &len))
		fail("listen on 127.0.0.1");
	client = socket(AF_INET, SOCK_STREAM, 0);
	if (client < 0 || connect(client, (struct sockaddr *)&addr, sizeof(addr)))
		fail("connect");
	server = accept(listener, NULL, NULL);
	if (server < 0)
		fail("accept");
	memset(buf, 'x', sizeof(buf));
	while (sent < n) {
		ssize_t r = send(client, buf, sizeof(buf), MSG_DONTWAIT);

		if (r <= 0)
			break;
		sent += r;
	}
	printf("sent=%d\n", sent);
	hold();
	return 0;
}

static int udp(int n)
{
	struct timeval timeout = { 1, 0 };
	struct sockaddr_in addr;
	int fd = udp_socket(&addr);
	int i, received = 0;
	char c;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	for (i = 0; i < n; i++)
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&addr, sizeof(addr)) != 1)
			fail("sendto");
	while (received < n && recv(fd, &c, 1, 0) == 1)
		received++;
	printf("received=%d\n", received);
	return 0;
}

static int udp_to(const char *to, int n)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(9) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int i;

	if (fd < 0)
		fail("socket");
	if (inet_pton(AF_INET, to, &addr.sin_addr) != 1) {
		fprintf(stderr, "key-trigger: %s is not an IPv4 address\n", to);
		return 2;
	}
	for (i = 0; i < n; i++)
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&addr, sizeof(addr)) != 1)
			fail("sendto");
	printf("sent=%d\n", n);
	return 0;
}

#ifdef __x86_64__
static int kvm_ioctl(int fd, unsigned long request, void *arg, const char *what)
{
	int r = ioctl(fd, request, arg);

	if (r < 0)
		fail(what);
	return r;
}

/* Run the vCPU from guest-physical 0x1000, where a HLT is. */
static void kvm_run_hlt(int kvm, int vm, int vcpu)
{
	struct kvm_userspace_memory_region region = { 0 };
	struct kvm_sregs sregs;
	struct kvm_regs regs = { 0 };
	struct kvm_run *run;
	unsigned char *mem;
	int size;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		fail("mmap of guest memory");
	mem[0] = 0xf4;
	region.guest_phys_addr = 0x1000;
	region.memory_size = 4096;
	region.userspace_addr = (unsigned long)mem;
	kvm_ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region, "KVM_SET_USER_MEMORY_REGION");
	kvm_ioctl(vcpu, KVM_GET_SREGS, &sregs, "KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	kvm_ioctl(vcpu, KVM_SET_SREGS, &sregs, "KVM_SET_SREGS");
	regs.rip = 0x1000;
	regs.rflags = 2;
	kvm_ioctl(vcpu, KVM_SET_REGS, &regs, "KVM_SET_REGS");
	size = kvm_ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, NULL, "KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		fail("mmap of kvm_run");
	kvm_ioctl(vcpu, KVM_RUN, NULL, "KVM_RUN");
	if (run->exit_reason == KVM_EXIT_HLT)
		printf("exit=hlt\n");
	else
		printf("exit=%u\n", run->exit_reason);
}

static int kvm_vcpu(const char *mode)
{
	int irqchip = !strcmp(mode, "irqchip");
	int kvm, vm, vcpu;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		fail("/dev/kvm");
	vm = kvm_ioctl(kvm, KVM_CREATE_VM, NULL, "KVM_CREATE_VM");
	if (irqchip)
		kvm_ioctl(vm, KVM_CREATE_IRQCHIP, NULL, "KVM_CREATE_IRQCHIP");
	vcpu = kvm_ioctl(vm, KVM_CREATE_VCPU, NULL, "KVM_CREATE_VCPU");
	if (!irqchip)
		kvm_run_hlt(kvm, vm, vcpu);
	hold();
	printf("vcpu=1\n");
	return 0;
}
#else
/* keys_kvm checks x86's kvm; elsewhere there is no such VM to make. */
static int kvm_vcpu(const char *mode)
{
	fprintf(stderr, "key-trigger: kvm-vcpu %s: x86-64 only\n", mode);
	return 1;
}
#endif

int main(int argc, char **argv)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	/* Delivered only inside hold()'s sigsuspend(), never lost before. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &sa.sa_mask, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc == 3 && !strcmp(argv[1], "perf-sw"))
		return perf_sw(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "perf-mmap"))
		return perf_mmap(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fork-order"))
		return fork_order(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "session-share"))
		return session_share(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "busy-poll"))
		return busy_poll(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "timestamp"))
		return timestamp();
	if (argc == 3 && !strcmp(argv[1], "udp"))
		return udp(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "kvm-vcpu"))
		return kvm_vcpu(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "udp-to"))
		return udp_to(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "tcp-hold"))
		return tcp_hold(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: key-trigger perf-sw CONFIG | perf-mmap N | fork-order N | session-share MS | busy-poll USEC | timestamp | udp N | udp-to ADDR N | tcp-hold N CGROUP | kvm-vcpu noapic|irqchip\n");
	return 2;
}
