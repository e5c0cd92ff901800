// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the parsing CLI commands: whole-file input, output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "helper/cli/commands.h"

int pgpk_cli_read_file(const char *path, uint8_t **data, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	size_t cap = 65536, used = 0;
	uint8_t *buf, *nb;
	struct stat st;
	ssize_t n;
	int ret;

	if (fd < 0) {
		ret = -errno;
		fprintf(stderr, "pgpk-helper: %s: %s\n", path, strerror(errno));
		return ret;
	}
	/* A regular file: one allocation of its size (+1 to see EOF). */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < PGPK_CLI_MAX_INPUT)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto error_close;
	}
	for (;;) {
		if (used == cap) {
			if (cap >= PGPK_CLI_MAX_INPUT) {
				fprintf(stderr,
					"pgpk-helper: %s: larger than %u octets\n",
					path, PGPK_CLI_MAX_INPUT);
				ret = -EFBIG;
				goto error_free_buf;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				goto error_free_buf;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			fprintf(stderr, "pgpk-helper: %s: %s\n", path,
				strerror(errno));
			goto error_free_buf;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	if (fd)
		close(fd);
	*data = buf;
	*len = used;
	return 0;

error_free_buf:
	free(buf);
error_close:
	if (fd)
		close(fd);
	if (ret == -ENOMEM)
		fprintf(stderr, "pgpk-helper: %s: out of memory\n", path);
	return ret;
}

int pgpk_cli_map_file(const char *path, const uint8_t **data, size_t *len,
		      bool *mapped)
{
	struct stat st;
	void *p;
	int fd;

	*mapped = false;
	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > 0 &&
		    (uint64_t)st.st_size <= PGPK_CLI_MAX_INPUT) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ,
				 MAP_PRIVATE, fd, 0);
			close(fd);
			if (p != MAP_FAILED) {
				*data = p;
				*len = (size_t)st.st_size;
				*mapped = true;
				return 0;
			}
		} else if (fd >= 0) {
			close(fd);
		}
	}
	/* Not a regular file, or mmap() refused: read it. */
	return pgpk_cli_read_file(path, (uint8_t **)data, len);
}

void pgpk_cli_unmap_file(const uint8_t *data, size_t len, bool mapped)
{
	if (mapped)
		munmap((void *)(uintptr_t)data, len);
	else
		free((void *)(uintptr_t)data);
}

int pgpk_cli_write_stdout(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(1, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "pgpk-helper: write: %s\n",
				strerror(errno));
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
