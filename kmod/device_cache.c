// SPDX-License-Identifier: GPL-2.0
/*
 * A per-CPU cache of the device the last DMA call on this CPU was for: its
 * record in the device table and its resolved policy.
 *
 * A driver maps and unmaps for one device in bursts (a NIC's rings, a
 * camera's frames), and finding the record (a hash probe) and resolving
 * the policy (the defaults, the device's own coherency, every rule) were a
 * third of the hooks' work per call. Both depend only on the device (this
 * incarnation of it: its kobject name tells a device freed and another
 * allocated at the same address), its driver (driver rules, the record's
 * driver name) and the rules (edgedma_policy_generation()): the cache is
 * used while all of these are the same, and refreshed otherwise.
 *
 * The hooks run with interrupts off and never in NMI, so a CPU's entry is
 * only ever used by one call at a time.
 */
#include <linux/device.h>
#include <linux/percpu.h>

#include "device_cache.h"
#include "devices.h"
#include "policy.h"

struct edgedma_device_cache {
	struct device *dev;
	const char *kobj_name;
	const struct device_driver *driver;
	struct edgedma_devrec *rec;
	unsigned int policy_generation;
	struct edgedma_policy policy;
};

static DEFINE_PER_CPU(struct edgedma_device_cache, edgedma_device_caches);

struct edgedma_devrec *edgedma_device_lookup(struct device *dev,
					     struct edgedma_policy *policy)
{
	struct edgedma_device_cache *c = this_cpu_ptr(&edgedma_device_caches);
	/* Read once: an unbind racing with us may clear it under our feet. */
	const struct device_driver *driver = READ_ONCE(dev->driver);
	/* Read before the policy is: a change after it refreshes the next call. */
	unsigned int generation = edgedma_policy_generation();
	struct edgedma_devrec *rec = c->rec;

	if (likely(c->dev == dev && c->kobj_name == dev->kobj.name &&
		   c->driver == driver && c->policy_generation == generation &&
		   READ_ONCE(rec->dev) == dev &&
		   READ_ONCE(rec->kobj_name) == c->kobj_name)) {
		*policy = c->policy;
		return rec;
	}

	c->dev = NULL;
	rec = edgedma_devrec_get(dev);
	if (!rec)
		return NULL;
	edgedma_devrec_refresh_driver(rec, dev);
	edgedma_policy_resolve(dev, policy);
	c->rec = rec;
	c->kobj_name = dev->kobj.name;
	c->driver = driver;
	c->policy_generation = generation;
	c->policy = *policy;
	c->dev = dev;
	return rec;
}
