/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Taking a snapshot: what a trigger knows, and the capture that writes the
 * record into a store slot. Every trigger (a request, an IOMMU fault, a
 * controller's error handler, oops, panic, a finding) comes through here.
 */
#ifndef _EDGEDMA_SNAPSHOT_CAPTURE_H
#define _EDGEDMA_SNAPSHOT_CAPTURE_H

#include <linux/types.h>

struct device;

/* What a snapshot holds, counted, for a line on the console at panic. */
struct edgedma_snapshot_summary {
	u32 len;
	u32 registers;
	u32 mappings;
	u32 unmapped;
	bool truncated;
};

struct edgedma_snapshot_request {
	u32 kind;		/* enum edgedma_snapshot_trigger */
	bool has_addr;
	u64 addr;		/* the DMA address (IOVA) it is about */
	u32 access;		/* enum edgedma_access, 0: unknown */
	u32 reason;		/* the IOMMU's fault reason, 0: none */
	const char *symbol;	/* the handler that ran, or NULL */
	u64 finding_seq;	/* the finding that made it, 0: none */
	u32 finding_kind;	/* and its enum edgedma_finding_kind */
	/*
	 * Fault and panic context: locks are only tried, and a part whose
	 * lock is held is left out and said so. Also: no announcement at
	 * panic, where no work item will run.
	 */
	bool atomic;
	bool panic;		/* also: past the rate limit, it is the last chance */
	struct edgedma_snapshot_summary *summary;	/* filled if not NULL */
};

/*
 * Snapshot @dev for @t into the store; *@seq gets its number. -EBUSY when
 * rate limited or no slot was free (both counted), -EPERM when the
 * device's policy switched the trigger off (counted; a request is never
 * off). Any context but NMI; never sleeps or allocates.
 */
int edgedma_snapshot_take(struct device *dev,
			  const struct edgedma_snapshot_request *t, u64 *seq);

/* Per trigger kind: fired (for a device), taken (stored), off (by policy). */
struct edgedma_trigger_counts {
	u64 fired;
	u64 taken;
	u64 off;
};

void edgedma_snapshot_trigger_counts(u32 kind, struct edgedma_trigger_counts *out);

int edgedma_snapshot_capture_init(void);

#endif /* _EDGEDMA_SNAPSHOT_CAPTURE_H */
