// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper ima-sign [--key KEYID|FPR] [--hash sha256|sha384|sha512]
 *                      [--print] FILE...
 * pgpk-helper ima-sign --new-key FPR
 *
 * A user tool, run by the key holder; nothing here runs as root on
 * someone else's input.  It signs files for IMA appraisal with a subkey
 * dedicated to IMA (kernel/pgpk_ima.h), through gpg-agent: the secret key
 * never leaves the agent.
 *
 *   gpg --list-secret-keys --with-colons   which subkeys, their keygrips
 *   gpg --export PRIMARY                   the certificate's bytes
 *   sandboxed parser (pgpk_broker_run)     canonical Key of each candidate;
 *                                          the OpenPGP bytes are parsed
 *                                          there and only there
 *   the IMA mark in the binding signature  else the key is refused
 *   gpg-agent (Assuan)                     SIGKEY keygrip, SETHASH, PKSIGN
 *   OpenSSL                                the value verified before use
 *   security.ima                           IMA v2 signature header + value
 *
 * The value is RSA PKCS#1 v1.5 over the file's digest, byte for byte what
 * `evmctl ima_sign --keyid <last 8 hex digits of the key ID>` makes with
 * the same key (tests/host/ima-sign.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "helper/commands.h"
#include "helper/pgpk_broker.h"
#include "helper/pgpk_canon_key.h"
#include "helper/pgpk_child.h"
#include "proto/pgpk_fields.h"

/* include/uapi/linux/hash_info.h and security/integrity/integrity.h */
#define PGPK_IMA_XATTR_DIGSIG 3 /* EVM_IMA_XATTR_DIGSIG */
#define PGPK_IMA_SIG_V2 2
#define PGPK_IMA_HDR_LEN 9 /* struct signature_v2_hdr, packed */
#define PGPK_GRIP_LEN 20
#define PGPK_MAX_SIG 1024 /* an 8192-bit RSA value */
#define PGPK_FPR_MAX 32 /* v6: SHA-256 */

struct pgpk_ima_hash {
	const char *name;
	int ima_algo; /* enum hash_algo (hash_info.h) */
	int gcry_algo; /* libgcrypt's number, for SETHASH */
	/* Not EVP_get_digestbyname(): the legacy name tables are never
	 * built (helper/main.c). */
	const EVP_MD *(*md)(void);
};

static const struct pgpk_ima_hash pgpk_ima_hashes[] = {
	{ "sha256", 4, 8, EVP_sha256 },
	{ "sha384", 5, 9, EVP_sha384 },
	{ "sha512", 6, 10, EVP_sha512 },
};

/* The key ima-sign signs with: a subkey dedicated to IMA. */
struct pgpk_ima_key {
	char fpr_hex[2 * PGPK_FPR_MAX + 1];
	uint8_t keyid[8];
	uint8_t grip[PGPK_GRIP_LEN];
	uint8_t *blob; /* its canonical Key, as the sandbox answered */
	size_t blob_len;
	struct pgpk_canon canon; /* points into blob */
};

/* ---- running gpg ---------------------------------------------------- */

/* argv's stdout, whole, in a malloc()ed NUL-terminated buffer. */
static int pgpk_run(const char *const argv[], char **out, size_t *out_len)
{
	size_t cap = 65536, used = 0;
	int fds[2], status;
	char *buf, *nb;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		dup2(fds[1], 1);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "pgpk-helper: ima-sign: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	buf = malloc(cap);
	while (buf) {
		if (cap - used < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fds[0], buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf)
		return -ENOMEM;
	buf[used] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		return -ECHILD;
	}
	*out = buf;
	if (out_len)
		*out_len = used;
	return 0;
}

/* Field @idx (1-based) of a gpg --with-colons line, copied to @out. */
static void pgpk_colon_field(const char *line, int idx, char *out, size_t size)
{
	size_t n = 0;

	while (--idx > 0 && (line = strchr(line, ':')))
		line++;
	if (line)
		while (line[n] && line[n] != ':' && line[n] != '\n' &&
		       n + 1 < size) {
			out[n] = line[n];
			n++;
		}
	out[n] = '\0';
}

/* ---- the sandboxed parser ------------------------------------------- */

/*
 * The canonical Key of subkey @fpr_hex in @cert, converted by the
 * sandboxed parser and re-validated by the broker (the upcall's whole
 * pipeline and default policy, as `pgpk-helper debug`).
 */
static int pgpk_ima_convert(const uint8_t *cert, size_t cert_len,
			    const char *fpr_hex, struct pgpk_ima_key *key,
			    char *why, size_t why_len)
{
	struct pgpk_broker_capture cap = { NULL, 0 };
	struct pgpk_policy policy;
	struct pgpk_broker broker = {
		.policy = &policy,
		.ops = &pgpk_broker_capture_ops,
		.ops_ctx = &cap,
		.child = pgpk_child_convert,
	};
	struct pgpk_canon_error err;
	struct pgpk_broker_result res;
	struct pgpk_request req;

	pgpk_policy_default(&policy);
	memset(&req, 0, sizeof(req));
	req.want = PGPK_WANT_KEY;
	snprintf(req.select, sizeof(req.select), "%s", fpr_hex);
	pgpk_broker_run(&broker, &req, cert, cert_len, &res);
	if (res.error || !cap.blob) {
		snprintf(why, why_len, "%s: %s", pgpk_errno_name(res.error),
			 res.reason);
		free(cap.blob);
		return res.error ? -res.error : -EBADMSG;
	}
	key->blob = cap.blob;
	key->blob_len = cap.len;
	if (pgpk_canon_decode(key->blob, key->blob_len, &key->canon, &err) ||
	    !PGPK_HAS(&key->canon, PGPK_CANON_KEY)) {
		snprintf(why, why_len, "answer is not a key");
		return -EBADMSG;
	}
	return 0;
}

/*
 * The test the kernel makes (pgpk_key.c, pgpk_sig.c): the mark is one
 * whole subpacket of the binding signature's hashed area, found by the
 * kernel's own walk of its framing (pgpk_hashed_walk()).
 */
static bool pgpk_ima_marked(const struct pgpk_key *k)
{
	const struct pgpk_bytes *area = &k->certification.hashed_area;
	struct pgpk_hashed h;

	return k->subkey && PGPK_HAS(k, PGPK_KEY_CERTIFICATION) &&
	       k->certification.type == 0x18 &&
	       pgpk_hashed_walk(area->data, area->len, &h) && h.marked;
}

/*
 * Key ID (RFC 9580 5.5.4, as the kernel computes it) and keygrip
 * (libgcrypt: SHA-1 of n as an unsigned MPI with a 0x00 before a set top
 * bit) from the canonical key.
 */
static int pgpk_ima_identify(struct pgpk_ima_key *key)
{
	const struct pgpk_key_material *m = &key->canon.key.material;
	uint8_t fpr[PGPK_CANON_FPR_MAX], zero = 0;
	unsigned int grip_len = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok;

	ok = ctx && pgpk_canon_key_ids(m, fpr, key->keyid) &&
	     EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) &&
	     ((m->rsa_n.data[0] & 0x80) == 0 ||
	      EVP_DigestUpdate(ctx, &zero, 1)) &&
	     EVP_DigestUpdate(ctx, m->rsa_n.data, m->rsa_n.len) &&
	     EVP_DigestFinal_ex(ctx, key->grip, &grip_len);
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : -ENOMEM;
}

