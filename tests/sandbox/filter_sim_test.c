// SPDX-License-Identifier: GPL-2.0
/*
 * The seccomp filter, simulated: take the BPF program built into pgpk
 * (exactly what the sandboxed child loads; first compared with what
 * libseccomp compiles from the allowlist now), run it in a small
 * classic-BPF interpreter over a
 * table of (arch, syscall, arguments) -> expected action.  No process is
 * harmed; the live probes are in filter_live_test.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <seccomp.h>

#include "sandbox/pgpk_sandbox.h"
#include "sandbox/pgpk_seccomp_compile.h"

#define ALLOW SECCOMP_RET_ALLOW
#define KILL SECCOMP_RET_KILL_PROCESS

struct pgpk_sim_case {
	const char *what;
	uint32_t arch;
	int nr;
	uint64_t args[6];
	uint32_t want;
};

#define X86_64 AUDIT_ARCH_X86_64
#define I386 AUDIT_ARCH_I386

static const struct pgpk_sim_case pgpk_sim_cases[] = {
	{ "read input pipe", X86_64, SYS_read, { 0, 0x1000, 1 }, ALLOW },
	{ "read other fd", X86_64, SYS_read, { 2, 0x1000, 1 }, KILL },
	{ "read fd with high bits", X86_64, SYS_read, { 1ULL << 32 }, KILL },
	{ "write output pipe", X86_64, SYS_write, { 1, 0x1000, 1 }, ALLOW },
	{ "write input pipe", X86_64, SYS_write, { 0, 0x1000, 1 }, KILL },
	{ "write stderr", X86_64, SYS_write, { 2, 0x1000, 1 }, KILL },
	{ "mmap rw",
	  X86_64,
	  SYS_mmap,
	  { 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    (uint64_t)-1, 0 },
	  ALLOW },
	{ "mmap none", X86_64, SYS_mmap, { 0, 4096, PROT_NONE }, ALLOW },
	{ "mmap rx",
	  X86_64,
	  SYS_mmap,
	  { 0, 4096, PROT_READ | PROT_EXEC },
	  KILL },
	{ "mmap rwx",
	  X86_64,
	  SYS_mmap,
	  { 0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC },
	  KILL },
	{ "mprotect rw",
	  X86_64,
	  SYS_mprotect,
	  { 0x1000, 4096, PROT_READ | PROT_WRITE },
	  ALLOW },
	{ "mprotect x",
	  X86_64,
	  SYS_mprotect,
	  { 0x1000, 4096, PROT_EXEC },
	  KILL },
	{ "mprotect rwx", X86_64, SYS_mprotect, { 0x1000, 4096, 7 }, KILL },
	{ "brk", X86_64, SYS_brk, { 0 }, ALLOW },
	{ "munmap", X86_64, SYS_munmap, { 0x1000, 4096 }, ALLOW },
	{ "mremap", X86_64, SYS_mremap, { 0x1000, 4096, 8192, 1 }, ALLOW },
	{ "madvise",
	  X86_64,
	  SYS_madvise,
	  { 0x1000, 4096, MADV_DONTNEED },
	  ALLOW },
	{ "futex", X86_64, SYS_futex, { 0x1000, 1, 1 }, ALLOW },
	{ "clock_gettime", X86_64, SYS_clock_gettime, { 1, 0x1000 }, ALLOW },
	{ "exit_group", X86_64, SYS_exit_group, { 0 }, ALLOW },
	{ "exit", X86_64, SYS_exit, { 0 }, ALLOW },
	{ "open", X86_64, SYS_open, { 0x1000, 0 }, KILL },
	{ "openat", X86_64, SYS_openat, { (uint64_t)-100, 0x1000 }, KILL },
	{ "socket", X86_64, SYS_socket, { 1, 1, 0 }, KILL },
	{ "connect", X86_64, SYS_connect, { 0, 0x1000, 16 }, KILL },
	{ "execve", X86_64, SYS_execve, { 0x1000, 0, 0 }, KILL },
	{ "execveat", X86_64, SYS_execveat, { 0, 0x1000 }, KILL },
	{ "ptrace", X86_64, SYS_ptrace, { 0 }, KILL },
	{ "keyctl", X86_64, SYS_keyctl, { 0, (uint64_t)-3 }, KILL },
	{ "add_key", X86_64, SYS_add_key, { 0 }, KILL },
	{ "request_key", X86_64, SYS_request_key, { 0 }, KILL },
	{ "fork", X86_64, SYS_fork, { 0 }, KILL },
	{ "vfork", X86_64, SYS_vfork, { 0 }, KILL },
	{ "clone", X86_64, SYS_clone, { 17 }, KILL },
	{ "clone3", X86_64, SYS_clone3, { 0x1000, 88 }, KILL },
	{ "kill", X86_64, SYS_kill, { 1, 9 }, KILL },
	{ "getrandom", X86_64, SYS_getrandom, { 0x1000, 16, 0 }, ALLOW },
	{ "getrandom(GRND_RANDOM)",
	  X86_64,
	  SYS_getrandom,
	  { 0x1000, 16, 2 },
	  KILL },
	{ "getrandom(GRND_NONBLOCK)",
	  X86_64,
	  SYS_getrandom,
	  { 0x1000, 16, 1 },
	  KILL },
	{ "getpid", X86_64, SYS_getpid, { 0 }, ALLOW },
	{ "getppid", X86_64, SYS_getppid, { 0 }, KILL },
	{ "close", X86_64, SYS_close, { 0 }, KILL },
	{ "prctl", X86_64, SYS_prctl, { 38 }, KILL },
	{ "seccomp", X86_64, SYS_seccomp, { 1 }, KILL },
	{ "x32 read", X86_64, 0x40000000 | SYS_read, { 0 }, KILL },
	{ "i386 read (nr 3)", I386, 3, { 0 }, KILL },
	{ "i386 exit_group (nr 252)", I386, 252, { 0 }, KILL },
};

/* Classic BPF, the subset a seccomp filter may use. */
static int pgpk_bpf_run(const struct sock_filter *prog, size_t len,
			const struct seccomp_data *data, uint32_t *ret)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	size_t pc = 0, steps;

	for (steps = 0; steps < 100000 && pc < len; steps++) {
		const struct sock_filter *f = &prog[pc++];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (f->code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (f->k > sizeof(*data) - 4 || f->k % 4)
					return -EINVAL;
				memcpy(&a, (const char *)data + f->k, 4);
			} else if (f->code == (BPF_LD | BPF_IMM)) {
				a = f->k;
			} else if (f->code == (BPF_LD | BPF_MEM)) {
				a = mem[f->k % BPF_MEMWORDS];
			} else {
				return -EINVAL;
			}
			break;
		case BPF_LDX:
			if (f->code == (BPF_LDX | BPF_IMM))
				x = f->k;
			else if (f->code == (BPF_LDX | BPF_MEM))
				x = mem[f->k % BPF_MEMWORDS];
			else
				return -EINVAL;
			break;
		case BPF_ST:
			mem[f->k % BPF_MEMWORDS] = a;
			break;
		case BPF_STX:
			mem[f->k % BPF_MEMWORDS] = x;
			break;
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_ADD:
				a += src;
				break;
			case BPF_SUB:
				a -= src;
				break;
			case BPF_AND:
				a &= src;
				break;
			case BPF_OR:
				a |= src;
				break;
			case BPF_XOR:
				a ^= src;
				break;
			case BPF_LSH:
				a <<= src & 31;
				break;
			case BPF_RSH:
				a >>= src & 31;
				break;
			case BPF_NEG:
				a = -a;
				break;
			default:
				return -EINVAL;
			}
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA) {
				pc += f->k;
				break;
			}
			switch (BPF_OP(f->code)) {
			case BPF_JEQ:
				pc += a == src ? f->jt : f->jf;
				break;
			case BPF_JGT:
				pc += a > src ? f->jt : f->jf;
				break;
			case BPF_JGE:
				pc += a >= src ? f->jt : f->jf;
				break;
			case BPF_JSET:
				pc += (a & src) ? f->jt : f->jf;
				break;
			default:
				return -EINVAL;
			}
			break;
		case BPF_RET:
			*ret = BPF_RVAL(f->code) == BPF_A ? a : f->k;
			return 0;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			return -EINVAL;
		}
	}
	return -ELOOP;
}

