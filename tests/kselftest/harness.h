/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's kselftest harness, as the Makefile extracts it from the
 * kernel source tarball (never copied into this tree).
 *
 * Its 6.1 version has an unused parameter in a signal handler, which our
 * -Wextra reports; that is its business, not ours, so silence exactly that
 * while the header's own code is compiled. Macros the tests expand are
 * still checked with every warning on.
 */
#ifndef EDGEDMA_SELFTEST_HARNESS_H
#define EDGEDMA_SELFTEST_HARNESS_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* EDGEDMA_SELFTEST_HARNESS_H */
