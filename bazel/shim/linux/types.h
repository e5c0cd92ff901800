/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/types.h> for the kernel's files built in user space
 * (//kernel:canon and its users): the system's header, then the kernel
 * names kernel/pgpk_canon.h relies on (kernel_user.h).  On the include
 * path of every target that depends on //bazel:kernel_user.
 */
#include_next <linux/types.h>
#include "../../kernel_user.h"
