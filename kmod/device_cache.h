/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICE_CACHE_H
#define _EDGEDMA_DEVICE_CACHE_H

#include "policy.h"

struct device;
struct edgedma_devrec;

/*
 * The device record and resolved policy of a DMA call's device, from the
 * CPU's cache of its last call when nothing they depend on changed since.
 * Hook context, interrupts off. NULL when the device table is full.
 */
struct edgedma_devrec *edgedma_device_lookup(struct device *dev,
					     struct edgedma_policy *policy);

#endif /* _EDGEDMA_DEVICE_CACHE_H */
