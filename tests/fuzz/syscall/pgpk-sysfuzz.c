// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-sysfuzz: drive every kernel entry point of pgpk.ko through the
 * system calls, with mutated input, as root and as an unprivileged user,
 * alone and in races, and measure which of the module's code it reached
 * with KCOV.  Runs in the VM (static, busybox initramfs); started by
 * tests/vm/cases/70-sysfuzz.sh (short) and tests/fuzz/syscall/run.sh.
 *
 * usage: pgpk-sysfuzz [options] CORPUS...
 *   CORPUS      files or directories: canonical blobs (magic \x7fPGK\x01)
 *               and OpenPGP bytes (first octet with bit 7 set, or
 *               armored; those named one by one, not in a directory,
 *               are half of the OpenPGP inputs); other files are ignored
 *   -n N        inputs as root (default 2000)
 *   -N N        inputs as the unprivileged user (default N / 4)
 *   -u UID      the unprivileged user (default 1000; UID + 1 is the
 *               second user of the races)
 *   -U N        at most N inputs that make an upcall (default N / 500)
 *   -r SECS     seconds of races (default 10; 0: none)
 *   -m KO       reload the module from KO during the races (rmmod race)
 *   -s SEED     random seed (default: the time; printed)
 *   -t SECS     stop every phase by then (default: none)
 *   -k FILE     write the KCOV coverage of pgpk.ko to FILE
 *   -v          print every input
 *   -H KEY      helper mode: answer the upcall for KEY (request-key.d:
 *               "create pgpk * * .../pgpk-sysfuzz -H %k CORPUS"), as
 *               the real helper, or lying (see run_helper())
 *   -M N        no system calls: check the mutator instead (N structure-
 *               aware mutations of every canonical blob must each be
 *               well-formed wire format, or a deliberate encoding error,
 *               and differ from their input; run on the host by
 *               tests/host/sysfuzz-mutator.sh)
 *
 * Entry points: add_key(2) of "asymmetric" (the module's parser) and
 * "pgpk_test"; request_key(2) of "pgpk" with crafted descriptions and
 * callout data; keyctl(2) restrict_keyring, search, pkey_query,
 * pkey_verify, pkey_encrypt, describe, read, revoke, invalidate, unlink,
 * link, clear, set_timeout and setperm on the keys and keyrings it made
 * and on every pgpk key it can see in /proc/keys.
 *
 * Prints "PGPK-SYSFUZZ ..." summary lines; exit status 0 unless the
 * fuzzer itself failed (the kernel's reports are the harness's business).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/kcov.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pgpk_mutate.h"

#define MAX_BLOB (1024 * 1024 - 1)
#define MAX_KEYS 512
#define MAX_RINGS 16
#define COVER_WORDS (256 * 1024)
#define PC_SET_SIZE (1 << 17)
#define MAX_SECTIONS 32
#define NR_ERRNO 160
/* x86-64: where the kernel is linked (kcov reports PCs minus KASLR). */
#define KERNEL_LINK_TEXT 0xffffffff81000000ULL

/* --- options and state --- */

static long opt_n = 2000, opt_user_n = -1, opt_upcalls = -1;
static int opt_races = 10, opt_verbose;
static uid_t opt_uid = 1000;
static const char *opt_ko, *opt_kcov_file;
static time_t deadline;
static uint64_t seed;

static struct pgpk_blob *canon, *openpgp;
static int ncanon, nopenpgp, ncanon_keys;
/* Canonical seeds cleaned of fields the contract no longer has. */
static int ncleaned;
/* OpenPGP inputs named one by one (genuine ones): chosen half the time. */
static int nopenpgp_named;

/* Inputs made, by operation, and their results. */
enum op {
	OP_ADD_ASYM,
	OP_ADD_ASYM_PGP,
	OP_ADD_TEST,
	OP_REQUEST,
	OP_REQUEST_CALLOUT,
	OP_RESTRICT,
	OP_SEARCH,
	OP_PKEY_QUERY,
	OP_PKEY_VERIFY,
	OP_PKEY_ENCRYPT,
	OP_DESCRIBE,
	OP_READ,
	OP_REVOKE,
	OP_INVALIDATE,
	OP_UNLINK,
	OP_LINK,
	OP_CLEAR,
	OP_TIMEOUT,
	OP_SETPERM,
	OP_RMMOD,
	OP_INSMOD,
	OP_PARAM,
	OP_NR
};

static const char *const op_names[OP_NR] = {
	[OP_ADD_ASYM] = "add_key-asymmetric",
	[OP_ADD_ASYM_PGP] = "add_key-asymmetric-openpgp",
	[OP_ADD_TEST] = "add_key-pgpk_test",
	[OP_REQUEST] = "request_key-pgpk",
	[OP_REQUEST_CALLOUT] = "request_key-pgpk-callout",
	[OP_RESTRICT] = "restrict_keyring",
	[OP_SEARCH] = "search",
	[OP_PKEY_QUERY] = "pkey_query",
	[OP_PKEY_VERIFY] = "pkey_verify",
	[OP_PKEY_ENCRYPT] = "pkey_encrypt",
	[OP_DESCRIBE] = "describe",
	[OP_READ] = "read",
	[OP_REVOKE] = "revoke",
	[OP_INVALIDATE] = "invalidate",
	[OP_UNLINK] = "unlink",
	[OP_LINK] = "link",
	[OP_CLEAR] = "clear",
	[OP_TIMEOUT] = "set_timeout",
	[OP_SETPERM] = "setperm",
	[OP_RMMOD] = "delete_module",
	[OP_INSMOD] = "finit_module",
	[OP_PARAM] = "write-parameter",
};

/* Shared with the children (mmap'ed before fork). */
struct stats {
	long calls[OP_NR];
	long ok[OP_NR];
	long err[OP_NR][NR_ERRNO];
	long upcalls;
	long inputs;
	/* Races: the reloader wants the module free (few new keys). */
	int quiet;
};

static struct stats *st;

/* --- KCOV --- */

struct section {
	char name[64];
	uint64_t addr;
};

/* This process's view of where the module is (it moves when reloaded). */
static struct section sections[MAX_SECTIONS];
static int nsections;
static uint64_t kaslr;
static unsigned long *cover;
static int kcov_fd = -1;

/*
 * The points reached, as (section, offset) -- a reload elsewhere changes
 * nothing -- in a set shared with the children: key (name index + 1) << 32
 * | offset, names in a table shared too.
 */
struct names {
	int n;
	char name[MAX_SECTIONS][64];
};

static struct names *names;
static uint64_t *pcs;
static long unmapped;
/* One of them, to name (unmapped_name()). */
static uint64_t unmapped_example;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "pgpk-sysfuzz: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static void *shared(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	return p;
}

static int name_index(const char *name)
{
	int i;

	for (i = 0; i < names->n; i++)
		if (!strcmp(names->name[i], name))
			return i;
	if (names->n >= MAX_SECTIONS)
		return -1;
	snprintf(names->name[names->n], sizeof(names->name[0]), "%s", name);
	return names->n++;
}

