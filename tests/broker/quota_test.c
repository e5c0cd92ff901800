// SPDX-License-Identifier: GPL-2.0
/*
 * The upcall's per-requester bound (helper/broker/quota.c): a uid's slots are
 * taken once each and the next request is EDQUOT, another uid's slots
 * are its own; a slot held by a process is free again once that process
 * is killed; the state directory must be its owner's alone and is never
 * followed through a link, nor is a slot file; without descriptors a
 * request runs slotless; the nice value of each slot; 10 log lines per
 * uid and window, then the count of the suppressed ones, root's all.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "helper/broker/pgpk_quota.h"
#include "tests/broker/check.h"

static char pgpk_dir[300];

/* Open the test directory for @uid and take a slot of @max. */
static int pgpk_take(struct pgpk_quota *q, uid_t uid, unsigned int max,
		     char *why, size_t why_len)
{
	int ret = pgpk_quota_open(q, pgpk_dir, why, why_len);

	q->uid = uid;
	return ret ?: pgpk_quota_take(q, max, why, why_len);
}

static void pgpk_test_slots(void)
{
	struct pgpk_quota q[4], extra, other;
	char why[256];
	int i, ret;

	for (i = 0; i < 4; i++) {
		ret = pgpk_take(&q[i], 65534, 4, why, sizeof(why));
		CHECK(!ret && q[i].slot == i && !why[0], "slot %d: %d %d %s", i,
		      ret, q[i].slot, why);
	}
	ret = pgpk_take(&extra, 65534, 4, why, sizeof(why));
	CHECK(ret == -EDQUOT && extra.slot == -1 && strstr(why, "uid 65534") &&
		      strstr(why, "--max-per-uid=4"),
	      "the fifth: %d %s", ret, why);
	printf("ok   the fifth request of uid 65534: %s\n", why);
	pgpk_quota_close(&extra);
	/* another uid has slots of its own */
	ret = pgpk_take(&other, 1001, 4, why, sizeof(why));
	CHECK(!ret && other.slot == 0, "uid 1001: %d %d %s", ret, other.slot,
	      why);
	pgpk_quota_close(&other);
	/* a slot given back is taken again, the lowest first */
	pgpk_quota_close(&q[2]);
	ret = pgpk_take(&extra, 65534, 4, why, sizeof(why));
	CHECK(!ret && extra.slot == 2, "after a release: %d %d", ret,
	      extra.slot);
	pgpk_quota_close(&extra);
	/* a larger bound has room; no bound takes no slot */
	ret = pgpk_take(&extra, 65534, 5, why, sizeof(why));
	CHECK(!ret && extra.slot == 2, "bound 5: %d %d", ret, extra.slot);
	pgpk_quota_close(&extra);
	ret = pgpk_take(&extra, 65534, 0, why, sizeof(why));
	CHECK(!ret && extra.slot == -1 && extra.slot_fd < 0 && !why[0],
	      "no bound: %d %d %s", ret, extra.slot, why);
	pgpk_quota_close(&extra);
	for (i = 0; i < 4; i++)
		pgpk_quota_close(&q[i]);
	printf("ok   slots\n");
}

