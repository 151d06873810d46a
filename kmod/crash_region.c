// SPDX-License-Identifier: GPL-2.0
/*
 * The crash region (see crash_region.h).
 *
 * It is mapped write-combining: a no-map or memmap= region is not in the
 * kernel's linear map, and writes that bypass the caches reach RAM before
 * a reset without any cache maintenance (a write barrier drains the
 * combining buffers). The previous boot's contents are read with the same
 * mapping, field by field, each length checked against what is left of
 * the region before it is used.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <uapi/linux/edgedma.h>

#include "crash_region.h"
#include "snapshot_store.h"

#define EDGEDMA_CRASH_REGION_MIN	SZ_64K
#define EDGEDMA_CRASH_REGION_MAX	SZ_64M
/* The writer writes at most snapshot_slots (1024) records. */
#define EDGEDMA_CRASH_INDEX_MAX		1024

/*
 * "" when off, not NULL: reloads copy every parameter's value back. 0400: it
 * names a physical address, which /proc/iomem shows to root only.
 */
static char *crash_region = "";
module_param(crash_region, charp, 0400);
MODULE_PARM_DESC(crash_region,
		 "SIZE@PHYS: RAM kept across a warm reboot (memmap= or a no-map reserved-memory node), 64K to 64M, page aligned, where snapshots are written at oops and panic");

static u8 *edgedma_region;
static u64 edgedma_region_phys;
static u64 edgedma_region_size;
static u64 edgedma_boot_id;

/* The writer's progress: readers revalidate once it is done. */
enum { REGION_UNWRITTEN, REGION_WRITING, REGION_WRITTEN };
static atomic_t edgedma_region_written = ATOMIC_INIT(REGION_UNWRITTEN);

/*
 * What the region held when it was last validated: at load, and again at
 * the first request after this boot wrote it (an oops the kernel survived).
 * Process context only; the oops writer never touches it.
 */
static DEFINE_MUTEX(edgedma_crash_lock);
static struct edgedma_crash_summary edgedma_summary;
static struct edgedma_crash_entry *edgedma_index;
static unsigned int edgedma_index_len;
static bool edgedma_index_after_write;

/* CRC-32 as zlib computes it. */
static u32 edgedma_region_header_crc(const struct edgedma_crash_region *h)
{
	struct edgedma_crash_region copy = *h;

	copy.crc = 0;
	return edgedma_crc(&copy, sizeof(copy));
}

/*
 * Walk the records after a valid header @h into @index (up to @max),
 * counting into @s; @s->reason gets the first problem. Returns the entries
 * filled. A record whose header cannot be trusted ends the walk: where the
 * next one starts is unknown.
 */
static unsigned int edgedma_region_walk(const struct edgedma_crash_region *h,
					struct edgedma_crash_entry *index,
					unsigned int max,
					struct edgedma_crash_summary *s)
{
	u64 at = sizeof(*h), left;
	unsigned int i, n = 0;

	for (i = 0; i < h->records; i++) {
		struct edgedma_crash_entry *e = &index[n];
		struct edgedma_crash_record r;
		bool broken = false;

		if (n == max) {
			snprintf(s->reason, sizeof(s->reason),
				 "more than %u records: the rest not read", max);
			s->corrupt += h->records - i;
			break;
		}
		memset(e, 0, sizeof(*e));
		e->index = n;
		e->offset = at;
		/* at only moves past checked lengths; never trust that below. */
		left = at < edgedma_region_size ? edgedma_region_size - at : 0;
		if (left < sizeof(r)) {
			snprintf(e->reason, sizeof(e->reason),
				 "record %u: its header runs past the region's end", i);
			broken = true;
		} else {
			memcpy(&r, edgedma_region + at, sizeof(r));
			e->seq = r.seq;
			e->length = r.length;
			e->crc = r.crc;
			if (r.magic != EDGEDMA_CRASH_RECORD_MAGIC) {
				snprintf(e->reason, sizeof(e->reason),
					 "record %u: bad magic %#llx", i, r.magic);
				e->seq = 0;
				e->length = 0;
				broken = true;
			} else if (r.length > left - sizeof(r)) {
				snprintf(e->reason, sizeof(e->reason),
					 "record %u: length %u runs past the region's end (%llu bytes left)",
					 i, r.length, left - sizeof(r));
				broken = true;
			} else if (edgedma_crc(edgedma_region + at + sizeof(r), r.length) != r.crc) {
				snprintf(e->reason, sizeof(e->reason),
					 "record %u (snapshot %llu): CRC mismatch", i, r.seq);
			} else {
				e->intact = true;
			}
		}
		n++;
		if (e->intact) {
			s->intact++;
		} else {
			if (!s->reason[0])
				strscpy(s->reason, e->reason, sizeof(s->reason));
			s->corrupt += broken ? h->records - i : 1;
		}
		if (broken)
			break;
		at += ALIGN(sizeof(r) + r.length, 8);
	}
	return n;
}

