// SPDX-License-Identifier: GPL-2.0
/*
 * The module's only contact with raw OpenPGP bytes.
 *
 * Nothing here interprets OpenPGP.  ASCII armor (RFC 9580 6.2) is removed
 * so that octets can be compared; the binding checks then compare what the
 * kernel rebuilt from the helper's answer with the submitted octets at the
 * offset the helper named.  The dearmored octets are never parsed, only
 * compared, so a lenient dearmor can cause a refusal, never an acceptance.
 * Every loop is bounded by the input length.
 *
 * In user space (tests/kernel/) the few kernel helpers used here come
 * from a header given with -include.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#ifdef __KERNEL__
#include <linux/base64.h>
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/string.h>
#include "pgpk_compat.h"
#else
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#endif
#include "pgpk_armor.h"

#define PGPK_ARMOR_BEGIN	"-----BEGIN PGP "
#define PGPK_ARMOR_CLEARTEXT	"-----BEGIN PGP SIGNED MESSAGE-----"
#define PGPK_ARMOR_SIGNATURE	"\n-----BEGIN PGP SIGNATURE-----"

static const u8 *pgpk_skip_space(const u8 *p, const u8 *end)
{
	while (p < end && isspace(*p))
		p++;
	return p;
}

static const u8 *pgpk_next_line(const u8 *p, const u8 *end)
{
	const u8 *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

static bool pgpk_starts(const u8 *p, const u8 *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/*
 * RFC 9580 4.2: the first octet of every packet has bit 7 set;
 * RFC 9580 6.2: armor starts with "-----BEGIN PGP ".
 */
bool pgpk_is_openpgp(const u8 *data, size_t len)
{
	const u8 *end = data + len;

	if (len && (data[0] & 0x80))
		return true;
	return pgpk_starts(pgpk_skip_space(data, end), end, PGPK_ARMOR_BEGIN);
}

static const u8 *pgpk_find(const u8 *p, const u8 *end, const void *s,
			   size_t n)
{
	for (; (size_t)(end - p) >= n; p++)
		if (!memcmp(p, s, n))
			return p;
	return NULL;
}

/*
 * RFC 9580 6.2: armor header line, armor headers up to an empty line, then
 * base64 lines up to the optional "=" checksum line or the armor tail.
 * RFC 9580 7: in a cleartext signed message the armored signature follows
 * the text, on a line of its own (dash escaping keeps it unique).
 */
static int pgpk_dearmor(struct pgpk_input *in)
{
	const u8 *end = in->raw + in->raw_len;
	const u8 *p = pgpk_skip_space(in->raw, end);
	const u8 *eol;
	size_t n = 0;
	char *b64;
	int ret;

	if (pgpk_starts(p, end, PGPK_ARMOR_CLEARTEXT)) {
		p = pgpk_find(p, end, PGPK_ARMOR_SIGNATURE,
			      strlen(PGPK_ARMOR_SIGNATURE));
		if (!p)
			goto error_format;
		p++;
	}
	for (p = pgpk_next_line(p, end); p < end; p = eol) {
		eol = pgpk_next_line(p, end);
		if (pgpk_skip_space(p, eol) == eol)
			break;
	}
	if (p == end)
		goto error_format;

	b64 = kvmalloc(end - p, GFP_KERNEL);
	if (!b64)
		return -ENOMEM;
	for (p = pgpk_next_line(p, end); p < end && *p != '=' && *p != '-';
	     p = eol)
		for (eol = pgpk_next_line(p, end); p < eol; p++)
			if (!isspace(*p))
				b64[n++] = *p;
	ret = -EBADMSG;
	if (p == end || n > INT_MAX)
		goto error_free_b64;
	ret = -ENOMEM;
	in->buf = kvmalloc(n / 4 * 3 + 3, GFP_KERNEL);
	if (!in->buf)
		goto error_free_b64;
	ret = pgpk_base64_decode(b64, n, in->buf);
	kvfree(b64);
	if (ret <= 0) {
		pgpk_input_free(in);
		goto error_format;
	}
	in->bin = in->buf;
	in->bin_len = ret;
	return 0;

error_free_b64:
	kvfree(b64);
	if (ret != -EBADMSG)
		return ret;
error_format:
	pr_warn_ratelimited("ASCII armor without a well-formed base64 body\n");
	return -EBADMSG;
}

/* On failure nothing is left to free. */
int pgpk_input_init(struct pgpk_input *in, const u8 *data, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->raw = data;
	in->raw_len = len;
	in->bin = data;
	in->bin_len = len;
	return data[0] & 0x80 ? 0 : pgpk_dearmor(in);
}

void pgpk_input_free(struct pgpk_input *in)
{
	kvfree(in->buf);
	in->buf = NULL;
}

/*
 * RFC 9580 4.2: the headers that can announce a @tag packet of @len
 * octets: OpenPGP format with 1, 2 or 5 length octets (4.2.1), legacy
 * format with 1, 2 or 4 (4.2.2).  Key and user ID packets never use
 * partial lengths (4.2.1.4).  Writes form @form to @h, returns its size.
 */
static unsigned int pgpk_header(u8 *h, unsigned int form, u8 tag, u32 len)
{
	h[0] = form < 3 ? 0xc0 | tag : 0x80 | tag << 2 | (form - 3);
	switch (form) {
	case 0:
		h[1] = len;
		return len < 192 ? 2 : 0;
	case 1:
		h[1] = ((len - 192) >> 8) + 192;
		h[2] = len - 192;
		return len >= 192 && len < 8384 ? 3 : 0;
	case 2:
		h[1] = 0xff;
		put_unaligned_be32(len, h + 2);
		return 6;
	case 3:
		h[1] = len;
		return len < 0x100 ? 2 : 0;
	case 4:
		put_unaligned_be16(len, h + 1);
		return len < 0x10000 ? 3 : 0;
	default:
		put_unaligned_be32(len, h + 1);
		return 5;
	}
}

/**
 * pgpk_bind_packet - check that the submitted bytes hold a packet
 * @in: the submitted input
 * @offset: where the helper said the packet body starts
 * @tag: the packet tag it must have
 * @body: the body the kernel rebuilt
 * @len: its length
 * @what: its name, for the log
 *
 * Return: 0, or -EKEYREJECTED with a log line saying which check failed.
 */
int pgpk_bind_packet(const struct pgpk_input *in, u32 offset, u8 tag,
		     const u8 *body, size_t len, const char *what)
{
	unsigned int form, n;
	u8 h[6];

	if (offset > in->bin_len || len > in->bin_len - offset) {
		pr_warn_ratelimited("binding: %s at offset %u runs past the %zu-octet input\n",
				    what, offset, in->bin_len);
		return -EKEYREJECTED;
	}
	if (memcmp(in->bin + offset, body, len)) {
		pr_warn_ratelimited("binding: %s at offset %u differs from the submitted bytes\n",
				    what, offset);
		return -EKEYREJECTED;
	}
	for (form = 0; form < 6; form++) {
		n = pgpk_header(h, form, tag, len);
		if (n && n <= offset && !memcmp(in->bin + offset - n, h, n))
			return 0;
	}
	pr_warn_ratelimited("binding: no tag %u header for %zu octets before %s at offset %u\n",
			    tag, len, what, offset);
	return -EKEYREJECTED;
}

/* Whether @needle occurs in the (dearmored) submitted bytes. */
bool pgpk_input_contains(const struct pgpk_input *in, const u8 *needle,
			 size_t len)
{
	return len && pgpk_find(in->bin, in->bin + in->bin_len, needle, len);
}