static void pgpk_hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02X", p[i]);
}

/* ---- which key ------------------------------------------------------ */

static bool pgpk_ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return b && a >= b && !strcasecmp(s + a - b, tail);
}

/* Does @want name one of the subkeys (ssb) of gpg's listing @list? */
static bool pgpk_names_subkey(const char *list, const char *want)
{
	char rec[8], fpr[2 * PGPK_FPR_MAX + 1];
	const char *line;
	bool sub = false;

	for (line = list; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		pgpk_colon_field(line, 1, rec, sizeof(rec));
		if (!strcmp(rec, "sec") || !strcmp(rec, "ssb")) {
			sub = rec[1] == 's';
		} else if (!strcmp(rec, "fpr") && sub) {
			pgpk_colon_field(line, 10, fpr, sizeof(fpr));
			if (pgpk_ends_with(fpr, want))
				return true;
			sub = false;
		}
	}
	return false;
}

struct pgpk_ima_found {
	struct pgpk_ima_key key;
	unsigned int count; /* marked subkeys seen */
};

/*
 * Every RSA subkey with a secret part in the user's GnuPG home that
 * @want names (its fingerprint or key ID, or its certificate's), converted
 * in the sandbox; the marked ones are counted, the last one is kept.
 */
static int pgpk_ima_find(const char *want, bool verbose,
			 struct pgpk_ima_found *found)
{
	const char *list_argv[] = { "gpg",
				    "--batch",
				    "--with-colons",
				    "--with-keygrip",
				    "--fixed-list-mode",
				    "--list-secret-keys",
				    "--",
				    want,
				    NULL };
	const char *export_argv[] = { "gpg", "--batch", "--export",
				      "--",  NULL,	NULL };
	char rec[8], algo[8], fpr[2 * PGPK_FPR_MAX + 1], primary[sizeof(fpr)];
	char grip[2 * PGPK_GRIP_LEN + 1], gripx[sizeof(grip)], why[512];
	char *list, *line, *cert = NULL, *sub_fpr = NULL;
	size_t cert_len = 0, wlen = want ? strlen(want) : 0;
	bool in_sub = false, named, sub_named = false;
	struct pgpk_ima_key key;
	int ret;

