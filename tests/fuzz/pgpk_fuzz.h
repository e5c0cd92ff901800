/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libFuzzer entry point, declared once for the fuzz targets and the
 * corpus replay driver (replay_main.c).
 */
#ifndef PGPK_FUZZ_H
#define PGPK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* PGPK_FUZZ_H */