/*
 * Read what the region holds into the summary and index, replacing the
 * old ones. @at_load: say it in the kernel log, in one line.
 */
static void edgedma_region_validate(bool at_load)
{
	struct edgedma_crash_summary s = {
		.state = EDGEDMA_CRASH_REGION_VALID,
		.phys = edgedma_region_phys,
		.size = edgedma_region_size,
	};
	struct edgedma_crash_entry *index = NULL;
	struct edgedma_crash_region h;
	unsigned int n = 0;
	u32 crc;

	lockdep_assert_held(&edgedma_crash_lock);
	memcpy(&h, edgedma_region, sizeof(h));
	crc = edgedma_region_header_crc(&h);
	if (h.magic != EDGEDMA_CRASH_REGION_MAGIC) {
		s.state = EDGEDMA_CRASH_REGION_EMPTY;
	} else if (crc != h.crc) {
		s.state = EDGEDMA_CRASH_REGION_CORRUPT;
		snprintf(s.reason, sizeof(s.reason),
			 "its header is corrupt (CRC %#x, the bytes give %#x)", h.crc, crc);
	} else if (h.version != EDGEDMA_CRASH_FORMAT_VERSION || h.header_size != sizeof(h)) {
		s.state = EDGEDMA_CRASH_REGION_CORRUPT;
		snprintf(s.reason, sizeof(s.reason),
			 "format %u with a %u-byte header, not %u and %zu",
			 h.version, h.header_size, EDGEDMA_CRASH_FORMAT_VERSION, sizeof(h));
	} else {
		s.boot_id = h.boot_id;
		s.written_ns = h.written_ns;
		s.records = h.records;
		if (h.records) {
			index = kvcalloc(min_t(u32, h.records, EDGEDMA_CRASH_INDEX_MAX),
					 sizeof(*index), GFP_KERNEL);
			if (!index) {
				s.state = EDGEDMA_CRASH_REGION_CORRUPT;
				strscpy(s.reason, "no memory to index its records", sizeof(s.reason));
			}
		}
		if (index)
			n = edgedma_region_walk(&h, index,
						min_t(u32, h.records, EDGEDMA_CRASH_INDEX_MAX), &s);
	}
	kvfree(edgedma_index);
	edgedma_index = index;
	edgedma_index_len = n;
	edgedma_summary = s;
	if (!at_load)
		return;
	switch (s.state) {
	case EDGEDMA_CRASH_REGION_EMPTY:
		pr_info("crash region of %llu KiB: no records from an earlier boot\n",
			edgedma_region_size >> 10);
		break;
	case EDGEDMA_CRASH_REGION_CORRUPT:
		pr_warn("crash region of %llu KiB: %s\n", edgedma_region_size >> 10, s.reason);
		break;
	default:
		pr_info("crash region of %llu KiB: %u records from an earlier boot intact, %u corrupt%s%s\n",
			edgedma_region_size >> 10, s.intact, s.corrupt,
			s.reason[0] ? ": " : "", s.reason);
	}
}

/* Revalidate once after this boot wrote the region. */
static void edgedma_region_refresh(void)
{
	lockdep_assert_held(&edgedma_crash_lock);
	if (edgedma_region && !edgedma_index_after_write &&
	    atomic_read(&edgedma_region_written) == REGION_WRITTEN) {
		edgedma_region_validate(false);
		edgedma_index_after_write = true;
	}
}

/*
 * Copy record @e's bytes to @buf (@size bytes) and check them against its
 * CRC again: what is handed on is what was written, even if the region
 * changed after it was validated.
 */
