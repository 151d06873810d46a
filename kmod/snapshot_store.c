// SPDX-License-Identifier: GPL-2.0
/*
 * The store of snapshot records (see snapshot_store.h).
 *
 * Snapshot n goes to slot (n - 1) % snapshot_slots, so the store keeps the
 * newest snapshot_slots of them and a slot's owner is known from the seq
 * alone. Each slot has a generation: odd while a writer fills it, even
 * when stable. A writer claims a slot by moving its generation from even
 * to odd with a compare-and-exchange, so two triggers can never write one
 * slot; the loser drops its snapshot, which is counted. Readers copy the
 * slot and then check that the generation did not move, the way a seqcount
 * reader does, but without ever waiting for a writer: a writer may be a
 * CPU stopped by a panic.
 *
 * A work item tells the events group of each new snapshot and publishes it
 * as a devcoredump of its device: the same bytes, for the crash collectors
 * that watch devcoredump (the record is copied out of its slot there, in
 * process context).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/devcoredump.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include <net/netlink.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "edgedma.h"
#include "netlink.h"
#include "snapshot_record.h"
#include "snapshot_store.h"

static unsigned int snapshot_slots = 8;
module_param(snapshot_slots, uint, 0444);
MODULE_PARM_DESC(snapshot_slots, "Snapshots kept, the newest first, 1 to 1024 (default 8)");

static unsigned int snapshot_size = 32768;
module_param(snapshot_size, uint, 0444);
MODULE_PARM_DESC(snapshot_size, "Bytes of one snapshot record, 4096 to 1048576 (default 32768)");

static bool snapshot_devcoredump = true;
module_param(snapshot_devcoredump, bool, 0644);
MODULE_PARM_DESC(snapshot_devcoredump, "Publish each snapshot (not those at panic) as a devcoredump of its device (default Y)");

static unsigned int snapshot_rate = 4;
module_param(snapshot_rate, uint, 0444);
MODULE_PARM_DESC(snapshot_rate, "Snapshots a second per device, 1 to 1000 (default 4); triggers beyond it are counted, not taken");

struct edgedma_snapshot_slot {
	atomic_t generation;	/* odd: being written */
	u64 seq;		/* of the record held; 0: none */
	u32 len;
	u32 header_len;
	atomic_t announce;	/* 1: the events group is yet to hear of it */
	u8 *data;
};

static struct edgedma_snapshot_slot *edgedma_slots;
static u8 *edgedma_slot_data;

static atomic64_t edgedma_snapshot_seq = ATOMIC64_INIT(0);
static atomic64_t edgedma_snapshot_count = ATOMIC64_INIT(0);
static atomic64_t edgedma_snapshot_suppressed = ATOMIC64_INIT(0);
static atomic64_t edgedma_snapshot_dropped = ATOMIC64_INIT(0);
static atomic64_t edgedma_snapshot_truncated = ATOMIC64_INIT(0);
static atomic64_t edgedma_snapshot_capture_max = ATOMIC64_INIT(0);
static atomic64_t edgedma_devcoredumps_published = ATOMIC64_INIT(0);

static void edgedma_snapshot_announce_fn(struct work_struct *work);
static DECLARE_WORK(edgedma_snapshot_announce_work, edgedma_snapshot_announce_fn);
static struct irq_work edgedma_snapshot_kick;

bool edgedma_snapshot_rate_allows(struct edgedma_snapshot_rate *rate)
{
	u64 now = ktime_get_mono_fast_ns();
	s64 start = atomic64_read(&rate->window_ns);

	/*
	 * A new one-second window: whoever moves its start resets the count.
	 * Two CPUs racing here may let a few more through in one second,
	 * never an unbounded number.
	 */
	if (now - start >= NSEC_PER_SEC &&
	    atomic64_cmpxchg(&rate->window_ns, start, now) == start)
		atomic_set(&rate->used, 0);
	if (atomic_inc_return(&rate->used) <= snapshot_rate)
		return true;
	atomic64_inc(&edgedma_snapshot_suppressed);
	return false;
}

static struct edgedma_snapshot_slot *edgedma_slot_of(u64 seq)
{
	return &edgedma_slots[(seq - 1) % snapshot_slots];
}

struct edgedma_snapshot_slot *edgedma_snapshot_claim(u64 *seq, void **buf,
						     u32 *size)
{
	u64 n = atomic64_inc_return(&edgedma_snapshot_seq);
	struct edgedma_snapshot_slot *slot = edgedma_slot_of(n);
	int gen = atomic_read(&slot->generation);

	if ((gen & 1) || atomic_cmpxchg(&slot->generation, gen, gen + 1) != gen) {
		atomic64_inc(&edgedma_snapshot_dropped);
		return NULL;
	}
	/* Readers of the old record see the odd generation from here on. */
	smp_mb__after_atomic();
	slot->seq = n;
	slot->len = 0;
	atomic_set(&slot->announce, 0);
	*seq = n;
	*buf = slot->data;
	*size = snapshot_size;
	return slot;
}

