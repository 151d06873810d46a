// SPDX-License-Identifier: GPL-2.0
/*
 * The devices that make DMA-mapping calls, in a fixed open-addressed table
 * that hooks search and fill without locks (cmpxchg on the slot's device).
 */
#include <linux/device.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "devices.h"
#include "edgedma.h"

#define EDGEDMA_DEVICE_SLOTS_MIN	16
#define EDGEDMA_DEVICE_SLOTS_MAX	1024

static unsigned int device_slots = 256;
module_param(device_slots, uint, 0444);
MODULE_PARM_DESC(device_slots, "Devices edgedma can tell apart, 16 to 1024 (default 256)");

struct edgedma_devrec *edgedma_devrecs;
static unsigned int edgedma_devrec_mask;
static DEFINE_PER_CPU(u64, edgedma_untracked_calls);
/* EDGEDMA_DEV_COUNTERS counters per slot, per CPU. */
s64 __percpu *edgedma_dev_counters;

static s64 edgedma_devrec_counter_sum(unsigned int slot,
				      enum edgedma_devrec_counter counter)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(edgedma_devrec_counter(&edgedma_devrecs[slot], counter), cpu);
	return sum;
}

static void edgedma_devrec_counters_reset(unsigned int slot)
{
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < EDGEDMA_DEV_COUNTERS; i++)
			WRITE_ONCE(*per_cpu_ptr(edgedma_devrec_counter(&edgedma_devrecs[slot], i),
						cpu), 0);
}

/* Hook context: the caller runs with interrupts off (edgedma_track_call). */
static void edgedma_devrec_fill(struct edgedma_devrec *rec, struct device *dev)
{
	raw_spin_lock(&rec->names_lock);
	write_seqcount_begin(&rec->names_seq);
	rec->kobj_name = dev->kobj.name;
	strscpy(rec->name, dev_name(dev) ?: "?", sizeof(rec->name));
	rec->driver[0] = '\0';
	WRITE_ONCE(rec->driver_seen, NULL);
	write_seqcount_end(&rec->names_seq);
	raw_spin_unlock(&rec->names_lock);
	WRITE_ONCE(rec->complete, false);
	WRITE_ONCE(rec->sync_kept, false);
	WRITE_ONCE(rec->gone, false);
	edgedma_devrec_refresh_driver(rec, dev);
	atomic_set_release(&rec->ready, 1);
}

struct edgedma_devrec *edgedma_devrec_find(struct device *dev)
{
	unsigned int i, start = hash_ptr(dev, 32) & edgedma_devrec_mask;

	for (i = 0; i <= edgedma_devrec_mask; i++) {
		struct edgedma_devrec *rec =
			&edgedma_devrecs[(start + i) & edgedma_devrec_mask];
		struct device *owner = READ_ONCE(rec->dev);

		if (!owner)
			return NULL;
		if (owner == dev)
			return READ_ONCE(rec->kobj_name) == dev->kobj.name ? rec : NULL;
	}
	return NULL;
}

struct edgedma_devrec *edgedma_devrec_get(struct device *dev)
{
	unsigned int i, start = hash_ptr(dev, 32) & edgedma_devrec_mask;

	for (i = 0; i <= edgedma_devrec_mask; i++) {
		struct edgedma_devrec *rec =
			&edgedma_devrecs[(start + i) & edgedma_devrec_mask];
		struct device *owner = READ_ONCE(rec->dev);

		if (!owner) {
			owner = cmpxchg(&rec->dev, NULL, dev);
			if (!owner) {
				edgedma_devrec_fill(rec, dev);
				return rec;
			}
		}
		if (owner != dev)
			continue;
		if (!atomic_read_acquire(&rec->ready))
			return rec;	/* being filled by another CPU right now */
		/* Same address, another device: the old one was freed. */
		if (READ_ONCE(rec->kobj_name) != dev->kobj.name) {
			edgedma_devrec_fill(rec, dev);
			edgedma_devrec_counters_reset(edgedma_devrec_slot(rec));
		}
		return rec;
	}
	this_cpu_inc(edgedma_untracked_calls);
	return NULL;
}

void edgedma_devrec_refresh_driver(struct edgedma_devrec *rec,
				   struct device *dev)
{
	/* Read once: an unbind racing with us may clear it under our feet. */
	const struct device_driver *drv = READ_ONCE(dev->driver);
	unsigned long flags;

	/* Cheap on the hook path: only a change of driver copies the name. */
	if (drv == READ_ONCE(rec->driver_seen))
		return;
	raw_spin_lock_irqsave(&rec->names_lock, flags);
	write_seqcount_begin(&rec->names_seq);
	strscpy(rec->driver, drv ? drv->name : "", sizeof(rec->driver));
	WRITE_ONCE(rec->driver_seen, drv);
	write_seqcount_end(&rec->names_seq);
	raw_spin_unlock_irqrestore(&rec->names_lock, flags);
}

void edgedma_devrec_names(const struct edgedma_devrec *rec,
			  char name[EDGEDMA_NAME_LEN], char driver[EDGEDMA_NAME_LEN])
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&rec->names_seq);
		if (name)
			memcpy(name, rec->name, EDGEDMA_NAME_LEN);
		if (driver)
			memcpy(driver, rec->driver, EDGEDMA_NAME_LEN);
	} while (read_seqcount_retry(&rec->names_seq, seq));
	if (name)
		name[EDGEDMA_NAME_LEN - 1] = '\0';
	if (driver)
		driver[EDGEDMA_NAME_LEN - 1] = '\0';
}

