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
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <uapi/linux/edgedma.h>

#include "checks.h"
#include "compat.h"
#include "edgedma.h"
#include "finding_costs.h"
#include "finding_sites.h"
#include "findings.h"
#include "netlink.h"

static unsigned int findings_log_size = 1024;
module_param(findings_log_size, uint, 0444);
MODULE_PARM_DESC(findings_log_size, "Findings kept for FINDINGS_GET, 1 to 1048576 (default 1024)");

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

/*
 * Repeats folded at their sites are said at most once a second per site:
 * the first folded repeat after the last round kicks one.
 */
static void edgedma_repeats_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(edgedma_repeats_work, edgedma_repeats_work_fn);
static bool edgedma_repeats_pending;

static void edgedma_repeats_kick_fn(struct irq_work *work)
{
	queue_delayed_work(system_wq, &edgedma_repeats_work, HZ);
}

static struct irq_work edgedma_repeats_kick;

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
	[EDGEDMA_FINDING_CACHELINE_NEIGHBOUR_WRITTEN] = "cacheline-neighbour-written",
	[EDGEDMA_FINDING_FREE_IRQS_OFF] = "free-irqs-off",
	[EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED] = "cpu-write-while-device-owned",
};

const char *edgedma_finding_kind_name(u32 kind)
{
	if (kind < ARRAY_SIZE(edgedma_kind_names) && edgedma_kind_names[kind])
		return edgedma_kind_names[kind];
	return "unknown";
}

/* Name the code at @addr as %pS does, or "" when no symbol covers it. */
void edgedma_symbol_name(char *buf, size_t len, unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN];

	buf[0] = '\0';
	if (!addr)
		return;
	sprint_symbol(sym, addr);
	/* Unresolved, sprint_symbol() gives the bare address: keep none. */
	if (!strncmp(sym, "0x", 2))
		return;
	strscpy(buf, sym, len);
}

void edgedma_finding_sentence(struct edgedma_finding *f, const char *fmt, va_list args)
{
	va_list copy;
	int words;

	if (EDGEDMA_DEFERRED_SENTENCES) {
		va_copy(copy, args);
		words = vbin_printf(f->args, ARRAY_SIZE(f->args), fmt, copy);
		va_end(copy);
		if (words >= 0 && words <= ARRAY_SIZE(f->args)) {
			f->fmt = fmt;
			return;
		}
	}
	f->fmt = NULL;
	vsnprintf(f->detail, sizeof(f->detail), fmt, args);
}

/* One line per frame of the chain, "?" where no symbol covers it. */
static void edgedma_chain_names(struct edgedma_finding *f)
{
	char name[EDGEDMA_SYMBOL_LEN];
	size_t len = 0;
	unsigned int i;

	f->chain_names[0] = '\0';
	for (i = 0; i < f->chain_len && i < EDGEDMA_CHAIN_LEN; i++) {
		edgedma_symbol_name(name, sizeof(name), f->chain[i]);
		len += scnprintf(f->chain_names + len, sizeof(f->chain_names) - len,
				 "%s%s", i ? "\n" : "", name[0] ? name : "?");
	}
}

/* The sentence kept as vbin_printf() arguments, made into text. */
static void edgedma_finding_text(struct edgedma_finding *f)
{
	char detail[EDGEDMA_DETAIL_LEN];

	if (!f->fmt)
		return;
	bstr_printf(detail, sizeof(detail), f->fmt, f->args);
	memcpy(f->detail, detail, sizeof(f->detail));
	f->fmt = NULL;
}

static void edgedma_finding_name_callers(struct edgedma_finding *f)
{
	edgedma_symbol_name(f->caller_name, sizeof(f->caller_name), f->caller);
	edgedma_symbol_name(f->map_caller_name, sizeof(f->map_caller_name),
			    f->map_caller);
	edgedma_chain_names(f);
}

/*
 * Name @f, timing the sentence and the symbols from @t (finding_costs.h;
 * 0: not measuring). Returns the time now, as edgedma_cost_add() does.
 */
