// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk import's first parse, in the sandboxed child (pgpk_parser.h): a
 * file's certificates, armor removed (the kernel takes binary OpenPGP
 * only), cut where a public key packet starts one (pgpk_cert_starts():
 * packet framing, nothing more).  Each certificate then has a sandboxed
 * parser of its own (helper/parser/child.c pgpk_child_import()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/openpgp.h"
#include "helper/parser/pgpk_parser.h"

/* One certificate: its offset (u64, big-endian), then its octets. */
static int pgpk_split_send(struct pgpk_reply *r, const uint8_t *cert,
			   size_t len, size_t at)
{
	uint8_t *frame = malloc(8 + len);
	int i, ret;

	if (!frame)
		return -ENOMEM;
	for (i = 0; i < 8; i++)
		frame[i] = (uint8_t)((uint64_t)at >> (56 - 8 * i));
	memcpy(frame + 8, cert, len);
	ret = pgpk_reply_blob(r, frame, 8 + len);
	free(frame);
	return ret;
}

int pgpk_parse_split(struct pgpk_reply *r, const struct pgpk_file *in)
{
	struct pgpk_error err = { 0 };
	size_t *starts = NULL, n = 0, c, end;
	struct pgpk_input input;
	int ret;

	ret = pgpk_input_decode(in->data, in->len, &input, &err);
	if (!ret && input.kind == PGPK_INPUT_CLEARTEXT)
		ret = -EBADMSG, snprintf(err.msg, sizeof(err.msg),
					 "a cleartext-signed message");
	if (!ret)
		ret = pgpk_cert_starts(input.packets, input.packets_len,
				       &starts, &n, &err);
	if (!ret && !n)
		ret = -ENOKEY,
		snprintf(err.msg, sizeof(err.msg), "no public key packet");
	for (c = 0; !ret && c < n; c++) {
		end = c + 1 < n ? starts[c + 1] : input.packets_len;
		ret = pgpk_split_send(r, input.packets + starts[c],
				      end - starts[c], starts[c]);
		if (ret)
			snprintf(err.msg, sizeof(err.msg), "%s",
				 strerror(-ret));
	}
	if (ret)
		fprintf(r->err, "%s: %s (offset %zu)\n", in->path, err.msg,
			err.offset);
	free(starts);
	pgpk_input_release(&input);
	return ret ? 2 : 0;
}
