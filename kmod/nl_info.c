// SPDX-License-Identifier: GPL-2.0
/* GET_INFO (what this module and kernel are) and GET_STATS (its counters). */
#include <linux/cache.h>
#include <linux/dma-mapping.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <uapi/linux/edgedma.h>

#include "checks.h"
#include "devicetree.h"
#include "devices.h"
#include "edgedma.h"
#include "finding_sites.h"
#include "findings.h"
#include "irqsoff.h"
#include "map_events.h"
#include "maptrack.h"
#include "netlink.h"
#include "snapshot_capture.h"
#include "snapshot_store.h"
#include "trigger_iommu_fault.h"
#include "sync_visible.h"
#include "vmalloc_pages.h"

/*
 * HOOK_SKIPPED: a line per API function the hooks left out, "name: what
 * that leaves unseen"; absent when none was.
 */
static int edgedma_put_hooks_skipped(struct sk_buff *msg)
{
	const char *symbol, *unseen;
	char lines[512];
	size_t len = 0;
	unsigned int i;

	for (i = 0; (symbol = edgedma_hook_skipped(i, &unseen)) && len < sizeof(lines); i++)
		len += scnprintf(lines + len, sizeof(lines) - len, "%s%s: %s",
				 i ? "\n" : "", symbol, unseen);
	if (!len)
		return 0;
	return nla_put_string(msg, EDGEDMA_A_INFO_HOOK_SKIPPED, lines);
}

/* Kprobe mode: how many functions each kind of hook took. */
static int edgedma_put_kprobe_counts(struct sk_buff *msg)
{
	u32 kretprobes, ftrace_entries, kprobe_entries;

	if (!edgedma_hook_kprobe_counts(&kretprobes, &ftrace_entries, &kprobe_entries))
		return 0;
	if (nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_KRETPROBES, kretprobes) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_FTRACE_ENTRIES, ftrace_entries) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_KPROBE_ENTRIES, kprobe_entries))
		return -EMSGSIZE;
	return 0;
}

int edgedma_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct new_utsname *uts = utsname();
	u32 policies, profiles, refused;
	struct sk_buff *msg;
	char node[96];
	void *hdr;

	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_GET_INFO, &hdr);
	if (!msg)
		return -ENOMEM;

	if (nla_put_string(msg, EDGEDMA_A_INFO_MODULE_VERSION, EDGEDMA_VERSION) ||
	    nla_put_string(msg, EDGEDMA_A_INFO_KERNEL_RELEASE, uts->release) ||
	    nla_put_string(msg, EDGEDMA_A_INFO_ARCH, uts->machine) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_RECORD_FORMAT,
			EDGEDMA_RECORD_FORMAT_VERSION) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_MODES,
			edgedma_hook_modes_available()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_PAGE_SIZE, PAGE_SIZE) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_CACHE_LINE, cache_line_size()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_DMA_ALIGNMENT,
			dma_get_cache_alignment()) ||
	    nla_put_u32(msg, EDGEDMA_A_INFO_HOOK_MODE, edgedma_hook_mode_active()) ||
	    nla_put_string(msg, EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS,
			   edgedma_iommu_fault_hooks()))
		return edgedma_nl_reply_overflow(msg, info);
	if (edgedma_put_hooks_skipped(msg) || edgedma_put_kprobe_counts(msg))
		return edgedma_nl_reply_overflow(msg, info);
	if (edgedma_dt_bound(node, sizeof(node), &policies, &profiles, &refused) &&
	    (nla_put_string(msg, EDGEDMA_A_INFO_DT_NODE, node) ||
	     nla_put_u32(msg, EDGEDMA_A_INFO_DT_POLICIES, policies) ||
	     nla_put_u32(msg, EDGEDMA_A_INFO_DT_REFUSED, refused) ||
	     nla_put_u32(msg, EDGEDMA_A_INFO_DT_PROFILES, profiles)))
		return edgedma_nl_reply_overflow(msg, info);

	return edgedma_nl_reply_send(msg, hdr, info);
}

/* What the module holds (GET_STATS): preallocated at load, and the mapping-event rings while the stream is on. */
static u64 edgedma_memory_held(void)
{
	return edgedma_devices_memory() + edgedma_maptrack_memory() +
	       edgedma_findings_memory() + edgedma_map_events_memory() +
	       edgedma_hook_memory() + edgedma_vmalloc_pages_memory() +
	       edgedma_snapshot_memory();
}

