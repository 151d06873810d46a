// SPDX-License-Identifier: GPL-2.0
/*
 * The device-tree binding (dts/bindings/edgedma.yaml): a platform driver
 * for the "edgedma,monitor" node. Probing it applies each policy-* child
 * as the policy rules netlink's POLICY_SET makes (policy.c), installs each
 * profile-* child as PROFILE_SET would (devicetree_profiles.c), and takes
 * the crash region from memory-region unless the crash_region parameter
 * gave one. A property the binding does not have, or a value it does not
 * allow, refuses that policy with a message naming it; the others apply.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/string.h>
#include <uapi/linux/edgedma.h>

#include "crash_region.h"
#include "devicetree.h"
#include "findings.h"
#include "policy.h"

#define EDGEDMA_DT_TARGETS_MAX	16

static const char *const edgedma_dt_trigger_names[] = {
	[EDGEDMA_SNAPSHOT_TRIGGER_MANUAL] = "manual",
	[EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT] = "iommu-fault",
	[EDGEDMA_SNAPSHOT_TRIGGER_CONTROLLER_ERROR] = "controller-error",
	[EDGEDMA_SNAPSHOT_TRIGGER_OOPS] = "oops",
	[EDGEDMA_SNAPSHOT_TRIGGER_PANIC] = "panic",
	[EDGEDMA_SNAPSHOT_TRIGGER_FINDING] = "finding",
};

static const char *const edgedma_dt_coherency_names[] = {
	[EDGEDMA_COHERENCY_AUTO] = "auto",
	[EDGEDMA_COHERENCY_COHERENT] = "coherent",
	[EDGEDMA_COHERENCY_NONCOHERENT] = "noncoherent",
};

static const char *const edgedma_dt_policy_props[] = {
	"devices", "device-names", "drivers", "addr-align", "len-align", "coherency",
	"checks", "snapshot-on", "snapshot-findings", "owned-hash-max",
};

/* What the bound node said, for GET_INFO (edgedma status). */
static DEFINE_MUTEX(edgedma_dt_lock);
static char edgedma_dt_node[96];
static unsigned int edgedma_dt_policies, edgedma_dt_profiles, edgedma_dt_refused;

bool edgedma_dt_pseudo_property(const struct property *pp)
{
	return !strcmp(pp->name, "name") || !strcmp(pp->name, "phandle") ||
	       !strcmp(pp->name, "linux,phandle");
}

static int edgedma_dt_name_index(const char *const *names, unsigned int n, const char *s)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

/* A string list of names into bits (index - 1); -EINVAL naming the stranger. */
static int edgedma_dt_bits(struct device *dev, struct device_node *np, const char *prop,
			   bool kinds, u32 *bits)
{
	const char *s;
	int i, n, k;

	n = of_property_count_strings(np, prop);
	if (n <= 0) {
		dev_err(dev, "%pOF: %s: give a list of names\n", np, prop);
		return -EINVAL;
	}
	*bits = 0;
	for (i = 0; i < n; i++) {
		of_property_read_string_index(np, prop, i, &s);
		if (kinds) {
			for (k = 1; k <= EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED; k++)
				if (!strcmp(edgedma_finding_kind_name(k), s))
					break;
			if (k > EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED)
				k = -1;
		} else {
			k = edgedma_dt_name_index(edgedma_dt_trigger_names,
						  ARRAY_SIZE(edgedma_dt_trigger_names), s);
		}
		if (k < 0) {
			dev_err(dev, "%pOF: %s: unknown %s '%s'\n", np, prop,
				kinds ? "finding kind" : "trigger", s);
			return -EINVAL;
		}
		*bits |= BIT(k - 1);
	}
	return 0;
}

static int edgedma_dt_align(struct device *dev, struct device_node *np, const char *prop,
			    u32 *out, u32 *set, u32 flag)
{
	if (!of_find_property(np, prop, NULL))
		return 0;
	if (of_property_read_u32(np, prop, out) || !is_power_of_2(*out) || *out > SZ_64K) {
		dev_err(dev, "%pOF: %s: a power of two from 1 to 65536\n", np, prop);
		return -EINVAL;
	}
	*set |= flag;
	return 0;
}

/* The settings of policy node @np, without its targets. */
static int edgedma_dt_rule(struct device *dev, struct device_node *np,
			   struct edgedma_policy_rule *rule)
{
	struct property *pp;
	const char *s;
	int err, i;

