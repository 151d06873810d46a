/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_CHECKS_H
#define _EDGEDMA_CHECKS_H

#include <linux/types.h>
#include <uapi/linux/edgedma.h>

u64 edgedma_checks_calls(void);
u64 edgedma_checks_unseen(void);
u64 edgedma_checks_translations_skipped(void);
/* Load time, before the hooks: applies the module parameters. */
void edgedma_checks_init(void);
const char *edgedma_call_name(u32 kind);

#endif /* _EDGEDMA_CHECKS_H */
