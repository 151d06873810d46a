// SPDX-License-Identifier: GPL-2.0
/*
 * Folding repeated findings where they are made.
 *
 * A driver with one badly placed buffer trips the same check on every DMA
 * call. Each site (device, kind, caller) is logged, named and sent once;
 * every later occurrence only bumps the site's count and last time, before
 * any formatting, symbol lookup, lock, printk or netlink work, so a finding
 * storm costs the driver a hash lookup and an atomic increment per call.
 *
 * The sites live in a fixed open-addressed table that hooks search and
 * fill without locks: a free slot is claimed with cmpxchg, filled, then
 * published. A site is never removed while the module is loaded; it is
 * retired (never matched again) when the module its caller lies in goes
 * away, since the next module may be loaded at the same addresses.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/slab.h>

#include "devices.h"
#include "edgedma.h"
#include "finding_sites.h"
#include "findings.h"

static unsigned int finding_sites = 4096;
module_param(finding_sites, uint, 0444);
MODULE_PARM_DESC(finding_sites,
		 "Call sites whose repeated findings are folded into one log entry, 64 to 65536 (default 4096)");

static bool fold_findings = true;
module_param(fold_findings, bool, 0644);
MODULE_PARM_DESC(fold_findings,
		 "Log a finding once per (device, kind, caller) and count its repeats (default on); off logs every occurrence");

/* Sockets asking for every occurrence; the hooks only read it. */
static unsigned int edgedma_unfold_holders;

/* Slots searched from a key's hash before the table counts as full. */
#define EDGEDMA_SITE_PROBES	32

enum edgedma_site_state {
	EDGEDMA_SITE_FREE,
	EDGEDMA_SITE_CLAIMING,	/* its key is being written: wait */
	EDGEDMA_SITE_READY,
	EDGEDMA_SITE_RETIRED,	/* its caller's module went away */
};

struct edgedma_site {
	atomic_t state;
	u32 kind;
	const struct edgedma_devrec *rec;
	const char *kobj_name;	/* the device's incarnation (devices.h) */
	unsigned long caller;
	atomic64_t count;
	u64 last_ns;
	u64 logged_seq;		/* its first finding's; 0 until logged */
	u64 said;		/* count when last said (repeats work only) */
};

static struct edgedma_site *edgedma_sites;
static unsigned int edgedma_sites_mask;
static atomic64_t edgedma_sites_claimed = ATOMIC64_INIT(0);
static DEFINE_PER_CPU(u64, edgedma_folded);
static DEFINE_PER_CPU(u64, edgedma_no_site);

static bool edgedma_site_is(const struct edgedma_site *s,
			    const struct edgedma_devrec *rec,
			    const char *kobj_name, u32 kind, unsigned long caller)
{
	return s->caller == caller && s->rec == rec && s->kind == kind &&
	       s->kobj_name == kobj_name;
}

static u32 edgedma_site_number(const struct edgedma_site *s)
{
	return s - edgedma_sites + 1;
}

/* With interrupts off: a claimer is never interrupted by a waiter. */
static bool edgedma_site_find_or_claim(const struct edgedma_devrec *rec,
				       u32 kind, unsigned long caller,
				       u64 now, u32 *site)
{
	const char *kobj_name = READ_ONCE(rec->kobj_name);
	unsigned long h = hash_long(caller ^ (unsigned long)rec ^ kind, 32);
	unsigned int i;

	for (i = 0; i < EDGEDMA_SITE_PROBES; i++) {
		struct edgedma_site *s = &edgedma_sites[(h + i) & edgedma_sites_mask];
		int state = atomic_read_acquire(&s->state);

		if (state == EDGEDMA_SITE_FREE) {
			state = atomic_cmpxchg(&s->state, EDGEDMA_SITE_FREE,
					       EDGEDMA_SITE_CLAIMING);
			if (state == EDGEDMA_SITE_FREE) {
				s->kind = kind;
				s->rec = rec;
				s->kobj_name = kobj_name;
				s->caller = caller;
				s->last_ns = now;
				s->logged_seq = 0;
				s->said = 1;
				atomic64_set(&s->count, 1);
				atomic_set_release(&s->state, EDGEDMA_SITE_READY);
				atomic64_inc(&edgedma_sites_claimed);
				*site = edgedma_site_number(s);
				return true;
			}
		}
		/* Another CPU is writing this slot's key: a few stores. */
		while (state == EDGEDMA_SITE_CLAIMING) {
			cpu_relax();
			state = atomic_read_acquire(&s->state);
		}
		if (state == EDGEDMA_SITE_READY &&
		    edgedma_site_is(s, rec, kobj_name, kind, caller)) {
			atomic64_inc(&s->count);
			WRITE_ONCE(s->last_ns, now);
			*site = edgedma_site_number(s);
			return false;
		}
	}
	*site = 0;
	return true;
}

