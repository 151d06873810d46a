/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICE_CACHE_H
#define _EDGEDMA_DEVICE_CACHE_H

#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/percpu.h>

#include "policy.h"

struct edgedma_devrec;

/* The CPU's last DMA call's device, its record and resolved policy. */
struct edgedma_device_cache {
	struct device *dev;
	const char *kobj_name;
	const struct device_driver *driver;
	struct edgedma_devrec *rec;
	unsigned int policy_generation;
	struct edgedma_policy policy;
};

DECLARE_PER_CPU(struct edgedma_device_cache, edgedma_device_caches);

struct edgedma_devrec *edgedma_device_lookup_slow(struct edgedma_device_cache *c,
						  struct device *dev,
						  const struct device_driver *driver,
						  unsigned int generation);

/*
 * The device record of a DMA call's device and its resolved policy (in
 * *@policy, valid until the CPU's next call), from the CPU's cache of its
 * last call when nothing they depend on changed since. Hook context,
 * interrupts off. NULL when the device table is full. Inline: every call
 * takes it.
 */
static inline struct edgedma_devrec *
edgedma_device_lookup(struct device *dev, const struct edgedma_policy **policy)
{
	struct edgedma_device_cache *c = this_cpu_ptr(&edgedma_device_caches);
	/* Read once: an unbind racing with us may clear it under our feet. */
	const struct device_driver *driver = READ_ONCE(dev->driver);
	/* Read before the policy is: a change after it refreshes the next call. */
	unsigned int generation = edgedma_policy_generation();

	*policy = &c->policy;
	if (likely(c->dev == dev && c->kobj_name == dev->kobj.name &&
		   c->driver == driver && c->policy_generation == generation))
		return c->rec;
	return edgedma_device_lookup_slow(c, dev, driver, generation);
}

#endif /* _EDGEDMA_DEVICE_CACHE_H */
