// SPDX-License-Identifier: GPL-2.0
/*
 * Per-requester slots, priorities and log lines of the upcall: see
 * pgpk_quota.h for the files and the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "helper/pgpk_quota.h"

bool pgpk_quota_shortage(int err)
{
	return err == ENOSPC || err == EDQUOT || err == ENOMEM ||
	       err == EMFILE || err == ENFILE || err == ENOLCK;
}

/* Only its owner, this process's user, may write in the directory. */
static int pgpk_quota_dir_safe(int fd, const char *dir, char *why,
			       size_t why_len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, why_len, "%s: %s", dir, strerror(errno));
		return -EIO;
	}
	if (st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	snprintf(
		why, why_len,
		"%s is owned by uid %u, mode %04o: must be uid %u's, writable by it alone (remove it: the next request makes it)",
		dir, (unsigned int)st.st_uid, (unsigned int)st.st_mode & 07777,
		(unsigned int)geteuid());
	return -EPERM;
}

int pgpk_quota_open(struct pgpk_quota *q, const char *dir, char *why,
		    size_t why_len)
{
	int err, ret;

	q->dir_fd = -1;
	q->slot_fd = -1;
	q->slot = -1;
	if (mkdir(dir, 0700) && errno != EEXIST) {
		err = errno;
		snprintf(why, why_len, "cannot make %s: %s", dir,
			 strerror(err));
		return -err;
	}
	q->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (q->dir_fd < 0) {
		err = errno;
		snprintf(why, why_len, "cannot open %s: %s", dir,
			 strerror(err));
		return -err;
	}
	ret = pgpk_quota_dir_safe(q->dir_fd, dir, why, why_len);
	if (ret) {
		close(q->dir_fd);
		q->dir_fd = -1;
	}
	return ret;
}

void pgpk_quota_close(struct pgpk_quota *q)
{
	if (q->slot_fd >= 0)
		close(q->slot_fd); /* the slot goes with it */
	if (q->dir_fd >= 0)
		close(q->dir_fd);
	q->slot_fd = -1;
	q->dir_fd = -1;
	q->slot = -1;
}

/* DIR/uid-U.<what>, made if missing, never through a link. */
static int pgpk_quota_file(const struct pgpk_quota *q, const char *what)
{
	char name[48];

	snprintf(name, sizeof(name), "uid-%u.%s", (unsigned int)q->uid, what);
	return openat(q->dir_fd, name,
		      O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* Slot @i if it is free: 1 taken, 0 held by another, else -errno. */
static int pgpk_quota_try(struct pgpk_quota *q, unsigned int i)
{
	char what[16];
	int fd, err;

	snprintf(what, sizeof(what), "%u", i);
	fd = pgpk_quota_file(q, what);
	if (fd < 0)
		return -errno;
	if (!flock(fd, LOCK_EX | LOCK_NB)) {
		q->slot_fd = fd;
		q->slot = (int)i;
		return 1;
	}
	err = errno;
	close(fd);
	return err == EWOULDBLOCK ? 0 : -err;
}

int pgpk_quota_take(struct pgpk_quota *q, unsigned int max, char *why,
		    size_t why_len)
{
	unsigned int i;
	int ret = 0;

	why[0] = '\0';
	for (i = 0; i < max && !ret; i++)
		ret = pgpk_quota_try(q, i);
	if (ret == 1 || !max)
		return 0;
	if (!ret) {
		snprintf(
			why, why_len,
			"uid %u has %u requests in flight (--max-per-uid=%u): refused at once, retry when one ends",
			(unsigned int)q->uid, max, max);
		return -EDQUOT;
	}
	snprintf(
		why, why_len, "slot %u of uid %u: %s%s", i - 1,
		(unsigned int)q->uid, strerror(-ret),
		pgpk_quota_shortage(-ret) ?
			"; running without a slot, at nice 19 (make room in /run)" :
			"");
	return pgpk_quota_shortage(-ret) ? 0 : -EIO;
}

int pgpk_quota_nice(int slot, unsigned int max)
{
	if (!max)
		return 0;
	if (slot < 0 || slot > PGPK_QUOTA_NICE_MAX / PGPK_QUOTA_NICE_STEP)
		return PGPK_QUOTA_NICE_MAX;
	return slot * PGPK_QUOTA_NICE_STEP;
}

/* A uid's log window: its start, lines let out, lines suppressed. */
struct pgpk_quota_rate {
	uint64_t begin;
	unsigned long printed;
	unsigned long missed;
};

static void pgpk_quota_rate_read(int fd, struct pgpk_quota_rate *r)
{
	char buf[80];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%" SCNu64 " %lu %lu", &r->begin, &r->printed,
		   &r->missed) != 3)
		memset(r, 0, sizeof(*r)); /* new, or not ours: a new window */
}

static void pgpk_quota_rate_write(int fd, const struct pgpk_quota_rate *r)
{
	char buf[80];
	int n = snprintf(buf, sizeof(buf), "%" PRIu64 " %lu %lu\n", r->begin,
			 r->printed, r->missed);

	if (pwrite(fd, buf, (size_t)n, 0) == n)
		(void)!ftruncate(fd, n);
}

/* lib/ratelimit.c ___ratelimit(), for one uid across processes. */
static bool pgpk_quota_rate_step(struct pgpk_quota_rate *r, uint64_t now,
				 unsigned long *missed)
{
	if (!r->printed || now < r->begin ||
	    now - r->begin >= PGPK_QUOTA_LOG_WINDOW) {
		*missed = r->missed;
		r->begin = now;
		r->printed = 0;
		r->missed = 0;
	}
	if (r->printed < PGPK_QUOTA_LOG_BURST) {
		r->printed++;
		return true;
	}
	r->missed++;
	return false;
}

bool pgpk_quota_log_ok(struct pgpk_quota *q, uint64_t now,
		       unsigned long *missed)
{
	struct pgpk_quota_rate r;
	bool ok = true;
	int fd;

	*missed = 0;
	if (!q->uid || q->dir_fd < 0)
		return true;
	fd = pgpk_quota_file(q, "log");
	if (fd < 0)
		return true;
	if (!flock(fd, LOCK_EX)) {
		pgpk_quota_rate_read(fd, &r);
		ok = pgpk_quota_rate_step(&r, now, missed);
		pgpk_quota_rate_write(fd, &r);
	}
	close(fd);
	return ok;
}
