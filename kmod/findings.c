// SPDX-License-Identifier: GPL-2.0
/*
 * The findings log and its delivery to listeners.
 *
 * Findings are logged in a bounded ring under a lock of their own: they
 * are rare, and the clean map/unmap path never takes it. Delivery to the
 * "events" multicast group needs socket buffers, which hook context may not
 * allocate, so an irq_work hands the job to a work item that sends every
 * finding logged since the last one it sent. Whatever the ring overwrote
 * before the work item got to it is counted as dropped; listeners see the
 * gap in the sequence numbers and read the log to recover what is left.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <uapi/linux/edgedma.h>

#include "compat.h"
#include "edgedma.h"
#include "findings.h"
#include "netlink.h"

static unsigned int findings_log_size = 1024;
module_param(findings_log_size, uint, 0444);
MODULE_PARM_DESC(findings_log_size, "Findings kept for FINDINGS_GET (default 1024)");

static bool log_findings = true;
module_param(log_findings, bool, 0644);
MODULE_PARM_DESC(log_findings, "Also print each finding to the kernel log (ratelimited)");

static struct edgedma_finding *edgedma_log;
static DEFINE_RAW_SPINLOCK(edgedma_log_lock);
static u64 edgedma_last_seq;	/* seq of the newest finding; 0: none yet */
static u64 edgedma_sent_seq;	/* newest seq the work item handled */
static atomic64_t edgedma_events_dropped = ATOMIC64_INIT(0);

static void edgedma_send_work_fn(struct work_struct *work);
static DECLARE_WORK(edgedma_send_work, edgedma_send_work_fn);

static void edgedma_kick_fn(struct irq_work *work)
{
	queue_work(system_wq, &edgedma_send_work);
}

static struct irq_work edgedma_kick;

static const char *const edgedma_kind_names[] = {
	[EDGEDMA_FINDING_ADDR_MISALIGNED] = "addr-misaligned",
	[EDGEDMA_FINDING_LEN_MISALIGNED] = "len-misaligned",
	[EDGEDMA_FINDING_CACHELINE_SHARED] = "cacheline-shared",
	[EDGEDMA_FINDING_STACK_BUFFER] = "stack-buffer",
	[EDGEDMA_FINDING_VMALLOC_BUFFER] = "vmalloc-buffer",
	[EDGEDMA_FINDING_RODATA_BUFFER] = "rodata-buffer",
	[EDGEDMA_FINDING_SEG_BOUNDARY] = "seg-boundary",
	[EDGEDMA_FINDING_SEG_TOO_LONG] = "seg-too-long",
	[EDGEDMA_FINDING_MASK_EXCEEDED] = "mask-exceeded",
	[EDGEDMA_FINDING_BOUNCED] = "bounced",
	[EDGEDMA_FINDING_UNMAP_UNKNOWN] = "unmap-unknown",
	[EDGEDMA_FINDING_DOUBLE_UNMAP] = "double-unmap",
	[EDGEDMA_FINDING_UNMAP_MISMATCH] = "unmap-mismatch",
	[EDGEDMA_FINDING_SYNC_UNKNOWN] = "sync-unknown",
	[EDGEDMA_FINDING_SYNC_MISMATCH] = "sync-mismatch",
	[EDGEDMA_FINDING_LEAK] = "leak",
};

const char *edgedma_finding_kind_name(u32 kind)
{
	if (kind < ARRAY_SIZE(edgedma_kind_names) && edgedma_kind_names[kind])
		return edgedma_kind_names[kind];
	return "unknown";
}

void edgedma_finding_report(struct edgedma_finding *f)
{
	unsigned long flags;

	f->time_ns = ktime_get_ns();
	raw_spin_lock_irqsave(&edgedma_log_lock, flags);
	f->seq = ++edgedma_last_seq;
	edgedma_log[f->seq % findings_log_size] = *f;
	raw_spin_unlock_irqrestore(&edgedma_log_lock, flags);

	if (READ_ONCE(log_findings))
		pr_info_ratelimited("finding %llu %s on %s (%s): %s\n", f->seq,
				    edgedma_finding_kind_name(f->kind), f->device,
				    f->driver[0] ? f->driver : "no driver",
				    f->detail);
	irq_work_queue(&edgedma_kick);
}

bool edgedma_finding_get(u64 seq, struct edgedma_finding *out)
{
	unsigned long flags;
	bool found = false;
	u64 oldest;

	raw_spin_lock_irqsave(&edgedma_log_lock, flags);
	oldest = edgedma_last_seq >= findings_log_size ?
		 edgedma_last_seq - findings_log_size + 1 : 1;
	if (seq < oldest)
		seq = oldest;
	if (seq <= edgedma_last_seq) {
		*out = edgedma_log[seq % findings_log_size];
		found = true;
	}
	raw_spin_unlock_irqrestore(&edgedma_log_lock, flags);
	return found;
}

u64 edgedma_findings_last_seq(void)
{
	return READ_ONCE(edgedma_last_seq);
}

u64 edgedma_findings_events_dropped(void)
{
	return atomic64_read(&edgedma_events_dropped);
}

static void edgedma_send_work_fn(struct work_struct *work)
{
	struct edgedma_finding *f;

	/* Nobody to tell: nothing is lost to anyone (the log keeps them). */
	if (!edgedma_nl_events_listened()) {
		edgedma_sent_seq = edgedma_findings_last_seq();
		return;
	}
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		/* Nothing sent: everything pending is lost to listeners. */
		u64 last = edgedma_findings_last_seq();

		atomic64_add(last - edgedma_sent_seq, &edgedma_events_dropped);
		edgedma_sent_seq = last;
		return;
	}
	while (edgedma_sent_seq < edgedma_findings_last_seq()) {
		u64 want = edgedma_sent_seq + 1;

		if (!edgedma_finding_get(want, f))
			break;
		if (f->seq > want)	/* overwritten before we got here */
			atomic64_add(f->seq - want, &edgedma_events_dropped);
		if (edgedma_nl_notify_finding(f) == -ENOMEM)
			atomic64_inc(&edgedma_events_dropped);
		edgedma_sent_seq = f->seq;
		cond_resched();
	}
	kfree(f);
}

size_t edgedma_findings_memory(void)
{
	return findings_log_size * sizeof(*edgedma_log);
}

int __init edgedma_findings_init(void)
{
	if (!findings_log_size)
		findings_log_size = 1;
	edgedma_log = kvcalloc(findings_log_size, sizeof(*edgedma_log),
			       GFP_KERNEL);
	if (!edgedma_log)
		return -ENOMEM;
	init_irq_work(&edgedma_kick, edgedma_kick_fn);
	return 0;
}

/* After the hooks are gone: nothing reports any more. */
void edgedma_findings_exit(void)
{
	irq_work_sync(&edgedma_kick);
	cancel_work_sync(&edgedma_send_work);
	kvfree(edgedma_log);
}
