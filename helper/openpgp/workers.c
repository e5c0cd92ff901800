// SPDX-License-Identifier: GPL-2.0
/*
 * Validation of a keyring's certificates on several threads: they are
 * independent, so each is validated (selfsig.c) by one worker, the
 * certificates split by their expected cost; the signatures are parsed
 * on the workers too.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"

/* Validating threads at most (pgpk_parse_opts.threads is clamped). */
#define PGPK_MAX_WORKERS 8

struct pgpk_worker {
	pthread_t thread;
	struct pgpk_keyring *ring;
	const struct pgpk_parse_opts *opts;
	size_t first;
	size_t stride;
	/* If set, the certificates i with owner[i] == first; else every
	 * stride-th from first. */
	const uint8_t *owner;
	size_t verified;
	bool exhausted;
	int ret;
};

static void pgpk_parse_sigs(struct pgpk_signature *sigs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		/* Kept but ignored if it does not parse (see openpgp.h). */
		if (pgpk_signature_parse(sigs[i].body, sigs[i].body_len,
					 sigs[i].offset, &sigs[i], NULL))
			sigs[i].malformed = true;
}

/* Every signature of a certificate (pgpk_build() only framed them). */
static void pgpk_parse_cert_sigs(struct pgpk_cert *cert)
{
	size_t i;

	pgpk_parse_sigs(cert->primary.sigs, cert->primary.nsigs);
	for (i = 0; i < cert->nuids; i++)
		pgpk_parse_sigs(cert->uids[i].sigs, cert->uids[i].nsigs);
	for (i = 0; i < cert->nsubkeys; i++)
		pgpk_parse_sigs(cert->subkeys[i].sigs, cert->subkeys[i].nsigs);
}

static void *pgpk_worker_run(void *arg)
{
	struct pgpk_worker *w = arg;
	struct pgpk_vctx v;
	size_t i;

	if (pgpk_vctx_init(&v, w->ring, w->opts->now, w->opts->no_verify))
		w->ret = -ENOMEM;
	for (i = w->owner ? 0 : w->first; !w->ret && i < w->ring->ncerts;
	     i += w->owner ? 1 : w->stride) {
		struct pgpk_cert *cert = &w->ring->certs[i];

		if (w->owner && w->owner[i] != w->first)
			continue;

		/* Signatures are parsed here, on the validating threads: a
		 * keyring's 50,000 (third-party certifications mostly) were
		 * a sequential tenth of `list`. */
		pgpk_parse_cert_sigs(cert);
		if (!w->opts->want || w->opts->want(cert, w->opts->want_arg))
			pgpk_validate_cert(&v, cert, w->opts);
	}
	pgpk_vctx_release(&v);
	w->verified = v.verified;
	w->exhausted = v.exhausted;
	return NULL;
}

/*
 * What validating a certificate is expected to cost, in units of about
 * 1/256 of an RSA-4096 verification: one verification by the primary
 * key per user ID and per subkey, a back-signature by a quarter of the
 * subkeys, the parsing of every signature (a tenth of a unit).  RSA's
 * cost grows with the square of the modulus (an RSA-8192 key's costs
 * four times an RSA-4096 key's); other algorithms count as RSA-2048.
 */
static uint64_t pgpk_verify_cost(const struct pgpk_pubkey *key)
{
	uint64_t b = key->bits / 256;

	if (!pgpk_pk_algo_is_rsa(key->algo) || b < 8)
		b = 8;
	return b * b;
}

static uint64_t pgpk_cert_cost(const struct pgpk_cert *cert)
{
	uint64_t unit = pgpk_verify_cost(&cert->primary);
	uint64_t cost = unit * (1 + cert->nuids + cert->nsubkeys);
	size_t i, nsigs = cert->primary.nsigs;

	for (i = 0; i < cert->nuids; i++)
		nsigs += cert->uids[i].nsigs;
	for (i = 0; i < cert->nsubkeys; i++) {
		cost += pgpk_verify_cost(&cert->subkeys[i]) / 4;
		nsigs += cert->subkeys[i].nsigs;
	}
	return cost + nsigs / 10;
}

