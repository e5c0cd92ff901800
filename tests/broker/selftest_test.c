// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper --selftest as a test: every known answer (exact canonical
 * bytes from the real parser in the real sandbox), the good and the bad
 * signature, the sandbox kills; environment checks PASS or SKIP here.
 */
#include "helper/upcall/pgpk_runtime.h"

int main(int argc, char **argv)
{
	return pgpk_cmd_selftest(argc, argv);
}
