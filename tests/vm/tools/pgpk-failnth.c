// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-failnth: make the 1st, 2nd, 3rd... fault-injection point of ONE
 * system call fail, in turn, until a call completes without reaching the
 * n-th point (then every allocation it makes has failed once).  The
 * kernel's fail-nth (Documentation/fault-injection/fault-injection.rst,
 * /proc/thread-self/fail-nth): the n-th should_fail() of this thread
 * fails whichever capability asked (failslab, fail_page_alloc, as the
 * debugfs knobs of tests/vm/cases/57-enomem.sh filter them).  The number
 * is written, the call made, and what is left of it read back with no
 * other system call in between (a shell's "echo N >fail-nth; keyctl ..."
 * would spend it on exec).  Built statically by tests/vm/data.d/57-enomem.sh.
 *
 * usage: pgpk-failnth NAME MAX add TYPE FILE RING [DESC]
 *        pgpk-failnth NAME MAX insmod KO [CHECK-FILE]
 *
 *   add     add_key(TYPE, DESC or none, FILE's octets, RING); after each
 *           success the key is unlinked from RING (outside the window)
 *   insmod  init_module(KO's octets) while pgpk is not loaded (not
 *           finit_module(): its kernel_read_file() vmallocs without
 *           __GFP_NOWARN, and the failure's warn_alloc() stack dump is a
 *           kernel report; init_module()'s copy is __GFP_NOWARN); after each
 *           success, if CHECK-FILE is given, a canonical key must still
 *           load (add_key "asymmetric" into a new keyring: a module that
 *           loaded without what init should have given it fails here,
 *           e.g. ENOPKG for a hash that init could not allocate), then
 *           rmmod
 *
 * PGPK_FAILNTH_ALLOW: errno numbers (comma-separated) also accepted, each
 * one printed (a kernel path that turns ENOMEM into another errno, not the
 * module's: the case says which).  PGPK_FAILNTH_N: only that n (with
 * debugfs' failslab/verbose at 2, the log shows where it failed).
 *
 * Prints one line per n whose result is not a clean ENOMEM or success,
 * then "PGPK-FAILNTH NAME: N points, ENOMEM E, succeeded S, other O".
 * Exit status 0 iff every failing call failed with ENOMEM (a success is
 * fine: an allocation the kernel can do without), the call completed
 * before MAX, and each insmod that succeeded left a working module.
 * The kernel's reports (KASAN, kmemleak, lockdep) are the harness's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char buf[4 << 20];
static char check[1 << 20];
static size_t check_len;

static long add_key(const char *type, const char *desc, const void *p,
		    size_t len, long ring)
{
	return syscall(SYS_add_key, type, desc, p, len, ring);
}

static long keyctl(int op, long a, long b, long c)
{
	return syscall(SYS_keyctl, op, a, b, c, 0);
}

static size_t slurp(const char *path, char *to, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	n = fread(to, 1, max, f);
	fclose(f);
	return n;
}

static int errno_allowed(const char *list, int e)
{
	const char *p = list;
	char *end;

	while (p && *p) {
		if (strtol(p, &end, 10) == e && end != p)
			return 1;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

/* The module still works: a canonical key loads. */
static int module_works(int *err)
{
	long ring = add_key("keyring", "failnth-check", NULL, 0,
			    KEY_SPEC_SESSION_KEYRING);
	long id = add_key("asymmetric", NULL, check, check_len, ring);

	*err = errno;
	keyctl(KEYCTL_CLEAR, ring, 0, 0);
	keyctl(KEYCTL_UNLINK, ring, KEY_SPEC_SESSION_KEYRING, 0);
	return id >= 0;
}

static void rmmod(void)
{
	int i;

	/* Its keys (the check's) go with the garbage collector. */
	for (i = 0; i < 600; i++) {
		if (!syscall(SYS_delete_module, "pgpk", O_NONBLOCK) ||
		    errno == ENOENT)
			return;
		usleep(50000);
	}
	fprintf(stderr, "pgpk-failnth: rmmod pgpk: %s\n", strerror(errno));
	exit(2);
}

int main(int argc, char **argv)
{
	const char *name, *mode, *type = NULL, *desc = NULL;
	long max, n, r, ring = 0, nomem = 0, ok = 0, other = 0, broken = 0;
	long allowed = 0, first = 1;
	const char *allow = getenv("PGPK_FAILNTH_ALLOW");
	const char *only = getenv("PGPK_FAILNTH_N");
	char left[32];
	int fd, ko = -1, err, e, done = 0;
	size_t len = 0;
	ssize_t got;

	if (argc < 5)
		goto usage;
	name = argv[1];
	max = strtol(argv[2], NULL, 0);
	mode = argv[3];
	if (!strcmp(mode, "add") && (argc == 7 || argc == 8)) {
		type = argv[4];
		len = slurp(argv[5], buf, sizeof(buf));
		ring = strtol(argv[6], NULL, 0);
		desc = argc == 8 ? argv[7] : NULL;
	} else if (!strcmp(mode, "insmod") && (argc == 5 || argc == 6)) {
		ko = 1;
		len = slurp(argv[4], buf, sizeof(buf));
		if (argc == 6)
			check_len = slurp(argv[5], check, sizeof(check));
		rmmod();
	} else {
		goto usage;
	}
	fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("/proc/thread-self/fail-nth");
		return 2;
	}
	if (only && *only) {
		first = atol(only);
		max = first;
	}
	for (n = first; n <= max && !done; n++) {
		snprintf(left, sizeof(left), "%ld", n);
		if (pwrite(fd, left, strlen(left), 0) < 0) {
			perror("fail-nth");
			return 2;
		}
		if (ko < 0)
			r = add_key(type, desc, buf, len, ring);
		else
			r = syscall(SYS_init_module, buf, len, "");
		e = errno;
		got = pread(fd, left, sizeof(left) - 1, 0);
		/* What is left of n: 0 once the n-th point failed. */
		left[got > 0 ? got : 0] = 0;
		done = atol(left) != 0;
		if (pwrite(fd, "0", 1, 0) < 0) {
			perror("fail-nth");
			return 2;
		}
		if (r >= 0) {
			ok++;
			if (ko < 0) {
				keyctl(KEYCTL_UNLINK, r, ring, 0);
				continue;
			}
			if (check_len && !module_works(&err)) {
				broken++;
				printf("PGPK-FAILNTH %s: n=%ld: insmod succeeded"
				       " (%s), then a canonical key: %s\n",
				       name, n,
				       done ? "no point failed" :
					      "the n-th point failed",
				       strerror(err));
			}
			rmmod();
		} else if (e == ENOMEM) {
			nomem++;
		} else if (errno_allowed(allow, e)) {
			allowed++;
			printf("PGPK-FAILNTH %s: n=%ld: %s (allowed)\n", name,
			       n, strerror(e));
		} else {
			other++;
			printf("PGPK-FAILNTH %s: n=%ld: %s (%s)\n", name, n,
			       strerror(e),
			       done ? "no point failed" :
				      "the n-th point failed");
		}
	}
	if (ko >= 0 && syscall(SYS_init_module, buf, len, "") &&
	    errno != EEXIST)
		fprintf(stderr, "pgpk-failnth: insmod: %s\n", strerror(errno));
	printf("PGPK-FAILNTH %s: %ld points, ENOMEM %ld, succeeded %ld, "
	       "allowed %ld, other %ld, loaded but not working %ld%s\n",
	       name, n - 1 - first, nomem, ok, allowed, other, broken,
	       done ? "" : " (MAX reached before the call completed)");
	return other || broken || !done ? 1 : 0;
usage:
	fprintf(stderr, "usage: pgpk-failnth NAME MAX add TYPE FILE RING "
			"[DESC]\n       pgpk-failnth NAME MAX insmod KO "
			"[CHECK-FILE]\n");
	return 2;
}
