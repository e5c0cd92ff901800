/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The field numbers of proto/pgpk.proto, for user-space code that reads
 * what the kernel's strict decoder (kernel/pgpk_canon.c) decoded: bit n of
 * a decoded message's .present is its field n, tested with PGPK_HAS().
 * kernel/pgpk_canon.h defines the few the module itself tests
 * (PGPK_SIG_SALT, PGPK_KEY_PRIMARY, PGPK_KEY_SOFT_REVOKED,
 * PGPK_KEY_SELF_SIGNATURE, PGPK_KEY_FIRST_BINDING, PGPK_CANON_KEY,
 * _SIGNATURE, _CONTENT); the others are here.
 */
#ifndef PGPK_FIELDS_H
#define PGPK_FIELDS_H

#include "kernel/pgpk_canon.h"

/* Whether a blob starts with the canonical magic (the decoder's first test). */
#define pgpk_canon_is_canonical(blob, len) \
	(pgpk_canon_form(blob, len) == PGPK_FORM_CANONICAL)

enum pgpk_material_field {
	PGPK_MAT_VERSION = 1,
	PGPK_MAT_CREATED = 2,
	PGPK_MAT_ALGORITHM = 3,
	PGPK_MAT_RSA_N = 4,
	PGPK_MAT_RSA_E = 5,
};

enum pgpk_sig_field {
	PGPK_SIG_VERSION = 1,
	PGPK_SIG_TYPE = 2,
	PGPK_SIG_PUBKEY_ALGORITHM = 3,
	PGPK_SIG_HASH_ALGORITHM = 4,
	PGPK_SIG_CREATED = 5,
	/* 6 was expires: refused */
	PGPK_SIG_HASHED_AREA = 7,
	/* PGPK_SIG_SALT = 8: kernel/pgpk_canon.h */
	PGPK_SIG_QUICK_CHECK = 9,
	PGPK_SIG_RSA_S = 10,
	PGPK_SIG_ISSUER_KEY_ID = 11,
	PGPK_SIG_ISSUER_FINGERPRINT = 12,
	PGPK_SIG_RSA_S_OFFSET = 13,
};

enum pgpk_key_field {
	PGPK_KEY_MATERIAL = 1,
	PGPK_KEY_PACKET_OFFSET = 2,
	PGPK_KEY_SUBKEY = 3,
	PGPK_KEY_USER_ID = 4,
	PGPK_KEY_USER_ID_OFFSET = 5,
	/* 6 was expires, 7 key_flags: refused */
	/* PGPK_KEY_PRIMARY = 8: kernel */
	/* 9 was primary_offset: refused */
	PGPK_KEY_CERTIFICATION = 10,
	/* 11 was third_party, 12 bound: refused */
	/* PGPK_KEY_SOFT_REVOKED = 13, _SELF_SIGNATURE = 14,
	 * _FIRST_BINDING = 15: kernel */
};

enum pgpk_canon_field {
	/* PGPK_CANON_KEY = 1, _SIGNATURE = 2, _CONTENT = 3: kernel */
	PGPK_CANON_MORE_SIGNATURES = 4,
};

/* The IMA mark's notation (kernel/pgpk_canon.h: PGPK_IMA_MARK_INIT). */
#define PGPK_IMA_NOTATION_NAME "ima@pgpk"
#define PGPK_IMA_NOTATION_VALUE "file-signatures"

#endif /* PGPK_FIELDS_H */
