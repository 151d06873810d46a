// SPDX-License-Identifier: GPL-2.0
/*
 * Leaks: mappings still live when the driver that made them lets go of its
 * device (unbind) or when the module whose code made them unloads. The
 * first is seen through bus notifiers, the second through the module
 * notifier, which also covers devices on buses with no notifier here.
 * Each leaked mapping becomes a finding and leaves the table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "checks.h"
#include "devices.h"
#include "edgedma.h"
#include "finding_sites.h"
#include "findings.h"
#include "leaks.h"
#include "maptrack.h"
#include "profiles.h"
#include "policy.h"
#include "trigger_controller_error.h"

/* What the drain below is looking for, and who let go. */
struct edgedma_leak_key {
	struct edgedma_devrec *rec;	/* unbind: this device's mappings */
	struct device *dev;		/* unbind: that device */
	unsigned long unseen;		/* entries whose unmap the hook missed */
	struct module *mod;		/* unload: mappings this code made */
	const char *why;
};

static struct edgedma_leak_key *edgedma_leak_current;

/*
 * Behind an IOMMU the device's page table says whether a mapping still
 * exists. A kprobe can miss a call (one that fires inside another probe's
 * handler is skipped), and an entry whose IOVA no longer translates to its
 * buffer was unmapped unseen: that is not the driver's leak.
 */
static bool edgedma_unmapped_unseen(struct device *dev, const struct edgedma_mapping *m)
{
	struct iommu_domain *domain;
	phys_addr_t phys;

	if (!dev)
		return false;
	domain = iommu_get_domain_for_dev(dev);
	if (!domain || !(domain->type & __IOMMU_DOMAIN_PAGING))
		return false;
	phys = iommu_iova_to_phys(domain, m->dma_addr);
	return !phys || (m->phys != EDGEDMA_NO_PHYS && phys != m->phys);
}

static bool edgedma_leak_match(const struct edgedma_mapping *m, const void *arg)
{
	const struct edgedma_leak_key *key = arg;

	if (key->rec)
		return m->devrec == key->rec;
	return within_module(m->caller, key->mod);
}

static void edgedma_leak_report(const struct edgedma_mapping *m)
{
	struct edgedma_leak_key *key = edgedma_leak_current;
	struct edgedma_finding f = {
		.kind = EDGEDMA_FINDING_LEAK,
		.call = m->kind,
		.dir = m->dir,
		.dma_addr = m->dma_addr,
		.size = m->size,
		.phys = m->phys,
		.caller = m->caller,
		.map_caller = m->caller,
	};
	u64 missed = edgedma_hook_missed();
	int n;

	if (missed && edgedma_unmapped_unseen(key->dev, m)) {
		key->unseen++;
		return;
	}
	edgedma_devrec_count(m->devrec, EDGEDMA_DEV_FINDINGS, 1);
	if (!edgedma_site_occurs(m->devrec, f.kind, m->caller, &f.site))
		return;
	edgedma_devrec_names(m->devrec, f.device, f.driver);
	/* The map's caller; the driver's module is gone or going. */
	f.chain[0] = m->caller;
	f.chain_len = 1;
	if (key->mod)
		strscpy(f.driver_module, key->mod->name, sizeof(f.driver_module));
	n = snprintf(f.detail, sizeof(f.detail),
		     "%s of %llu bytes at %#llx made by %pS is still live when %s",
		     edgedma_call_name(m->kind), m->size, m->dma_addr,
		     (void *)m->caller, key->why);
	/* A call the hook missed may have been the unmap. */
	if (missed && n < sizeof(f.detail))
		snprintf(f.detail + n, sizeof(f.detail) - n,
			 " (the hook missed %llu calls since load)", missed);
	edgedma_finding_report(&f);
}

/* Notifier callbacks run one at a time per chain; the key lives on stack. */
static DEFINE_MUTEX(edgedma_leak_mutex);