	for_each_property_of_node(np, pp) {
		if (edgedma_dt_pseudo_property(pp))
			continue;
		for (i = 0; i < ARRAY_SIZE(edgedma_dt_policy_props); i++)
			if (!strcmp(pp->name, edgedma_dt_policy_props[i]))
				break;
		if (i == ARRAY_SIZE(edgedma_dt_policy_props)) {
			dev_err(dev, "%pOF: unknown property '%s' (dts/bindings/edgedma.yaml)\n",
				np, pp->name);
			return -EINVAL;
		}
	}
	err = edgedma_dt_align(dev, np, "addr-align", &rule->addr_align, &rule->set,
			       EDGEDMA_RULE_ADDR_ALIGN) ?:
	      edgedma_dt_align(dev, np, "len-align", &rule->len_align, &rule->set,
			       EDGEDMA_RULE_LEN_ALIGN);
	if (err)
		return err;
	if (!of_property_read_string(np, "coherency", &s)) {
		i = edgedma_dt_name_index(edgedma_dt_coherency_names,
					  ARRAY_SIZE(edgedma_dt_coherency_names), s);
		if (i < 0) {
			dev_err(dev, "%pOF: coherency: '%s' is not auto, coherent or noncoherent\n",
				np, s);
			return -EINVAL;
		}
		rule->coherency = i;
		rule->set |= EDGEDMA_RULE_COHERENCY;
	}
	if (of_find_property(np, "checks", NULL)) {
		err = edgedma_dt_bits(dev, np, "checks", true, &rule->checks);
		if (err)
			return err;
		rule->set |= EDGEDMA_RULE_CHECKS;
	}
	if (of_find_property(np, "snapshot-on", NULL)) {
		err = edgedma_dt_bits(dev, np, "snapshot-on", false, &rule->snapshot_triggers);
		if (err)
			return err;
		rule->set |= EDGEDMA_RULE_SNAPSHOT_TRIGGERS;
	}
	if (of_find_property(np, "snapshot-findings", NULL)) {
		err = edgedma_dt_bits(dev, np, "snapshot-findings", true,
				      &rule->snapshot_findings);
		if (err)
			return err;
		rule->set |= EDGEDMA_RULE_SNAPSHOT_FINDINGS;
	}
	if (of_find_property(np, "owned-hash-max", NULL)) {
		if (of_property_read_u32(np, "owned-hash-max", &rule->owned_hash_max) ||
		    rule->owned_hash_max < EDGEDMA_OWNED_HASH_MIN ||
		    rule->owned_hash_max > EDGEDMA_OWNED_HASH_MAX) {
			dev_err(dev, "%pOF: owned-hash-max: %u to %u bytes\n", np,
				EDGEDMA_OWNED_HASH_MIN, EDGEDMA_OWNED_HASH_MAX);
			return -EINVAL;
		}
		rule->set |= EDGEDMA_RULE_OWNED_HASH_MAX;
	}
	if (!rule->set) {
		dev_err(dev, "%pOF: sets nothing\n", np);
		return -EINVAL;
	}
	return 0;
}

/* The device of DT node @target: a platform device, or a PCI one. */
static struct device *edgedma_dt_device(struct device_node *target)
{
	struct device *dev = bus_find_device_by_of_node(&platform_bus_type, target);

#ifdef CONFIG_PCI
	if (!dev)
		dev = bus_find_device_by_of_node(&pci_bus_type, target);
#endif
	return dev;
}

/* Set @rule for one device or driver name; counts what was applied. */
static int edgedma_dt_apply(struct device *dev, struct device_node *np,
			    struct edgedma_policy_rule *rule, const char *name, bool is_driver)
{
	int err;

	if (!*name || strlen(name) >= sizeof(rule->name)) {
		dev_err(dev, "%pOF: '%s' is no device or driver name\n", np, name);
		return -EINVAL;
	}
	strscpy(rule->name, name, sizeof(rule->name));
	rule->is_driver = is_driver;
	err = edgedma_policy_set(rule);
	if (err)
		dev_err(dev, "%pOF: the policy for %s %s not set (%d): every rule is in use\n",
			np, is_driver ? "driver" : "device", name, err);
	return err;
}

/* Set @rule for every name of string list @prop (devices or drivers). */
static int edgedma_dt_apply_names(struct device *dev, struct device_node *np,
				  struct edgedma_policy_rule *rule, const char *prop,
				  bool is_driver, int *targets)
{
	int i, n = of_property_count_strings(np, prop), err;
	const char *s;

	for (i = 0; i < n && i < EDGEDMA_DT_TARGETS_MAX; i++) {
		of_property_read_string_index(np, prop, i, &s);
		err = edgedma_dt_apply(dev, np, rule, s, is_driver);
		if (err)
			return err;
		(*targets)++;
	}
	return 0;
}