/* The module's text sections, from sysfs (root only). */
static void read_sections(void)
{
	const char *dir = "/sys/module/pgpk/sections";
	char path[512], buf[64];
	struct dirent *de;
	DIR *d;
	FILE *f;

	nsections = 0;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && nsections < MAX_SECTIONS) {
		if (strncmp(de->d_name, ".text", 5) &&
		    strncmp(de->d_name, ".init.text", 10) &&
		    strncmp(de->d_name, ".exit.text", 10) &&
		    strncmp(de->d_name, ".noinstr.text", 13))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			snprintf(sections[nsections].name,
				 sizeof(sections[0].name), "%.63s", de->d_name);
			sections[nsections].addr = strtoull(buf, NULL, 16);
			nsections++;
		}
		fclose(f);
	}
	closedir(d);
}

/* kcov reports PCs minus the kernel's KASLR offset: find the offset. */
static void read_kaslr(void)
{
	char line[256], name[128], type;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	kaslr = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 &&
		    !strcmp(name, "_text")) {
			if (a)
				kaslr = a - KERNEL_LINK_TEXT;
			break;
		}
	}
	fclose(f);
}

/* Open kcov now (before dropping privileges); enable it in the task. */
static void kcov_open(void)
{
	kcov_fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (kcov_fd < 0)
		return;
	if (ioctl(kcov_fd, KCOV_INIT_TRACE, COVER_WORDS)) {
		close(kcov_fd);
		kcov_fd = -1;
		return;
	}
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		     PROT_READ | PROT_WRITE, MAP_SHARED, kcov_fd, 0);
	if (cover == MAP_FAILED) {
		close(kcov_fd);
		kcov_fd = -1;
		cover = NULL;
	}
}

static void kcov_enable(void)
{
	if (kcov_fd >= 0 && ioctl(kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		fprintf(stderr, "pgpk-sysfuzz: KCOV_ENABLE: %s\n",
			strerror(errno));
		close(kcov_fd);
		kcov_fd = -1;
		cover = NULL;
	}
}

static void point_add(int idx, uint64_t offset)
{
	uint64_t key = (uint64_t)(idx + 1) << 32 | offset;
	uint64_t h = (key * 0x9e3779b97f4a7c15ULL) >> 47;
	uint64_t old;
	int i;

	for (i = 0; i < PC_SET_SIZE; i++, h = (h + 1) & (PC_SET_SIZE - 1)) {
		old = __atomic_load_n(&pcs[h], __ATOMIC_RELAXED);
		if (old == key)
			return;
		if (!old && __atomic_compare_exchange_n(&pcs[h], &old, key, 0,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
			return;
		if (old == key)
			return;
	}
}

/* A PC (KASLR added back) into the section it falls in, by this view. */
static void pc_add(uint64_t pc)
{
	int s, best = -1;

	for (s = 0; s < nsections; s++)
		if (sections[s].addr <= pc &&
		    (best < 0 || sections[s].addr > sections[best].addr))
			best = s;
	/* (A module is far smaller than 16 MiB.) */
	if (best < 0 || pc - sections[best].addr >= 1 << 24) {
		unmapped++;
		unmapped_example = pc;
		return;
	}
	s = name_index(sections[best].name);
	if (s >= 0)
		point_add(s, pc - sections[best].addr);
}

static void kcov_start(void)
{
	if (cover)
		__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
}

static void kcov_collect(void)
{
	unsigned long n, i;

	if (!cover)
		return;
	n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	if (n >= COVER_WORDS)
		n = COVER_WORDS - 1;
	for (i = 0; i < n; i++)
		pc_add(cover[i + 1] + kaslr);
}

/* "symbol+0xoff [module]" for @pc, from /proc/kallsyms (root). */
static const char *unmapped_name(uint64_t pc)
{
	static char out[256];
	char line[512], name[128], mod[128], type;
	unsigned long long a, best = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	snprintf(out, sizeof(out), "0x%llx", (unsigned long long)pc);
	while (f && fgets(line, sizeof(line), f)) {
		mod[0] = 0;
		if (sscanf(line, "%llx %c %127s %127s", &a, &type, name, mod) <
			    3 ||
		    a > pc || a <= best)
			continue;
		best = a;
		snprintf(out, sizeof(out), "%s+0x%llx %s (0x%llx)", name,
			 (unsigned long long)(pc - a), mod,
			 (unsigned long long)pc);
	}
	if (f)
		fclose(f);
	return out;
}

/* Points a helper-mode process (-H) saved: "SECTION OFFSET" lines. */
static void kcov_merge_helpers(void)
{
	char path[300], name[64];
	unsigned long long off;
	struct dirent *de;
	DIR *d = opendir("/tmp");
	FILE *f;
	int idx;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "pgpk-sysfuzz-kcov.", 18))
			continue;
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		f = fopen(path, "r");
		while (f && fscanf(f, "%63s %llx", name, &off) == 2) {
			idx = name_index(name);
			if (idx >= 0)
				point_add(idx, off);
		}
		if (f)
			fclose(f);
		unlink(path);
	}
	closedir(d);
}

/* "SECTION OFFSET" for every point reached (for kcov-report.py). */
static void kcov_write(const char *file, FILE *f)
{
	long n = 0;
	int i;

	if (!f)
		f = fopen(file, "w");
	if (!f)
		die("%s: %s", file, strerror(errno));
	for (i = 0; i < PC_SET_SIZE; i++) {
		if (!pcs[i])
			continue;
		fprintf(f, "%s %llx\n", names->name[(pcs[i] >> 32) - 1],
			(unsigned long long)(pcs[i] & 0xffffffff));
		n++;
	}
	fclose(f);
	printf("PGPK-SYSFUZZ kcov: %ld distinct points reached in pgpk.ko\n",
	       n);
}

/* --- system calls --- */

static long add_key(const char *type, const char *desc, const void *p,
		    size_t len, long ring)
{
	return syscall(SYS_add_key, type, desc, p, len, ring);
}

static long request_key(const char *type, const char *desc, const char *callout,
			long ring)
{
	return syscall(SYS_request_key, type, desc, callout, ring);
}

static long keyctl(int cmd, unsigned long a, unsigned long b, unsigned long c,
		   unsigned long d)
{
	return syscall(SYS_keyctl, cmd, a, b, c, d);
}

/* One input through a system call: count it, trace it, keep its result. */
static long done(enum op op, long ret)
{
	int e = ret < 0 ? errno : 0;

	__atomic_add_fetch(&st->calls[op], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&st->inputs, 1, __ATOMIC_RELAXED);
	if (ret >= 0)
		__atomic_add_fetch(&st->ok[op], 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&st->err[op][e < NR_ERRNO ? e : 0], 1,
				   __ATOMIC_RELAXED);
	if (opt_verbose)
		printf("  %s -> %ld%s%s\n", op_names[op], ret,
		       ret < 0 ? " " : "", ret < 0 ? strerror(e) : "");
	errno = e;
	return ret;
}

/* --- the corpus --- */

/* Would the module ask its helper about these bytes (an upcall)? */
static int goes_upcall(const struct pgpk_blob *b)
{
	return b->len &&
	       ((b->data[0] & 0x80) ||
		(b->len >= 14 && !memcmp(b->data, "-----BEGIN PGP", 14)));
}