struct pgpk_cert_load {
	uint64_t cost;
	size_t index;
};

/* Costliest first; on equal costs, the earlier certificate. */
static int pgpk_cert_load_cmp(const void *a, const void *b)
{
	const struct pgpk_cert_load *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/*
 * Which worker validates each certificate: the costliest first, each to
 * the worker with the least expected work so far (a keyring's few huge
 * certificates, RSA-8192 keys with dozens of user IDs, made the workers
 * of a fixed interleaving finish far apart).  A function of the input
 * alone, so every run splits it alike, and each worker's budget of
 * salted digests is spent on the same certificates.  NULL if memory ran
 * out: the caller interleaves instead.
 */
static uint8_t *pgpk_split_by_cost(const struct pgpk_keyring *ring,
				   size_t nthreads)
{
	struct pgpk_cert_load *loads;
	const void **order;
	uint64_t sum[PGPK_MAX_WORKERS] = { 0 };
	uint8_t *owner;
	size_t i, t, best;

	loads = pgpk_calloc_array(ring->ncerts, sizeof(*loads));
	order = pgpk_calloc_array(ring->ncerts, sizeof(*order));
	owner = calloc(ring->ncerts, 1);
	if (!loads || !order || !owner)
		goto error;
	for (i = 0; i < ring->ncerts; i++) {
		loads[i].cost = pgpk_cert_cost(&ring->certs[i]);
		loads[i].index = i;
		order[i] = &loads[i];
	}
	if (pgpk_sort_ptrs(order, ring->ncerts, pgpk_cert_load_cmp))
		goto error;
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert_load *l = order[i];

		for (best = 0, t = 1; t < nthreads; t++)
			if (sum[t] < sum[best])
				best = t;
		sum[best] += l->cost;
		owner[l->index] = (uint8_t)best;
	}
	free(order);
	free(loads);
	return owner;

error:
	free(owner);
	free(order);
	free(loads);
	return NULL;
}

/*
 * Threads started ahead (pgpk_workers_start()), for a process that may
 * not create any when it validates: the sandboxed parser, whose seccomp
 * filter forbids clone().  A slot's thread runs the worker put in it,
 * then waits for the next; it never ends (the end of a thread makes
 * system calls that filter forbids: glibc blocks signals around it), the
 * process's _exit() ends it.  One keyring at a time.
 */
static struct {
	pthread_mutex_t m;
	pthread_cond_t cv;
	size_t n; /* threads started */
	size_t ready; /* of them, running their own code */
	struct pgpk_worker *job[PGPK_MAX_WORKERS - 1];
	size_t pending;
} pgpk_pool = { .m = PTHREAD_MUTEX_INITIALIZER,
		.cv = PTHREAD_COND_INITIALIZER };

static void *pgpk_pool_thread(void *arg)
{
	size_t slot = (size_t)(uintptr_t)arg;
	struct pgpk_worker *w;

	pthread_mutex_lock(&pgpk_pool.m);
	pgpk_pool.ready++;
	pthread_cond_broadcast(&pgpk_pool.cv);
	for (;;) {
		while (!pgpk_pool.job[slot])
			pthread_cond_wait(&pgpk_pool.cv, &pgpk_pool.m);
		w = pgpk_pool.job[slot];
		pthread_mutex_unlock(&pgpk_pool.m);
		pgpk_worker_run(w);
		pthread_mutex_lock(&pgpk_pool.m);
		pgpk_pool.job[slot] = NULL;
		pgpk_pool.pending--;
		pthread_cond_broadcast(&pgpk_pool.cv);
	}
	return NULL;
}