void edgedma_snapshot_commit(struct edgedma_snapshot_slot *slot, u32 len,
			     u32 header_len, bool truncated, bool announce)
{
	slot->len = len;
	slot->header_len = header_len;
	atomic_set(&slot->announce, announce);
	/* The record, then the even generation that makes it readable. */
	atomic_inc_return_release(&slot->generation);
	atomic64_inc(&edgedma_snapshot_count);
	if (truncated)
		atomic64_inc(&edgedma_snapshot_truncated);
	if (announce)
		irq_work_queue(&edgedma_snapshot_kick);
}

static int edgedma_snapshot_copy_out(u64 seq, void *buf, u32 size, bool header_only,
				     u32 *record_size, u32 *crc)
{
	struct edgedma_snapshot_slot *slot;
	u32 len, full;
	int gen;

	if (!seq || seq > atomic64_read(&edgedma_snapshot_seq))
		return -ENOENT;
	slot = edgedma_slot_of(seq);
	gen = atomic_read_acquire(&slot->generation);
	if ((gen & 1) || READ_ONCE(slot->seq) != seq)
		return -ENOENT;
	full = READ_ONCE(slot->len);
	len = header_only ? READ_ONCE(slot->header_len) : full;
	if (len > snapshot_size)
		return -ENOENT;
	if (len > size)
		return -EMSGSIZE;
	memcpy(buf, slot->data, len);
	if (crc)
		*crc = edgedma_crc(slot->data, len);
	/* The copy, then the generation check. */
	smp_rmb();
	if (atomic_read(&slot->generation) != gen)
		return -ENOENT;
	if (record_size)
		*record_size = full;
	return len;
}

int edgedma_snapshot_copy(u64 seq, void *buf, u32 size, bool header_only,
			  u32 *record_size)
{
	return edgedma_snapshot_copy_out(seq, buf, size, header_only, record_size, NULL);
}

int edgedma_snapshot_copy_crc(u64 seq, void *buf, u32 size, u32 *crc)
{
	return edgedma_snapshot_copy_out(seq, buf, size, false, NULL, crc);
}

u32 edgedma_snapshot_size(u64 seq)
{
	struct edgedma_snapshot_slot *slot;
	u32 len;
	int gen;

	if (!seq || seq > atomic64_read(&edgedma_snapshot_seq))
		return 0;
	slot = edgedma_slot_of(seq);
	gen = atomic_read_acquire(&slot->generation);
	if ((gen & 1) || READ_ONCE(slot->seq) != seq)
		return 0;
	len = READ_ONCE(slot->len);
	smp_rmb();
	return atomic_read(&slot->generation) == gen ? len : 0;
}

u64 edgedma_snapshot_newest(void)
{
	return atomic64_read(&edgedma_snapshot_seq);
}

u64 edgedma_snapshot_oldest(void)
{
	u64 newest = edgedma_snapshot_newest();

	return newest > snapshot_slots ? newest - snapshot_slots + 1 : 1;
}

u32 edgedma_snapshot_max_size(void)
{
	return snapshot_size;
}

/* The stored snapshot with the lowest seq the events group has not heard of. */
static struct edgedma_snapshot_slot *edgedma_snapshot_unannounced(void)
{
	struct edgedma_snapshot_slot *first = NULL;
	unsigned int i;

	for (i = 0; i < snapshot_slots; i++) {
		struct edgedma_snapshot_slot *slot = &edgedma_slots[i];

		if (atomic_read(&slot->announce) &&
		    (!first || READ_ONCE(slot->seq) < READ_ONCE(first->seq)))
			first = slot;
	}
	return first;
}

bool edgedma_snapshot_devcoredumps_on(void)
{
	return READ_ONCE(snapshot_devcoredump);
}

void edgedma_snapshot_devcoredump_record(void *record, u32 len)
{
	const struct nlattr *name;
	struct device *dev;

	name = edgedma_record_find(record, min_t(u32, len, EDGEDMA_SNAPSHOT_HEADER_MAX),
				   EDGEDMA_A_SNAPSHOT_DEVICE);
	if (!name || !nla_len(name) || ((const char *)nla_data(name))[nla_len(name) - 1]) {
		vfree(record);
		return;
	}
	dev = edgedma_find_device_by_name(nla_data(name));
	if (!dev) {
		vfree(record);
		return;
	}
	/* The devcoredump core frees the record (vfree: not this module's code). */
	dev_coredumpv(dev, record, len, GFP_KERNEL);
	atomic64_inc(&edgedma_devcoredumps_published);
	put_device(dev);
}