static void add_file(const char *path)
{
	struct pgpk_blob b;
	struct stat sb;
	FILE *f;

	if (stat(path, &sb) || !S_ISREG(sb.st_mode) || !sb.st_size ||
	    sb.st_size > MAX_BLOB)
		return;
	f = fopen(path, "rb");
	if (!f)
		return;
	b.len = sb.st_size;
	b.data = malloc(b.len);
	if (!b.data || fread(b.data, 1, b.len, f) != b.len) {
		free(b.data);
		fclose(f);
		return;
	}
	fclose(f);
	if (b.len > PGPK_MAGIC_LEN &&
	    !memcmp(b.data, PGPK_MAGIC, PGPK_MAGIC_LEN)) {
		/*
		 * A seed made for an older contract (Key.primary_offset,
		 * Key.third_party, now reserved) would stop at the decoder:
		 * without those fields it reaches what follows.  The
		 * mutator still adds reserved and unknown fields.
		 */
		if (pgpk_canonical_clean(&b))
			ncleaned++;
		canon = realloc(canon, sizeof(*canon) * (ncanon + 1));
		/* Keys first: they are what the keyctl operations need. */
		if (b.data[PGPK_MAGIC_LEN] == 0x0a) {
			memmove(&canon[ncanon_keys + 1], &canon[ncanon_keys],
				sizeof(*canon) * (ncanon - ncanon_keys));
			canon[ncanon_keys++] = b;
		} else {
			canon[ncanon] = b;
		}
		ncanon++;
	} else if (goes_upcall(&b)) {
		openpgp = realloc(openpgp, sizeof(*openpgp) * (nopenpgp + 1));
		openpgp[nopenpgp++] = b;
	} else {
		/* Neither: the byte mutator makes such inputs itself. */
		free(b.data);
	}
}

static void add_corpus(const char *path, int named)
{
	char sub[4096];
	struct dirent *de;
	DIR *d = opendir(path);
	int before = nopenpgp;

	if (!d) {
		add_file(path);
		/* Named files first in the array. */
		if (named && nopenpgp > before) {
			struct pgpk_blob b = openpgp[nopenpgp - 1];

			memmove(&openpgp[nopenpgp_named + 1],
				&openpgp[nopenpgp_named],
				sizeof(*openpgp) *
					(nopenpgp - 1 - nopenpgp_named));
			openpgp[nopenpgp_named++] = b;
		}
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		add_corpus(sub, 0);
	}
	closedir(d);
}

/* --- what the inputs act on --- */

static long keys[MAX_KEYS];
static int nkeys;
static long rings[MAX_RINGS];
static int nrings, nrestricted;
static long session;
/* Every genuine key of the corpus, for pgpk_test and certifications. */
static long trust;

static void key_remember(long id)
{
	if (id <= 0)
		return;
	if (nkeys < MAX_KEYS)
		keys[nkeys++] = id;
	else
		keys[pgpk_below(MAX_KEYS)] = id;
}

/*
 * A key to act on: ours, the module's, a keyring of ours, or no key.
 * Never the session keyring itself: revoked or expired, it keeps what it
 * holds (a keyring restricted to it, which holds it back: a cycle) for
 * the garbage collector, and the module cannot be unloaded until then.
 */
static long any_key(void)
{
	if (!nkeys || !pgpk_below(20))
		return pgpk_below(2) || !nrings ? (long)pgpk_rand() % 100000 :
						  rings[pgpk_below(nrings)];
	return keys[pgpk_below(nkeys)];
}

static long any_ring(void)
{
	if (!nrings || !pgpk_below(8))
		return session;
	return rings[pgpk_below(nrings)];
}

/* The module's own keyrings this process can see (searched too). */
static long module_rings[8];
static int nmodule_rings;

/*
 * The keys of types pgpk, pgpk_test and asymmetric, and the module's
 * keyrings, that this process can see (".pgpk", the trusted keys; a
 * request's ".pgpk_request" while it lives): targets
 * too (the keyrings only late in a phase: op_manage()).  Reading /proc/keys is an input of its own: it calls each key
 * type's describe().
 */
static void scan_proc_keys(void)
{
	char line[512], type[64], desc[256];
	unsigned long id;
	FILE *f;

	nmodule_rings = 0;
	kcov_start();
	f = fopen("/proc/keys", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %*s %*s %*s %*s %*s %*s %63s %255[^\n]",
			   &id, type, desc) != 3)
			continue;
		if (!strcmp(type, "pgpk") || !strcmp(type, "pgpk_test") ||
		    !strcmp(type, "asymmetric"))
			key_remember((long)id);
		/* Not among the targets of revoke & co.: see op_manage(). */
		if (!strcmp(type, "keyring") && !strncmp(desc, ".pgpk", 5) &&
		    nmodule_rings < 8)
			module_rings[nmodule_rings++] = (long)id;
	}
	if (f)
		fclose(f);
	kcov_collect();
}

static const struct pgpk_blob *any_canon(int keys_only)
{
	int n = keys_only && ncanon_keys ? ncanon_keys : ncanon;

	return n ? &canon[pgpk_below(n)] : NULL;
}

static char hexdigit(int v, int upper)
{
	return "0123456789abcdef0123456789ABCDEF"[(v & 15) + (upper ? 16 : 0)];
}

static void put_hex(char *o, int n, int upper)
{
	int i;

	for (i = 0; i < n; i++)
		o[i] = hexdigit((int)pgpk_rand(), upper);
	o[n] = 0;
}

/*
 * A description: none, empty, a selector of 16/40/64 hex digits (either
 * case, or one digit short or long), "key:" with 32 hex digits (the
 * module's upcall requests: kernel/pgpk_key.c pgpk_upcall()) or other
 * lengths, "sig:", a suffix (the old module's selector), printable junk,
 * a long one.
 */
static const char *any_desc(char *buf, size_t size, int for_request)
{
	static const int hexlens[] = { 16, 40, 64, 15, 17, 39, 41, 63, 65 };
	int upper = (int)pgpk_below(2), n, i;
	size_t k;

	switch (pgpk_below(for_request ? 10 : 8)) {
	case 0:
		if (!for_request)
			return NULL;
		/* fall through */
	case 1:
		return "";
	case 2:
	case 3:
		put_hex(buf, hexlens[pgpk_below(pgpk_below(2) ? 3 : 9)], upper);
		return buf;
	case 4:
		n = (int)pgpk_below(200);
		for (i = 0; i < n && (size_t)i < size - 1; i++)
			buf[i] = (char)(32 + pgpk_below(95));
		buf[i] = 0;
		return buf;
	case 5:
		k = 1 + pgpk_below(size - 1);
		memset(buf, pgpk_below(2) ? 'a' : ':', k);
		buf[k] = 0;
		return buf;
	default:
		memcpy(buf, pgpk_below(4) ? "key:" : "sig:", 4);
		put_hex(buf + 4, pgpk_below(4) ? 32 : hexlens[pgpk_below(9)],
			pgpk_below(5) ? 0 : 1);
		if (!pgpk_below(4)) {
			k = strlen(buf);
			buf[k] = pgpk_below(8) ? ':' : '_';
			put_hex(buf + k + 1, hexlens[pgpk_below(9)], upper);
		}
		if (!pgpk_below(10))
			buf[pgpk_below(strlen(buf))] =
				(char)(1 + pgpk_below(255));
		return buf;
	}
}

static int upcall_allowed(void)
{
	if (__atomic_load_n(&st->upcalls, __ATOMIC_RELAXED) >= opt_upcalls)
		return 0;
	__atomic_add_fetch(&st->upcalls, 1, __ATOMIC_RELAXED);
	return 1;
}

