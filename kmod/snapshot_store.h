/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store of snapshot records: snapshot_slots slots of snapshot_size
 * bytes, allocated at load. A trigger claims a slot without a lock, writes
 * the record in place (snapshot_record.h) and commits it; readers copy a
 * record out and check afterwards that no writer reused the slot meanwhile.
 */
#ifndef _EDGEDMA_SNAPSHOT_STORE_H
#define _EDGEDMA_SNAPSHOT_STORE_H

#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/types.h>

struct edgedma_snapshot_slot;

/* The most a record's header takes (its strings are bounded). */
#define EDGEDMA_SNAPSHOT_HEADER_MAX	1024

/* Per-source rate limit: at most snapshot_rate snapshots a second. */
struct edgedma_snapshot_rate {
	atomic64_t window_ns;
	atomic_t used;
};

int edgedma_snapshot_store_init(void);
void edgedma_snapshot_store_exit(void);

/* Whether @rate allows one more snapshot now; false is counted. Any context. */
bool edgedma_snapshot_rate_allows(struct edgedma_snapshot_rate *rate);

/*
 * A slot to write snapshot @*seq into, at @*buf, @*size bytes; NULL when
 * the slot is still being written by another trigger (counted as dropped).
 * Any context.
 */
struct edgedma_snapshot_slot *edgedma_snapshot_claim(u64 *seq, void **buf,
						     u32 *size);
/*
 * The record is written: @len bytes, the first @header_len of them its
 * header. @announce: tell the events group (not at panic, where nobody
 * will run the work that sends it).
 */
void edgedma_snapshot_commit(struct edgedma_snapshot_slot *slot, u32 len,
			     u32 header_len, bool truncated, bool announce);

/*
 * Copy snapshot @seq (its header only, with @header_only) into @buf of
 * @size bytes. Returns the bytes copied, -ENOENT when it is not stored
 * (never was, or its slot was reused), -EMSGSIZE when @size is too small.
 * @record_size, if not NULL, gets the whole record's size. Any context: it
 * takes no lock (the crash region copies records at panic).
 */
int edgedma_snapshot_copy(u64 seq, void *buf, u32 size, bool header_only,
			  u32 *record_size);
/* The CRC-32 the crash region keeps of each record and of its header. */
static inline u32 edgedma_crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

/*
 * The whole record, as edgedma_snapshot_copy(), and in *@crc its
 * edgedma_crc() computed from the stored record, not from @buf: the crash
 * region is write-combining memory, slow to read back.
 */
int edgedma_snapshot_copy_crc(u64 seq, void *buf, u32 size, u32 *crc);
/* The size of stored snapshot @seq's record, 0 when it is not stored. */
u32 edgedma_snapshot_size(u64 seq);
/* The oldest snapshot that may still be stored, and the newest (0: none). */
u64 edgedma_snapshot_oldest(void);
u64 edgedma_snapshot_newest(void);
/* The most a record can take, for reply buffers. */
u32 edgedma_snapshot_max_size(void);

/* A snapshot of @len bytes took @ns to write (for GET_STATS). Any context. */
void edgedma_snapshot_capture_took(u32 len, u64 ns);
u64 edgedma_snapshot_capture_max_ns(void);

u64 edgedma_snapshots_stored(void);
u64 edgedma_snapshots_suppressed(void);
u64 edgedma_snapshots_dropped(void);
u64 edgedma_snapshots_truncated(void);
u64 edgedma_snapshot_devcoredumps(void);	/* published */

/*
 * Devcoredumps: whether snapshots are published as them (the
 * snapshot_devcoredump parameter); publish @record (@len bytes, vmalloc'ed,
 * given away) as a devcoredump of the device its DEVICE attribute names,
 * in /sys/class/devcoredump/devcdN/data with a uevent for crash
 * collectors. The devcoredump core keeps one dump per device until it is
 * read or times out, and drops the others itself; a record naming no
 * device present is dropped. Process context.
 */
bool edgedma_snapshot_devcoredumps_on(void);
void edgedma_snapshot_devcoredump_record(void *record, u32 len);
size_t edgedma_snapshot_memory(void);	/* bytes preallocated at load */

#endif /* _EDGEDMA_SNAPSHOT_STORE_H */
