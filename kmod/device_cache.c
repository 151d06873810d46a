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

DEFINE_PER_CPU(struct edgedma_device_cache, edgedma_device_caches);

/*
 * A device record's slot is only ever claimed for one device address and
 * refilled when another device (another kobject name) appears at it: the
 * same address and name are the same record, so the hit test in
 * edgedma_device_lookup() need not read the record.
 */
struct edgedma_devrec *edgedma_device_lookup_slow(struct edgedma_device_cache *c,
						  struct device *dev,
						  const struct device_driver *driver,
						  unsigned int generation)
{
	struct edgedma_devrec *rec;

	c->dev = NULL;
	rec = edgedma_devrec_get(dev);
	if (!rec)
		return NULL;
	edgedma_devrec_refresh_driver(rec, dev);
	edgedma_policy_resolve(dev, &c->policy);
	c->rec = rec;
	c->kobj_name = dev->kobj.name;
	c->driver = driver;
	c->policy_generation = generation;
	c->dev = dev;
	return rec;
}