	if (want && want[0] == '0' && (want[1] == 'x' || want[1] == 'X')) {
		want += 2;
		wlen -= 2;
	}
	if (!want)
		list_argv[6] = NULL;
	ret = pgpk_run(list_argv, &list, NULL);
	if (!ret && (wlen == 16 || wlen == 40 || wlen == 64))
		sub_named = pgpk_names_subkey(list, want);
	if (ret) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: gpg --list-secret-keys %s failed: no such secret key?\n",
			want ? want : "");
		return -ENOKEY;
	}
	for (line = list; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		pgpk_colon_field(line, 1, rec, sizeof(rec));
		if (!strcmp(rec, "sec")) {
			in_sub = false;
			primary[0] = '\0';
			free(cert);
			cert = NULL;
		} else if (!strcmp(rec, "ssb")) {
			in_sub = true;
			pgpk_colon_field(line, 4, algo, sizeof(algo));
			sub_fpr = NULL;
		} else if (!strcmp(rec, "fpr") && !primary[0] && !in_sub) {
			pgpk_colon_field(line, 10, primary, sizeof(primary));
		} else if (!strcmp(rec, "fpr") && in_sub) {
			pgpk_colon_field(line, 10, fpr, sizeof(fpr));
			sub_fpr = fpr;
		} else if (!strcmp(rec, "grp") && in_sub && sub_fpr) {
			pgpk_colon_field(line, 10, grip, sizeof(grip));
			in_sub = false;
			/* A subkey named exactly is the only candidate. */
			named = sub_named && pgpk_ends_with(sub_fpr, want);
			if (sub_named && !named)
				continue;
			if (strcmp(algo, "1") && strcmp(algo, "3")) {
				if (named)
					fprintf(stderr,
						"pgpk-helper: ima-sign: %s is not an RSA key (algorithm %s)\n",
						sub_fpr, algo);
				continue;
			}
			if (!cert) {
				export_argv[4] = primary;
				ret = pgpk_run(export_argv, &cert, &cert_len);
				if (ret) {
					fprintf(stderr,
						"pgpk-helper: ima-sign: gpg --export %s failed\n",
						primary);
					cert = NULL;
					continue;
				}
			}
			memset(&key, 0, sizeof(key));
			ret = pgpk_ima_convert((uint8_t *)cert, cert_len,
					       sub_fpr, &key, why, sizeof(why));
			if (!ret && !pgpk_ima_marked(&key.canon.key)) {
				snprintf(
					why, sizeof(why),
					"its binding signature does not dedicate it to IMA (no %s=%s notation)",
					PGPK_IMA_NOTATION_NAME,
					PGPK_IMA_NOTATION_VALUE);
				ret = -EKEYREJECTED;
			}
			if (!ret)
				ret = pgpk_ima_identify(&key);
			pgpk_hex(key.grip, PGPK_GRIP_LEN, gripx);
			if (!ret && strcasecmp(gripx, grip)) {
				snprintf(why, sizeof(why),
					 "keygrip %s, gpg says %s", gripx,
					 grip);
				ret = -EKEYREJECTED;
			}
			if (ret) {
				if (named || verbose)
					fprintf(stderr,
						"pgpk-helper: ima-sign: subkey %s refused: %s\n",
						sub_fpr, why);
				free(key.blob);
				continue;
			}
			snprintf(key.fpr_hex, sizeof(key.fpr_hex), "%s",
				 sub_fpr);
			free(found->key.blob);
			found->key = key;
			found->count++;
		}
	}
	free(cert);
	free(list);
	return found->count ? 0 : -ENOKEY;
}

