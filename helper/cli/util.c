// SPDX-License-Identifier: GPL-2.0
/*
 * How every command talks (commands.h): messages, usage, help, policy
 * options, inputs, binary output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/cli/commands.h"

static const struct pgpk_usage *pgpk_cli_now;

void pgpk_cli_begin(const struct pgpk_usage *u)
{
	pgpk_cli_now = u;
}

const struct pgpk_usage *pgpk_cli_current(void)
{
	return pgpk_cli_now;
}

static void pgpk_cli_vmsg(const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fflush(stdout); /* in order with what the command printed before */
	if (pgpk_cli_now)
		fprintf(stderr, "%s %s: %s\n", pgpk_cli_now->prog,
			pgpk_cli_now->cmd, line);
	else
		fprintf(stderr, "pgpk: %s\n", line);
}

void pgpk_cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pgpk_cli_vmsg(fmt, ap);
	va_end(ap);
}

static void pgpk_cli_usage_line(FILE *out)
{
	const struct pgpk_usage *u = pgpk_cli_now;

	fprintf(out, "usage: %s %s %s\n", u->prog, u->cmd, u->args);
}

int pgpk_cli_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pgpk_cli_vmsg(fmt, ap);
	va_end(ap);
	pgpk_cli_usage_line(stderr);
	fprintf(stderr, "(%s %s --help says more)\n", pgpk_cli_now->prog,
		pgpk_cli_now->cmd);
	return 2;
}

bool pgpk_cli_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* The help text of one policy option, from the broker's table. */
static void pgpk_cli_policy_help(FILE *out, const char *const *names)
{
	char *text = NULL, *line, *save;
	size_t len = 0, i;
	FILE *m;

	m = open_memstream(&text, &len);
	if (!m)
		return;
	pgpk_policy_usage(m);
	fclose(m);
	fprintf(out, "policy options (as in pgpk.conf; also --name VALUE):\n");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		for (i = 0; names[i]; i++)
			if (!strncmp(line + 2, names[i], strlen(names[i])) &&
			    (line[2 + strlen(names[i])] == '=' ||
			     line[2 + strlen(names[i])] == ' '))
				fprintf(out, "%s\n", line);
	free(text);
}

int pgpk_cli_help(void)
{
	const struct pgpk_usage *u = pgpk_cli_now;

	pgpk_cli_usage_line(stdout);
	fputs(u->about, stdout);
	if (u->options)
		fprintf(stdout, "options:\n%s", u->options);
	if (u->policy)
		pgpk_cli_policy_help(stdout, u->policy);
	fprintf(stdout, "exit status:\n%s", u->status);
	return fflush(stdout) ? 2 : 0;
}

const char *const pgpk_cli_policy[] = {
	"--min-rsa-bits", "--hashes",	  "--allow-expired", "--allow-revoked",
	"--max-input",	  "--timeout-ms", "--sandbox-user",  NULL,
};

void pgpk_cli_policy_default(struct pgpk_policy *p)
{
	pgpk_policy_default(p);
	p->max_input = PGPK_CLI_MAX_INPUT;
	p->timeout_ms = 0;
}

/* Policy options the user commands refuse: the upcall's alone. */
static const char *const pgpk_cli_policy_refused[] = {
	"--negative-timeout",
	"--max-per-uid",
	NULL,
};

static bool pgpk_cli_option_in(const char *arg, const char *const *names)
{
	size_t i, n;

	for (i = 0; names[i]; i++) {
		n = strlen(names[i]);
		if (!strncmp(arg, names[i], n) &&
		    (arg[n] == '\0' || arg[n] == '='))
			return true;
	}
	return false;
}

int pgpk_cli_policy_option(struct pgpk_policy *p, int argc, char **argv, int *a)
{
	const char *arg = argv[*a];
	char *msg = NULL;
	size_t len = 0;
	FILE *m;
	int r;

	if (pgpk_cli_option_in(arg, pgpk_cli_policy_refused)) {
		pgpk_cli_err(
			"%.*s is the upcall's alone (pgpk.conf): refused here",
			(int)strcspn(arg, "="), arg);
		return -1;
	}
	/* Any other option, the command's or unknown, is not ours. */
	if (!pgpk_cli_option_in(arg, pgpk_cli_policy))
		return 0;
	m = open_memstream(&msg, &len);
	if (!m) {
		pgpk_cli_err("out of memory");
		return -1;
	}
	r = pgpk_policy_option(p, argc, argv, a, m);
	fclose(m);
	if (r < 0) {
		/* policy.c's words, after this command's name */
		if (len && msg[len - 1] == '\n')
			msg[len - 1] = '\0';
		pgpk_cli_err("%s", msg);
	}
	free(msg);
	return r;
}