/*
 * The program built into pgpk (pgpk_seccomp_prebuilt()) is the one
 * libseccomp compiles from the table now, octet for octet, for a
 * release and for a sanitizer build: the generated header cannot drift
 * from the allowlist.
 */
static int pgpk_prebuilt_check(bool sanitized, const struct sock_filter *built,
			       unsigned short built_len)
{
	struct sock_filter *prog;
	unsigned short len;
	char msg[256];
	int same;

	if (pgpk_seccomp_bpf(sanitized, &prog, &len, msg, sizeof(msg))) {
		printf("FAIL build: %s\n", msg);
		return 1;
	}
	same = len == built_len && !memcmp(prog, built, len * sizeof(*prog));
	printf("%s the built-in program (%u instructions) is libseccomp's "
	       "compile of the table (%u)\n",
	       same ? "ok  " : "FAIL", built_len, len);
	free(prog);
	return !same;
}

int main(void)
{
	const struct sock_filter *prog;
	unsigned short prog_len;
	int failures = 0;
	size_t i, len;

	/* The very program pgpk_sandbox_prepare() hands to the children. */
	pgpk_seccomp_prebuilt(&prog, &prog_len);
#if defined(__SANITIZE_ADDRESS__)
	failures += pgpk_prebuilt_check(true, prog, prog_len);
#else
	failures += pgpk_prebuilt_check(false, prog, prog_len);
#endif
	len = prog_len;
	printf("filter: %zu BPF instructions\n", len);
	for (i = 0; i < sizeof(pgpk_sim_cases) / sizeof(pgpk_sim_cases[0]);
	     i++) {
		const struct pgpk_sim_case *c = &pgpk_sim_cases[i];
		struct seccomp_data d = {
			.nr = c->nr,
			.arch = c->arch,
			.instruction_pointer = 0x400000,
		};
		uint32_t act = 0;
		int ret;

		memcpy(d.args, c->args, sizeof(d.args));
		ret = pgpk_bpf_run(prog, len, &d, &act);
		act &= SECCOMP_RET_ACTION_FULL;
		if (ret || act != c->want) {
			failures++;
			printf("FAIL %-26s action 0x%08x, want 0x%08x (%d)\n",
			       c->what, act, c->want, ret);
		} else {
			printf("ok   %-26s %s\n", c->what,
			       act == ALLOW ? "allow" : "kill process");
		}
	}
	/* Every allowlist entry must be covered by an ALLOW case above. */
	{
		const struct pgpk_seccomp_rule *rules;
		size_t count, k, j;

		rules = pgpk_seccomp_rules(&count);
		for (k = 0; k < count; k++) {
			for (j = 0; j < sizeof(pgpk_sim_cases) /
						sizeof(pgpk_sim_cases[0]);
			     j++)
				if (pgpk_sim_cases[j].nr == rules[k].nr &&
				    pgpk_sim_cases[j].want == ALLOW)
					break;
			if (j == sizeof(pgpk_sim_cases) /
					 sizeof(pgpk_sim_cases[0])) {
				failures++;
				printf("FAIL no allow case for %s\n",
				       rules[k].name);
			}
		}
	}
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
