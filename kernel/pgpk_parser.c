// SPDX-License-Identifier: GPL-2.0
/*
 * Asymmetric key parser "pgpk".
 *
 *   canonical blob  -> strict decode -> pgpk_key_load()       (no upcall)
 *   OpenPGP bytes   -> upcall -> strict decode -> bind -> pgpk_key_load()
 *   anything else   -> -EBADMSG (another parser's format)
 *
 * A caller-given description of 16, 40 or 64 hex digits selects a key by
 * key ID or fingerprint: a canonical key must be that key, and for
 * OpenPGP bytes the helper is asked for it.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/key-type.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <keys/asymmetric-parser.h>
#include "pgpk.h"

static int pgpk_bind_material(const struct pgpk_input *in,
			      const struct pgpk_key_material *m, u32 offset,
			      u8 tag, const char *what)
{
	size_t len;
	u8 *body;
	int ret;

	ret = pgpk_key_body(m, &body, &len);
	if (ret)
		return ret;
	ret = pgpk_bind_packet(in, offset, tag, body, len, what);
	kfree(body);
	return ret;
}

static int pgpk_bind_sig(const struct pgpk_input *in,
			 const struct pgpk_sig *sig)
{
	if (pgpk_input_contains(in, sig->rsa_s.data, sig->rsa_s.len))
		return 0;
	pr_warn_ratelimited("binding: certification value not in the submitted bytes\n");
	return -EKEYREJECTED;
}

/*
 * Trust rule 2: the answer must describe the submitted bytes.  Each packet
 * body the answer implies is rebuilt and must sit, with a header of the
 * right tag, at the offset the helper named.  The RSA values of the
 * certification and of every third-party candidate must occur in them
 * too (RFC 9580 5.2.3.1: stored verbatim), so that asym_auth is one of
 * the submitted signatures, not one from elsewhere.  An unselected answer
 * must be a primary key.
 */
static int pgpk_bind_key(const struct pgpk_input *in, const struct pgpk_key *k,
			 bool selected)
{
	struct pgpk_sig sig;
	u32 pos = 0;
	int ret;

	/*
	 * A missing offset is 0, where no packet body can start (it follows
	 * its header): pgpk_bind_packet() refuses it.  The decoder made sure
	 * a subkey has its primary key.
	 */
	if (k->subkey && !selected) {
		pr_warn_ratelimited("binding: answer is a subkey, none was selected\n");
		return -EKEYREJECTED;
	}
	ret = pgpk_bind_material(in, &k->material, k->packet_offset,
				 k->subkey ? PGPK_TAG_PUBLIC_SUBKEY :
					     PGPK_TAG_PUBLIC_KEY,
				 k->subkey ? "subkey packet" : "key packet");
	if (!ret && PGPK_HAS(k, PGPK_KEY_USER_ID))
		ret = pgpk_bind_packet(in, k->user_id_offset, PGPK_TAG_USER_ID,
				       k->user_id.data, k->user_id.len,
				       "user ID packet");
	if (!ret && k->subkey)
		ret = pgpk_bind_material(in, &k->primary, k->primary_offset,
					 PGPK_TAG_PUBLIC_KEY,
					 "primary key packet");
	if (!ret && PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
		ret = pgpk_bind_sig(in, &k->certification);
	while (!ret && !pgpk_canon_next(&k->third_party, &pos, &sig))
		ret = pgpk_bind_sig(in, &sig);
	return ret;
}

static int pgpk_parse_openpgp(struct key_preparsed_payload *prep,
			      const char *select)
{
	struct pgpk_answer ans;
	struct pgpk_input in;
	int ret;

	ret = pgpk_input_init(&in, prep->data, prep->datalen);
	if (ret)
		return ret;
	ret = pgpk_upcall("key", &in, select, &ans);
	if (ret)
		goto error_free_input;
	if (PGPK_HAS(&ans.canon, PGPK_CANON_KEY)) {
		ret = pgpk_bind_key(&in, &ans.canon.key, select);
	} else {
		pr_warn_ratelimited("helper answered a key request with a signature\n");
		ret = -EKEYREJECTED;
	}
	if (!ret)
		ret = pgpk_key_load(prep, &ans.canon.key, select);
	pgpk_answer_put(&ans);
error_free_input:
	pgpk_input_free(&in);
	return ret;
}

static int pgpk_parse_canonical(struct key_preparsed_payload *prep,
				const char *select)
{
	struct pgpk_canon_error err;
	struct pgpk_canon c;
	int ret;

	ret = pgpk_canon_decode(prep->data, prep->datalen, &c, &err);
	if (ret) {
		pr_warn_ratelimited("canonical key refused: %s at offset %u, field %u\n",
				    pgpk_canon_reason_str(err.reason), err.offset,
				    err.field);
		return ret;
	}
	if (!PGPK_HAS(&c, PGPK_CANON_KEY)) {
		pr_warn_ratelimited("canonical blob holds a signature, not a key\n");
		return -EBADMSG;
	}
	return pgpk_key_load(prep, &c.key, select);
}

static int pgpk_parse(struct key_preparsed_payload *prep)
{
	char buf[PGPK_FPR_MAX * 2 + 1];
	const char *select = NULL;

	if (pgpk_select_parse(prep->orig_description, buf, sizeof(buf)))
		select = buf;
	if (pgpk_canon_is_canonical(prep->data, prep->datalen))
		return pgpk_parse_canonical(prep, select);
	if (pgpk_is_openpgp(prep->data, prep->datalen))
		return pgpk_parse_openpgp(prep, select);
	return -EBADMSG;
}

static struct asymmetric_key_parser pgpk_key_parser = {
	.owner	= THIS_MODULE,
	.name	= "pgpk",
	.parse	= pgpk_parse,
};

int pgpk_parser_init(void)
{
	return register_asymmetric_key_parser(&pgpk_key_parser);
}

void pgpk_parser_exit(void)
{
	unregister_asymmetric_key_parser(&pgpk_key_parser);
}
