/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_FINDINGS_H
#define _EDGEDMA_FINDINGS_H

#include <linux/module.h>
#include <linux/types.h>

#include "devices.h"

#define EDGEDMA_DETAIL_LEN	224
/* "function+0x1c/0x80 [module]", as %pS gives it; longer names are cut. */
#define EDGEDMA_SYMBOL_LEN	96
/* Return addresses kept per finding, the caller first. */
#define EDGEDMA_CHAIN_LEN	6

/* One finding, as logged and as sent to userspace. */
struct edgedma_finding {
	u64 seq;
	u64 time_ns;
	u64 dma_addr;
	u64 size;
	u64 phys;		/* EDGEDMA_NO_PHYS when unknown */
	u64 caller;
	u64 map_caller;		/* 0 when there is no mapping involved */
	/*
	 * The call chain from the caller outwards: the caller may be a helper
	 * layer (scsi_dma_map, the USB core) and the driver to blame further
	 * out. driver_module: the module of the device's driver at the call,
	 * "" when built in; the reader picks the frame to blame.
	 */
	u64 chain[EDGEDMA_CHAIN_LEN];
	u32 chain_len;
	char driver_module[MODULE_NAME_LEN];
	u32 kind;		/* enum edgedma_finding_kind */
	u32 call;		/* enum edgedma_call_kind */
	u32 dir;
	u32 site;		/* finding_sites.h: where its repeats are counted */
	char device[EDGEDMA_NAME_LEN];
	char driver[EDGEDMA_NAME_LEN];
	/*
	 * Named: the sentence is text and the callers are named. Hook context
	 * only keeps the facts: the sentence as vbin_printf() arguments of
	 * fmt (NULL: detail is text already), no symbol lookup. Process
	 * context (the send work item, a dump) names it, always before the
	 * code named can go away: the work item is flushed when a module's
	 * init code is freed and when a module unloads.
	 */
	bool named;
	const char *fmt;
	union {
		u32 args[EDGEDMA_DETAIL_LEN / sizeof(u32)];
		char detail[EDGEDMA_DETAIL_LEN];
	};
	/* From the symbols loaded when named; "" when none covers the address. */
	char caller_name[EDGEDMA_SYMBOL_LEN];
	char map_caller_name[EDGEDMA_SYMBOL_LEN];
	/* The chain's frames named the same way, one line each ("?": none). */
	char chain_names[EDGEDMA_CHAIN_LEN * 64];
};

struct edgedma_call;

/*
 * Fill @f's call chain from @call's caller outwards and the module of its
 * device's driver; hook context (a stack trace: only for a finding that is
 * logged).
 */
void edgedma_call_chain(struct edgedma_finding *f,
			const struct edgedma_call *call);

/* @addr as %pS names it, or "" when no symbol covers it. Any context. */
void edgedma_symbol_name(char *buf, size_t len, unsigned long addr);

int edgedma_findings_init(void);
void edgedma_findings_exit(void);

/*
 * The sentence of @f from @fmt: kept as arguments where it can be, made
 * into text later; formatted now where it cannot. Any context.
 */
void edgedma_finding_sentence(struct edgedma_finding *f, const char *fmt, va_list args);

/* Log @f (seq and time are assigned here) and queue it for listeners. */
void edgedma_finding_report(struct edgedma_finding *f);

/* Make @f's sentence text and name its callers, if not done. Process context. */
void edgedma_finding_name(struct edgedma_finding *f);

/*
 * A repeat was folded into its site's finding (finding_sites.c): listeners
 * and the kernel log hear of the site's new count within a second, once
 * per site however many repeats came. Hook context.
 */
void edgedma_findings_repeated(void);

/*
 * Name every finding logged so far and send it: before code that findings
 * may name goes away (a module's init text, a module). Process context.
 */
void edgedma_findings_flush(void);

/* Copy the oldest logged finding with seq >= @seq; false if none. */
bool edgedma_finding_get(u64 seq, struct edgedma_finding *out);
u64 edgedma_findings_last_seq(void);
u64 edgedma_findings_events_dropped(void);
size_t edgedma_findings_memory(void);	/* bytes preallocated at load */
const char *edgedma_finding_kind_name(u32 kind);

#endif /* _EDGEDMA_FINDINGS_H */
