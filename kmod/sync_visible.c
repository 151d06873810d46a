// SPDX-License-Identifier: GPL-2.0
/*
 * Syncs the DMA core would skip (6.11 on).
 *
 * Since 6.11 dma_sync_single_for_cpu() and the three other syncs are inline
 * wrappers that return at once for a device with dev->dma_skip_sync set
 * (a coherent device, until swiotlb bounces for it). Neither hook mode sees
 * such a sync, so a sync of a range that is not mapped, or not like that,
 * goes unreported. The kernel's own DMA-API debugging keeps syncs visible
 * by never letting a device skip them; edgedma does the same for the
 * devices it sees calling the DMA API: the hooks turn the flag off at a
 * device's calls (in practice its first), and a kretprobe on
 * dma_set_mask(), the one function that sets it again, turns it off after.
 * A sync that reaches the core costs a function call that does nothing on
 * a coherent device.
 *
 * At unload the flag is set again only for devices that no driver drives:
 * with the hooks gone, a swiotlb bounce racing with the restore could leave
 * a bounced mapping whose syncs are skipped, which loses data. Keeping it
 * off is always correct (it is what DMA-API debugging does), and the
 * driver's next dma_set_mask() (at its next probe) recomputes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>

#include "compat.h"
#include "devices.h"
#include "edgedma.h"
#include "sync_visible.h"

bool edgedma_keep_syncs_visible = true;
module_param_named(keep_syncs_visible, edgedma_keep_syncs_visible, bool, 0444);
MODULE_PARM_DESC(keep_syncs_visible,
		 "6.11+: stop the DMA core from skipping the syncs of devices edgedma watches, so sync misuse is seen (default on)");

static DEFINE_PER_CPU(u64, edgedma_skips_cleared);
static bool edgedma_set_mask_probe_on;

void edgedma_sync_visible_clear(struct edgedma_devrec *rec, struct device *dev)
{
	edgedma_dev_set_skip_sync(dev, false);
	WRITE_ONCE(rec->sync_kept, true);
	this_cpu_inc(edgedma_skips_cleared);
}

u64 edgedma_sync_visible_cleared(void)
{
	return edgedma_percpu_sum(edgedma_skips_cleared);
}

#if EDGEDMA_HAVE_SYNC_SKIPPING && defined(CONFIG_KRETPROBES)
static int edgedma_set_mask_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(struct device **)ri->data = (struct device *)regs_get_kernel_argument(regs, 0);
	return 0;
}

/* dma_set_mask() succeeded and set the flag again: a device we watch? */
static int edgedma_set_mask_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct device *dev = *(struct device **)ri->data;
	struct edgedma_devrec *rec;

	if (regs_return_value(regs) || !dev)
		return 0;
	rec = edgedma_devrec_find(dev);
	if (rec)
		edgedma_sync_visible_keep(rec, dev);
	return 0;
}

static struct kretprobe edgedma_set_mask_probe = {
	.kp.symbol_name = "dma_set_mask",
	.entry_handler = edgedma_set_mask_entry,
	.handler = edgedma_set_mask_ret,
	.data_size = sizeof(struct device *),
	.maxactive = 16,
};

static int edgedma_set_mask_probe_start(void)
{
	return register_kretprobe(&edgedma_set_mask_probe);
}

static void edgedma_set_mask_probe_stop(void)
{
	unregister_kretprobe(&edgedma_set_mask_probe);
	/* Kretprobe instances are freed from RCU callbacks into our text. */
	rcu_barrier();
}
#else
static int edgedma_set_mask_probe_start(void)
{
	return -EOPNOTSUPP;
}

static void edgedma_set_mask_probe_stop(void) { }
#endif

int __init edgedma_sync_visible_init(void)
{
	int err;

	if (!EDGEDMA_HAVE_SYNC_SKIPPING || !edgedma_keep_syncs_visible || edgedma_hook_floor())
		return 0;
	err = edgedma_set_mask_probe_start();
	if (err) {
		/* The hooks still turn skipping off at each call. */
		pr_info("cannot probe dma_set_mask (%d): a device's syncs are visible again from its next DMA-API call after a mask change\n",
			err);
		return 0;
	}
	edgedma_set_mask_probe_on = true;
	return 0;
}

struct edgedma_restore_count {
	unsigned int restored, kept;
};

/* Give a device's sync skipping back, if edgedma took it and nobody drives it. */
static int edgedma_sync_restore_one(struct device *dev, void *data)
{
	struct edgedma_restore_count *count = data;
	struct edgedma_devrec *rec = edgedma_devrec_find(dev);

	if (!rec || !READ_ONCE(rec->sync_kept))
		return 0;
	device_lock(dev);
	if (dev->driver) {
		count->kept++;
	} else {
		edgedma_dev_set_skip_sync(dev, true);
		count->restored++;
	}
	device_unlock(dev);
	return 0;
}

void edgedma_sync_visible_exit(void)
{
	struct edgedma_restore_count count = { 0, 0 };

	if (edgedma_set_mask_probe_on) {
		edgedma_set_mask_probe_stop();
		edgedma_set_mask_probe_on = false;
	}
	if (!EDGEDMA_HAVE_SYNC_SKIPPING || !edgedma_sync_visible_cleared())
		return;
#ifdef CONFIG_PCI
	bus_for_each_dev(&pci_bus_type, NULL, &count, edgedma_sync_restore_one);
#endif
	bus_for_each_dev(&platform_bus_type, NULL, &count, edgedma_sync_restore_one);
	if (count.kept)
		pr_info("sync skipping given back to %u unbound devices; %u driven devices keep every sync until their driver next sets its DMA mask\n",
			count.restored, count.kept);
}
