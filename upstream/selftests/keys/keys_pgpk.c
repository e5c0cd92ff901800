// SPDX-License-Identifier: GPL-2.0
/*
 * OpenPGP keys in canonical form (Documentation/crypto/pgpk.rst):
 * add_key(2) of canonical keys and signatures, the IDs the kernel
 * computes, restricted keyrings, and the refusals with their errno.
 * The blobs are made by gen-blobs.py (keys_pgpk_blobs.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#include "../kselftest_harness.h"
#include "keys_pgpk_blobs.h"

static int add_key(const char *type, const char *desc, const void *payload,
		   size_t len, int ring)
{
	return syscall(__NR_add_key, type, desc, payload, len, ring);
}

static long keyctl(int cmd, unsigned long a2, unsigned long a3,
		   unsigned long a4, unsigned long a5)
{
	return syscall(__NR_keyctl, cmd, a2, a3, a4, a5);
}

#define ADD(type, blob, ring) \
	add_key(type, NULL, blob, sizeof(blob), ring)

FIXTURE(pgpk) {
	int session;
};

/*
 * A session keyring of the test's own; the parser must be there, with its
 * test key type, which refuses "x" (EBADMSG); an unknown type is ENODEV.
 */
FIXTURE_SETUP(pgpk)
{
	if (add_key("pgpk_test", "probe", "x", 1, KEY_SPEC_SESSION_KEYRING) < 0 &&
	    errno == ENODEV) {
		if (system("modprobe pgpk >/dev/null 2>&1") ||
		    (add_key("pgpk_test", "probe", "x", 1,
			     KEY_SPEC_SESSION_KEYRING) < 0 && errno == ENODEV))
			SKIP(return, "no OPENPGP_KEY_PARSER with OPENPGP_TEST_KEY");
	}
	self->session = keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0);
	ASSERT_GT(self->session, 0);
}

FIXTURE_TEARDOWN(pgpk)
{
}

/* The description and IDs are computed from the rebuilt key packet. */
TEST_F(pgpk, canonical_key)
{
	char desc[256], want[80], id[64];
	int key, found;
	long n;

	key = ADD("asymmetric", pgpk_ca, self->session);
	ASSERT_GT(key, 0) TH_LOG("add_key: %s", strerror(errno));
	n = keyctl(KEYCTL_DESCRIBE, key, (unsigned long)desc, sizeof(desc), 0);
	ASSERT_GT(n, 0);
	/* the certified user ID without comment, the key ID's last 8 digits */
	snprintf(want, sizeof(want), ";Test CA <ca@example.org> %s",
		 pgpk_ca_keyid + 8);
	EXPECT_NE(NULL, strstr(desc, want)) TH_LOG("description %s", desc);
	snprintf(id, sizeof(id), "id:%s", pgpk_ca_keyid);
	found = keyctl(KEYCTL_SEARCH, self->session, (unsigned long)"asymmetric",
		       (unsigned long)id, 0);
	EXPECT_EQ(key, found) TH_LOG("search %s: %s", id, strerror(errno));
}

TEST_F(pgpk, refusals)
{
	EXPECT_EQ(-1, ADD("asymmetric", pgpk_trailing, self->session));
	EXPECT_EQ(EBADMSG, errno);
	/* the policy floor: RSA below 2048 bits */
	EXPECT_EQ(-1, ADD("asymmetric", pgpk_weak, self->session));
	EXPECT_EQ(EKEYREJECTED, errno);
	/* a signature where a key is expected */
	EXPECT_EQ(-1, ADD("asymmetric", pgpk_sig_user, self->session));
	EXPECT_EQ(EBADMSG, errno);
}

/* pgpk_test verifies against the session keyring's OpenPGP keys. */
TEST_F(pgpk, signatures)
{
	int sig;
	char buf[256];
	long n;

	/* no issuer key yet */
	EXPECT_EQ(-1, add_key("pgpk_test", "t", pgpk_sig_user,
			      sizeof(pgpk_sig_user), self->session));
	EXPECT_EQ(ENOKEY, errno);
	ASSERT_GT(ADD("asymmetric", pgpk_user, self->session), 0);
	sig = add_key("pgpk_test", "t", pgpk_sig_user, sizeof(pgpk_sig_user),
		      self->session);
	ASSERT_GT(sig, 0) TH_LOG("pgpk_test: %s", strerror(errno));
	n = keyctl(KEYCTL_READ, sig, (unsigned long)buf, sizeof(buf), 0);
	ASSERT_EQ(strlen(pgpk_content), n);
	EXPECT_EQ(0, memcmp(buf, pgpk_content, n));
	EXPECT_EQ(-1, add_key("pgpk_test", "t", pgpk_sig_tampered,
			      sizeof(pgpk_sig_tampered), self->session));
	EXPECT_EQ(EKEYREJECTED, errno);
	/* a good signature whose issuer is not in the keyring */
	EXPECT_EQ(-1, add_key("pgpk_test", "t", pgpk_sig_other,
			      sizeof(pgpk_sig_other), self->session));
	EXPECT_EQ(ENOKEY, errno);
}

/* A keyring that takes only keys certified by the CA. */
TEST_F(pgpk, restricted_keyring)
{
	int ca, ring;
	char restriction[64];

	ca = ADD("asymmetric", pgpk_ca, self->session);
	ASSERT_GT(ca, 0);
	ring = add_key("keyring", "pgpk-restricted", NULL, 0, self->session);
	ASSERT_GT(ring, 0);
	snprintf(restriction, sizeof(restriction), "key_or_keyring:%d", ca);
	ASSERT_EQ(0, keyctl(KEYCTL_RESTRICT_KEYRING, ring,
			    (unsigned long)"asymmetric",
			    (unsigned long)restriction, 0));
	EXPECT_GT(ADD("asymmetric", pgpk_user, ring), 0)
		TH_LOG("a key certified by the CA: %s", strerror(errno));
	EXPECT_EQ(-1, ADD("asymmetric", pgpk_other, ring));
	EXPECT_EQ(ENOKEY, errno);
}

/* The upcall's key type, if built, is the parser's own. */
TEST_F(pgpk, upcall_type_private)
{
	if (add_key("pgpk", "key:0", "x", 1, self->session) < 0 &&
	    errno == ENODEV)
		SKIP(return, "no upcall (CONFIG_OPENPGP_KEY_UPCALL)");
	EXPECT_EQ(-1, add_key("pgpk", "key:0", "x", 1, self->session));
	EXPECT_EQ(EPERM, errno);
	/* with callout data: without, request_key() only searches */
	EXPECT_EQ(-1, syscall(__NR_request_key, "pgpk",
			      "key:00000000000000000000000000000000", "x",
			      self->session));
	EXPECT_EQ(EPERM, errno);
}

TEST_HARNESS_MAIN
