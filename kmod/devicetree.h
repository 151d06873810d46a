/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EDGEDMA_DEVICETREE_H
#define _EDGEDMA_DEVICETREE_H

#include <linux/types.h>

/*
 * The "edgedma,monitor" device-tree node (dts/bindings/edgedma.yaml):
 * registering the platform driver binds it, applying its policies and its
 * crash region, before init returns. Process context.
 */
#ifdef CONFIG_OF
int edgedma_dt_init(void);
void edgedma_dt_exit(void);

/* The node that configured the module: its policies and profiles applied, its children refused. */
bool edgedma_dt_bound(char *node, size_t len, u32 *policies, u32 *profiles, u32 *refused);

struct device;
struct device_node;
struct property;

/*
 * Properties the kernel or dtc add to every node, which no binding lists:
 * "name" (older kernels' unflattening) and the phandles a label makes.
 */
bool edgedma_dt_pseudo_property(const struct property *pp);
/*
 * Install profile node @np (a profile-* child of the monitor node) as
 * PROFILE_SET would; 0, or -errno with the reason logged against @dev.
 */
int edgedma_dt_profile(struct device *dev, struct device_node *np);
#else
/* A kernel without device-tree support (x86 builds without CONFIG_OF). */
static inline int edgedma_dt_init(void) { return 0; }
static inline void edgedma_dt_exit(void) { }
static inline bool edgedma_dt_bound(char *node, size_t len, u32 *policies, u32 *profiles,
				    u32 *refused)
{
	return false;
}
#endif

#endif /* _EDGEDMA_DEVICETREE_H */