/* ---- gpg-agent ------------------------------------------------------ */

struct pgpk_agent {
	int fd;
	char line[2048]; /* Assuan lines are at most 1000 octets */
	size_t have;
	uint8_t *data; /* D lines of the last command, unescaped */
	size_t data_len;
	char err[256];
};

static int pgpk_agent_send(struct pgpk_agent *a, const char *cmd)
{
	size_t len = strlen(cmd), off = 0;
	ssize_t n;

	while (off <= len) {
		n = off < len ? write(a->fd, cmd + off, len - off) :
				write(a->fd, "\n", 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		off += (size_t)n;
	}
	return 0;
}

/* One line (without its LF) into a->line. */
static int pgpk_agent_line(struct pgpk_agent *a, size_t *len)
{
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(a->line, '\n', a->have);
		if (nl) {
			*len = (size_t)(nl - a->line);
			*nl = '\0';
			return 0;
		}
		if (a->have == sizeof(a->line))
			return -EBADMSG;
		n = read(a->fd, a->line + a->have, sizeof(a->line) - a->have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		a->have += (size_t)n;
	}
}

static void pgpk_agent_consume(struct pgpk_agent *a, size_t len)
{
	a->have -= len + 1;
	memmove(a->line, a->line + len + 1, a->have);
}

static int pgpk_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Send @cmd (NULL: only read the greeting) and read up to OK or ERR;
 * D lines are collected (percent-unescaped), S and comment lines
 * skipped, an INQUIRE answered with END.
 */
static int pgpk_agent_cmd(struct pgpk_agent *a, const char *cmd)
{
	size_t len, i;
	uint8_t *nd;
	int ret, hi, lo;

	free(a->data);
	a->data = NULL;
	a->data_len = 0;
	if (cmd && pgpk_agent_send(a, cmd))
		return -EIO;
	for (;;) {
		ret = pgpk_agent_line(a, &len);
		if (ret)
			return ret;
		if (!strncmp(a->line, "OK", 2) &&
		    (len == 2 || a->line[2] == ' ')) {
			pgpk_agent_consume(a, len);
			return 0;
		}
		if (!strncmp(a->line, "ERR ", 4)) {
			snprintf(a->err, sizeof(a->err), "%s", a->line + 4);
			pgpk_agent_consume(a, len);
			return -EKEYREJECTED;
		}
		if (!strncmp(a->line, "D ", 2)) {
			nd = realloc(a->data, a->data_len + len);
			if (!nd)
				return -ENOMEM;
			a->data = nd;
			for (i = 2; i < len; i++) {
				if (a->line[i] == '%' && i + 2 < len &&
				    (hi = pgpk_hexval(a->line[i + 1])) >= 0 &&
				    (lo = pgpk_hexval(a->line[i + 2])) >= 0) {
					a->data[a->data_len++] =
						(uint8_t)(hi << 4 | lo);
					i += 2;
				} else {
					a->data[a->data_len++] =
						(uint8_t)a->line[i];
				}
			}
		} else if (!strncmp(a->line, "INQUIRE ", 8)) {
			pgpk_agent_consume(a, len);
			if (pgpk_agent_send(a, "END"))
				return -EIO;
			continue;
		}
		pgpk_agent_consume(a, len);
	}
}

/* The agent gpg uses (gpgconf --list-dirs agent-socket), started. */
static int pgpk_agent_open(struct pgpk_agent *a)
{
	const char *sock_argv[] = { "gpgconf", "--list-dirs", "agent-socket",
				    NULL };
	const char *launch_argv[] = { "gpgconf", "--launch", "gpg-agent",
				      NULL };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char *path, *out = NULL, cmd[512];
	const char *env;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (pgpk_run(sock_argv, &path, NULL)) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: gpgconf --list-dirs agent-socket failed\n");
		return -ENOENT;
	}
	path[strcspn(path, "\n")] = '\0';
	if (!pgpk_run(launch_argv, &out, NULL))
		free(out);
	if (strlen(path) >= sizeof(sun.sun_path)) {
		free(path);
		return -ENAMETOOLONG;
	}
	strcpy(sun.sun_path, path);
	a->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (a->fd < 0 || connect(a->fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    pgpk_agent_cmd(a, NULL)) {
		fprintf(stderr, "pgpk-helper: ima-sign: gpg-agent at %s: %s\n",
			path, strerror(errno));
		free(path);
		return -ECONNREFUSED;
	}
	free(path);
	/* pinentry where gpg would put it: this terminal, this display */
	if (isatty(0) && ttyname(0)) {
		snprintf(cmd, sizeof(cmd), "OPTION ttyname=%s", ttyname(0));
		pgpk_agent_cmd(a, cmd);
		env = getenv("TERM");
		if (env) {
			snprintf(cmd, sizeof(cmd), "OPTION ttytype=%s", env);
			pgpk_agent_cmd(a, cmd);
		}
	}
	env = getenv("DISPLAY");
	if (env) {
		snprintf(cmd, sizeof(cmd), "OPTION display=%s", env);
		pgpk_agent_cmd(a, cmd);
	}
	return 0;
}

static void pgpk_agent_close(struct pgpk_agent *a)
{
	if (a->fd >= 0)
		close(a->fd);
	free(a->data);
}

/* "(7:sig-val(3:rsa(1:s<n>:<value>)))": the value (canonical S-exp). */
static int pgpk_sexp_rsa_s(const uint8_t *p, size_t len, const uint8_t **s,
			   size_t *s_len)
{
	static const char tok[] = "(3:rsa(1:s";
	const uint8_t *at = memmem(p, len, tok, sizeof(tok) - 1);
	size_t n = 0;

	if (!at)
		return -EBADMSG;
	at += sizeof(tok) - 1;
	while (at < p + len && *at >= '0' && *at <= '9' && n < 100000)
		n = n * 10 + (size_t)(*at++ - '0');
	if (at >= p + len || *at++ != ':' || !n || n > (size_t)(p + len - at))
		return -EBADMSG;
	*s = at;
	*s_len = n;
	return 0;
}

/* ---- signing -------------------------------------------------------- */

static EVP_PKEY *pgpk_ima_rsa(const struct pgpk_key_material *m)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	BIGNUM *n = BN_bin2bn(m->rsa_n.data, (int)m->rsa_n.len, NULL);
	BIGNUM *e = BN_bin2bn(m->rsa_e.data, (int)m->rsa_e.len, NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *pctx = NULL;
	EVP_PKEY *pkey = NULL;

	if (bld && n && e &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		params = OSSL_PARAM_BLD_to_param(bld);
	if (params)
		pctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (pctx && EVP_PKEY_fromdata_init(pctx) > 0 &&
	    EVP_PKEY_fromdata(pctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(pctx);
	OSSL_PARAM_free(params);
	BN_free(e);
	BN_free(n);
	OSSL_PARAM_BLD_free(bld);
	return pkey;
}

/* The file's digest, as IMA computes it: the hash of its contents. */
static int pgpk_ima_digest(const char *path, const EVP_MD *md, uint8_t *out,
			   unsigned int *out_len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t buf[65536];
	int ret = 0;
	ssize_t n;

	if (fd < 0 || !ctx || !EVP_DigestInit_ex(ctx, md, NULL)) {
		ret = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !EVP_DigestUpdate(ctx, buf, (size_t)n)) {
			ret = n < 0 ? -errno : -ENOMEM;
			goto out;
		}
	}
	if (!EVP_DigestFinal_ex(ctx, out, out_len))
		ret = -ENOMEM;
out:
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	return ret;
}

/*
 * One file: digest, PKSIGN, the value checked with the public key, the
 * IMA v2 header (security/integrity/integrity.h, signature_v2_hdr).
 */
static int pgpk_ima_sign_file(struct pgpk_agent *a,
			      const struct pgpk_ima_key *key, EVP_PKEY *pkey,
			      const struct pgpk_ima_hash *h, const char *path,
			      bool print)
{
	const EVP_MD *md = h->md();
	uint8_t digest[EVP_MAX_MD_SIZE], xattr[PGPK_IMA_HDR_LEN + PGPK_MAX_SIG];
	char cmd[64 + 2 * EVP_MAX_MD_SIZE], hex[2 * sizeof(xattr) + 1];
	size_t mod_len = key->canon.key.material.rsa_n.len, s_len;
	EVP_PKEY_CTX *vctx = NULL;
	unsigned int dlen = 0;
	const uint8_t *s;
	int ret;

	ret = md ? pgpk_ima_digest(path, md, digest, &dlen) : -ENOPKG;
	if (ret) {
		fprintf(stderr, "pgpk-helper: ima-sign: %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	snprintf(cmd, sizeof(cmd), "SIGKEY ");
	pgpk_hex(key->grip, PGPK_GRIP_LEN, cmd + 7);
	ret = pgpk_agent_cmd(a, cmd);
	if (!ret) {
		snprintf(cmd, sizeof(cmd), "SETHASH %d ", h->gcry_algo);
		pgpk_hex(digest, dlen, cmd + strlen(cmd));
		ret = pgpk_agent_cmd(a, cmd);
	}
	if (!ret)
		ret = pgpk_agent_cmd(a, "PKSIGN");
	if (ret) {
		fprintf(stderr, "pgpk-helper: ima-sign: %s: gpg-agent: %s\n",
			path, ret == -EKEYREJECTED ? a->err : strerror(-ret));
		return ret;
	}
	ret = pgpk_sexp_rsa_s(a->data, a->data_len, &s, &s_len);
	/* RFC 8017 8.2.1: as long as the modulus; the agent may drop zeros */
	if (ret || s_len > mod_len || mod_len > PGPK_MAX_SIG) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: %s: gpg-agent answered no RSA signature\n",
			path);
		return -EBADMSG;
	}
	memset(xattr, 0, sizeof(xattr));
	xattr[0] = PGPK_IMA_XATTR_DIGSIG;
	xattr[1] = PGPK_IMA_SIG_V2;
	xattr[2] = (uint8_t)h->ima_algo;
	memcpy(xattr + 3, key->keyid + 4, 4); /* IMA's 32-bit key ID */
	xattr[7] = (uint8_t)(mod_len >> 8);
	xattr[8] = (uint8_t)mod_len;
	memcpy(xattr + PGPK_IMA_HDR_LEN + mod_len - s_len, s, s_len);

	/* Never write a value the key does not verify. */
	vctx = EVP_PKEY_CTX_new(pkey, NULL);
	if (!vctx || EVP_PKEY_verify_init(vctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(vctx, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(vctx, md) <= 0 ||
	    EVP_PKEY_verify(vctx, xattr + PGPK_IMA_HDR_LEN, mod_len, digest,
			    dlen) != 1) {
		EVP_PKEY_CTX_free(vctx);
		fprintf(stderr,
			"pgpk-helper: ima-sign: %s: gpg-agent's signature does not verify with subkey %s\n",
			path, key->fpr_hex);
		return -EKEYREJECTED;
	}
	EVP_PKEY_CTX_free(vctx);
	if (print) {
		pgpk_hex(xattr, PGPK_IMA_HDR_LEN + mod_len, hex);
		for (ret = 0; hex[ret]; ret++)
			hex[ret] = (char)(hex[ret] >= 'A' ? hex[ret] + 32 :
							    hex[ret]);
		printf("%s  %s\n", hex, path);
		return 0;
	}
	if (setxattr(path, "security.ima", xattr, PGPK_IMA_HDR_LEN + mod_len,
		     0)) {
		ret = -errno;
		fprintf(stderr,
			"pgpk-helper: ima-sign: %s: setting security.ima: %s%s\n",
			path, strerror(errno),
			errno == EPERM ?
				" (needs CAP_SYS_ADMIN; --print prints it)" :
				"");
		return ret;
	}
	return 0;
}

/* ---- --new-key ------------------------------------------------------ */

/*
 * Fingerprints of the ssb records of gpg's listing of @fpr, one a line;
 * *@certs: how many certificates (sec records) it names, *@rsa: whether
 * the (last) primary key is RSA.
 */
static char *pgpk_ima_subkeys(const char *fpr, int *certs, bool *rsa)
{
	const char *argv[] = { "gpg",
			       "--batch",
			       "--with-colons",
			       "--fixed-list-mode",
			       "--list-secret-keys",
			       "--",
			       fpr,
			       NULL };
	char *list, *line, *out, rec[8], f[2 * PGPK_FPR_MAX + 1];
	bool sub = false;
	size_t used = 0;

	if (pgpk_run(argv, &list, NULL))
		return NULL;
	out = calloc(1, strlen(list) + 1);
	for (line = list; out && line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		pgpk_colon_field(line, 1, rec, sizeof(rec));
		if (!strcmp(rec, "ssb") || !strcmp(rec, "sec")) {
			sub = rec[1] == 's';
		} else if (!strcmp(rec, "fpr") && sub) {
			pgpk_colon_field(line, 10, f, sizeof(f));
			used += (size_t)sprintf(out + used, "%s\n", f);
			sub = false;
		}
		if (!strcmp(rec, "sec")) {
			pgpk_colon_field(line, 4, f, sizeof(f));
			*rsa = !strcmp(f, "1") || !strcmp(f, "3");
			(*certs)++;
		}
	}
	free(list);
	return out;
}

static int pgpk_ima_new_key(const char *fpr, const char *algo)
{
	char notation[] = PGPK_IMA_NOTATION_NAME "=" PGPK_IMA_NOTATION_VALUE;
	const char *argv[] = { "gpg",
			       "--batch",
			       "--cert-notation",
			       notation,
			       "--quick-add-key",
			       fpr,
			       algo,
			       "auth",
			       "never",
			       NULL };
	struct pgpk_ima_found found = { .count = 0 };
	char *before, *after, *line, *end, *out = NULL;
	int ret, certs = 0;
	bool rsa = false;

	before = pgpk_ima_subkeys(fpr, &certs, &rsa);
	if (before && certs != 1)
		fprintf(stderr,
			"pgpk-helper: ima-sign: --new-key: %s names %d certificates: give one fingerprint\n",
			fpr, certs);
	else if (before && !rsa)
		fprintf(stderr,
			"pgpk-helper: ima-sign: --new-key: %s: the primary key is not RSA (the kernel verifies the IMA subkey's binding signature with it)\n",
			fpr);
	if (before && (certs != 1 || !rsa)) {
		free(before);
		return 2;
	}
	if (!before) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: --new-key: no secret key %s in gpg's keyring\n",
			fpr);
		return 2;
	}
	ret = pgpk_run(argv, &out, NULL);
	free(out);
	after = ret ? NULL : pgpk_ima_subkeys(fpr, &certs, &rsa);
	if (!after) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: --new-key: gpg --quick-add-key %s failed\n",
			fpr);
		free(before);
		return 2;
	}
	ret = 2;
	for (line = after; *line; line = end + 1) {
		end = strchr(line, '\n');
		*end = '\0';
		if (strstr(before, line))
			continue;
		/* The new subkey, as ima-sign will see it: marked, RSA. */
		if (!pgpk_ima_find(line, true, &found)) {
			printf("%s\n", line);
			ret = 0;
		}
		break;
	}
	if (ret)
		fprintf(stderr,
			"pgpk-helper: ima-sign: --new-key: no new subkey dedicated to IMA in %s\n",
			fpr);
	free(found.key.blob);
	free(before);
	free(after);
	return ret;
}

/* ---- the command ---------------------------------------------------- */

static void pgpk_ima_usage(void)
{
	fprintf(stderr,
		"usage: pgpk-helper ima-sign [--key KEYID|FPR] [--hash sha256|sha384|sha512] [--print] FILE...\n"
		"       pgpk-helper ima-sign --new-key FPR [--algo rsa2048|rsa3072|rsa4096]\n");
}

int pgpk_cmd_ima_sign(int argc, char **argv)
{
	const struct pgpk_ima_hash *h = &pgpk_ima_hashes[0];
	const char *want = NULL, *new_key = NULL, *algo = "rsa3072";
	struct pgpk_ima_found found = { .count = 0 };
	struct pgpk_agent agent;
	bool print = false;
	EVP_PKEY *pkey;
	int a, first, ret = 0;
	size_t i;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--key") && a + 1 < argc) {
			want = argv[++a];
		} else if (!strcmp(argv[a], "--new-key") && a + 1 < argc) {
			new_key = argv[++a];
		} else if (!strcmp(argv[a], "--algo") && a + 1 < argc) {
			algo = argv[++a];
		} else if (!strcmp(argv[a], "--print")) {
			print = true;
		} else if (!strcmp(argv[a], "--hash") && a + 1 < argc) {
			a++;
			for (i = 0; i < sizeof(pgpk_ima_hashes) /
						sizeof(pgpk_ima_hashes[0]);
			     i++)
				if (!strcmp(argv[a], pgpk_ima_hashes[i].name))
					break;
			if (i == sizeof(pgpk_ima_hashes) /
					 sizeof(pgpk_ima_hashes[0])) {
				fprintf(stderr,
					"pgpk-helper: ima-sign: --hash %s: sha256, sha384 or sha512\n",
					argv[a]);
				return 2;
			}
			h = &pgpk_ima_hashes[i];
		} else if (!strcmp(argv[a], "--")) {
			a++;
			break;
		} else {
			pgpk_ima_usage();
			return 2;
		}
	}
	first = a;
	if (new_key) {
		if (first != argc || want || print ||
		    (strcmp(algo, "rsa2048") && strcmp(algo, "rsa3072") &&
		     strcmp(algo, "rsa4096"))) {
			pgpk_ima_usage();
			return 2;
		}
		return pgpk_ima_new_key(new_key, algo);
	}
	if (first == argc) {
		pgpk_ima_usage();
		return 2;
	}
	if (pgpk_ima_find(want, want != NULL, &found)) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: no RSA subkey dedicated to IMA %s%s (make one: pgpk-helper ima-sign --new-key FPR)\n",
			want ? "in " : "among the secret keys",
			want ? want : "");
		return 2;
	}
	if (found.count > 1) {
		fprintf(stderr,
			"pgpk-helper: ima-sign: %u subkeys dedicated to IMA: choose one with --key SUBKEY-FPR\n",
			found.count);
		ret = 2;
		goto out_key;
	}
	pkey = pgpk_ima_rsa(&found.key.canon.key.material);
	if (!pkey || pgpk_agent_open(&agent)) {
		EVP_PKEY_free(pkey);
		ret = 2;
		goto out_key;
	}
	for (a = first; a < argc; a++)
		if (pgpk_ima_sign_file(&agent, &found.key, pkey, h, argv[a],
				       print))
			ret = 1;
	pgpk_agent_close(&agent);
	EVP_PKEY_free(pkey);
out_key:
	free(found.key.blob);
	return ret;
}
