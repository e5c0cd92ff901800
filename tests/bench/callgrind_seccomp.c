// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim that lets callgrind count the sandboxed upcall pipeline
 * (tests/bench/verify-speed.sh, case "upcall").  Valgrind does not know
 * seccomp(2) (ENOSYS): libseccomp then finds no filter support and
 * refuses to compile the allowlist, and the child could not load it
 * anyway (nor survive it: valgrind makes system calls of its own).  Under
 * this shim, through syscall(3), which both use:
 *   SECCOMP_SET_MODE_STRICT, flags       EINVAL (libseccomp's probe:
 *                                        the call exists);
 *   SECCOMP_GET_ACTION_AVAIL             every action is available;
 *   SECCOMP_SET_MODE_FILTER, no program  EFAULT (libseccomp's flag probe);
 *   SECCOMP_SET_MODE_FILTER, a program   success, nothing loaded;
 * every other call goes to the kernel.  And setrlimit(3) succeeds
 * without limiting anything: valgrind's own memory is over the child's
 * address-space bound, and it refuses some limits itself.  The counted
 * work is the real one (the filter and the limits cost the kernel, never
 * user instructions), but the child runs unfiltered and unlimited: a
 * measuring tool, never for use.
 */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <linux/seccomp.h>
#include <sys/resource.h>
#include <sys/syscall.h>

long syscall(long nr, ...);

int setrlimit(__rlimit_resource_t resource, const struct rlimit *rl)
{
	return 0;
}

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_seccomp) {
		if (a[0] == SECCOMP_SET_MODE_STRICT && a[1]) {
			errno = EINVAL;
			return -1;
		}
		if (a[0] == SECCOMP_GET_ACTION_AVAIL)
			return 0;
		if (a[0] == SECCOMP_SET_MODE_FILTER) {
			if (!a[2]) {
				errno = EFAULT;
				return -1;
			}
			return 0;
		}
	}
	/* The kernel's own, as glibc's syscall() does it. */
	__asm__ volatile("" ::: "memory");
	{
		register long r10 __asm__("r10") = a[3];
		register long r8 __asm__("r8") = a[4];
		register long r9 __asm__("r9") = a[5];
		long ret;

		__asm__ volatile("syscall"
				 : "=a"(ret)
				 : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]),
				   "r"(r10), "r"(r8), "r"(r9)
				 : "rcx", "r11", "memory");
		if (ret < 0 && ret > -4096) {
			errno = (int)-ret;
			return -1;
		}
		return ret;
	}
}