void edgedma_devrec_view_starts(struct device *dev)
{
	struct edgedma_devrec *rec;
	unsigned long flags;

	/* Hooks half armed (loading) or gone (unloading): nothing to trust. */
	if (!edgedma_hook_mode_active())
		return;
	/* Claiming a slot runs as in hook context, with interrupts off. */
	local_irq_save(flags);
	rec = edgedma_devrec_get(dev);
	local_irq_restore(flags);
	if (rec)
		WRITE_ONCE(rec->complete, true);
}

bool edgedma_device_info_next(unsigned long *slot, struct edgedma_device_info *out)
{
	for (; *slot <= edgedma_devrec_mask; (*slot)++) {
		struct edgedma_devrec *rec = &edgedma_devrecs[*slot];

		if (!READ_ONCE(rec->dev) || !atomic_read_acquire(&rec->ready))
			continue;
		edgedma_devrec_names(rec, out->name, out->driver);
		out->calls = edgedma_devrec_counter_sum(*slot, EDGEDMA_DEV_CALLS);
		out->mappings_live = max_t(s64, 0,
			edgedma_devrec_counter_sum(*slot, EDGEDMA_DEV_LIVE));
		out->findings = edgedma_devrec_counter_sum(*slot, EDGEDMA_DEV_FINDINGS);
		out->complete = READ_ONCE(rec->complete);
		out->sync_kept = READ_ONCE(rec->sync_kept);
		(*slot)++;
		return true;
	}
	return false;
}

u64 edgedma_devices_untracked(void)
{
	return edgedma_percpu_sum(edgedma_untracked_calls);
}

struct device *edgedma_devrec_search(bool (*match)(struct device *dev, const void *key),
				     const void *key)
{
	unsigned int i;

	for (i = 0; i <= edgedma_devrec_mask; i++) {
		struct edgedma_devrec *rec = &edgedma_devrecs[i];
		struct device *dev = READ_ONCE(rec->dev);

		if (!dev || !atomic_read_acquire(&rec->ready) || READ_ONCE(rec->gone))
			continue;
		if (match(dev, key))
			return dev;
	}
	return NULL;
}

unsigned int edgedma_devrec_for_each_mapping(void (*fn)(struct device *dev, void *arg),
					     void *arg)
{
	unsigned int i, n = 0;

	for (i = 0; i <= edgedma_devrec_mask; i++) {
		struct edgedma_devrec *rec = &edgedma_devrecs[i];
		struct device *dev = READ_ONCE(rec->dev);

		if (!dev || !atomic_read_acquire(&rec->ready) || READ_ONCE(rec->gone) ||
		    edgedma_devrec_counter_sum(i, EDGEDMA_DEV_LIVE) <= 0)
			continue;
		fn(dev, arg);
		n++;
	}
	return n;
}

void edgedma_devrec_device_gone(struct device *dev)
{
	struct edgedma_devrec *rec = edgedma_devrec_find(dev);

	if (rec)
		WRITE_ONCE(rec->gone, true);
}

struct device *edgedma_find_device_by_name(const char *name)
{
	struct device *dev = NULL;

#ifdef CONFIG_PCI
	dev = bus_find_device_by_name(&pci_bus_type, NULL, name);
#endif
	if (!dev)
		dev = bus_find_device_by_name(&platform_bus_type, NULL, name);
	return dev;
}

size_t edgedma_devices_memory(void)
{
	size_t slots = edgedma_devrec_mask + 1;

	return slots * sizeof(*edgedma_devrecs) +
	       num_possible_cpus() * slots * EDGEDMA_DEV_COUNTERS * sizeof(s64);
}

int __init edgedma_devices_init(void)
{
	unsigned int slots, i;
	int err;

	err = edgedma_param_check("device_slots", device_slots,
				  EDGEDMA_DEVICE_SLOTS_MIN, EDGEDMA_DEVICE_SLOTS_MAX);
	if (err)
		return err;
	slots = roundup_pow_of_two(device_slots);
	edgedma_devrecs = kvcalloc(slots, sizeof(*edgedma_devrecs), GFP_KERNEL);
	edgedma_dev_counters = __alloc_percpu(slots * EDGEDMA_DEV_COUNTERS * sizeof(s64),
					      sizeof(s64));
	if (!edgedma_devrecs || !edgedma_dev_counters) {
		edgedma_devices_exit();
		return -ENOMEM;
	}
	for (i = 0; i < slots; i++) {
		edgedma_devrecs[i].slot = i;
		raw_spin_lock_init(&edgedma_devrecs[i].names_lock);
		seqcount_raw_spinlock_init(&edgedma_devrecs[i].names_seq,
					   &edgedma_devrecs[i].names_lock);
	}
	edgedma_devrec_mask = slots - 1;
	return 0;
}

void edgedma_devices_exit(void)
{
	free_percpu(edgedma_dev_counters);
	kvfree(edgedma_devrecs);
	edgedma_dev_counters = NULL;
	edgedma_devrecs = NULL;
}
