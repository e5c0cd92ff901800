// SPDX-License-Identifier: GPL-2.0
/* The helper's log line: see pgpk_log.h for where it goes. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "helper/upcall/pgpk_log.h"

void pgpk_log_open(struct pgpk_log *log, enum pgpk_log_mode mode)
{
	if (mode == PGPK_LOG_AUTO)
		mode = isatty(STDERR_FILENO) ? PGPK_LOG_STDERR :
					       PGPK_LOG_SYSLOG;
	log->mode = mode;
	if (mode == PGPK_LOG_SYSLOG)
		openlog("pgpk-helper", LOG_PID | LOG_CONS, LOG_DAEMON);
}

static void pgpk_log_kmsg(int priority, const char *line)
{
	char buf[640];
	int fd, n;

	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "<%d>pgpk-helper[%d]: %s\n",
		     LOG_DAEMON | priority, (int)getpid(), line);
	if (n > 0)
		(void)!write(fd, buf,
			     (size_t)n < sizeof(buf) ? (size_t)n :
						       sizeof(buf) - 1);
	close(fd);
}

void pgpk_log_line(const struct pgpk_log *log, int priority, const char *fmt,
		   ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	switch (log->mode) {
	case PGPK_LOG_SYSLOG:
		syslog(priority, "%s", line);
		break;
	case PGPK_LOG_KMSG:
		pgpk_log_kmsg(priority, line);
		break;
	case PGPK_LOG_AUTO:
	case PGPK_LOG_STDERR:
		fprintf(stderr, "pgpk-helper[%d]: %s\n", (int)getpid(), line);
		break;
	}
}

void pgpk_log_close(struct pgpk_log *log)
{
	if (log->mode == PGPK_LOG_SYSLOG)
		closelog();
}
