// SPDX-License-Identifier: GPL-2.0
/*
 * IOMMU faults as snapshot triggers (see trigger_iommu_fault.h).
 *
 * Neither intel-iommu nor arm-smmu-v3 reports DMA-remapping faults through
 * report_iommu_fault() on 6.1 and 6.12, and a domain's fault handler
 * belongs to whoever owns the domain, so edgedma watches the drivers' own
 * fault paths instead, without changing what they do:
 *
 * Each is an entry hook (entry_hooks.h: ftrace, else a kprobe):
 *
 * - intel-iommu: a hook on dmar_fault(), the hard-IRQ handler, reads the
 *   pending fault records (VT-d spec, "Fault Recording Registers") before
 *   the handler clears them. dmar_fault_do_one(), which gets them decoded,
 *   is inlined on Debian's kernels.
 * - arm-smmu-v3: a hook on arm_smmu_handle_evt(), which gets each raw
 *   event record (6.1). Where it is inlined into the event thread (6.12),
 *   the thread's own report of an event it did not handle is read instead:
 *   "event 0x%02x received:" then the record's four words, through
 *   _dev_info() (ratelimited by the driver: a storm is seen in part).
 * - any other IOMMU driver that calls report_iommu_fault(): the
 *   iommu:io_page_fault trace event.
 *
 * The faulting device is found among the devices edgedma watches by its
 * PCI requester ID (VT-d source ID) or IOMMU stream ID: a device that made
 * no DMA-API call cannot own a DMA fault worth a snapshot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/iommu.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/events/iommu.h>
#include <uapi/linux/edgedma.h>

#include "devices.h"
#include "entry_hooks.h"
#include "snapshot_capture.h"
#include "trigger_iommu_fault.h"

static atomic64_t edgedma_faults = ATOMIC64_INIT(0);
static atomic64_t edgedma_faults_unowned = ATOMIC64_INIT(0);
static char edgedma_fault_hooks[96];

static void edgedma_fault_hook_attached(const char *name)
{
	if (edgedma_fault_hooks[0])
		strlcat(edgedma_fault_hooks, ",", sizeof(edgedma_fault_hooks));
	strlcat(edgedma_fault_hooks, name, sizeof(edgedma_fault_hooks));
}

/* ---- from a bus number to the device --------------------------------- */

static bool __maybe_unused edgedma_pci_rid_is(struct device *dev, const void *key)
{
	return dev_is_pci(dev) && pci_dev_id(to_pci_dev(dev)) == *(const u32 *)key;
}

static bool __maybe_unused edgedma_stream_id_is(struct device *dev, const void *key)
{
	struct iommu_fwspec *fwspec = dev_iommu_fwspec_get(dev);
	u32 sid = *(const u32 *)key;
	unsigned int i;

	if (!fwspec)
		return false;
	for (i = 0; i < fwspec->num_ids; i++)
		if (fwspec->ids[i] == sid)
			return true;
	return false;
}

/* One fault of the device found by @match/@key; any context but NMI. */
static void __maybe_unused edgedma_iommu_fault(bool (*match)(struct device *dev, const void *key),
				u32 key, u64 addr, u32 access, u32 reason)
{
	struct edgedma_snapshot_request t = {
		.kind = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT,
		.has_addr = true, .addr = addr, .access = access, .reason = reason,
		.atomic = true,
	};
	struct device *dev;
	u64 seq;

	atomic64_inc(&edgedma_faults);
	dev = edgedma_devrec_search(match, &key);
	if (!dev) {
		atomic64_inc(&edgedma_faults_unowned);
		return;
	}
	/* Rate limited or no slot: counted by the store. */
	edgedma_snapshot_take(dev, &t, &seq);
}

/* ---- intel-iommu -------------------------------------------------------- */

#ifdef CONFIG_X86_64
/* VT-d registers and fault record fields (VT-d spec, 11.4.9 and 11.4.14). */
#define EDGEDMA_DMAR_FSTS		0x34
#define EDGEDMA_DMAR_FSTS_PPF		BIT(1)		/* primary fault pending */
#define EDGEDMA_DMAR_FSTS_FRI(v)	(((v) >> 8) & 0xff)
#define EDGEDMA_DMAR_CAP_FRO(cap)	((((cap) >> 24) & 0x3ff) * 16)
#define EDGEDMA_DMAR_CAP_NFR(cap)	((((cap) >> 40) & 0xff) + 1)
#define EDGEDMA_DMAR_FRCD_LEN		16
#define EDGEDMA_DMAR_FRCD_F		BIT(31)		/* in the record's top word */
#define EDGEDMA_DMAR_FRCD_READ		BIT(30)		/* T: 1 read, 0 write */

/*
 * struct intel_iommu is private to the driver; its first fields have been
 * the same since long before 5.10: void __iomem *reg, then reg_phys,
 * reg_size and cap, all 64-bit.
 */
#define EDGEDMA_INTEL_IOMMU_REG		0
#define EDGEDMA_INTEL_IOMMU_CAP		24