int pgpk_cli_anchors_option(int argc, char **argv, int *a, const char **dir)
{
	int r = pgpk_anchors_option(argc, argv, a, dir);

	if (r < 0)
		pgpk_cli_usage_err("--anchors wants a directory");
	return r;
}

int pgpk_cli_json_file(int argc, char **argv, bool *json, const char **path,
		       const char *missing)
{
	int a;

	*json = false;
	*path = NULL;
	for (a = 1; a < argc; a++) {
		if (pgpk_cli_is_help(argv[a]))
			return pgpk_cli_help() ?: -1;
		if (!strcmp(argv[a], "--json"))
			*json = true;
		else if (argv[a][0] == '-' && argv[a][1])
			return pgpk_cli_usage_err("unknown option '%s'",
						  argv[a]);
		else if (!*path)
			*path = argv[a];
		else
			return pgpk_cli_usage_err(
				"one file only, '%s' is a second", argv[a]);
	}
	return *path ? 0 : pgpk_cli_usage_err("missing %s", missing);
}

/* What bounds an input: the policy option, or pgpk's own bound. */
static const char *pgpk_cli_max_what(void)
{
	return pgpk_cli_now && pgpk_cli_now->policy ? "allowed (--max-input)" :
						      "pgpk reads";
}

int pgpk_cli_read(const char *path, size_t max, struct pgpk_file *f)
{
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, used = 0;
	uint8_t *buf = NULL, *nb;
	struct stat st;
	ssize_t n;

	*f = (struct pgpk_file){ .path = is_stdin ? "(stdin)" : path };
	if (fd < 0 || fstat(fd, &st)) {
		pgpk_cli_err("%s: %s", path, strerror(errno));
		goto error;
	}
	if (S_ISDIR(st.st_mode)) {
		pgpk_cli_err("%s: is a directory", path);
		goto error;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		pgpk_cli_err("%s: %llu octets, more than the %zu %s", path,
			     (unsigned long long)st.st_size, max,
			     pgpk_cli_max_what());
		goto error;
	}
	/* A regular file is mapped: no copy (a 27 MB keyring). */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			       fd, 0);

		if (p != MAP_FAILED) {
			f->data = p;
			f->len = (size_t)st.st_size;
			f->mapped = true;
			close(fd);
			return 0;
		}
	}
	for (;;) {
		if (!buf || used == cap) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				pgpk_cli_err("%s: out of memory", path);
				goto error;
			}
			buf = nb;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pgpk_cli_err("%s: %s", path, strerror(errno));
			goto error;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > max) {
			pgpk_cli_err("%s: more than the %zu octets %s", path,
				     max, pgpk_cli_max_what());
			goto error;
		}
	}
	if (!is_stdin)
		close(fd);
	f->data = buf;
	f->len = used;
	return 0;

error:
	free(buf);
	if (fd > 0)
		close(fd);
	return 2;
}

void pgpk_cli_release(struct pgpk_file *f)
{
	if (f->mapped)
		munmap((void *)(uintptr_t)f->data, f->len);
	else
		free((void *)(uintptr_t)f->data);
	f->data = NULL;
}

int pgpk_cli_binary_ok(const char *out_path)
{
	if (out_path || !isatty(1))
		return 0;
	pgpk_cli_err(
		"refusing to write binary to a terminal: give -o FILE, or a pipe");
	return 2;
}

int pgpk_cli_write_binary(const char *out_path, const void *buf, size_t len)
{
	bool to_stdout = !out_path || !strcmp(out_path, "-");
	int fd = to_stdout ?
			 1 :
			 open(out_path,
			      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0) {
		pgpk_cli_err("%s: %s", out_path, strerror(errno));
		return 2;
	}
	ret = pgpk_write_all(fd, buf, len);
	if (!to_stdout && close(fd) && !ret)
		ret = -errno;
	if (ret) {
		pgpk_cli_err("%s: %s", to_stdout ? "standard output" : out_path,
			     strerror(-ret));
		return 2;
	}
	return 0;
}
