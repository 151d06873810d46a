/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_FINDING_COSTS_H
#define _EDGEDMA_FINDING_COSTS_H

#include <linux/sched/clock.h>
#include <linux/types.h>

/*
 * What each part of the finding path costs, for `make bench` and for users
 * who want to know what a finding storm costs their board: with the module
 * parameter measure_findings=1 every part adds its time and count, read from
 * debugfs (edgedma/finding_costs). Off, a part costs one predicted branch.
 */
enum edgedma_finding_cost {
	/* Hook context, per occurrence. */
	EDGEDMA_COST_SITE_REPEAT,	/* site lookup that folded a repeat */
	EDGEDMA_COST_SITE_FIRST,	/* site lookup that let a finding through */
	/* Hook context, per finding logged. */
	EDGEDMA_COST_FACTS,		/* finding cleared and filled, device names */
	EDGEDMA_COST_CHAIN,		/* call chain (stack trace) */
	EDGEDMA_COST_SENTENCE_ARGS,	/* vbin_printf() of the sentence */
	EDGEDMA_COST_LOG,		/* log copy under its lock, irq_work queued */
	/* The work item, per finding. */
	EDGEDMA_COST_DELAY,		/* logged until the work item took it */
	EDGEDMA_COST_SENTENCE,		/* bstr_printf() of the sentence */
	EDGEDMA_COST_SYMBOLS,		/* caller, map caller and chain named */
	EDGEDMA_COST_STORE_NAMES,	/* names copied into the log entry */
	EDGEDMA_COST_PRINTK,		/* the kernel-log line (ratelimited) */
	EDGEDMA_COST_NETLINK,		/* FINDING built and multicast */
	EDGEDMA_COST_COUNT
};

extern bool edgedma_measure_findings;

/* A start time for edgedma_cost_add(), 0 when not measuring. */
static inline u64 edgedma_cost_start(void)
{
	return unlikely(READ_ONCE(edgedma_measure_findings)) ? local_clock() : 0;
}

void edgedma_cost_add_ns(enum edgedma_finding_cost part, u64 ns);

/* Adds the time since @start to @part; returns the time now (0: not measuring). */
static inline u64 edgedma_cost_add(enum edgedma_finding_cost part, u64 start)
{
	u64 now;

	if (likely(!start))
		return 0;
	now = local_clock();
	edgedma_cost_add_ns(part, now - start);
	return now;
}

int edgedma_finding_costs_init(void);
void edgedma_finding_costs_exit(void);

#endif /* _EDGEDMA_FINDING_COSTS_H */