static void edgedma_dmar_fault_entered(struct edgedma_entry_hook *h,
				       const unsigned long *args)
{
	/* dmar_fault(int irq, void *dev_id): dev_id is the struct intel_iommu. */
	const void *iommu = (const void *)args[1];
	void __iomem *reg;
	u32 fsts, index, records, offset, i;
	u64 cap;

	if (copy_from_kernel_nofault(&reg, iommu + EDGEDMA_INTEL_IOMMU_REG, sizeof(reg)) ||
	    copy_from_kernel_nofault(&cap, iommu + EDGEDMA_INTEL_IOMMU_CAP, sizeof(cap)) ||
	    !reg)
		return;
	fsts = readl(reg + EDGEDMA_DMAR_FSTS);
	if (!(fsts & EDGEDMA_DMAR_FSTS_PPF))
		return;
	index = EDGEDMA_DMAR_FSTS_FRI(fsts);
	records = EDGEDMA_DMAR_CAP_NFR(cap);
	offset = EDGEDMA_DMAR_CAP_FRO(cap);
	/* As the handler does: from the index on, while records are pending. */
	for (i = 0; i < records && index < records; i++) {
		void __iomem *frcd = reg + offset + index * EDGEDMA_DMAR_FRCD_LEN;
		u32 top = readl(frcd + 12);
		u32 sid;
		u64 addr;

		if (!(top & EDGEDMA_DMAR_FRCD_F))
			break;
		sid = readl(frcd + 8) & 0xffff;
		addr = readq(frcd) & PAGE_MASK;
		edgedma_iommu_fault(edgedma_pci_rid_is, sid, addr,
				    top & EDGEDMA_DMAR_FRCD_READ ? EDGEDMA_ACCESS_READ
								 : EDGEDMA_ACCESS_WRITE,
				    top & 0xff);
		index = (index + 1) % records;
	}
}

static struct edgedma_entry_hook edgedma_dmar_hook = {
	.symbol = "dmar_fault",
	.fn = edgedma_dmar_fault_entered,
};
#endif

/* ---- arm-smmu-v3 -------------------------------------------------------- */

#ifdef CONFIG_ARM64
/* Event record fields (SMMUv3 spec, 7.3; the driver's EVTQ_*). */
#define EDGEDMA_EVT_ID(e0)		((e0) & 0xff)
#define EDGEDMA_EVT_SID(e0)		((u32)((e0) >> 32))
#define EDGEDMA_EVT_RNW(e1)		(((e1) >> 35) & 1)	/* 1: read */
#define EDGEDMA_EVT_FIRST_FAULT		0x10	/* translation fault */
#define EDGEDMA_EVT_LAST_FAULT		0x13	/* permission fault */

static void edgedma_smmu_event(const u64 *evt)
{
	u32 id = EDGEDMA_EVT_ID(evt[0]);

	/* Translation, address size, access flag and permission faults. */
	if (id < EDGEDMA_EVT_FIRST_FAULT || id > EDGEDMA_EVT_LAST_FAULT)
		return;
	edgedma_iommu_fault(edgedma_stream_id_is, EDGEDMA_EVT_SID(evt[0]), evt[2],
			    EDGEDMA_EVT_RNW(evt[1]) ? EDGEDMA_ACCESS_READ : EDGEDMA_ACCESS_WRITE,
			    id);
}

/* arm_smmu_handle_evt(struct arm_smmu_device *smmu, u64 *evt) */
static void edgedma_smmu_handle_evt_entered(struct edgedma_entry_hook *h,
					    const unsigned long *args)
{
	u64 evt[4];

	if (!copy_from_kernel_nofault(evt, (const void *)args[1], sizeof(evt)))
		edgedma_smmu_event(evt);
}

static struct edgedma_entry_hook edgedma_smmu_evt_hook = {
	.symbol = "arm_smmu_handle_evt",
	.fn = edgedma_smmu_handle_evt_entered,
};

/*
 * The event thread's report, one _dev_info() per line: the header, then
 * the four words. One thread per SMMU prints them in order; a few SMMUs
 * are followed at once.
 */
#define EDGEDMA_SMMU_REPORTS	4

static const char edgedma_smmu_header[] = "event 0x%02x received:\n";
static const char edgedma_smmu_word[] = "\t0x%016llx\n";

struct edgedma_smmu_report {
	const struct device *smmu;
	unsigned int words;
	u64 evt[4];
};

static struct edgedma_smmu_report edgedma_smmu_reports[EDGEDMA_SMMU_REPORTS];
static DEFINE_RAW_SPINLOCK(edgedma_smmu_reports_lock);

static bool edgedma_fmt_is(const char *fmt, const char *want, size_t len)
{
	char copy[sizeof(edgedma_smmu_header)];

	return !copy_from_kernel_nofault(copy, fmt, len) && !memcmp(copy, want, len);
}