static int edgedma_region_copy(const struct edgedma_crash_entry *e, void *buf, u32 size)
{
	struct edgedma_crash_record r;

	if (!e->intact)
		return -EBADMSG;
	if (e->length > size)
		return -EMSGSIZE;
	memcpy(&r, edgedma_region + e->offset, sizeof(r));
	if (r.magic != EDGEDMA_CRASH_RECORD_MAGIC || r.length != e->length || r.crc != e->crc)
		return -EAGAIN;
	memcpy(buf, edgedma_region + e->offset + sizeof(r), e->length);
	return edgedma_crc(buf, e->length) == e->crc ? e->length : -EAGAIN;
}

/*
 * Hand every intact record to devcoredump, as its device's dump: the same
 * bytes the crash collectors watching devcoredump get from a live snapshot.
 */
static void edgedma_region_devcoredumps(void)
{
	unsigned int i;

	lockdep_assert_held(&edgedma_crash_lock);
	for (i = 0; i < edgedma_index_len; i++) {
		const struct edgedma_crash_entry *e = &edgedma_index[i];
		void *record;

		if (!e->intact || !edgedma_snapshot_devcoredumps_on())
			continue;
		record = vmalloc(e->length);
		if (!record)
			return;
		if (edgedma_region_copy(e, record, e->length) != e->length) {
			vfree(record);
			continue;
		}
		edgedma_snapshot_devcoredump_record(record, e->length);
	}
}

void edgedma_crash_region_summary(struct edgedma_crash_summary *s)
{
	mutex_lock(&edgedma_crash_lock);
	edgedma_region_refresh();
	if (edgedma_region)
		*s = edgedma_summary;
	else
		*s = (struct edgedma_crash_summary){ .state = EDGEDMA_CRASH_REGION_OFF };
	mutex_unlock(&edgedma_crash_lock);
}

int edgedma_crash_record_info(u32 index, struct edgedma_crash_entry *e)
{
	int err = -ENOENT;

	mutex_lock(&edgedma_crash_lock);
	edgedma_region_refresh();
	if (edgedma_region && index < edgedma_index_len) {
		*e = edgedma_index[index];
		err = 0;
	}
	mutex_unlock(&edgedma_crash_lock);
	return err;
}

int edgedma_crash_record_copy(u32 index, void *buf, u32 size)
{
	int len = -ENOENT;

	mutex_lock(&edgedma_crash_lock);
	edgedma_region_refresh();
	if (edgedma_region && index < edgedma_index_len)
		len = edgedma_region_copy(&edgedma_index[index], buf, size);
	mutex_unlock(&edgedma_crash_lock);
	return len;
}

int edgedma_crash_records_clear(const u64 *boot_id)
{
	int err = 0;

	mutex_lock(&edgedma_crash_lock);
	edgedma_region_refresh();
	if (!edgedma_region) {
		err = -ENODEV;
	} else if (boot_id && (edgedma_summary.state != EDGEDMA_CRASH_REGION_VALID ||
			       edgedma_summary.boot_id != *boot_id)) {
		err = -ESTALE;
	} else {
		memset(edgedma_region, 0, sizeof(struct edgedma_crash_region));
		wmb();
		edgedma_region_validate(false);
	}
	mutex_unlock(&edgedma_crash_lock);
	return err;
}