static u64 edgedma_finding_name_timed(struct edgedma_finding *f, u64 t)
{
	if (f->named)
		return t;
	edgedma_finding_text(f);
	t = edgedma_cost_add(EDGEDMA_COST_SENTENCE, t);
	edgedma_finding_name_callers(f);
	f->named = true;
	return edgedma_cost_add(EDGEDMA_COST_SYMBOLS, t);
}

void edgedma_finding_name(struct edgedma_finding *f)
{
	edgedma_finding_name_timed(f, 0);
}

/* Keep the names made for @f in its log entry, if the log still holds it. */
static void edgedma_finding_store_names(const struct edgedma_finding *f)
{
	struct edgedma_finding *entry;
	unsigned long flags;

	raw_spin_lock_irqsave(&edgedma_log_lock, flags);
	entry = &edgedma_log[f->seq % findings_log_size];
	if (entry->seq == f->seq && !entry->named) {
		memcpy(entry->detail, f->detail, sizeof(entry->detail));
		memcpy(entry->caller_name, f->caller_name, sizeof(entry->caller_name));
		memcpy(entry->map_caller_name, f->map_caller_name,
		       sizeof(entry->map_caller_name));
		memcpy(entry->chain_names, f->chain_names, sizeof(entry->chain_names));
		entry->fmt = NULL;
		entry->named = true;
	}
	raw_spin_unlock_irqrestore(&edgedma_log_lock, flags);
}

/* Hook context: nothing here formats, prints or sleeps; the work item does. */
void edgedma_finding_report(struct edgedma_finding *f)
{
	unsigned long flags;

	f->time_ns = ktime_get_ns();
	f->named = false;
	f->caller_name[0] = '\0';
	f->map_caller_name[0] = '\0';
	f->chain_names[0] = '\0';
	raw_spin_lock_irqsave(&edgedma_log_lock, flags);
	f->seq = ++edgedma_last_seq;
	edgedma_log[f->seq % findings_log_size] = *f;
	raw_spin_unlock_irqrestore(&edgedma_log_lock, flags);
	edgedma_site_logged(f->site, f->seq);
	irq_work_queue(&edgedma_kick);
}

void edgedma_findings_repeated(void)
{
	if (READ_ONCE(edgedma_repeats_pending))
		return;
	WRITE_ONCE(edgedma_repeats_pending, true);
	irq_work_queue(&edgedma_repeats_kick);
}

/*
 * One line per site whose count grew, by the seq of its logged finding (its
 * own line named the caller), ten at most per round: a storm at many sites
 * must not become a storm of lines.
 */