int pgpk_workers_start(unsigned int n)
{
	size_t want = n > 1 ? n - 1 : 0;
	pthread_t t;
	int ret = 0;

	if (want > PGPK_MAX_WORKERS - 1)
		want = PGPK_MAX_WORKERS - 1;
	pthread_mutex_lock(&pgpk_pool.m);
	while (pgpk_pool.n < want) {
		ret = -pthread_create(&t, NULL, pgpk_pool_thread,
				      (void *)(uintptr_t)pgpk_pool.n);
		if (ret)
			break;
		pthread_detach(t);
		pgpk_pool.n++;
	}
	/* Only once they run their own code: glibc's start of a thread
	 * makes system calls (rseq, set_robust_list, rt_sigprocmask). */
	while (pgpk_pool.ready < pgpk_pool.n)
		pthread_cond_wait(&pgpk_pool.cv, &pgpk_pool.m);
	pthread_mutex_unlock(&pgpk_pool.m);
	return ret;
}

/* Workers 1.. to the pool's threads; returns how many it took, plus 1. */
static size_t pgpk_pool_hand_out(struct pgpk_worker *workers, size_t n)
{
	size_t i;

	pthread_mutex_lock(&pgpk_pool.m);
	for (i = 1; i < n && i - 1 < pgpk_pool.n; i++) {
		pgpk_pool.job[i - 1] = &workers[i];
		pgpk_pool.pending++;
	}
	pthread_cond_broadcast(&pgpk_pool.cv);
	pthread_mutex_unlock(&pgpk_pool.m);
	return i;
}

static void pgpk_pool_wait(void)
{
	pthread_mutex_lock(&pgpk_pool.m);
	while (pgpk_pool.pending)
		pthread_cond_wait(&pgpk_pool.cv, &pgpk_pool.m);
	pthread_mutex_unlock(&pgpk_pool.m);
}

int pgpk_validate_all(struct pgpk_keyring *ring,
		      const struct pgpk_parse_opts *opts)
{
	struct pgpk_worker workers[PGPK_MAX_WORKERS];
	size_t nthreads = opts->threads, i, started;
	uint8_t *owner = NULL;
	int ret = 0;

	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > PGPK_MAX_WORKERS)
		nthreads = PGPK_MAX_WORKERS;
	if (nthreads > ring->ncerts)
		nthreads = ring->ncerts ? ring->ncerts : 1;
	for (i = 0; i < nthreads; i++)
		workers[i] = (struct pgpk_worker){ .ring = ring,
						   .opts = opts,
						   .first = i,
						   .stride = nthreads };
	if (nthreads == 1) {
		pgpk_worker_run(&workers[0]);
		ring->nsigs_verified = workers[0].verified;
		if (!workers[0].ret && workers[0].exhausted)
			return -E2BIG;
		return workers[0].ret;
	}
	owner = pgpk_split_by_cost(ring, nthreads);
	for (i = 0; i < nthreads; i++)
		workers[i].owner = owner;
	/* Worker 0 runs here; the others on threads: the pool's if it was
	 * started, else their own.  If a thread cannot be had, its share
	 * runs here too. */
	if (pgpk_pool.n) {
		started = pgpk_pool_hand_out(workers, nthreads);
	} else {
		for (started = 1; started < nthreads; started++)
			if (pthread_create(&workers[started].thread, NULL,
					   pgpk_worker_run, &workers[started]))
				break;
	}
	for (i = started; i < nthreads; i++)
		pgpk_worker_run(&workers[i]);
	pgpk_worker_run(&workers[0]);
	if (pgpk_pool.n)
		pgpk_pool_wait();
	else
		for (i = 1; i < started; i++)
			pthread_join(workers[i].thread, NULL);
	for (i = 0; i < nthreads; i++) {
		ring->nsigs_verified += workers[i].verified;
		if (workers[i].exhausted && !ret)
			ret = -E2BIG;
		if (workers[i].ret)
			ret = workers[i].ret;
	}
	free(owner);
	return ret;
}
