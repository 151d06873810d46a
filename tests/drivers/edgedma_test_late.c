// SPDX-License-Identifier: GPL-2.0
/*
 * A second test driver, loaded after edgedma: the culprit test.
 *
 * A module loaded right after edgedma often lands in the memory edgedma's
 * freed __init text used to occupy. A finding must then still name this
 * module's function, never edgedma's init code, and keep naming it after
 * this module is unloaded (the usual order: leak findings appear at
 * unload, and users read findings afterwards).
 *
 * It drives no device of its own: writing 1 to the "run" parameter maps a
 * buffer for the edu device (bound to edgedma_test_edu) from
 * late_map_for_device(), syncs past the end of the mapping from
 * late_sync_past_end() (a sync-mismatch finding whose caller and map
 * caller are those two functions) and unmaps it. Both are noinline, so
 * the names exist; "last" says what happened.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>

#define LATE_LEN	128

static char late_last[160] = "nothing run";
module_param_string(last, late_last, sizeof(late_last), 0444);
MODULE_PARM_DESC(last, "what the last run did");

/*
 * DMA-API calls made here, counted after each call: work after the call
 * keeps the compiler from making it a tail call, which would return
 * straight into late_run_set() and make that the caller.
 */
static unsigned int late_calls;

static noinline dma_addr_t late_map_for_device(struct device *dev, void *buf)
{
	dma_addr_t dma = dma_map_single(dev, buf, LATE_LEN, DMA_TO_DEVICE);

	WRITE_ONCE(late_calls, late_calls + 1);
	return dma;
}

/* Twice the mapped length: the overrun stays inside our own buffer. */
static noinline void late_sync_past_end(struct device *dev, dma_addr_t dma)
{
	dma_sync_single_for_cpu(dev, dma, 2 * LATE_LEN, DMA_TO_DEVICE);
	WRITE_ONCE(late_calls, late_calls + 1);
}

/* Whether the device's DMA addresses are physical addresses (no IOMMU). */
static bool late_direct(struct device *dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);

	return !domain || !(domain->type & __IOMMU_DOMAIN_PAGING);
}

/*
 * On the direct path, below the device's mask: without swiotlb to bounce,
 * the DMA core WARNs at a buffer edu (28 bits by default) cannot reach.
 */
static void *late_buf_alloc(struct device *dev)
{
	u64 mask = dma_get_mask(dev);
	void *buf = kzalloc(2 * LATE_LEN, GFP_KERNEL);

	if (buf && (!late_direct(dev) || virt_to_phys(buf) + 2 * LATE_LEN - 1 <= mask))
		return buf;
	kfree(buf);
	if (!IS_ENABLED(CONFIG_ZONE_DMA))
		return NULL;
	buf = kzalloc(2 * LATE_LEN, GFP_KERNEL | GFP_DMA);
	if (buf && virt_to_phys(buf) + 2 * LATE_LEN - 1 <= mask)
		return buf;
	kfree(buf);
	return NULL;
}

static int late_run(void)
{
	struct pci_dev *pdev = pci_get_device(0x1234, 0x11e8, NULL);
	dma_addr_t dma;
	void *buf;
	int ret = 0;

	if (!pdev) {
		snprintf(late_last, sizeof(late_last), "no edu device");
		return -ENODEV;
	}
	buf = late_buf_alloc(&pdev->dev);
	if (!buf) {
		snprintf(late_last, sizeof(late_last), "no buffer below the DMA mask of %s",
			 pci_name(pdev));
		ret = -ENOMEM;
		goto out;
	}
	dma = late_map_for_device(&pdev->dev, buf);
	if (dma_mapping_error(&pdev->dev, dma)) {
		snprintf(late_last, sizeof(late_last), "map of %s failed",
			 pci_name(pdev));
		ret = -EIO;
	} else {
		late_sync_past_end(&pdev->dev, dma);
		dma_unmap_single(&pdev->dev, dma, LATE_LEN, DMA_TO_DEVICE);
		snprintf(late_last, sizeof(late_last),
			 "mapped %d bytes for %s, synced %d, unmapped",
			 LATE_LEN, pci_name(pdev), 2 * LATE_LEN);
	}
	kfree(buf);
out:
	pci_dev_put(pdev);
	return ret;
}

static int late_run_set(const char *val, const struct kernel_param *kp)
{
	bool run;
	int ret = kstrtobool(val, &run);

	if (ret)
		return ret;
	return run ? late_run() : 0;
}

static const struct kernel_param_ops late_run_ops = {
	.set = late_run_set,
};
module_param_cb(run, &late_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write 1: map, sync past the end, unmap (edu device)");

MODULE_DESCRIPTION("edgedma test: a driver loaded after edgedma, for caller names");
MODULE_LICENSE("GPL");