/* _dev_info(const struct device *dev, const char *fmt, ...) */
static void edgedma_dev_info_entered(struct edgedma_entry_hook *h,
				     const unsigned long *args)
{
	const struct device *dev = (const void *)args[0];
	const char *fmt = (const char *)args[1];
	struct edgedma_smmu_report *r, *free = NULL, *mine = NULL;
	bool header, complete = false;
	unsigned long flags;
	u64 evt[4];
	int i;

	header = edgedma_fmt_is(fmt, edgedma_smmu_header, sizeof(edgedma_smmu_header));
	if (!header && !edgedma_fmt_is(fmt, edgedma_smmu_word, sizeof(edgedma_smmu_word)))
		return;
	raw_spin_lock_irqsave(&edgedma_smmu_reports_lock, flags);
	for (i = 0; i < EDGEDMA_SMMU_REPORTS; i++) {
		r = &edgedma_smmu_reports[i];
		if (r->smmu == dev)
			mine = r;
		else if (!r->smmu && !free)
			free = r;
	}
	if (header) {
		r = mine ?: free;
		if (r) {
			r->smmu = dev;
			r->words = 0;
		}
	} else if (mine && mine->words < 4) {
		mine->evt[mine->words++] = args[2];
		if (mine->words == 4) {
			memcpy(evt, mine->evt, sizeof(evt));
			mine->smmu = NULL;
			complete = true;
		}
	}
	raw_spin_unlock_irqrestore(&edgedma_smmu_reports_lock, flags);
	if (complete)
		edgedma_smmu_event(evt);
}

static struct edgedma_entry_hook edgedma_dev_info_hook = {
	.symbol = "_dev_info",
	.fn = edgedma_dev_info_entered,
};
#endif

/* ---- report_iommu_fault() ------------------------------------------------ */

static bool edgedma_is_device(struct device *dev, const void *key)
{
	return dev == *(struct device *const *)key;
}

static void edgedma_io_page_fault(void *data, struct device *dev,
				  unsigned long iova, int flags)
{
	struct edgedma_snapshot_request t = {
		.kind = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT,
		.has_addr = true, .addr = iova,
		.access = flags & IOMMU_FAULT_WRITE ? EDGEDMA_ACCESS_WRITE
						    : EDGEDMA_ACCESS_READ,
		.atomic = true,
	};
	u64 seq;

	atomic64_inc(&edgedma_faults);
	if (!edgedma_devrec_search(edgedma_is_device, &dev)) {
		atomic64_inc(&edgedma_faults_unowned);
		return;
	}
	edgedma_snapshot_take(dev, &t, &seq);
}

/* ---- attaching ----------------------------------------------------------- */

static bool edgedma_io_page_fault_on;
static struct edgedma_entry_hook *edgedma_fault_entry_hooks[2];

/* Whether @h went in; the reason it did not in the kernel log. */
static bool __maybe_unused edgedma_fault_entry_hook(struct edgedma_entry_hook *h)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(edgedma_fault_entry_hooks); i++) {
		if (edgedma_fault_entry_hooks[i])
			continue;
		err = edgedma_entry_hook_add(h);
		if (err) {
			if (err != -ENOENT)
				pr_info("no IOMMU fault hook on %s (%d; this kernel offers %s)\n",
					h->symbol, err, edgedma_entry_hooks_offered());
			return false;
		}
		edgedma_fault_entry_hooks[i] = h;
		edgedma_fault_hook_attached(h->symbol);
		pr_info("IOMMU faults: %s hooked through %s\n", h->symbol,
			edgedma_entry_hook_how(h));
		return true;
	}
	return false;
}

int edgedma_iommu_fault_start(void)
{
#ifdef CONFIG_X86_64
	edgedma_fault_entry_hook(&edgedma_dmar_hook);
#endif
#ifdef CONFIG_ARM64
	if (!edgedma_fault_entry_hook(&edgedma_smmu_evt_hook))
		edgedma_fault_entry_hook(&edgedma_dev_info_hook);
#endif
	if (!register_trace_io_page_fault(edgedma_io_page_fault, NULL)) {
		edgedma_io_page_fault_on = true;
		edgedma_fault_hook_attached("io_page_fault");
	}
	pr_info("IOMMU faults caught at: %s\n",
		edgedma_fault_hooks[0] ? edgedma_fault_hooks : "nowhere");
	return 0;
}

void edgedma_iommu_fault_stop(void)
{
	unsigned int i;

	if (edgedma_io_page_fault_on) {
		unregister_trace_io_page_fault(edgedma_io_page_fault, NULL);
		tracepoint_synchronize_unregister();
		edgedma_io_page_fault_on = false;
	}
	for (i = 0; i < ARRAY_SIZE(edgedma_fault_entry_hooks); i++) {
		if (edgedma_fault_entry_hooks[i])
			edgedma_entry_hook_del(edgedma_fault_entry_hooks[i]);
		edgedma_fault_entry_hooks[i] = NULL;
	}
	edgedma_fault_hooks[0] = '\0';
}

const char *edgedma_iommu_fault_hooks(void)
{
	return edgedma_fault_hooks;
}

u64 edgedma_iommu_faults(void)
{
	return atomic64_read(&edgedma_faults);
}

u64 edgedma_iommu_faults_unowned(void)
{
	return atomic64_read(&edgedma_faults_unowned);
}
