// SPDX-License-Identifier: GPL-2.0
/*
 * Per-device and per-driver policy: what alignment a device needs, whether
 * it is treated as coherent, which checks run. A device's own properties
 * (coherency, DMA mask, segment limits) are the default; rules set over
 * netlink override them. The device-tree route will fill the same rules.
 *
 * Hooks read the rules under a seqlock without blocking; rules are few, and
 * with none set the read costs one sequence check.
 */
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "device_owned_writes.h"
#include "policy.h"

#define EDGEDMA_POLICY_RULES	32

static struct edgedma_policy_rule edgedma_rules[EDGEDMA_POLICY_RULES];
static unsigned int edgedma_rule_count;
/*
 * Raw, so that readers in hook context never block, also on PREEMPT_RT;
 * writers disable interrupts, since a hook may run in an interrupt on the
 * writer's CPU.
 */
static DEFINE_RAW_SPINLOCK(edgedma_rules_wlock);
static seqcount_raw_spinlock_t edgedma_rules_seq =
	SEQCNT_RAW_SPINLOCK_ZERO(edgedma_rules_seq, &edgedma_rules_wlock);
/* Bumped by every change a resolved policy depends on (device_cache.c). */
atomic_t edgedma_policy_changes = ATOMIC_INIT(0);

void edgedma_policy_changed(void)
{
	atomic_inc(&edgedma_policy_changes);
}

static unsigned long edgedma_rules_write_begin(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&edgedma_rules_wlock, flags);
	write_seqcount_begin(&edgedma_rules_seq);
	return flags;
}

static void edgedma_rules_write_end(unsigned long flags)
{
	write_seqcount_end(&edgedma_rules_seq);
	edgedma_policy_changed();
	raw_spin_unlock_irqrestore(&edgedma_rules_wlock, flags);
}

static void edgedma_rule_apply(const struct edgedma_policy_rule *r,
			       struct edgedma_policy *p)
{
	if (r->set & EDGEDMA_RULE_ADDR_ALIGN)
		p->addr_align = r->addr_align;
	if (r->set & EDGEDMA_RULE_LEN_ALIGN)
		p->len_align = r->len_align;
	if (r->set & EDGEDMA_RULE_CHECKS)
		p->checks = r->checks;
	if (r->set & EDGEDMA_RULE_SNAPSHOT_TRIGGERS)
		p->snapshot_triggers = r->snapshot_triggers;
	if (r->set & EDGEDMA_RULE_SNAPSHOT_FINDINGS)
		p->snapshot_findings = r->snapshot_findings;
	if (r->set & EDGEDMA_RULE_OWNED_HASH_MAX)
		p->owned_hash_max = r->owned_hash_max;
	if ((r->set & EDGEDMA_RULE_COHERENCY) &&
	    r->coherency != EDGEDMA_COHERENCY_AUTO) {
		p->coherent = r->coherency == EDGEDMA_COHERENCY_COHERENT;
		p->coherent_overridden = true;
	}
}

/* The defaults, then the rules for @dev's driver, then its own. */
static void edgedma_policy_read(struct device *dev, struct edgedma_policy *out)
{
	/* Read once: a racing unbind may clear dev->driver between two reads. */
	const struct device_driver *driver = READ_ONCE(dev->driver);
	const char *drv = driver ? driver->name : NULL;
	const char *name = dev_name(dev);
	unsigned int i;

	out->addr_align = 1;
	out->len_align = 1;
	out->checks = EDGEDMA_CHECKS_DEFAULT;
	/* Every trigger on; findings snapshot only where asked (they are many). */
	out->snapshot_triggers = EDGEDMA_TRIGGERS_ALL;
	out->snapshot_findings = 0;
	out->owned_hash_max = edgedma_owned_hash_default();
	out->coherent = dev_is_dma_coherent(dev);
	out->coherent_overridden = false;
	if (!READ_ONCE(edgedma_rule_count))
		return;
	/* Driver rules first, so that a device rule wins. */
	for (i = 0; i < EDGEDMA_POLICY_RULES; i++) {
		const struct edgedma_policy_rule *r = &edgedma_rules[i];

		if (r->set && r->is_driver && drv &&
		    !strncmp(r->name, drv, sizeof(r->name)))
			edgedma_rule_apply(r, out);
	}
	for (i = 0; i < EDGEDMA_POLICY_RULES; i++) {
		const struct edgedma_policy_rule *r = &edgedma_rules[i];

		if (r->set && !r->is_driver && name &&
		    !strncmp(r->name, name, sizeof(r->name)))
			edgedma_rule_apply(r, out);
	}
}