/*
 * An input blob: a canonical one (as it is, mutated by structure or by
 * bytes), or OpenPGP bytes (an upcall: as long as the budget lasts).
 */
static void make_blob(struct pgpk_blob *out, int want_key, int *upcall)
{
	const struct pgpk_blob *in, *donor;
	struct pgpk_blob tmp;
	int r = (int)pgpk_below(100);

	*upcall = 0;
	if (nopenpgp && r < 4 && upcall_allowed()) {
		in = &openpgp[nopenpgp_named && pgpk_below(2) ?
				      pgpk_below(nopenpgp_named) :
				      pgpk_below(nopenpgp)];
		if (pgpk_below(2)) {
			out->data = malloc(in->len);
			memcpy(out->data, in->data, in->len);
			out->len = in->len;
		} else {
			pgpk_mutate_bytes(in, out, MAX_BLOB);
		}
		*upcall = goes_upcall(out);
		return;
	}
	in = any_canon(want_key);
	if (!in) {
		out->len = 1 + pgpk_below(64);
		out->data = malloc(out->len);
		memset(out->data, 0x7f, out->len);
		return;
	}
	donor = any_canon(0);
	if (r < 20) {
		out->data = malloc(in->len);
		memcpy(out->data, in->data, in->len);
		out->len = in->len;
	} else if (r < 80) {
		pgpk_mutate_canonical(in, donor, out);
	} else if (r < 90) {
		pgpk_mutate_canonical(in, donor, &tmp);
		pgpk_mutate_bytes(&tmp, out, MAX_BLOB);
		free(tmp.data);
	} else {
		pgpk_mutate_bytes(in, out, MAX_BLOB);
	}
	/* Bytes a mutation made look like OpenPGP: an upcall, if allowed. */
	if (goes_upcall(out)) {
		if (upcall_allowed())
			*upcall = 1;
		else
			out->data[0] = 0x7f;
	}
}

static void op_add_asymmetric(void)
{
	struct pgpk_blob b;
	char desc[4200];
	const char *d;
	int upcall;
	long id;

	make_blob(&b, 1, &upcall);
	d = any_desc(desc, sizeof(desc), 0);
	kcov_start();
	id = add_key("asymmetric", d, b.data, b.len, any_ring());
	kcov_collect();
	done(upcall ? OP_ADD_ASYM_PGP : OP_ADD_ASYM, id);
	key_remember(id);
	free(b.data);
}

static void op_add_test(void)
{
	struct pgpk_blob b;
	int upcall;
	long id;

	make_blob(&b, 0, &upcall);
	kcov_start();
	id = add_key("pgpk_test", pgpk_below(2) ? "t" : "", b.data, b.len,
		     any_ring());
	kcov_collect();
	done(OP_ADD_TEST, id);
	key_remember(id);
	free(b.data);
}

static void op_request(void)
{
	char desc[4200], callout[512];
	const char *d, *c = NULL;
	enum op op = OP_REQUEST;
	size_t n, i;
	long id;

	d = any_desc(desc, sizeof(desc), 1);
	if (!d)
		d = "";
	/* With callout data, a valid description is an upcall. */
	if (!pgpk_below(4) && upcall_allowed()) {
		n = pgpk_below(sizeof(callout));
		for (i = 0; i < n; i++)
			callout[i] = (char)(1 + pgpk_below(255));
		callout[n] = 0;
		c = callout;
		op = OP_REQUEST_CALLOUT;
	}
	kcov_start();
	id = request_key("pgpk", d, c, pgpk_below(2) ? any_ring() : 0);
	kcov_collect();
	done(op, id);
	key_remember(id);
}

/* A fresh keyring, restricted to a key or keyring of ours (or junk). */
static void op_restrict(void)
{
	static const char *const types[] = { "asymmetric", "asymmetric",
					     "asymmetric", "pgpk",
					     "pgpk_test",  "keyring" };
	char rest[128];
	long ring, r;

	ring = add_key("keyring", "fuzz-restricted", NULL, 0, session);
	if (ring < 0)
		return;
	switch (pgpk_below(5)) {
	case 0:
		snprintf(rest, sizeof(rest), "key_or_keyring:%ld", any_key());
		break;
	case 1:
		snprintf(rest, sizeof(rest), "key_or_keyring:%ld:chain",
			 any_ring());
		break;
	case 2:
		snprintf(rest, sizeof(rest), "builtin_trusted");
		break;
	case 3:
		snprintf(rest, sizeof(rest), "key_or_keyring:%ld",
			 nkeys ? keys[pgpk_below(nkeys)] : session);
		break;
	default:
		any_desc(rest, sizeof(rest), 0);
		break;
	}
	kcov_start();
	r = keyctl(KEYCTL_RESTRICT_KEYRING, ring,
		   (unsigned long)types[pgpk_below(6)], (unsigned long)rest, 0);
	kcov_collect();
	done(OP_RESTRICT, r);
	if (nrings < MAX_RINGS) {
		rings[nrings++] = ring;
		nrestricted++;
	} else {
		rings[1 + pgpk_below(MAX_RINGS - 1)] = ring;
	}
}

static void op_search(void)
{
	static const char *const types[] = { "asymmetric", "pgpk", "pgpk_test",
					     "keyring" };
	char desc[4200];
	const char *d;
	long r, ring;

	d = any_desc(desc, sizeof(desc), 1);
	if (!d || !pgpk_below(4)) {
		memcpy(desc, pgpk_below(2) ? "id:" : "ex:", 3);
		put_hex(desc + 3, pgpk_below(2) ? 16 : 40, (int)pgpk_below(2));
		d = desc;
	}
	/* Our keyrings, or the module's own (its trusted keys). */
	ring = nmodule_rings && !pgpk_below(4) ?
		       module_rings[pgpk_below(nmodule_rings)] :
		       any_ring();
	kcov_start();
	r = keyctl(KEYCTL_SEARCH, ring, (unsigned long)types[pgpk_below(4)],
		   (unsigned long)d,
		   pgpk_below(2) ? (unsigned long)any_ring() : 0);
	kcov_collect();
	done(OP_SEARCH, r);
	key_remember(r);
}

static const char *any_pkey_info(void)
{
	static const char *const infos[] = {
		"enc=pkcs1 hash=sha256",
		"enc=pkcs1 hash=sha512",
		"enc=pkcs1 hash=sha1",
		"enc=pkcs1 hash=sha384",
		"enc=pkcs1 hash=md5",
		"enc=pkcs1",
		"enc=raw",
		"enc=openpgp hash=sha256",
		"enc=pkcs1 hash=sha3-256",
		"",
		"hash=sha256",
		"enc=oaep hash=sha256",
	};

	return infos[pgpk_below(sizeof(infos) / sizeof(infos[0]))];
}