static int edgedma_dt_policy(struct device *dev, struct device_node *np)
{
	struct edgedma_policy_rule rule = {};
	int i, n, err, targets = 0;

	err = edgedma_dt_rule(dev, np, &rule);
	if (err)
		return err;
	n = of_count_phandle_with_args(np, "devices", NULL);
	for (i = 0; i < n && i < EDGEDMA_DT_TARGETS_MAX; i++) {
		struct device_node *target = of_parse_phandle(np, "devices", i);
		struct device *tdev = target ? edgedma_dt_device(target) : NULL;

		if (!tdev) {
			dev_warn(dev, "%pOF: devices: no device for %pOF (yet): skipped\n", np,
				 target);
			of_node_put(target);
			continue;
		}
		err = edgedma_dt_apply(dev, np, &rule, dev_name(tdev), false);
		put_device(tdev);
		of_node_put(target);
		if (err)
			return err;
		targets++;
	}
	err = edgedma_dt_apply_names(dev, np, &rule, "device-names", false, &targets) ?:
	      edgedma_dt_apply_names(dev, np, &rule, "drivers", true, &targets);
	if (err)
		return err;
	if (!targets && !of_find_property(np, "devices", NULL)) {
		dev_err(dev, "%pOF: name its devices (devices, device-names or drivers)\n", np);
		return -EINVAL;
	}
	return 0;
}

static int edgedma_dt_probe(struct platform_device *pdev)
{
	struct device_node *np = pdev->dev.of_node, *child, *region;
	unsigned int applied = 0, profiles = 0, refused = 0;
	struct resource res;
	char path[sizeof(edgedma_dt_node)];

	snprintf(path, sizeof(path), "%pOF", np);
	mutex_lock(&edgedma_dt_lock);
	if (edgedma_dt_node[0] && strcmp(edgedma_dt_node, path)) {
		mutex_unlock(&edgedma_dt_lock);
		dev_err(&pdev->dev, "%pOF: edgedma is configured by %s already; one node configures it\n",
			np, edgedma_dt_node);
		return -EBUSY;
	}
	strscpy(edgedma_dt_node, path, sizeof(edgedma_dt_node));
	mutex_unlock(&edgedma_dt_lock);

	for_each_child_of_node(np, child) {
		if (!strncmp(child->name, "profile-", 8)) {
			if (edgedma_dt_profile(&pdev->dev, child))
				refused++;
			else
				profiles++;
			continue;
		}
		if (strncmp(child->name, "policy-", 7)) {
			dev_err(&pdev->dev, "%pOF: unknown node (dts/bindings/edgedma.yaml)\n",
				child);
			refused++;
			continue;
		}
		if (edgedma_dt_policy(&pdev->dev, child))
			refused++;
		else
			applied++;
	}

	region = of_parse_phandle(np, "memory-region", 0);
	if (region) {
		if (of_address_to_resource(region, 0, &res))
			dev_err(&pdev->dev, "%pOF: memory-region %pOF has no reg\n", np, region);
		else
			edgedma_crash_region_from_dt(res.start, resource_size(&res));
		of_node_put(region);
	}

	mutex_lock(&edgedma_dt_lock);
	edgedma_dt_policies = applied;
	edgedma_dt_profiles = profiles;
	edgedma_dt_refused = refused;
	mutex_unlock(&edgedma_dt_lock);
	dev_info(&pdev->dev, "configured by %pOF: %u policies and %u profiles applied, %u refused\n",
		 np, applied, profiles, refused);
	return 0;
}

static void edgedma_dt_forget(void)
{
	mutex_lock(&edgedma_dt_lock);
	edgedma_dt_node[0] = '\0';
	edgedma_dt_policies = 0;
	edgedma_dt_profiles = 0;
	edgedma_dt_refused = 0;
	mutex_unlock(&edgedma_dt_lock);
}

static const struct of_device_id edgedma_dt_match[] = {
	{ .compatible = "edgedma,monitor" },
	{ }
};
MODULE_DEVICE_TABLE(of, edgedma_dt_match);

static struct platform_driver edgedma_dt_driver = {
	/*
	 * No remove: what the node set stays until netlink changes it or the
	 * module goes, so an unbind changes nothing (and a rebind applies the
	 * node again).
	 */
	.probe = edgedma_dt_probe,
	.driver = {
		.name = "edgedma",
		.of_match_table = edgedma_dt_match,
	},
};

bool edgedma_dt_bound(char *node, size_t len, u32 *policies, u32 *profiles, u32 *refused)
{
	bool bound;

	mutex_lock(&edgedma_dt_lock);
	bound = edgedma_dt_node[0];
	strscpy(node, edgedma_dt_node, len);
	*policies = edgedma_dt_policies;
	*profiles = edgedma_dt_profiles;
	*refused = edgedma_dt_refused;
	mutex_unlock(&edgedma_dt_lock);
	return bound;
}

int edgedma_dt_init(void)
{
	return platform_driver_register(&edgedma_dt_driver);
}

void edgedma_dt_exit(void)
{
	platform_driver_unregister(&edgedma_dt_driver);
	edgedma_dt_forget();
}
