/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_CRASH_REGION_H
#define _EDGEDMA_CRASH_REGION_H

/*
 * The crash region: RAM a warm reboot keeps (module parameter
 * crash_region=SIZE@PHYS), where the snapshots the module holds are
 * written at oops and panic, for the next load to find (layout: struct
 * edgedma_crash_region in the uapi header).
 */

#include <linux/types.h>

/* The region as last validated (CRASH_REGION_GET). */
struct edgedma_crash_summary {
	u32 state;		/* enum edgedma_crash_region_state */
	u64 phys, size;
	u64 boot_id, written_ns;	/* of the load that wrote it */
	u32 records;		/* the header's count */
	u32 intact, corrupt;	/* corrupt: failed, or past one that ended the walk */
	char reason[96];	/* the first problem, "" when none */
};

/* One record found in the region (CRASH_RECORDS_GET). */
struct edgedma_crash_entry {
	u32 index;		/* its place, from 0 */
	u64 offset;		/* of its struct edgedma_crash_record */
	u64 seq;
	u32 length, crc;	/* as its header says */
	bool intact;
	char reason[96];	/* when corrupt */
};

/*
 * Map the region, validate what an earlier boot left there and hand its
 * intact records to devcoredump. Process context.
 */
int edgedma_crash_region_init(void);
void edgedma_crash_region_exit(void);
/*
 * The same for a region the device tree names (memory-region), unless the
 * crash_region parameter gave one. Before the crash triggers start.
 */
int edgedma_crash_region_from_dt(u64 phys, u64 size);

/*
 * Write every stored snapshot that fits into the region, newest first.
 * Oops and panic context: no allocation, no sleeping, no lock. Once at an
 * oops; a panic writes it again (an oops the kernel survived wrote it
 * first), unless another CPU is writing it.
 */
void edgedma_crash_region_write(bool panic);

/*
 * Readers, process context. What they say is revalidated after this boot
 * wrote the region. An entry past the last: -ENOENT.
 */
void edgedma_crash_region_summary(struct edgedma_crash_summary *s);
int edgedma_crash_record_info(u32 index, struct edgedma_crash_entry *e);
/*
 * Copy intact record @index to @buf, its CRC checked again on the copy.
 * Its length, or -ENOENT, -EBADMSG (corrupt), -EMSGSIZE (@size too small),
 * -EAGAIN (the region changed under the read).
 */
int edgedma_crash_record_copy(u32 index, void *buf, u32 size);
/*
 * Erase the region's header; with @boot_id, only while it holds what that
 * load wrote (-ESTALE otherwise). -ENODEV without a region.
 */
int edgedma_crash_records_clear(const u64 *boot_id);

#endif /* _EDGEDMA_CRASH_REGION_H */
