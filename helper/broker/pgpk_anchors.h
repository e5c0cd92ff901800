/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trust anchors: the certificates whose primary keys may vouch for a
 * key (Key.certification; proto/pgpk.proto), one or more per file of a
 * directory, /etc/pgpk/anchors/ by default (--anchors DIR): binary
 * (*.pgp, *.gpg) or armored (*.asc).  Root's configuration: the broker
 * reads the files, and only the sandboxed parser parses them
 * (pgpk_convert_opts.anchors).  The same certificates are loaded into the
 * kernel's .pgpk keyring at boot (pgpk import --keyring %:.pgpk, by pgpk-anchors),
 * where restrict.c verifies the chosen certification again.
 */
#ifndef PGPK_ANCHORS_H
#define PGPK_ANCHORS_H

#include <stddef.h>
#include <stdint.h>

#include "helper/pgpk_convert.h"

#define PGPK_ANCHORS_DIR "/etc/pgpk/anchors"
#define PGPK_ANCHORS_MAX_FILES 256
#define PGPK_ANCHORS_MAX_FILE (1024 * 1024) /* octets */
#define PGPK_ANCHORS_MAX_TOTAL (8 * 1024 * 1024) /* octets, all files */

struct pgpk_anchor_set {
	struct pgpk_blob *files; /* in name order; data malloc()ed */
	size_t n;
	size_t skipped; /* unreadable or over the bounds */
};

/*
 * Read the anchors of directory dir (NULL: PGPK_ANCHORS_DIR).  A missing
 * directory is no anchor (0).  A file that cannot be read, or over the
 * bounds, is skipped, counted and named in why (the first one); an
 * unreadable directory is -errno with why.  Release with
 * pgpk_anchors_release() in any case.
 */
int pgpk_anchors_read(const char *dir, struct pgpk_anchor_set *set, char *why,
		      size_t why_len);
void pgpk_anchors_release(struct pgpk_anchor_set *set);

/*
 * If argv[*i] is "--anchors DIR" or "--anchors=DIR", set *dir, advance *i
 * past it and return 1; 0 if it is not; -1 if DIR is missing or empty.
 */
int pgpk_anchors_option(int argc, char **argv, int *i, const char **dir);

#endif /* PGPK_ANCHORS_H */