/* One EDGEDMA_A_STATS_TRIGGER per kind of trigger. */
static int edgedma_put_trigger_counts(struct sk_buff *msg)
{
	u32 kind;

	for (kind = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL; kind <= EDGEDMA_SNAPSHOT_TRIGGER_FINDING;
	     kind++) {
		struct edgedma_trigger_counts c;
		struct nlattr *nest = nla_nest_start(msg, EDGEDMA_A_STATS_TRIGGER);

		edgedma_snapshot_trigger_counts(kind, &c);
#define PUT(attr, value) \
	edgedma_put_u64(msg, EDGEDMA_A_TRIGGER_COUNT_##attr, value, EDGEDMA_A_TRIGGER_COUNT_PAD)
		if (!nest || nla_put_u32(msg, EDGEDMA_A_TRIGGER_COUNT_KIND, kind) ||
		    PUT(FIRED, c.fired) || PUT(TAKEN, c.taken) || PUT(OFF, c.off))
			return -EMSGSIZE;
#undef PUT
		nla_nest_end(msg, nest);
	}
	return 0;
}

int edgedma_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	u64 map_events, map_events_dropped;
	struct sk_buff *msg;
	void *hdr;

	edgedma_map_events_totals(&map_events, &map_events_dropped);
	msg = edgedma_nl_reply_new(info, EDGEDMA_CMD_GET_STATS, &hdr);
	if (!msg)
		return -ENOMEM;

#define PUT(attr, value) edgedma_put_u64(msg, EDGEDMA_A_STATS_##attr, value, EDGEDMA_A_STATS_PAD)
	if (PUT(REQUESTS, edgedma_nl_requests()) ||
	    PUT(REJECTED, edgedma_nl_rejected()) ||
	    PUT(CALLS, edgedma_checks_calls()) ||
	    PUT(MAPPINGS_LIVE, edgedma_maptrack_live()) ||
	    PUT(POOL_SIZE, edgedma_maptrack_pool_size()) ||
	    PUT(POOL_EXHAUSTED, edgedma_maptrack_exhausted()) ||
	    PUT(FINDINGS, edgedma_findings_last_seq()) ||
	    PUT(EVENTS_DROPPED, edgedma_findings_events_dropped()) ||
	    PUT(UNTRACKED_DEVICES, edgedma_devices_untracked()) ||
	    PUT(HOOK_MISSED, edgedma_hook_missed()) ||
	    PUT(UNSEEN_MAPPINGS, edgedma_checks_unseen()) ||
	    PUT(MAP_EVENTS, map_events) ||
	    PUT(MAP_EVENTS_DROPPED, map_events_dropped) ||
	    PUT(MEMORY, edgedma_memory_held()) ||
	    PUT(TRANSLATIONS_SKIPPED, edgedma_checks_translations_skipped()) ||
	    PUT(IRQSOFF_MAX_NS, edgedma_irqsoff_max_ns()) ||
	    PUT(SYNC_SKIPS_CLEARED, edgedma_sync_visible_cleared()) ||
	    PUT(FINDINGS_FOLDED, edgedma_sites_folded()) ||
	    PUT(FINDING_SITES, edgedma_sites_used()) ||
	    PUT(FINDING_SITES_FULL, edgedma_sites_full()) ||
	    PUT(SNAPSHOTS, edgedma_snapshots_stored()) ||
	    PUT(SNAPSHOTS_SUPPRESSED, edgedma_snapshots_suppressed()) ||
	    PUT(SNAPSHOTS_DROPPED, edgedma_snapshots_dropped()) ||
	    PUT(SNAPSHOTS_TRUNCATED, edgedma_snapshots_truncated()) ||
	    PUT(IOMMU_FAULTS, edgedma_iommu_faults()) ||
	    PUT(IOMMU_FAULTS_UNOWNED, edgedma_iommu_faults_unowned()) ||
	    PUT(SNAPSHOT_CAPTURE_MAX_NS, edgedma_snapshot_capture_max_ns()) ||
	    PUT(SNAPSHOT_DEVCOREDUMPS, edgedma_snapshot_devcoredumps()) ||
	    edgedma_put_trigger_counts(msg) ||
	    PUT(UNFOLD_HOLDERS, edgedma_sites_unfold_holders()) ||
	    PUT(STALE_MAPPINGS, edgedma_maptrack_stale()))
		return edgedma_nl_reply_overflow(msg, info);
#undef PUT

	return edgedma_nl_reply_send(msg, hdr, info);
}
