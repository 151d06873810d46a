// SPDX-License-Identifier: GPL-2.0
/*
 * The devices that make DMA-mapping calls, in a fixed open-addressed table
 * that hooks search and fill without locks (cmpxchg on the slot's device).
 */
#include <linux/device.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "devices.h"
#include "edgedma.h"

static unsigned int device_slots = 256;
module_param(device_slots, uint, 0444);
MODULE_PARM_DESC(device_slots, "Devices edgedma can tell apart (default 256)");

static struct edgedma_devrec *edgedma_devrecs;
static unsigned int edgedma_devrec_mask;
static DEFINE_PER_CPU(u64, edgedma_untracked_calls);

static void edgedma_devrec_fill(struct edgedma_devrec *rec, struct device *dev)
{
	rec->kobj_name = dev->kobj.name;
	strscpy(rec->name, dev_name(dev) ?: "?", sizeof(rec->name));
	rec->driver[0] = '\0';
	rec->driver_seen = NULL;
	WRITE_ONCE(rec->complete, false);
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
		if (READ_ONCE(rec->kobj_name) != dev->kobj.name)
			edgedma_devrec_fill(rec, dev);
		return rec;
	}
	this_cpu_inc(edgedma_untracked_calls);
	return NULL;
}

void edgedma_devrec_refresh_driver(struct edgedma_devrec *rec,
				   struct device *dev)
{
	const struct device_driver *drv = READ_ONCE(dev->driver);

	/* Cheap on the hook path: only a change of driver copies the name. */
	if (drv == READ_ONCE(rec->driver_seen))
		return;
	strscpy(rec->driver, drv ? drv->name : "", sizeof(rec->driver));
	WRITE_ONCE(rec->driver_seen, drv);
}

void edgedma_devrec_view_starts(struct device *dev)
{
	struct edgedma_devrec *rec;

	/* Hooks half armed (loading) or gone (unloading): nothing to trust. */
	if (!edgedma_hook_mode_active())
		return;
	rec = edgedma_devrec_get(dev);
	if (rec)
		WRITE_ONCE(rec->complete, true);
}

u64 edgedma_devices_untracked(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(edgedma_untracked_calls, cpu);
	return sum;
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
	return (edgedma_devrec_mask + 1) * sizeof(*edgedma_devrecs);
}

int __init edgedma_devices_init(void)
{
	unsigned int slots = roundup_pow_of_two(max(device_slots, 16U));

	edgedma_devrecs = kvcalloc(slots, sizeof(*edgedma_devrecs), GFP_KERNEL);
	if (!edgedma_devrecs)
		return -ENOMEM;
	edgedma_devrec_mask = slots - 1;
	return 0;
}

void edgedma_devices_exit(void)
{
	kvfree(edgedma_devrecs);
}
