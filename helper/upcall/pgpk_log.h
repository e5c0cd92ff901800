/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One log line per request: to syslog (LOG_DAEMON, falling back to the
 * console when there is no syslog daemon, as in an initramfs), to stderr
 * when stderr is a terminal or when asked, or to /dev/kmsg (so that the
 * line lands in dmesg next to the kernel's own messages).
 */
#ifndef PGPK_LOG_H
#define PGPK_LOG_H

enum pgpk_log_mode {
	PGPK_LOG_AUTO, /* stderr on a tty, else syslog */
	PGPK_LOG_STDERR,
	PGPK_LOG_SYSLOG,
	PGPK_LOG_KMSG,
};

struct pgpk_log {
	enum pgpk_log_mode mode;
};

void pgpk_log_open(struct pgpk_log *log, enum pgpk_log_mode mode);
void pgpk_log_line(const struct pgpk_log *log, int priority, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
void pgpk_log_close(struct pgpk_log *log);

#endif /* PGPK_LOG_H */
