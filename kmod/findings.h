/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_FINDINGS_H
#define _EDGEDMA_FINDINGS_H

#include <linux/types.h>

#include "devices.h"

#define EDGEDMA_DETAIL_LEN	224
/* "function+0x1c/0x80 [module]", as %pS gives it; longer names are cut. */
#define EDGEDMA_SYMBOL_LEN	96

/* One finding, as logged and as sent to userspace. */
struct edgedma_finding {
	u64 seq;
	u64 time_ns;
	u64 dma_addr;
	u64 size;
	u64 phys;		/* EDGEDMA_NO_PHYS when unknown */
	u64 caller;
	u64 map_caller;		/* 0 when there is no mapping involved */
	u32 kind;		/* enum edgedma_finding_kind */
	u32 call;		/* enum edgedma_call_kind */
	u32 dir;
	u32 site;		/* finding_sites.h: where its repeats are counted */
	char device[EDGEDMA_NAME_LEN];
	char driver[EDGEDMA_NAME_LEN];
	char detail[EDGEDMA_DETAIL_LEN];
	/*
	 * The callers named when the finding was made, from the symbols
	 * loaded then: the code may be gone, or replaced, by the time anyone
	 * reads the finding. "" when no symbol covers the address.
	 */
	char caller_name[EDGEDMA_SYMBOL_LEN];
	char map_caller_name[EDGEDMA_SYMBOL_LEN];
};

int edgedma_findings_init(void);
void edgedma_findings_exit(void);

/* Log @f (seq and time are assigned here) and queue it for listeners. */
void edgedma_finding_report(struct edgedma_finding *f);

/* Copy the oldest logged finding with seq >= @seq; false if none. */
bool edgedma_finding_get(u64 seq, struct edgedma_finding *out);
u64 edgedma_findings_last_seq(void);
u64 edgedma_findings_events_dropped(void);
size_t edgedma_findings_memory(void);	/* bytes preallocated at load */
const char *edgedma_finding_kind_name(u32 kind);

#endif /* _EDGEDMA_FINDINGS_H */