void edgedma_policy_resolve(struct device *dev, struct edgedma_policy *out)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&edgedma_rules_seq);
		edgedma_policy_read(dev, out);
	} while (read_seqcount_retry(&edgedma_rules_seq, seq));
}

bool edgedma_policy_resolve_once(struct device *dev, struct edgedma_policy *out)
{
	unsigned int seq = raw_read_seqcount(&edgedma_rules_seq);

	if (seq & 1)
		return false;
	smp_rmb();
	edgedma_policy_read(dev, out);
	return !read_seqcount_retry(&edgedma_rules_seq, seq);
}

static struct edgedma_policy_rule *edgedma_rule_find(const char *name,
						     bool is_driver)
{
	unsigned int i;

	for (i = 0; i < EDGEDMA_POLICY_RULES; i++) {
		struct edgedma_policy_rule *r = &edgedma_rules[i];

		if (r->set && r->is_driver == is_driver &&
		    !strncmp(r->name, name, sizeof(r->name)))
			return r;
	}
	return NULL;
}

int edgedma_policy_set(const struct edgedma_policy_rule *rule)
{
	struct edgedma_policy_rule *r;
	unsigned long flags;
	unsigned int i;
	int err = 0;

	flags = edgedma_rules_write_begin();
	r = edgedma_rule_find(rule->name, rule->is_driver);
	if (!r) {
		for (i = 0; i < EDGEDMA_POLICY_RULES && !r; i++)
			if (!edgedma_rules[i].set)
				r = &edgedma_rules[i];
		if (!r) {
			err = -ENOSPC;
			goto out;
		}
		memset(r, 0, sizeof(*r));
		strscpy(r->name, rule->name, sizeof(r->name));
		r->is_driver = rule->is_driver;
		edgedma_rule_count++;
	}
	if (rule->set & EDGEDMA_RULE_ADDR_ALIGN)
		r->addr_align = rule->addr_align;
	if (rule->set & EDGEDMA_RULE_LEN_ALIGN)
		r->len_align = rule->len_align;
	if (rule->set & EDGEDMA_RULE_COHERENCY)
		r->coherency = rule->coherency;
	if (rule->set & EDGEDMA_RULE_CHECKS)
		r->checks = rule->checks;
	if (rule->set & EDGEDMA_RULE_SNAPSHOT_TRIGGERS)
		r->snapshot_triggers = rule->snapshot_triggers;
	if (rule->set & EDGEDMA_RULE_SNAPSHOT_FINDINGS)
		r->snapshot_findings = rule->snapshot_findings;
	if (rule->set & EDGEDMA_RULE_OWNED_HASH_MAX)
		r->owned_hash_max = rule->owned_hash_max;
	r->set |= rule->set | BIT(31);	/* bit 31: slot in use */
out:
	edgedma_rules_write_end(flags);
	return err;
}

int edgedma_policy_del(const char *name, bool is_driver)
{
	struct edgedma_policy_rule *r;
	unsigned long flags;
	int err = -ENOENT;

	flags = edgedma_rules_write_begin();
	r = edgedma_rule_find(name, is_driver);
	if (r) {
		memset(r, 0, sizeof(*r));
		edgedma_rule_count--;
		err = 0;
	}
	edgedma_rules_write_end(flags);
	return err;
}

bool edgedma_policy_rule_get(unsigned int index, struct edgedma_policy_rule *out)
{
	unsigned int i, seen = 0, seq;
	bool found;

	do {
		seq = read_seqcount_begin(&edgedma_rules_seq);
		found = false;
		seen = 0;
		for (i = 0; i < EDGEDMA_POLICY_RULES; i++) {
			if (!edgedma_rules[i].set)
				continue;
			if (seen++ == index) {
				*out = edgedma_rules[i];
				found = true;
				break;
			}
		}
	} while (read_seqcount_retry(&edgedma_rules_seq, seq));
	return found;
}
