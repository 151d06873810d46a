/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IOMMU faults as snapshot triggers: each fault the IOMMU reports for a
 * device edgedma watches snapshots that device, about the faulting
 * address, in the fault handler's own context.
 */
#ifndef _EDGEDMA_TRIGGER_IOMMU_FAULT_H
#define _EDGEDMA_TRIGGER_IOMMU_FAULT_H

#include <linux/types.h>

/* Attach where this kernel's IOMMU drivers see faults; never fails the load. */
int edgedma_iommu_fault_start(void);
void edgedma_iommu_fault_stop(void);

/* Where faults are caught, comma-separated; "" when nowhere. */
const char *edgedma_iommu_fault_hooks(void);
u64 edgedma_iommu_faults(void);
u64 edgedma_iommu_faults_unowned(void);

#endif /* _EDGEDMA_TRIGGER_IOMMU_FAULT_H */