/* Publish stored snapshot @seq, of @record_size bytes, as a devcoredump. */
static void edgedma_snapshot_devcoredump(u64 seq, u32 record_size)
{
	void *record = vmalloc(record_size);
	int len;

	if (!record)
		return;
	len = edgedma_snapshot_copy(seq, record, record_size, false, NULL);
	if (len <= 0) {
		vfree(record);
		return;
	}
	edgedma_snapshot_devcoredump_record(record, len);
}

/*
 * Tell the events group of every snapshot stored since the last time, in
 * seq order, and publish each as a devcoredump. A slot reused before this
 * ran is told of once, as its newest record; the reader finds the gap in
 * the seqs.
 */
static void edgedma_snapshot_announce_fn(struct work_struct *work)
{
	struct edgedma_snapshot_slot *slot;
	u8 *header;

	header = kmalloc(EDGEDMA_SNAPSHOT_HEADER_MAX, GFP_KERNEL);
	if (!header)
		return;
	while ((slot = edgedma_snapshot_unannounced())) {
		u64 seq = READ_ONCE(slot->seq);
		u32 record_size;
		int len;

		atomic_set(&slot->announce, 0);
		len = edgedma_snapshot_copy(seq, header, EDGEDMA_SNAPSHOT_HEADER_MAX,
					    true, &record_size);
		if (len <= 0)
			continue;
		edgedma_nl_notify_snapshot(header, len, record_size);
		if (edgedma_snapshot_devcoredumps_on())
			edgedma_snapshot_devcoredump(seq, record_size);
	}
	kfree(header);
}

static void edgedma_snapshot_kick_fn(struct irq_work *work)
{
	schedule_work(&edgedma_snapshot_announce_work);
}

void edgedma_snapshot_capture_took(u32 len, u64 ns)
{
	s64 max = atomic64_read(&edgedma_snapshot_capture_max);

	while ((s64)ns > max) {
		s64 seen = atomic64_cmpxchg(&edgedma_snapshot_capture_max, max, ns);

		if (seen == max)
			break;
		max = seen;
	}
}

u64 edgedma_snapshot_capture_max_ns(void)
{
	return atomic64_read(&edgedma_snapshot_capture_max);
}

u64 edgedma_snapshots_stored(void)
{
	return atomic64_read(&edgedma_snapshot_count);
}

u64 edgedma_snapshots_suppressed(void)
{
	return atomic64_read(&edgedma_snapshot_suppressed);
}

u64 edgedma_snapshots_dropped(void)
{
	return atomic64_read(&edgedma_snapshot_dropped);
}

u64 edgedma_snapshots_truncated(void)
{
	return atomic64_read(&edgedma_snapshot_truncated);
}

u64 edgedma_snapshot_devcoredumps(void)
{
	return atomic64_read(&edgedma_devcoredumps_published);
}

size_t edgedma_snapshot_memory(void)
{
	return (size_t)snapshot_slots * (snapshot_size + sizeof(*edgedma_slots));
}

int __init edgedma_snapshot_store_init(void)
{
	unsigned int i;
	int err;

	err = edgedma_param_check("snapshot_slots", snapshot_slots, 1, 1024) ?:
	      edgedma_param_check("snapshot_size", snapshot_size, 4096, 1U << 20) ?:
	      edgedma_param_check("snapshot_rate", snapshot_rate, 1, 1000);
	if (err)
		return err;
	edgedma_slots = kcalloc(snapshot_slots, sizeof(*edgedma_slots), GFP_KERNEL);
	edgedma_slot_data = vzalloc((size_t)snapshot_slots * snapshot_size);
	if (!edgedma_slots || !edgedma_slot_data) {
		kfree(edgedma_slots);
		vfree(edgedma_slot_data);
		return -ENOMEM;
	}
	for (i = 0; i < snapshot_slots; i++)
		edgedma_slots[i].data = edgedma_slot_data + (size_t)i * snapshot_size;
	init_irq_work(&edgedma_snapshot_kick, edgedma_snapshot_kick_fn);
	return 0;
}

/* After every trigger is gone and the family is unregistered. */
void edgedma_snapshot_store_exit(void)
{
	irq_work_sync(&edgedma_snapshot_kick);
	cancel_work_sync(&edgedma_snapshot_announce_work);
	vfree(edgedma_slot_data);
	kfree(edgedma_slots);
}