/* Map @size bytes at @phys (@what: where they were named) and validate them. */
static int edgedma_region_setup(u64 phys, u64 size, const char *what)
{
	if (size < EDGEDMA_CRASH_REGION_MIN || size > EDGEDMA_CRASH_REGION_MAX ||
	    !PAGE_ALIGNED(size) || !PAGE_ALIGNED(phys) || phys + size < phys) {
		pr_err("%s: the size must be 64K to 64M, size and address page aligned\n",
		       what);
		return -ERANGE;
	}
	/* RAM the kernel uses would be overwritten under its feet. */
	if (region_intersects(phys, size, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		pr_err("%s: that is RAM the kernel uses; reserve it (memmap=, or a no-map reserved-memory node)\n",
		       what);
		return -EINVAL;
	}
	/*
	 * Claimed, so that a ramoops (pstore) region or a driver given the
	 * same RAM is refused, by it or by us, instead of both writing it.
	 */
	if (!request_mem_region(phys, size, "edgedma crash region")) {
		pr_err("%s: another driver holds that RAM (ramoops? see /proc/iomem)\n", what);
		return -EBUSY;
	}
	edgedma_region = memremap(phys, size, MEMREMAP_WC);
	if (!edgedma_region) {
		release_mem_region(phys, size);
		pr_err("%s: cannot map it write-combining\n", what);
		return -ENOMEM;
	}
	edgedma_region_phys = phys;
	edgedma_region_size = size;
	edgedma_boot_id = get_random_u64();
	mutex_lock(&edgedma_crash_lock);
	edgedma_region_validate(true);
	edgedma_region_devcoredumps();
	mutex_unlock(&edgedma_crash_lock);
	return 0;
}

int edgedma_crash_region_init(void)
{
	unsigned long long size, phys;
	char what[64];
	char *end;

	if (!crash_region || !*crash_region)
		return 0;
	size = memparse(crash_region, &end);
	if (*end != '@' || kstrtoull(end + 1, 0, &phys)) {
		pr_err("crash_region=%s: give SIZE@PHYS, e.g. 1M@0x30000000\n", crash_region);
		return -EINVAL;
	}
	snprintf(what, sizeof(what), "crash_region=%s", crash_region);
	return edgedma_region_setup(phys, size, what);
}

int edgedma_crash_region_from_dt(u64 phys, u64 size)
{
	char what[64];

	/* The parameter wins: it is what the user gave this load. */
	if (edgedma_region)
		return 0;
	snprintf(what, sizeof(what), "device-tree memory-region %#llx+%#llx", phys, size);
	return edgedma_region_setup(phys, size, what);
}

void edgedma_crash_region_exit(void)
{
	if (edgedma_region) {
		memunmap(edgedma_region);
		release_mem_region(edgedma_region_phys, edgedma_region_size);
	}
	edgedma_region = NULL;
	kvfree(edgedma_index);
	edgedma_index = NULL;
	edgedma_index_len = 0;
}

void edgedma_crash_region_write(bool panic)
{
	struct edgedma_crash_region h = {
		.magic = EDGEDMA_CRASH_REGION_MAGIC,
		.version = EDGEDMA_CRASH_FORMAT_VERSION,
		.header_size = sizeof(h),
		.region_size = edgedma_region_size,
		.boot_id = edgedma_boot_id,
	};
	u64 seq, oldest = edgedma_snapshot_oldest(), at = sizeof(h);

	if (!edgedma_region)
		return;
	if (atomic_cmpxchg(&edgedma_region_written, REGION_UNWRITTEN, REGION_WRITING) !=
	    REGION_UNWRITTEN &&
	    (!panic ||
	     atomic_cmpxchg(&edgedma_region_written, REGION_WRITTEN, REGION_WRITING) !=
	     REGION_WRITTEN))
		return;
	/* No header while the records change: a reset now leaves none. */
	WRITE_ONCE(*(u64 *)edgedma_region, 0);
	wmb();
	for (seq = edgedma_snapshot_newest(); seq && seq >= oldest; seq--) {
		struct edgedma_crash_record r = {
			.magic = EDGEDMA_CRASH_RECORD_MAGIC,
			.seq = seq,
		};
		u8 *body = edgedma_region + at + sizeof(r);
		int len;

		if (at + sizeof(r) >= edgedma_region_size)
			break;
		len = edgedma_snapshot_copy_crc(seq, body,
						edgedma_region_size - at - sizeof(r), &r.crc);
		if (len <= 0)
			continue;	/* reused meanwhile, or too big for what is left */
		r.length = len;
		memcpy(edgedma_region + at, &r, sizeof(r));
		at += ALIGN(sizeof(r) + len, 8);
		h.records++;
	}
	/* The fast clock: a stopped CPU may hold timekeeping's seqcount. */
	h.written_ns = ktime_get_real_fast_ns();
	h.crc = edgedma_region_header_crc(&h);
	wmb();
	memcpy(edgedma_region, &h, sizeof(h));
	wmb();
	atomic_set(&edgedma_region_written, REGION_WRITTEN);
	pr_emerg("crash region: %u snapshots written (%llu bytes)\n", h.records, at);
}