static void op_pkey(void)
{
	struct keyctl_pkey_params p;
	struct keyctl_pkey_query q;
	static unsigned char in[1024], out[1024], sig[1024];
	long r;
	int which = (int)pgpk_below(4);

	memset(&p, 0, sizeof(p));
	p.key_id = (int32_t)any_key();
	if (which < 2) {
		kcov_start();
		r = keyctl(KEYCTL_PKEY_QUERY, p.key_id, 0,
			   (unsigned long)any_pkey_info(), (unsigned long)&q);
		kcov_collect();
		done(OP_PKEY_QUERY, r);
		return;
	}
	p.in_len = (uint32_t)(pgpk_below(2) ? 32 : pgpk_below(sizeof(in)));
	for (r = 0; r < (long)sizeof(in); r++)
		in[r] = (unsigned char)pgpk_rand();
	if (which == 2) {
		p.in2_len = (uint32_t)(pgpk_below(2) ? 256 :
						       pgpk_below(sizeof(sig)));
		for (r = 0; r < (long)sizeof(sig); r++)
			sig[r] = (unsigned char)pgpk_rand();
		kcov_start();
		r = keyctl(KEYCTL_PKEY_VERIFY, (unsigned long)&p,
			   (unsigned long)any_pkey_info(), (unsigned long)in,
			   (unsigned long)sig);
		kcov_collect();
		done(OP_PKEY_VERIFY, r);
		return;
	}
	p.out_len = (uint32_t)pgpk_below(sizeof(out));
	kcov_start();
	r = keyctl(KEYCTL_PKEY_ENCRYPT, (unsigned long)&p,
		   (unsigned long)any_pkey_info(), (unsigned long)in,
		   (unsigned long)out);
	kcov_collect();
	done(OP_PKEY_ENCRYPT, r);
}

/* The key-management operations, on our keys and rings. */
/* The last tenth of a phase (root may then ruin the module's keyrings). */
static int late;

static void op_manage(void)
{
	static char buf[65536];
	long r, k = any_key();
	enum op op;

	/*
	 * Root may revoke, expire or lock the module's own keyrings (its
	 * trusted keys ".pgpk"); the module must cope, but a ruined ".pgpk"
	 * finds no issuer (pgpk_sig_check(): -ENOKEY) for the rest of the
	 * phase: late only.
	 */
	if (late && nmodule_rings && !pgpk_below(20))
		k = module_rings[pgpk_below(nmodule_rings)];
	kcov_start();
	switch (pgpk_below(10)) {
	case 0:
		op = OP_DESCRIBE;
		r = keyctl(KEYCTL_DESCRIBE, k, (unsigned long)buf,
			   pgpk_below(2) ? sizeof(buf) : pgpk_below(64), 0);
		break;
	case 1:
		op = OP_READ;
		r = keyctl(KEYCTL_READ, k, (unsigned long)buf,
			   pgpk_below(2) ? sizeof(buf) : pgpk_below(64), 0);
		break;
	case 2:
		op = OP_REVOKE;
		r = keyctl(KEYCTL_REVOKE, k, 0, 0, 0);
		break;
	case 3:
		op = OP_INVALIDATE;
		r = keyctl(KEYCTL_INVALIDATE, k, 0, 0, 0);
		break;
	case 4:
		op = OP_UNLINK;
		r = keyctl(KEYCTL_UNLINK, k, any_ring(), 0, 0);
		break;
	case 5:
		op = OP_LINK;
		r = keyctl(KEYCTL_LINK, k, any_ring(), 0, 0);
		break;
	case 6:
		op = OP_CLEAR;
		r = keyctl(KEYCTL_CLEAR, any_ring(), 0, 0, 0);
		break;
	case 7:
		op = OP_TIMEOUT;
		r = keyctl(KEYCTL_SET_TIMEOUT, k, pgpk_below(4), 0, 0);
		break;
	default:
		/* Possessor rights mostly kept: the key stays usable. */
		op = OP_SETPERM;
		r = keyctl(KEYCTL_SETPERM, k,
			   pgpk_below(4) ?
				   0x3f000000 | (pgpk_rand() & 0x003f3f3f) :
				   pgpk_rand() & 0x3f3f3f3f,
			   0, 0);
		break;
	}
	kcov_collect();
	done(op, r);
}

/*
 * An empty session keyring: this one emptied, or a new one if the inputs
 * revoked, invalidated, expired or locked it (they act on it too).
 */
static void fresh_session(void)
{
	session = keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 1, 0,
			 0);
	if (session < 0 || keyctl(KEYCTL_CLEAR, session, 0, 0, 0) < 0)
		session = keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0);
	if (session < 0)
		die("no session keyring: %s", strerror(errno));
}

static void setup_rings(void)
{
	long r;
	int i;

	fresh_session();
	nrings = nrestricted = nkeys = 0;
	/*
	 * The genuine keys, once per process (a user's quota takes what it
	 * can): linked into the session, where pgpk_test looks for signers
	 * and a key's add looks for its certifiers, and kept alive by the
	 * process keyring when the session is emptied.
	 */
	if (trust <= 0 || keyctl(KEYCTL_LINK, trust, session, 0, 0) < 0) {
		trust = add_key("keyring", "fuzz-trust", NULL, 0,
				KEY_SPEC_PROCESS_KEYRING);
		if (trust > 0)
			keyctl(KEYCTL_LINK, trust, session, 0, 0);
		for (i = 0; trust > 0 && i < ncanon_keys; i++)
			add_key("asymmetric", NULL, canon[i].data, canon[i].len,
				trust);
	}
	for (i = 0; i < 3; i++) {
		r = add_key("keyring", "fuzz", NULL, 0, session);
		if (r > 0)
			rings[nrings++] = r;
	}
	/* Some genuine keys to act on, and to restrict keyrings to. */
	for (i = 0; i < ncanon_keys && i < 8; i++)
		key_remember(add_key("asymmetric", NULL, canon[i].data,
				     canon[i].len, rings[i % nrings]));
	scan_proc_keys();
}

/*
 * Keep the number of keys bounded (and within the user's quota): every
 * 500 inputs, the session keyring is emptied (or replaced, if an input
 * revoked it) and set up again.
 */
static void tidy(long i)
{
	if (i % 500 == 499)
		setup_rings();
}

static int past_deadline(void)
{
	return deadline && time(NULL) >= deadline;
}

/* N inputs, one at a time, each chosen at random. */
static void run_inputs(long n, const char *who)
{
	long i, before = st->inputs;
	time_t t0 = time(NULL);
	int r;

	setup_rings();
	for (i = 0; i < n && !past_deadline(); i++) {
		late = i >= n - n / 10;
		r = (int)pgpk_below(100);
		if (opt_verbose)
			printf("[%s %ld]\n", who, i);
		if (r < 40)
			op_add_asymmetric();
		else if (r < 50)
			op_add_test();
		else if (r < 58)
			op_request();
		else if (r < 62)
			op_restrict();
		else if (r < 68)
			op_search();
		else if (r < 76)
			op_pkey();
		else if (r < 77)
			scan_proc_keys();
		else
			op_manage();
		tidy(i);
	}
	printf("PGPK-SYSFUZZ phase %s: %ld inputs in %lds%s\n", who,
	       st->inputs - before, (long)(time(NULL) - t0),
	       past_deadline() ? " (time limit reached)" : "");
	fflush(stdout);
}

/* Become UID in a session keyring of his own. */
static void become(uid_t uid)
{
	gid_t gid = uid;

	if (setgroups(0, NULL) || setgid(gid) || setuid(uid))
		die("setuid %u: %s", (unsigned int)uid, strerror(errno));
	if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0)
		die("new session as %u: %s", (unsigned int)uid,
		    strerror(errno));
}

