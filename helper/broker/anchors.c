// SPDX-License-Identifier: GPL-2.0
/*
 * The trust anchors' files (pgpk_anchors.h): read, never parsed here.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helper/broker/pgpk_anchors.h"

static bool pgpk_anchor_name(const char *name)
{
	static const char *const tails[] = { ".pgp", ".gpg", ".asc" };
	size_t len = strlen(name), i;

	if (name[0] == '.')
		return false;
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		if (len > 4 && !strcmp(name + len - 4, tails[i]))
			return true;
	return false;
}

static int pgpk_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One regular file of at most max octets, whole; -errno otherwise. */
static int pgpk_anchor_file(int dirfd, const char *name, size_t max,
			    struct pgpk_blob *out)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t len = 0;
	struct stat st;
	uint8_t *buf;
	ssize_t n;
	int ret = -EFBIG;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > max || !(buf = malloc(st.st_size + 1))) {
		close(fd);
		return (uint64_t)st.st_size > max ? -EFBIG : -ENOMEM;
	}
	while ((n = read(fd, buf + len, (size_t)st.st_size + 1 - len)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			len += (size_t)n;
	if (n < 0)
		ret = -errno;
	close(fd);
	if (n < 0 || len > (size_t)st.st_size) { /* error, or it grew */
		free(buf);
		return n < 0 ? ret : -EFBIG;
	}
	out->data = buf;
	out->len = len;
	return 0;
}

int pgpk_anchors_read(const char *dir, struct pgpk_anchor_set *set, char *why,
		      size_t why_len)
{
	size_t nnames = 0, i, total = 0;
	char *names[PGPK_ANCHORS_MAX_FILES];
	struct dirent *d;
	DIR *dp;
	int ret;

	memset(set, 0, sizeof(*set));
	why[0] = '\0';
	dir = dir ? dir : PGPK_ANCHORS_DIR;
	dp = opendir(dir);
	if (!dp) {
		ret = -errno;
		if (ret == -ENOENT)
			return 0;
		snprintf(why, why_len, "anchors %s: %s", dir, strerror(-ret));
		return ret;
	}
	while ((d = readdir(dp))) {
		if (!pgpk_anchor_name(d->d_name))
			continue;
		if (nnames == PGPK_ANCHORS_MAX_FILES) {
			set->skipped++;
			continue;
		}
		names[nnames] = strdup(d->d_name);
		nnames += names[nnames] != NULL;
	}
	qsort(names, nnames, sizeof(names[0]), pgpk_name_cmp);
	set->files = calloc(nnames ? nnames : 1, sizeof(*set->files));
	for (i = 0; i < nnames; i++) {
		ret = set->files ? pgpk_anchor_file(dirfd(dp), names[i],
						    PGPK_ANCHORS_MAX_FILE,
						    &set->files[set->n]) :
				   -ENOMEM;
		if (!ret &&
		    total + set->files[set->n].len > PGPK_ANCHORS_MAX_TOTAL) {
			free((void *)(uintptr_t)set->files[set->n].data);
			ret = -EFBIG;
		}
		if (ret) {
			if (!set->skipped++)
				snprintf(why, why_len,
					 "anchor %s/%s skipped: %s", dir,
					 names[i], strerror(-ret));
		} else {
			total += set->files[set->n++].len;
		}
		free(names[i]);
	}
	closedir(dp);
	return 0;
}

void pgpk_anchors_release(struct pgpk_anchor_set *set)
{
	size_t i;

	for (i = 0; set->files && i < set->n; i++)
		free((void *)(uintptr_t)set->files[i].data);
	free(set->files);
	memset(set, 0, sizeof(*set));
}

int pgpk_anchors_option(int argc, char **argv, int *i, const char **dir)
{
	const char *arg = argv[*i];

	if (!strncmp(arg, "--anchors=", 10))
		*dir = arg + 10;
	else if (!strcmp(arg, "--anchors") && *i + 1 < argc)
		*dir = argv[++*i];
	else if (!strcmp(arg, "--anchors"))
		return -1;
	else
		return 0;
	++*i;
	return **dir ? 1 : -1;
}
