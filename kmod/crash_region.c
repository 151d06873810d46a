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

#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <uapi/linux/edgedma.h>

#include "crash_region.h"
#include "snapshot_store.h"

#define EDGEDMA_CRASH_REGION_MIN	SZ_64K
#define EDGEDMA_CRASH_REGION_MAX	SZ_64M

/* "" when off, not NULL: reloads copy every parameter's value back. */
static char *crash_region = "";
module_param(crash_region, charp, 0444);
MODULE_PARM_DESC(crash_region,
		 "SIZE@PHYS: RAM kept across a warm reboot (memmap= or a no-map reserved-memory node), 64K to 64M, page aligned, where snapshots are written at oops and panic");

static u8 *edgedma_region;
static u64 edgedma_region_size;
static u64 edgedma_boot_id;
static atomic_t edgedma_region_written = ATOMIC_INIT(0);

/* CRC-32 as zlib computes it. */
static u32 edgedma_crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);
}

static u32 edgedma_region_header_crc(const struct edgedma_crash_region *h)
{
	struct edgedma_crash_region copy = *h;

	copy.crc = 0;
	return edgedma_crc(&copy, sizeof(copy));
}

/* What an earlier boot left, said in one line with the first problem. */
static void edgedma_region_validate(void)
{
	struct edgedma_crash_region h;
	u64 at = sizeof(h), left;
	unsigned int intact = 0, corrupt = 0, i;
	char why[96] = "";
	u32 crc;

	memcpy(&h, edgedma_region, sizeof(h));
	if (h.magic != EDGEDMA_CRASH_REGION_MAGIC) {
		pr_info("crash region of %llu KiB: no records from an earlier boot\n",
			edgedma_region_size >> 10);
		return;
	}
	crc = edgedma_region_header_crc(&h);
	if (crc != h.crc) {
		pr_warn("crash region of %llu KiB: its header is corrupt (CRC %#x, the bytes give %#x)\n",
			edgedma_region_size >> 10, h.crc, crc);
		return;
	}
	if (h.version != EDGEDMA_CRASH_FORMAT_VERSION || h.header_size != sizeof(h)) {
		pr_warn("crash region of %llu KiB: format %u with a %u-byte header, not %u and %zu\n",
			edgedma_region_size >> 10, h.version, h.header_size,
			EDGEDMA_CRASH_FORMAT_VERSION, sizeof(h));
		return;
	}
	for (i = 0; i < h.records; i++) {
		struct edgedma_crash_record r;

		/* at only moves past checked lengths; never trust that below. */
		left = at < edgedma_region_size ? edgedma_region_size - at : 0;
		if (left < sizeof(r)) {
			snprintf(why, sizeof(why), "record %u: its header runs past the region's end", i);
			corrupt += h.records - i;
			break;
		}
		memcpy(&r, edgedma_region + at, sizeof(r));
		if (r.magic != EDGEDMA_CRASH_RECORD_MAGIC) {
			snprintf(why, sizeof(why), "record %u: bad magic %#llx", i, r.magic);
			corrupt += h.records - i;
			break;
		}
		if (r.length > left - sizeof(r)) {
			snprintf(why, sizeof(why), "record %u: length %u runs past the region's end (%llu bytes left)",
				 i, r.length, left - sizeof(r));
			corrupt += h.records - i;
			break;
		}
		if (edgedma_crc(edgedma_region + at + sizeof(r), r.length) != r.crc) {
			if (!why[0])
				snprintf(why, sizeof(why), "record %u (snapshot %llu): CRC mismatch", i, r.seq);
			corrupt++;
		} else {
			intact++;
		}
		at += ALIGN(sizeof(r) + r.length, 8);
	}
	pr_info("crash region of %llu KiB: %u records from an earlier boot intact, %u corrupt%s%s\n",
		edgedma_region_size >> 10, intact, corrupt, why[0] ? ": " : "", why);
}

int edgedma_crash_region_init(void)
{
	unsigned long long size, phys;
	char *end;

	if (!crash_region || !*crash_region)
		return 0;
	size = memparse(crash_region, &end);
	if (*end != '@' || kstrtoull(end + 1, 0, &phys)) {
		pr_err("crash_region=%s: give SIZE@PHYS, e.g. 1M@0x30000000\n", crash_region);
		return -EINVAL;
	}
	if (size < EDGEDMA_CRASH_REGION_MIN || size > EDGEDMA_CRASH_REGION_MAX ||
	    !PAGE_ALIGNED(size) || !PAGE_ALIGNED(phys) || phys + size < phys) {
		pr_err("crash_region=%s: the size must be 64K to 64M, size and address page aligned\n",
		       crash_region);
		return -ERANGE;
	}
	/* RAM the kernel uses would be overwritten under its feet. */
	if (region_intersects(phys, size, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		pr_err("crash_region=%s: that is RAM the kernel uses; reserve it (memmap=, or a no-map reserved-memory node)\n",
		       crash_region);
		return -EINVAL;
	}
	edgedma_region = memremap(phys, size, MEMREMAP_WC);
	if (!edgedma_region) {
		pr_err("crash_region=%s: cannot map it write-combining\n", crash_region);
		return -ENOMEM;
	}
	edgedma_region_size = size;
	edgedma_boot_id = get_random_u64();
	edgedma_region_validate();
	return 0;
}

void edgedma_crash_region_exit(void)
{
	if (edgedma_region)
		memunmap(edgedma_region);
	edgedma_region = NULL;
}

void edgedma_crash_region_write(void)
{
	struct edgedma_crash_region h = {
		.magic = EDGEDMA_CRASH_REGION_MAGIC,
		.version = EDGEDMA_CRASH_FORMAT_VERSION,
		.header_size = sizeof(h),
		.region_size = edgedma_region_size,
		.boot_id = edgedma_boot_id,
	};
	u64 seq, oldest = edgedma_snapshot_oldest(), at = sizeof(h);

	if (!edgedma_region || atomic_xchg(&edgedma_region_written, 1))
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
		len = edgedma_snapshot_copy(seq, body, edgedma_region_size - at - sizeof(r),
					    false, NULL);
		if (len <= 0)
			continue;	/* reused meanwhile, or too big for what is left */
		r.length = len;
		r.crc = edgedma_crc(body, len);
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
	pr_emerg("crash region: %u snapshots written (%llu bytes)\n", h.records, at);
}