static void edgedma_leaks_drain(struct edgedma_leak_key *key)
{
	mutex_lock(&edgedma_leak_mutex);
	edgedma_leak_current = key;
	edgedma_maptrack_drain(edgedma_leak_match, key, edgedma_leak_report);
	edgedma_leak_current = NULL;
	mutex_unlock(&edgedma_leak_mutex);
	if (key->unseen)
		pr_info("%s: %lu tracked mappings were already unmapped in the IOMMU (the hook missed their unmap): not leaks\n",
			key->why, key->unseen);
}

static bool edgedma_forget_match(const struct edgedma_mapping *m, const void *arg)
{
	return m->devrec == arg;
}

static int edgedma_bus_event(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct device *dev = data;
	struct edgedma_devrec *rec;
	char why[96];

	switch (action) {
	case BUS_NOTIFY_BIND_DRIVER:
		edgedma_devrec_view_starts(dev);
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
		/* Remember the driver's name while it is still bound. */
		rec = edgedma_devrec_find(dev);
		if (rec)
			edgedma_devrec_refresh_driver(rec, dev);
		break;
	case BUS_NOTIFY_UNBOUND_DRIVER: {
		struct edgedma_leak_key key = { .why = why, .dev = dev };
		char driver[EDGEDMA_NAME_LEN];

		key.rec = edgedma_devrec_find(dev);
		if (!key.rec)
			break;
		edgedma_devrec_names(key.rec, NULL, driver);
		snprintf(why, sizeof(why), "driver %s unbinds from %s",
			 driver[0] ? driver : "?", dev_name(dev));
		edgedma_leaks_drain(&key);
		/* Nothing of the driver's is left: what follows is all seen. */
		edgedma_devrec_view_starts(dev);
		break;
	}
	case BUS_NOTIFY_DEL_DEVICE:
		/* Its struct device is about to go: nothing may point at it. */
		rec = edgedma_devrec_find(dev);
		if (rec)
			edgedma_maptrack_drain(edgedma_forget_match, rec, NULL);
		edgedma_devrec_device_gone(dev);
		edgedma_profiles_device_gone(dev);
		edgedma_error_hooks_device_gone(dev);
		break;
	}
	return NOTIFY_DONE;
}

static int edgedma_module_event(struct notifier_block *nb, unsigned long action,
				void *data)
{
	struct module *mod = data;
	char why[96];
	struct edgedma_leak_key key = { .mod = mod, .why = why };

	/*
	 * Findings are named after the hook (findings.h): name every one made
	 * so far while the code they name is there, before a module's init
	 * text is freed (after LIVE) and before the module is (after GOING).
	 */
	if (action == MODULE_STATE_LIVE)
		edgedma_findings_flush();
	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	snprintf(why, sizeof(why), "module %s unloads", mod->name);
	edgedma_leaks_drain(&key);
	edgedma_findings_flush();
	edgedma_sites_retire_module(mod);
	return NOTIFY_DONE;
}

static struct notifier_block edgedma_pci_nb = { .notifier_call = edgedma_bus_event };
static struct notifier_block edgedma_platform_nb = { .notifier_call = edgedma_bus_event };
static struct notifier_block edgedma_module_nb = { .notifier_call = edgedma_module_event };

int edgedma_leaks_init(void)
{
	int err;

	err = register_module_notifier(&edgedma_module_nb);
	if (err)
		goto err_out;
	err = bus_register_notifier(&platform_bus_type, &edgedma_platform_nb);
	if (err)
		goto err_module;
#ifdef CONFIG_PCI
	err = bus_register_notifier(&pci_bus_type, &edgedma_pci_nb);
	if (err)
		goto err_platform;
#endif
	return 0;

#ifdef CONFIG_PCI
err_platform:
	bus_unregister_notifier(&platform_bus_type, &edgedma_platform_nb);
#endif
err_module:
	unregister_module_notifier(&edgedma_module_nb);
err_out:
	return err;
}

void edgedma_leaks_exit(void)
{
#ifdef CONFIG_PCI
	bus_unregister_notifier(&pci_bus_type, &edgedma_pci_nb);
#endif
	bus_unregister_notifier(&platform_bus_type, &edgedma_platform_nb);
	unregister_module_notifier(&edgedma_module_nb);
}
