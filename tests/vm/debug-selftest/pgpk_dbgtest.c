// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk_dbgtest: a module that makes one deliberate bug of the kind the
 * debug kernel reports, so that tests/host/vm-harness.sh can prove the
 * harness fails a run on each (never part of pgpk; built only for that
 * check, against the debug kernel's build tree).
 *
 *	insmod pgpk_dbgtest.ko bug=NAME
 *
 * NAME: oob (KASAN slab-out-of-bounds read), uaf (KASAN use-after-free),
 * leak (an object kmemleak finds unreferenced), shift (UBSAN
 * shift-out-of-bounds), bounds (UBSAN array-index-out-of-bounds), lockdep
 * (an AB-BA lock order), sleep (a sleeping call under a spinlock),
 * refcount (a refcount_t underflow), rcu (rcu_dereference() outside a
 * read-side section), odebug (a timer on the stack not annotated so).
 * init returns -EAGAIN after the bug, so the module never stays loaded.
 */
#define pr_fmt(fmt) "pgpk_dbgtest: " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "the bug to make (the list: top of pgpk_dbgtest.c)");

static DEFINE_MUTEX(pgpk_dbgtest_a);
static DEFINE_MUTEX(pgpk_dbgtest_b);
static DEFINE_SPINLOCK(pgpk_dbgtest_lock);
/*
 * Read and written with READ_ONCE()/WRITE_ONCE(), so that the compiler
 * neither folds the bugs away nor keeps the leaked pointer (kmemleak
 * scans module data).
 */
static void *pgpk_dbgtest_sink;
static int pgpk_dbgtest_index = 8;
static int pgpk_dbgtest_shift = 40;
static int __rcu *pgpk_dbgtest_rcu;

static noinline void pgpk_dbgtest_oob(void)
{
	char *p = kmalloc(8, GFP_KERNEL);

	if (!p)
		return;
	pr_info("read past the end: %d\n", p[READ_ONCE(pgpk_dbgtest_index)]);
	kfree(p);
}

static noinline void pgpk_dbgtest_uaf(void)
{
	char *p = kmalloc(32, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	pr_info("read after free: %d\n", p[READ_ONCE(pgpk_dbgtest_index)]);
}

/*
 * Eight objects whose pointers are dropped at once.  A stale copy on a
 * stack may hide one from kmemleak (it cannot tell); not all eight.
 */
static noinline void pgpk_dbgtest_leak(void)
{
	int i;

	for (i = 0; i < 8; i++) {
		WRITE_ONCE(pgpk_dbgtest_sink, kmalloc(64 + 64 * i, GFP_KERNEL));
		WRITE_ONCE(pgpk_dbgtest_sink, NULL);
	}
	pr_info("leaked 8 objects\n");
}

static noinline void pgpk_dbgtest_ubsan_shift(void)
{
	int one = 1;

	pr_info("shift: %d\n", one << READ_ONCE(pgpk_dbgtest_shift));
}

static noinline void pgpk_dbgtest_ubsan_bounds(void)
{
	int a[4] = { 0 };

	pr_info("index: %d\n", a[READ_ONCE(pgpk_dbgtest_index)]);
}

static noinline void pgpk_dbgtest_lockdep(void)
{
	mutex_lock(&pgpk_dbgtest_a);
	mutex_lock(&pgpk_dbgtest_b);
	mutex_unlock(&pgpk_dbgtest_b);
	mutex_unlock(&pgpk_dbgtest_a);
	/* The other order: a possible deadlock, reported at once. */
	mutex_lock(&pgpk_dbgtest_b);
	mutex_lock(&pgpk_dbgtest_a);
	mutex_unlock(&pgpk_dbgtest_a);
	mutex_unlock(&pgpk_dbgtest_b);
}

static noinline void pgpk_dbgtest_sleep(void)
{
	spin_lock(&pgpk_dbgtest_lock);
	mutex_lock(&pgpk_dbgtest_a);
	mutex_unlock(&pgpk_dbgtest_a);
	spin_unlock(&pgpk_dbgtest_lock);
}

static noinline void pgpk_dbgtest_refcount(void)
{
	refcount_t r = REFCOUNT_INIT(1);

	refcount_dec(&r);
}

static noinline void pgpk_dbgtest_rcu_outside(void)
{
	pr_info("rcu pointer: %p\n", rcu_dereference(pgpk_dbgtest_rcu));
}

static void pgpk_dbgtest_timer_fn(struct timer_list *t)
{
}

static noinline void pgpk_dbgtest_odebug(void)
{
	struct timer_list t;

	timer_setup(&t, pgpk_dbgtest_timer_fn, 0);
	del_timer_sync(&t);
}

static const struct {
	const char *name;
	void (*fn)(void);
} pgpk_dbgtest_bugs[] = {
	{ "oob", pgpk_dbgtest_oob },
	{ "uaf", pgpk_dbgtest_uaf },
	{ "leak", pgpk_dbgtest_leak },
	{ "shift", pgpk_dbgtest_ubsan_shift },
	{ "bounds", pgpk_dbgtest_ubsan_bounds },
	{ "lockdep", pgpk_dbgtest_lockdep },
	{ "sleep", pgpk_dbgtest_sleep },
	{ "refcount", pgpk_dbgtest_refcount },
	{ "rcu", pgpk_dbgtest_rcu_outside },
	{ "odebug", pgpk_dbgtest_odebug },
};

static int __init pgpk_dbgtest_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pgpk_dbgtest_bugs); i++) {
		if (strcmp(bug, pgpk_dbgtest_bugs[i].name))
			continue;
		pr_info("making bug '%s'\n", bug);
		pgpk_dbgtest_bugs[i].fn();
		return -EAGAIN;
	}
	pr_err("unknown bug '%s'\n", bug);
	return -EINVAL;
}

module_init(pgpk_dbgtest_init);
MODULE_DESCRIPTION("pgpk harness self-test: deliberate bugs");
MODULE_LICENSE("GPL");