static void phase_user(long n)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		pgpk_rand_seed(seed ^ 0x5555);
		kcov_open();
		become(opt_uid);
		kcov_enable();
		run_inputs(n, "user");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the unprivileged phase ended with status 0x%x", status);
}

/* --- races --- */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static pid_t spawn(void (*fn)(int), int arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		signal(SIGTERM, on_term);
		pgpk_rand_seed(seed ^ (uint64_t)getpid() << 20);
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	return pid;
}

static long race_ring;

/* Root adds keys and messages to the shared keyring, as fast as it can. */
static void race_adder(int arg)
{
	const struct pgpk_blob *b;
	struct pgpk_blob m;
	long id;

	(void)arg;
	while (!stop) {
		b = any_canon(pgpk_below(4) != 0);
		if (!b)
			return;
		/* While the reloader waits, one add in 50: against rmmod. */
		if (__atomic_load_n(&st->quiet, __ATOMIC_RELAXED) &&
		    pgpk_below(50)) {
			usleep(1000);
			continue;
		}
		if (pgpk_below(3)) {
			id = add_key(b->data[PGPK_MAGIC_LEN] == 0x0a ?
					     "asymmetric" :
					     "pgpk_test",
				     NULL, b->data, b->len, race_ring);
			done(b->data[PGPK_MAGIC_LEN] == 0x0a ? OP_ADD_ASYM :
							       OP_ADD_TEST,
			     id);
		} else {
			pgpk_mutate_canonical(b, any_canon(0), &m);
			if (goes_upcall(&m))
				m.data[0] = 0x7f;
			done(OP_ADD_ASYM, add_key("asymmetric", NULL, m.data,
						  m.len, race_ring));
			free(m.data);
		}
	}
}

/* Root revokes, invalidates, unlinks, expires and clears what it finds. */
static void race_killer(int arg)
{
	int32_t ids[256];
	long n, k;

	(void)arg;
	while (!stop) {
		n = keyctl(KEYCTL_READ, race_ring, (unsigned long)ids,
			   sizeof(ids), 0);
		if (n <= 0) {
			usleep(1000);
			continue;
		}
		n /= 4;
		if (n > 256)
			n = 256;
		k = ids[pgpk_below(n)];
		switch (pgpk_below(7)) {
		case 0:
			done(OP_REVOKE, keyctl(KEYCTL_REVOKE, k, 0, 0, 0));
			break;
		case 1:
			done(OP_INVALIDATE,
			     keyctl(KEYCTL_INVALIDATE, k, 0, 0, 0));
			break;
		case 2:
			done(OP_UNLINK,
			     keyctl(KEYCTL_UNLINK, k, race_ring, 0, 0));
			break;
		case 3:
			/* expired: the garbage collector takes it */
			done(OP_TIMEOUT,
			     keyctl(KEYCTL_SET_TIMEOUT, k, 1, 0, 0));
			break;
		case 4:
			done(OP_CLEAR,
			     keyctl(KEYCTL_CLEAR, race_ring, 0, 0, 0));
			break;
		case 5:
			done(OP_PKEY_QUERY,
			     keyctl(KEYCTL_PKEY_QUERY, k, 0,
				    (unsigned long)"enc=pkcs1 hash=sha256",
				    (unsigned long)&(struct keyctl_pkey_query){
					    0 }));
			break;
		default:
			done(OP_SETPERM,
			     keyctl(KEYCTL_SETPERM, k, 0x3f3f0000, 0, 0));
			break;
		}
	}
}

/*
 * Two users add the same blob at the same time, each in his own session:
 * the same canonical key, and (within the budget) the same OpenPGP bytes,
 * that is the same upcall.  The blob is chosen from the shared seed and a
 * round number, so both pick the same one.
 */
static void race_user(int uid)
{
	const struct pgpk_blob *b;
	long round = 0, id, ring;

	become((uid_t)uid);
	ring = keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 1, 0, 0);
	while (!stop) {
		pgpk_rand_seed(seed + (uint64_t)++round * 7919);
		if (nopenpgp && pgpk_below(20) == 0 && upcall_allowed()) {
			b = &openpgp[pgpk_below(nopenpgp)];
			id = add_key("asymmetric", NULL, b->data, b->len, ring);
			done(OP_ADD_ASYM_PGP, id);
		} else {
			b = any_canon(1);
			if (!b)
				return;
			id = add_key("asymmetric", NULL, b->data, b->len, ring);
			done(OP_ADD_ASYM, id);
		}
		if (id > 0 && pgpk_below(2))
			keyctl(KEYCTL_UNLINK, id, ring, 0, 0);
		if (round % 50 == 0)
			keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
		while (__atomic_load_n(&st->quiet, __ATOMIC_RELAXED) && !stop) {
			keyctl(KEYCTL_CLEAR, ring, 0, 0, 0);
			usleep(5000);
		}
	}
}

static int module_loaded(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "pgpk ", 5);
	fclose(f);
	return found;
}

