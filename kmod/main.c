// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma: find unsafe DMA on the kernel you already run.
 *
 * Module entry and exit. Each concern lives in its own file; this one only
 * brings them up in order and takes them down in reverse. The hooks come
 * after everything they feed and go before it; the netlink family comes
 * after the hooks and goes first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/utsname.h>

#include "checks.h"
#include "compat.h"
#include "crash_region.h"
#include "devicetree.h"
#include "devices.h"
#include "edgedma.h"
#include "findings.h"
#include "leaks.h"
#include "maptrack.h"
#include "map_events.h"
#include "netlink.h"
#include "profiles.h"
#include "snapshot_capture.h"
#include "snapshot_store.h"
#include "sync_visible.h"
#include "trigger_controller_error.h"
#include "trigger_crash.h"
#include "trigger_iommu_fault.h"
#include "vmalloc_pages.h"

int edgedma_param_check(const char *name, unsigned long long value,
			unsigned long long min, unsigned long long max)
{
	if (value >= min && value <= max)
		return 0;
	pr_err("%s=%llu is out of range: it must be from %llu to %llu\n",
	       name, value, min, max);
	return -EINVAL;
}

/*
 * The netlink family comes last: a request may reach any part as soon as it
 * is registered. Everything below is torn down in exactly the reverse order.
 */
static int __init edgedma_init(void)
{
	int err;

	err = edgedma_compat_init();
	if (err)
		goto err_out;
	edgedma_checks_init();
	err = edgedma_devices_init();
	if (err)
		goto err_out;
	err = edgedma_maptrack_init();
	if (err)
		goto err_devices;
	err = edgedma_findings_init();
	if (err)
		goto err_maptrack;
	err = edgedma_map_events_init();
	if (err)
		goto err_findings;
	err = edgedma_leaks_init();
	if (err)
		goto err_map_events;
	err = edgedma_vmalloc_pages_init();
	if (err)
		goto err_leaks;
	err = edgedma_sync_visible_init();
	if (err)
		goto err_vmalloc;
	err = edgedma_snapshot_capture_init() ?: edgedma_snapshot_store_init();
	if (err)
		goto err_sync_visible;
	err = edgedma_crash_region_init();
	if (err)
		goto err_store;
	err = edgedma_dt_init();
	if (err)
		goto err_crash_region;
	edgedma_iommu_fault_start();
	edgedma_crash_triggers_start();
	err = edgedma_hook_start();
	if (err)
		goto err_triggers;
	err = edgedma_netlink_init();
	if (err)
		goto err_hook;

	pr_info("version %s loaded on %s, hook mode %u (available 0x%x)\n",
		EDGEDMA_VERSION, init_utsname()->release,
		edgedma_hook_mode_active(), edgedma_hook_modes_available());
	return 0;

err_hook:
	edgedma_hook_stop();
err_triggers:
	edgedma_crash_triggers_stop();
	edgedma_iommu_fault_stop();
	edgedma_error_hooks_exit();
	edgedma_profiles_exit();
	edgedma_dt_exit();
err_crash_region:
	edgedma_crash_region_exit();
err_store:
	edgedma_snapshot_store_exit();
err_sync_visible:
	edgedma_sync_visible_exit();
err_vmalloc:
	edgedma_vmalloc_pages_exit();
err_leaks:
	edgedma_leaks_exit();
err_map_events:
	edgedma_map_events_exit();
err_findings:
	edgedma_findings_exit();
err_maptrack:
	edgedma_maptrack_exit();
err_devices:
	edgedma_devices_exit();
err_out:
	pr_err("failed to load: %d\n", err);
	return err;
}

/*
 * The family goes first: once it is unregistered no request is in flight
 * and none can start, so nothing can re-arm a sender stopped below.
 */
static void __exit edgedma_exit(void)
{
	edgedma_netlink_exit();
	edgedma_hook_stop();
	edgedma_crash_triggers_stop();
	edgedma_iommu_fault_stop();
	edgedma_error_hooks_exit();
	edgedma_profiles_exit();
	edgedma_dt_exit();
	edgedma_crash_region_exit();
	edgedma_snapshot_store_exit();
	edgedma_sync_visible_exit();
	edgedma_vmalloc_pages_exit();
	edgedma_leaks_exit();
	edgedma_map_events_exit();
	edgedma_findings_exit();
	edgedma_maptrack_exit();
	edgedma_devices_exit();
	pr_info("unloaded\n");
}

module_init(edgedma_init);
module_exit(edgedma_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("edgedma: DMA-mapping checker and fault-time snapshots");
MODULE_VERSION(EDGEDMA_VERSION);
MODULE_ALIAS_GENL_FAMILY("edgedma");