static void edgedma_repeats_work_fn(struct work_struct *work)
{
	char device[EDGEDMA_NAME_LEN], driver[EDGEDMA_NAME_LEN];
	struct edgedma_site_repeats r;
	unsigned int pos = 0, printed = 0, held_back = 0;
	bool log = READ_ONCE(log_findings);
	u64 now = ktime_get_ns();

	/* Repeats from here on kick another round. */
	WRITE_ONCE(edgedma_repeats_pending, false);
	smp_mb();
	while (edgedma_site_next_repeated(&pos, &r)) {
		edgedma_devrec_names(r.rec, device, driver);
		if (log && printed < 10) {
			pr_info("finding %llu %s on %s (%s): found %llu times so far, the last %llu ms ago\n",
				r.seq, edgedma_finding_kind_name(r.kind), device,
				driver[0] ? driver : "no driver", r.count,
				div_u64(now > r.last_ns ? now - r.last_ns : 0, NSEC_PER_MSEC));
			printed++;
		} else if (log) {
			held_back++;
		}
		if (edgedma_nl_notify_repeats(&r, device, driver) == -ENOMEM)
			atomic64_inc(&edgedma_events_dropped);
		cond_resched();
	}
	if (held_back)
		pr_info("%u more findings repeated; 'edgedma findings' counts every one\n",
			held_back);
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

/*
 * One line per finding in the kernel log, without addresses: the log may
 * be readable by anyone (dmesg_restrict=0), the netlink record has them for
 * CAP_SYS_ADMIN. Our own ratelimit, to say how many lines it held back.
 */
static void edgedma_finding_print(const struct edgedma_finding *f)
{
	static DEFINE_RATELIMIT_STATE(limit, 5 * HZ, 10);
	static unsigned int held_back;

	if (!READ_ONCE(log_findings))
		return;
	ratelimit_set_flags(&limit, RATELIMIT_MSG_ON_RELEASE);
	if (!__ratelimit(&limit)) {
		held_back++;
		return;
	}
	if (held_back)
		pr_info("%u findings before this one were not printed (ratelimited); 'edgedma findings' lists them all\n",
			held_back);
	held_back = 0;
	pr_info("finding %llu %s on %s (%s), %s from %s\n", f->seq,
		edgedma_finding_kind_name(f->kind), f->device,
		f->driver[0] ? f->driver : "no driver", edgedma_call_name(f->call),
		f->caller_name[0] ? f->caller_name : "code outside any known symbol");
}

/* The only caller of the helpers below: the work item never runs twice at once. */
static struct edgedma_finding edgedma_send_buf;

static void edgedma_send_work_fn(struct work_struct *work)
{
	struct edgedma_finding *f = &edgedma_send_buf;

	while (edgedma_sent_seq < edgedma_findings_last_seq()) {
		u64 want = edgedma_sent_seq + 1;
		bool listened = edgedma_nl_events_listened();
		u64 t;

		if (!edgedma_finding_get(want, f))
			break;
		/* Overwritten before we got here: lost to listeners. */
		if (f->seq > want && listened)
			atomic64_add(f->seq - want, &edgedma_events_dropped);
		t = edgedma_cost_start();
		if (!f->named) {
			u64 now = t ? ktime_get_ns() : 0;

			if (t)
				edgedma_cost_add_ns(EDGEDMA_COST_DELAY,
						    now > f->time_ns ? now - f->time_ns : 0);
			t = edgedma_finding_name_timed(f, t);
			edgedma_finding_store_names(f);
			t = edgedma_cost_add(EDGEDMA_COST_STORE_NAMES, t);
		}
		edgedma_finding_print(f);
		t = edgedma_cost_add(EDGEDMA_COST_PRINTK, t);
		if (listened) {
			if (edgedma_nl_notify_finding(f) == -ENOMEM)
				atomic64_inc(&edgedma_events_dropped);
			edgedma_cost_add(EDGEDMA_COST_NETLINK, t);
		}
		edgedma_sent_seq = f->seq;
		cond_resched();
	}
}

void edgedma_findings_flush(void)
{
	queue_work(system_wq, &edgedma_send_work);
	flush_work(&edgedma_send_work);
}

size_t edgedma_findings_memory(void)
{
	return findings_log_size * sizeof(*edgedma_log) + edgedma_sites_memory();
}

int __init edgedma_findings_init(void)
{
	int err = edgedma_param_check("findings_log_size", findings_log_size, 1, 1U << 20);

	if (err)
		return err;
	err = edgedma_sites_init();
	if (err)
		return err;
	edgedma_log = kvcalloc(findings_log_size, sizeof(*edgedma_log),
			       GFP_KERNEL);
	if (!edgedma_log) {
		edgedma_sites_exit();
		return -ENOMEM;
	}
	init_irq_work(&edgedma_kick, edgedma_kick_fn);
	init_irq_work(&edgedma_repeats_kick, edgedma_repeats_kick_fn);
	return edgedma_finding_costs_init();
}

/* After the hooks are gone: nothing reports any more. */
void edgedma_findings_exit(void)
{
	edgedma_finding_costs_exit();
	irq_work_sync(&edgedma_kick);
	cancel_work_sync(&edgedma_send_work);
	irq_work_sync(&edgedma_repeats_kick);
	cancel_delayed_work_sync(&edgedma_repeats_work);
	kvfree(edgedma_log);
	edgedma_sites_exit();
}