/* A process that holds uid 42's only slot until it is killed. */
static pid_t pgpk_holder(void)
{
	struct pgpk_quota q;
	char why[256], c = 0;
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (!pgpk_take(&q, 42, 1, why, sizeof(why)) && q.slot == 0)
			c = 1;
		(void)!write(p[1], &c, 1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid > 0 && (read(p[0], &c, 1) != 1 || !c)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

static void pgpk_test_killed(void)
{
	struct pgpk_quota q;
	char why[256];
	pid_t pid = pgpk_holder();
	int ret;

	CHECK(pid > 0, "the holder did not take its slot");
	if (pid <= 0)
		return;
	ret = pgpk_take(&q, 42, 1, why, sizeof(why));
	CHECK(ret == -EDQUOT, "while held by %d: %d", (int)pid, ret);
	pgpk_quota_close(&q);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ret = pgpk_take(&q, 42, 1, why, sizeof(why));
	CHECK(!ret && q.slot == 0, "after SIGKILL: %d %s", ret, why);
	pgpk_quota_close(&q);
	printf("ok   a killed holder's slot is free\n");
}

/* Open @dir: the errno (0 if usable). */
static int pgpk_open_dir(const char *dir, char *why, size_t why_len)
{
	struct pgpk_quota q;
	int ret = pgpk_quota_open(&q, dir, why, why_len);

	pgpk_quota_close(&q);
	return ret;
}

static void pgpk_test_dir(void)
{
	char link[360], sub[360], why[512] = "";
	struct pgpk_quota q;
	int ret;

	CHECK(chmod(pgpk_dir, 0770) == 0, "chmod");
	ret = pgpk_open_dir(pgpk_dir, why, sizeof(why));
	CHECK(ret == -EPERM && strstr(why, "mode 0770"),
	      "group-writable: %d %s", ret, why);
	printf("ok   %s\n", why);
	CHECK(chmod(pgpk_dir, 01777) == 0, "chmod");
	ret = pgpk_open_dir(pgpk_dir, why, sizeof(why));
	CHECK(ret == -EPERM, "world-writable: %d %s", ret, why);
	CHECK(chmod(pgpk_dir, 0700) == 0, "chmod");
	CHECK(!pgpk_open_dir(pgpk_dir, why, sizeof(why)), "0700: %s", why);
	/* another user's directory (needs root to make one) */
	snprintf(sub, sizeof(sub), "%s/other", pgpk_dir);
	if (!geteuid() && !mkdir(sub, 0700) && !chown(sub, 65534, 65534)) {
		ret = pgpk_open_dir(sub, why, sizeof(why));
		CHECK(ret == -EPERM && strstr(why, "uid 65534"),
		      "another's: %d %s", ret, why);
	}
	/* never through a link: the directory, a slot file */
	snprintf(link, sizeof(link), "%s/link", pgpk_dir);
	CHECK(!symlink(pgpk_dir, link), "symlink");
	ret = pgpk_open_dir(link, why, sizeof(why));
	CHECK(ret == -ELOOP || ret == -ENOTDIR, "a link: %d %s", ret, why);
	snprintf(link, sizeof(link), "%s/uid-7.0", pgpk_dir);
	CHECK(!symlink("/dev/null", link), "symlink");
	ret = pgpk_take(&q, 7, 2, why, sizeof(why));
	CHECK(ret == -EIO && strstr(why, "slot 0 of uid 7"),
	      "a linked slot: %d %s", ret, why);
	pgpk_quota_close(&q);
	/* made when missing, its owner's alone */
	snprintf(sub, sizeof(sub), "%s/new", pgpk_dir);
	CHECK(!pgpk_open_dir(sub, why, sizeof(why)), "new: %s", why);
	printf("ok   the state directory\n");
}

/* No descriptor left for a slot file: the request runs without one. */
static void pgpk_test_shortage(void)
{
	struct rlimit saved, low;
	struct pgpk_quota q;
	char why[256];
	int ret;

	ret = pgpk_quota_open(&q, pgpk_dir, why, sizeof(why));
	q.uid = 8;
	getrlimit(RLIMIT_NOFILE, &saved);
	low = saved;
	low.rlim_cur = (rlim_t)q.dir_fd + 1;
	setrlimit(RLIMIT_NOFILE, &low);
	ret = ret ?: pgpk_quota_take(&q, 4, why, sizeof(why));
	setrlimit(RLIMIT_NOFILE, &saved);
	CHECK(!ret && q.slot == -1 && strstr(why, "without a slot"),
	      "EMFILE: %d %d %s", ret, q.slot, why);
	CHECK(pgpk_quota_shortage(EMFILE) && pgpk_quota_shortage(ENOSPC) &&
		      !pgpk_quota_shortage(EACCES) &&
		      !pgpk_quota_shortage(ELOOP),
	      "shortage errnos");
	pgpk_quota_close(&q);
	printf("ok   %s\n", why);
}

static void pgpk_test_nice(void)
{
	static const int want[] = { 0, 5, 10, 15, 19, 19 };
	int i;

	for (i = 0; i < 6; i++)
		CHECK(pgpk_quota_nice(i, 64) == want[i], "slot %d: %d", i,
		      pgpk_quota_nice(i, 64));
	CHECK(pgpk_quota_nice(-1, 4) == 19, "slotless: %d",
	      pgpk_quota_nice(-1, 4));
	CHECK(pgpk_quota_nice(-1, 0) == 0, "no bound: %d",
	      pgpk_quota_nice(-1, 0));
	printf("ok   nice values\n");
}

/* @n log lines of @uid at @now: how many may go out; *missed as told. */
static int pgpk_lines(uid_t uid, uint64_t now, int n, unsigned long *missed)
{
	struct pgpk_quota q;
	unsigned long m;
	char why[256];
	int i, out = 0;

	*missed = 0;
	pgpk_quota_open(&q, pgpk_dir, why, sizeof(why));
	q.uid = uid;
	for (i = 0; i < n; i++) {
		out += pgpk_quota_log_ok(&q, now, &m);
		*missed += m;
	}
	pgpk_quota_close(&q);
	return out;
}

static void pgpk_test_log(void)
{
	unsigned long missed;
	char path[360];
	int out, fd;

	out = pgpk_lines(65534, 1000000, 15, &missed);
	CHECK(out == 10 && !missed, "15 lines: %d out, %lu", out, missed);
	out = pgpk_lines(65534, 1004999, 3, &missed);
	CHECK(out == 0 && !missed, "same window: %d out", out);
	out = pgpk_lines(1001, 1004999, 3, &missed);
	CHECK(out == 3, "another uid: %d out", out);
	out = pgpk_lines(0, 1004999, 40, &missed);
	CHECK(out == 40, "root: %d out", out);
	out = pgpk_lines(65534, 1005000, 1, &missed);
	CHECK(out == 1 && missed == 8, "next window: %d out, %lu missed", out,
	      missed);
	/* a clock that went back, a file that is not a count: a new window */
	pgpk_lines(65534, 1005000, 20, &missed);
	out = pgpk_lines(65534, 900000, 1, &missed);
	CHECK(out == 1 && missed == 11, "clock back: %d, %lu", out, missed);
	snprintf(path, sizeof(path), "%s/uid-65534.log", pgpk_dir);
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, "x y z\n", 6) == 6, "%s", path);
	close(fd);
	out = pgpk_lines(65534, 900000, 12, &missed);
	CHECK(out == 10 && !missed, "garbage: %d", out);
	printf("ok   log lines\n");
}

int main(void)
{
	const char *tmp = getenv("TEST_TMPDIR");

	snprintf(pgpk_dir, sizeof(pgpk_dir), "%s/pgpk-quota-XXXXXX",
		 tmp && strlen(tmp) < 260 ? tmp : "/tmp");
	if (!mkdtemp(pgpk_dir)) {
		perror(pgpk_dir);
		return 1;
	}
	pgpk_test_slots();
	pgpk_test_killed();
	pgpk_test_dir();
	pgpk_test_shortage();
	pgpk_test_nice();
	pgpk_test_log();
	printf("%s (%d failures)\n", pgpk_failures ? "FAIL" : "PASS",
	       pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
