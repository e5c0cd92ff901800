/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one requester may have of the upcall at a time (issue 30, trust
 * rule 7).  Every OpenPGP add_key starts a root broker and its parser
 * outside the requester's cgroup, so without a bound one user's flood of
 * add_keys takes the CPU every other user's upcall needs within the
 * module's upcall_timeout.  The kernel knows the requester but has no
 * lines to spare (kernel/README.md); the broker knows him too (the key it
 * serves is his: request_key() makes it with his fsuid), and a broker is
 * root, so nothing is lost by counting here (SECURITY.md).
 *
 *   slots  at most --max-per-uid requests of one uid in flight.  Slot n
 *          of uid U is the file DIR/uid-U.n, held with flock(LOCK_EX)
 *          from before the callout is read until the broker exits: the
 *          kernel drops the lock with the broker's last descriptor,
 *          however it ends (SIGKILL by the module included).  A request
 *          that finds every slot of its uid held is refused at once
 *          (EDQUOT): its user, no one else, sees it.  Brokers are
 *          processes of their own, so these files are all they share:
 *          in a directory only its owner (root) may write, opened
 *          without following links.
 *   nice   a request in slot n runs, with its parser, at nice 5 n (at
 *          most 19): a uid has at most one request at each priority, so
 *          a user's first request competes with at most one full-weight
 *          request of each other user, however many he floods.
 *   log    at most PGPK_QUOTA_LOG_BURST lines per PGPK_QUOTA_LOG_WINDOW
 *          ms per uid (the kernel's printk rate limit), then one
 *          line saying how many were suppressed; counted in
 *          DIR/uid-U.log under flock.  Root's lines all go out.
 *
 * Without space, memory or descriptors for the files (a full /run,
 * which other users may cause) a request runs without a slot at nice 19
 * rather than be refused; an unsafe or missing directory (root's
 * doing) refuses every request (EIO), naming it.
 */
#ifndef PGPK_QUOTA_H
#define PGPK_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PGPK_QUOTA_DIR "/run/pgpk"
#define PGPK_QUOTA_MAX_SLOTS 64 /* the largest --max-per-uid */
#define PGPK_QUOTA_NICE_STEP 5
#define PGPK_QUOTA_NICE_MAX 19
/* lib/ratelimit.c's defaults: DEFAULT_RATELIMIT_INTERVAL, _BURST */
#define PGPK_QUOTA_LOG_BURST 10
#define PGPK_QUOTA_LOG_WINDOW 5000 /* ms: whole seconds made it 4 to 5 s */
/* Lines before the requester is known are counted under this uid. */
#define PGPK_QUOTA_UNKNOWN ((uid_t)-1)

struct pgpk_quota {
	int dir_fd; /* the state directory, or -1 */
	int slot_fd; /* the slot held (locked), or -1 */
	int slot; /* its index; -1: none (no bound, or none could be made) */
	uid_t uid; /* the requester, PGPK_QUOTA_UNKNOWN until known */
};

/*
 * Open @dir (made 0700 if missing).  0, or a negative errno with @why
 * naming the problem: -EPERM if it is not a directory its owner alone
 * may write, owned by this process's user.  pgpk_quota_close() undoes
 * it, and whatever pgpk_quota_take() took (safe after a failure).
 */
int pgpk_quota_open(struct pgpk_quota *q, const char *dir, char *why,
		    size_t why_len);
void pgpk_quota_close(struct pgpk_quota *q);

/* The errnos of a shortage (space, memory, descriptors, locks). */
bool pgpk_quota_shortage(int err);

/*
 * Take a free slot of q->uid, one of @max (0: no bound, no slot).  0 with
 * q->slot set, or with q->slot -1 and @why saying why (a shortage: the
 * request runs without a slot); -EDQUOT when all @max are held, -EIO
 * when a slot file cannot be used; @why names it.
 */
int pgpk_quota_take(struct pgpk_quota *q, unsigned int max, char *why,
		    size_t why_len);

/* The nice value of a request in @slot: 5 per slot; 19 without one. */
int pgpk_quota_nice(int slot, unsigned int max);

/*
 * May another log line of q->uid go out at @now (ms, monotonic)?
 * *missed: how many were suppressed in the window that just ended (say
 * so first).  Always true for root, and when the count cannot be kept.
 */
bool pgpk_quota_log_ok(struct pgpk_quota *q, uint64_t now,
		       unsigned long *missed);

#endif /* PGPK_QUOTA_H */
