// SPDX-License-Identifier: GPL-2.0
/*
 * The sandboxed child's side of the frames (pgpk_parser.h): its standard
 * output and its messages as stdio streams whose writes become frames on
 * fd 1, the only descriptor its filter lets it write.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helper/broker/pgpk_broker.h"
#include "helper/openpgp/openpgp.h"
#include "helper/parser/pgpk_parser.h"

static int pgpk_reply_frame(int fd, char kind, const void *payload, size_t len)
{
	uint8_t hdr[PGPK_REPLY_HDR] = { (uint8_t)kind, (uint8_t)(len >> 24),
					(uint8_t)(len >> 16),
					(uint8_t)(len >> 8), (uint8_t)len };

	if (pgpk_write_all(fd, hdr, sizeof(hdr)))
		return -EIO;
	return len ? pgpk_write_all(fd, payload, len) : 0;
}

struct pgpk_reply_stream {
	struct pgpk_reply *r;
	char kind;
};

static struct pgpk_reply_stream pgpk_out_cookie, pgpk_err_cookie;

static ssize_t pgpk_reply_stream_write(void *cookie, const char *buf,
				       size_t size)
{
	struct pgpk_reply_stream *s = cookie;
	size_t max = s->kind == PGPK_REPLY_OUT ? PGPK_REPLY_MAX_OUT :
						 PGPK_REPLY_MAX_ERR;

	if (s->kind == PGPK_REPLY_ERR && fflush(s->r->out))
		return -1;
	if (size > max)
		size = max;
	return pgpk_reply_frame(s->r->fd, s->kind, buf, size) ? -1 :
								(ssize_t)size;
}

static FILE *pgpk_reply_stream(struct pgpk_reply_stream *s,
			       struct pgpk_reply *r, char kind, int mode)
{
	cookie_io_functions_t io = { .write = pgpk_reply_stream_write };
	FILE *f;

	s->r = r;
	s->kind = kind;
	f = fopencookie(s, "w", io);
	if (f && setvbuf(f, NULL, mode, 64u << 10)) {
		fclose(f);
		return NULL;
	}
	return f;
}

int pgpk_reply_open(struct pgpk_reply *r, int fd)
{
	r->fd = fd;
	r->out = pgpk_reply_stream(&pgpk_out_cookie, r, PGPK_REPLY_OUT, _IOFBF);
	/* Messages a line at a time, after the output before them. */
	r->err = pgpk_reply_stream(&pgpk_err_cookie, r, PGPK_REPLY_ERR, _IOLBF);
	return r->out && r->err ? 0 : -ENOMEM;
}

int pgpk_reply_blob(struct pgpk_reply *r, const void *blob, size_t len)
{
	if (len > PGPK_REPLY_MAX_BLOB)
		return -EMSGSIZE;
	if (fflush(r->out) || fflush(r->err))
		return -EIO;
	return pgpk_reply_frame(r->fd, PGPK_REPLY_BLOB, blob, len);
}

int pgpk_reply_end(struct pgpk_reply *r, int status)
{
	uint8_t st = (uint8_t)status;

	if (fflush(r->out) || fflush(r->err))
		return -EIO;
	return pgpk_reply_frame(r->fd, PGPK_REPLY_EXIT, &st, 1);
}

int pgpk_parser_threads(unsigned int n)
{
	return n > 1 ? pgpk_workers_start(n) : 0;
}
