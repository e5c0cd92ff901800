// SPDX-License-Identifier: GPL-2.0
/*
 * Corpus replay: runs a fuzz target's LLVMFuzzerTestOneInput() once on
 * every file named on the command line (directories are walked, sorted),
 * so that the suite replays the committed corpus and crash reproducers
 * without libFuzzer.  A path that does not exist is noted and skipped
 * (an empty crashes/ directory is not in git).  Exits 0 if every input
 * ran (a broken invariant aborts), 1 if an input could not be read, 2 if
 * no input was found at all.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/pgpk_fuzz.h"

#define PGPK_REPLAY_MAX (16u * 1024 * 1024)

struct pgpk_replay {
	unsigned long files;
	unsigned long long octets;
	int errors;
};

static int pgpk_replay_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void pgpk_replay_file(struct pgpk_replay *r, const char *path,
			     off_t size)
{
	uint8_t *buf;
	FILE *f;

	if (size < 0 || (unsigned long long)size > PGPK_REPLAY_MAX) {
		fprintf(stderr, "%s: too large to replay\n", path);
		r->errors++;
		return;
	}
	buf = malloc(size ? size : 1);
	f = fopen(path, "rb");
	if (!buf || !f || fread(buf, 1, size, f) != (size_t)size) {
		fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
		r->errors++;
		goto cleanup;
	}
	/* Its own copy of exactly `size` octets: ASan sees overreads. */
	LLVMFuzzerTestOneInput(buf, size);
	r->files++;
	r->octets += size;
cleanup:
	if (f)
		fclose(f);
	free(buf);
}

static void pgpk_replay_path(struct pgpk_replay *r, const char *path, bool top)
{
	struct dirent *de;
	char **names = NULL, *full;
	size_t n = 0, i;
	struct stat st;
	DIR *d;

	if (stat(path, &st)) {
		if (errno == ENOENT && top) {
			printf("%s: absent, skipped\n", path);
			return;
		}
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		r->errors++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		pgpk_replay_file(r, path, st.st_size);
		return;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		r->errors++;
		return;
	}
	while ((de = readdir(d))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown)
			abort();
		names = grown;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), pgpk_replay_name_cmp);
	for (i = 0; i < n; i++) {
		if (asprintf(&full, "%s/%s", path, names[i]) < 0)
			abort();
		pgpk_replay_path(r, full, false);
		free(full);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct pgpk_replay r = { 0 };
	int i;

	for (i = 1; i < argc; i++)
		pgpk_replay_path(&r, argv[i], true);
	printf("replayed %lu inputs, %llu octets, %d unreadable\n", r.files,
	       r.octets, r.errors);
	if (r.errors)
		return 1;
	return r.files ? 0 : 2;
}