static long insmod(void)
{
	long r;
	int fd = open(opt_ko, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	r = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return r;
}

/*
 * Every second or so, ask the others to add (almost) nothing for up to a
 * second, empty the shared keyring, and unload the module as soon as no
 * key holds it (the garbage collector frees them), then load it again:
 * the adds that do run meet a module going or coming.
 */
static void race_reloader(int arg)
{
	int tries;

	(void)arg;
	while (!stop) {
		usleep(200000 + pgpk_below(800000));
		__atomic_store_n(&st->quiet, 1, __ATOMIC_RELAXED);
		keyctl(KEYCTL_CLEAR, race_ring, 0, 0, 0);
		for (tries = 0; tries < 50 && !stop; tries++) {
			if (done(OP_RMMOD, syscall(SYS_delete_module, "pgpk",
						   O_NONBLOCK)) == 0) {
				usleep(pgpk_below(20000));
				done(OP_INSMOD, insmod());
				break;
			}
			usleep(20000);
		}
		__atomic_store_n(&st->quiet, 0, __ATOMIC_RELAXED);
	}
	/* Leave it loaded. */
	if (!module_loaded())
		done(OP_INSMOD, insmod());
}

static void phase_races(int secs)
{
	pid_t pids[8];
	int n = 0, i, status;
	time_t t0 = time(NULL);
	long before = st->inputs;

	/* Our own keys (the phases before) would hold the module. */
	fresh_session();
	keyctl(KEYCTL_CLEAR, KEY_SPEC_PROCESS_KEYRING, 0, 0, 0);
	trust = 0;
	nkeys = 0;
	race_ring = add_key("keyring", "fuzz-race", NULL, 0, session);
	if (race_ring < 0)
		die("race keyring: %s", strerror(errno));
	/*
	 * A fifth more upcalls for the races (the phases before may have
	 * spent them all): OpenPGP adds by two users at once, during
	 * reloads.
	 */
	opt_upcalls += opt_upcalls / 5 + 4;
	/* Everyone may add to it and look at it. */
	keyctl(KEYCTL_SETPERM, race_ring, 0x3f3f3f3f, 0, 0);
	pids[n++] = spawn(race_adder, 0);
	pids[n++] = spawn(race_adder, 0);
	pids[n++] = spawn(race_killer, 0);
	pids[n++] = spawn(race_user, (int)opt_uid);
	pids[n++] = spawn(race_user, (int)opt_uid + 1);
	if (opt_ko)
		pids[n++] = spawn(race_reloader, 0);
	while (time(NULL) - t0 < secs && !past_deadline())
		sleep(1);
	for (i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	for (i = 0; i < n; i++)
		waitpid(pids[i], &status, 0);
	keyctl(KEYCTL_CLEAR, race_ring, 0, 0, 0);
	if (opt_ko && !module_loaded() && insmod() < 0)
		die("pgpk.ko did not load again after the races: %s",
		    strerror(errno));
	printf("PGPK-SYSFUZZ phase races: %ld inputs in %lds (%ld module "
	       "reloads)\n",
	       st->inputs - before, (long)(time(NULL) - t0), st->ok[OP_RMMOD]);
	fflush(stdout);
}

/*
 * Unload and load the module with KCOV on: its init and exit code (and
 * what they call) run in this task.  The keys that hold it go first.
 */
/*
 * The module's parameters are an entry point too (root: 0644 files).
 * Numbers at and around their bounds, and junk; the reload after resets
 * them (min_rsa_bits can only be raised).
 */
static void fuzz_parameters(void)
{
	static const char *const values[] = {
		"0",
		"1",
		"2047",
		"2048",
		"2049",
		"3072",
		"4096",
		"16384",
		"-1",
		"4294967296",
		"99999999999999999999",
		"0x800",
		"",
		"junk",
		"2048junk",
		" 2048\n",
	};
	const char *dir = "/sys/module/pgpk/parameters";
	char path[300];
	struct dirent *de;
	const char *v;
	DIR *d = opendir(dir);
	int fd, i;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		for (i = 0; i < 16; i++) {
			v = values[pgpk_below(sizeof(values) /
					      sizeof(values[0]))];
			fd = open(path, O_WRONLY);
			if (fd < 0)
				break;
			kcov_start();
			done(OP_PARAM, write(fd, v, strlen(v)));
			kcov_collect();
			close(fd);
		}
	}
	if (d)
		closedir(d);
}

static void phase_reload(void)
{
	time_t t0 = time(NULL);
	long r = -1;

	fuzz_parameters();
	fresh_session();
	keyctl(KEYCTL_CLEAR, KEY_SPEC_PROCESS_KEYRING, 0, 0, 0);
	trust = 0;
	nkeys = 0;
	/*
	 * The garbage collector frees them in its own time (a revoked or
	 * expired keyring keeps its keys for gc_delay, /proc/sys/kernel/keys:
	 * 70-sysfuzz.sh makes it short).
	 */
	while (time(NULL) - t0 < 30) {
		kcov_start();
		r = syscall(SYS_delete_module, "pgpk", O_NONBLOCK);
		kcov_collect();
		if (!r || errno != EAGAIN)
			break;
		usleep(100000);
	}
	done(OP_RMMOD, r);
	if (r && module_loaded()) {
		printf("PGPK-SYSFUZZ phase reload: rmmod pgpk: %s; the keys "
		       "that may hold it:\n",
		       strerror(errno));
		fflush(stdout);
		if (system("grep -E ' (asymmetric|keyring) ' /proc/keys"))
			printf("(none)\n");
		return;
	}
	kcov_start();
	r = insmod();
	done(OP_INSMOD, r);
	/* Where the module is now; its init code ran there. */
	read_sections();
	kcov_collect();
	printf("PGPK-SYSFUZZ phase reload: %s\n",
	       r ? strerror(errno) : "unloaded and loaded again");
	if (r)
		die("pgpk.ko did not load again: %s", strerror(errno));
}

/* --- helper mode (-H KEY): an upcall helper that lies --- */

/* Run ARGV with stdout into @out (at most MAX_BLOB octets). */
static int capture(char *const argv[], struct pgpk_blob *out)
{
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	out->data = malloc(MAX_BLOB);
	out->len = 0;
	if (!out->data || pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], out->data + out->len, MAX_BLOB - out->len)) > 0)
		out->len += n;
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && !WEXITSTATUS(status) && out->len)
		return 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Answer the upcall for KEY: the real helper's answer as it is, or
 * mutated by structure, or another blob of the corpus, or a rejection
 * with a random errno, or the real helper itself (exec).  The module
 * asks for keys only ("key:<32 hex digits>", random: nothing to select),
 * and binds the answer to the submitted bytes: "pgpk key FILE"
 * makes the answer the real helper would, offsets included
 * (Key.packet_offset, user_id_offset, certification.rsa_s_offset), and
 * a mutated offset is a lie the binding must refuse.  The module
 * must take the honest answer and refuse every lie (ARCHITECTURE.md,
 * trust rule 2), without a kernel report.  KCOV covers the instantiate
 * (the module's preparse runs in this task); the points go to
 * /tmp/pgpk-sysfuzz-kcov.<pid>, which the fuzzer merges.
 */
static int run_helper(long key)
{
	static const int errs[] = { EBADMSG,	 ENOPKG,   EKEYREJECTED,
				    EKEYEXPIRED, EMSGSIZE, ENOKEY,
				    ENOMEM,	 EDQUOT,   ETIMEDOUT,
				    ECHILD,	 EINTR,	   EPERM };
	static uint8_t callout[MAX_BLOB];
	char file[64], path[64];
	char *args[8];
	struct pgpk_blob honest = { 0 }, answer = { 0 };
	const struct pgpk_blob *donor;
	int r, lie = 1, why = -1;
	long n, ret;
	FILE *f;

	pgpk_rand_seed((uint64_t)time(NULL) ^ (uint64_t)getpid() << 20 ^
		       (uint64_t)key);
	r = (int)pgpk_below(100);
	snprintf(file, sizeof(file), "%ld", key);
	if (r < 30) {
		f = fopen("/tmp/pgpk-sysfuzz-helper.log", "a");
		if (f) {
			fprintf(f, "real helper\n");
			fclose(f);
		}
		args[0] = "/usr/sbin/pgpk-helper";
		args[1] = "upcall";
		args[2] = file;
		args[3] = NULL;
		execv(args[0], args);
	}
	n = keyctl(KEYCTL_READ, KEY_SPEC_REQKEY_AUTH_KEY,
		   (unsigned long)callout, sizeof(callout), 0);
	read_sections();
	read_kaslr();
	kcov_open();
	kcov_enable();
	if (r < 80 && n > 0) {
		snprintf(path, sizeof(path), "/tmp/pgpk-sysfuzz-in.%d",
			 (int)getpid());
		f = fopen(path, "wb");
		if (f) {
			fwrite(callout, 1, n, f);
			fclose(f);
		}
		args[0] = "/usr/bin/pgpk";
		args[1] = "key";
		args[2] = path;
		args[3] = NULL;
		why = capture(args, &honest);
		if (!why) {
			donor = any_canon(0);
			if (pgpk_below(3)) {
				answer = honest;
				honest.data = NULL;
				lie = 0;
			} else {
				pgpk_mutate_canonical(&honest, donor, &answer);
			}
		}
		unlink(path);
	} else if (r < 90 && ncanon) {
		donor = any_canon(0);
		if (pgpk_below(2))
			pgpk_mutate_canonical(donor, any_canon(0), &answer);
		else
			pgpk_mutate_bytes(donor, &answer, MAX_BLOB);
	}
	kcov_start();
	if (answer.data)
		ret = keyctl(KEYCTL_INSTANTIATE, key,
			     (unsigned long)answer.data, answer.len, 0);
	else
		ret = keyctl(KEYCTL_REJECT, key, pgpk_below(4),
			     errs[pgpk_below(sizeof(errs) / sizeof(errs[0]))],
			     0);
	kcov_collect();
	/* A lie the module took at once (it may still refuse it later). */
	if (ret < 0)
		keyctl(KEYCTL_REJECT, key, 2, EBADMSG, 0);
	/* One line per upcall (70-sysfuzz.sh counts them). */
	f = fopen("/tmp/pgpk-sysfuzz-helper.log", "a");
	if (f) {
		fprintf(f, "%s %s%s\n",
			answer.data ? (lie ? "lie" : "honest") : "rejection",
			ret < 0 ? "refused" : "taken",
			why > 0 ? " (pgpk key/sig failed)" : "");
		fclose(f);
	}
	snprintf(path, sizeof(path), "/tmp/pgpk-sysfuzz-kcov.%d",
		 (int)getpid());
	if (cover)
		kcov_write(path, NULL);
	free(honest.data);
	free(answer.data);
	return 0;
}

/* -M: the structure-aware mutator keeps the encoding, and mutates. */
static int check_mutator(long rounds)
{
	long total = 0, broken = 0, seen = 0, bad = 0, same = 0, unparsed = 0;
	long r;
	struct pgpk_blob out;
	int i, n;

	for (i = 0; i < ncanon; i++) {
		for (r = 0; r < rounds; r++) {
			n = pgpk_mutate_canonical(&canon[i], any_canon(0),
						  &out);
			total++;
			if (!n) {
				unparsed++;
			} else if (n < 0) {
				/*
				 * The checker must see the deliberate errors
				 * made at the top level (it looks no deeper),
				 * or it proves nothing.
				 */
				broken++;
				if (!pgpk_wire_check(out.data + PGPK_MAGIC_LEN,
						     out.len - PGPK_MAGIC_LEN))
					seen++;
			} else if (out.len < PGPK_MAGIC_LEN ||
				   !pgpk_wire_check(out.data + PGPK_MAGIC_LEN,
						    out.len - PGPK_MAGIC_LEN)) {
				if (!bad++)
					fprintf(stderr,
						"blob %d round %ld: "
						"not well-formed\n",
						i, r);
			}
			if (n && out.len == canon[i].len &&
			    !memcmp(out.data, canon[i].data, out.len))
				same++;
			free(out.data);
		}
	}
	printf("PGPK-SYSFUZZ mutator: %ld mutations of %d blobs: %ld "
	       "ill-formed, %ld deliberate encoding errors (%ld seen by the "
	       "checker), %ld unchanged, %ld inputs not wire format\n",
	       total, ncanon, bad, broken, seen, same, unparsed);
	/* A few no-ops happen (a value set to itself); most must change. */
	return bad || !seen || same * 10 > total || broken * 5 > total;
}

static void report(time_t t0)
{
	int i, shown = 0;

	printf("PGPK-SYSFUZZ seed %llu: %ld inputs in %lds, %ld upcalls\n",
	       (unsigned long long)seed, st->inputs, (long)(time(NULL) - t0),
	       st->upcalls);
	/*
	 * Per operation: calls, successes, and the four most frequent
	 * errors (where the inputs stop).
	 */
	for (i = 0; i < OP_NR; i++) {
		if (!st->calls[i])
			continue;
		printf("PGPK-SYSFUZZ   %-26s %7ld calls, %7ld ok", op_names[i],
		       st->calls[i], st->ok[i]);
		for (shown = 0; shown < 4; shown++) {
			long best = 0;
			int e, be = -1;

			for (e = 0; e < NR_ERRNO; e++)
				if (st->err[i][e] > best) {
					best = st->err[i][e];
					be = e;
				}
			if (be < 0)
				break;
			printf(" %s=%ld", be ? strerrorname_np(be) : "other",
			       best);
			st->err[i][be] = 0;
		}
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	time_t t0 = time(NULL);
	long mutator_rounds = 0;
	int c, i;

	long helper_key = 0;

	seed = (uint64_t)t0 ^ (uint64_t)getpid() << 32;
	while ((c = getopt(argc, argv, "n:N:u:U:r:m:s:t:k:vM:H:")) != -1) {
		switch (c) {
		case 'n':
			opt_n = atol(optarg);
			break;
		case 'N':
			opt_user_n = atol(optarg);
			break;
		case 'u':
			opt_uid = (uid_t)atol(optarg);
			break;
		case 'U':
			opt_upcalls = atol(optarg);
			break;
		case 'r':
			opt_races = atoi(optarg);
			break;
		case 'm':
			opt_ko = optarg;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			deadline = t0 + atol(optarg);
			break;
		case 'k':
			opt_kcov_file = optarg;
			break;
		case 'v':
			opt_verbose = 1;
			break;
		case 'M':
			mutator_rounds = atol(optarg);
			break;
		case 'H':
			helper_key = atol(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: see the head of pgpk-sysfuzz.c\n");
			return 2;
		}
	}
	if (opt_user_n < 0)
		opt_user_n = opt_n / 4;
	if (opt_upcalls < 0)
		opt_upcalls = (opt_n + opt_user_n) / 500;
	for (i = optind; i < argc; i++)
		add_corpus(argv[i], 1);
	names = shared(sizeof(*names));
	pcs = shared(sizeof(*pcs) * PC_SET_SIZE);
	if (helper_key)
		return run_helper(helper_key);
	if (!ncanon)
		die("no canonical blob in the corpus");
	setvbuf(stdout, NULL, _IOLBF, 0);
	pgpk_rand_seed(seed);
	if (mutator_rounds)
		return check_mutator(mutator_rounds);
	printf("PGPK-SYSFUZZ seed %llu: corpus %d canonical (%d keys, %d "
	       "cleaned of reserved fields), %d OpenPGP; %ld + %ld inputs, "
	       "%ld upcalls at most, races %ds%s\n",
	       (unsigned long long)seed, ncanon, ncanon_keys, ncleaned,
	       nopenpgp, opt_n, opt_user_n, opt_upcalls, opt_races,
	       opt_ko ? " with module reloads" : "");
	st = shared(sizeof(*st));
	pgpk_rand_seed(seed);
	read_sections();
	read_kaslr();
	kcov_open();
	if (kcov_fd < 0)
		printf("PGPK-SYSFUZZ no KCOV (/sys/kernel/debug/kcov): no "
		       "coverage\n");
	else if (!nsections)
		printf("PGPK-SYSFUZZ pgpk not loaded: no coverage\n");
	/* Sections first: the races may load the module elsewhere. */
	kcov_enable();
	run_inputs(opt_n, "root");
	if (opt_user_n)
		phase_user(opt_user_n);
	if (opt_ko)
		phase_reload();
	if (opt_kcov_file && kcov_fd >= 0 && nsections) {
		kcov_merge_helpers();
		kcov_write(opt_kcov_file, NULL);
		if (unmapped)
			printf("PGPK-SYSFUZZ kcov: %ld PCs outside the module's "
			       "sections (a tail call to the tracer records "
			       "its caller's address), e.g. %s\n",
			       unmapped, unmapped_name(unmapped_example));
	}
	if (opt_races > 0)
		phase_races(opt_races);
	report(t0);
	return 0;
}