bool edgedma_site_occurs(const struct edgedma_devrec *rec, u32 kind,
			 unsigned long caller, u32 *site)
{
	unsigned long flags;
	bool first;

	if (!caller) {
		*site = 0;
		return true;
	}
	local_irq_save(flags);
	first = edgedma_site_find_or_claim(rec, kind, caller, ktime_get_ns(), site);
	if (!*site)
		this_cpu_inc(edgedma_no_site);
	else if (!first && edgedma_sites_folding()) {
		this_cpu_inc(edgedma_folded);
		edgedma_findings_repeated();
	} else {
		first = true;
	}
	local_irq_restore(flags);
	return first;
}

void edgedma_site_logged(u32 site, u64 seq)
{
	if (site && site <= edgedma_sites_mask + 1)
		cmpxchg64(&edgedma_sites[site - 1].logged_seq, 0, seq);
}

bool edgedma_site_next_repeated(unsigned int *pos, struct edgedma_site_repeats *out)
{
	for (; *pos <= edgedma_sites_mask; (*pos)++) {
		struct edgedma_site *s = &edgedma_sites[*pos];
		u64 count;

		/* A retired site's findings are still worth their count. */
		if (atomic_read_acquire(&s->state) < EDGEDMA_SITE_READY)
			continue;
		count = atomic64_read(&s->count);
		out->seq = READ_ONCE(s->logged_seq);
		if (count <= s->said || !out->seq)
			continue;
		s->said = count;
		out->count = count;
		out->last_ns = READ_ONCE(s->last_ns);
		out->kind = s->kind;
		out->rec = s->rec;
		(*pos)++;
		return true;
	}
	return false;
}

bool edgedma_site_counts(u32 site, u64 *count, u64 *last_ns)
{
	const struct edgedma_site *s;

	if (!site || site > edgedma_sites_mask + 1)
		return false;
	s = &edgedma_sites[site - 1];
	if (atomic_read_acquire(&s->state) < EDGEDMA_SITE_READY)
		return false;
	*count = atomic64_read(&s->count);
	*last_ns = READ_ONCE(s->last_ns);
	return true;
}

void edgedma_sites_retire_module(struct module *mod)
{
	unsigned int i;

	for (i = 0; i <= edgedma_sites_mask; i++) {
		struct edgedma_site *s = &edgedma_sites[i];

		if (atomic_read_acquire(&s->state) == EDGEDMA_SITE_READY &&
		    within_module(s->caller, mod))
			atomic_cmpxchg(&s->state, EDGEDMA_SITE_READY,
				       EDGEDMA_SITE_RETIRED);
	}
}

void edgedma_sites_set_unfold_holders(unsigned int holders)
{
	WRITE_ONCE(edgedma_unfold_holders, holders);
}

unsigned int edgedma_sites_unfold_holders(void)
{
	return READ_ONCE(edgedma_unfold_holders);
}

bool edgedma_sites_folding(void)
{
	return READ_ONCE(fold_findings) && !READ_ONCE(edgedma_unfold_holders);
}

u64 edgedma_sites_folded(void)
{
	return edgedma_percpu_sum(edgedma_folded);
}

u64 edgedma_sites_used(void)
{
	return atomic64_read(&edgedma_sites_claimed);
}

u64 edgedma_sites_full(void)
{
	return edgedma_percpu_sum(edgedma_no_site);
}

size_t edgedma_sites_memory(void)
{
	return (edgedma_sites_mask + 1) * sizeof(*edgedma_sites);
}

int __init edgedma_sites_init(void)
{
	int err = edgedma_param_check("finding_sites", finding_sites, 64, 65536);

	if (err)
		return err;
	edgedma_sites_mask = roundup_pow_of_two(finding_sites) - 1;
	edgedma_sites = kvcalloc(edgedma_sites_mask + 1, sizeof(*edgedma_sites),
				 GFP_KERNEL);
	return edgedma_sites ? 0 : -ENOMEM;
}

void edgedma_sites_exit(void)
{
	kvfree(edgedma_sites);
}
