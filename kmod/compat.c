// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel facts the module needs but the kernel does not export: found once
 * at load, never on the hook path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mem_encrypt.h>
#include <linux/mm.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/iommu.h>
#include <linux/percpu.h>
#include <linux/net.h>
#include <net/genetlink.h>
#include <net/sock.h>
#ifdef CONFIG_X86
#include <asm/unwind.h>
#endif

#include "compat.h"

typedef unsigned long (*edgedma_lookup_fn)(const char *name);

/* Kernel text and read-only data, as physical ranges [start, end). */
u64 edgedma_text_start, edgedma_text_end;
u64 edgedma_rodata_start, edgedma_rodata_end;
static edgedma_lookup_fn edgedma_lookup;

bool edgedma_function_at(unsigned long addr, char *name, unsigned long *start,
			 unsigned long *size, bool *in_module)
{
	unsigned long offset;
	char *at;

	sprint_symbol(name, addr);
	at = strchr(name, '+');
	if (!at || sscanf(at, "+%lx/%lx", &offset, size) != 2 || !*size)
		return false;
	*in_module = strchr(at, '[') != NULL;
	*at = '\0';
	*start = addr - offset;
	return true;
}

/* Functions walked each way from sprint_symbol() (kernel/kallsyms.c has ~40). */
#define EDGEDMA_KALLSYMS_WALK	512

/*
 * kallsyms_lookup_name() stopped being exported in 5.7. It lives in
 * kernel/kallsyms.c beside sprint_symbol(), which is exported, and kallsyms
 * names every function (KALLSYMS_ALL is for data): walking the functions
 * around sprint_symbol() one by one finds it, with no kprobe, which vendor
 * kernels do not have.
 */
static edgedma_lookup_fn edgedma_find_lookup(void)
{
	unsigned long addr, start, size;
	char sym[KSYM_SYMBOL_LEN];
	bool in_module;
	int dir, i;

	for (dir = -1; dir <= 1; dir += 2) {
		addr = (unsigned long)sprint_symbol;
		for (i = 0; i < EDGEDMA_KALLSYMS_WALK; i++) {
			if (!edgedma_function_at(addr, sym, &start, &size, &in_module) ||
			    in_module)
				break;
			if (!strcmp(sym, "kallsyms_lookup_name"))
				return (edgedma_lookup_fn)start;
			addr = dir < 0 ? start - 1 : start + size;
		}
	}
	return NULL;
}

static void __init edgedma_image_from_kallsyms(edgedma_lookup_fn lookup)
{
	unsigned long start, end;

	/*
	 * Two ranges, not one: the kernel frees the gap between the end of
	 * text and the start of rodata at boot, and reuses it as ordinary RAM.
	 */
	start = lookup("_stext");
	end = lookup("_etext");
	if (start && end > start) {
		edgedma_text_start = __pa_symbol(start);
		edgedma_text_end = __pa_symbol(end);
	}
	start = lookup("__start_rodata");
	end = lookup("__end_rodata");
	if (start && end > start) {
		edgedma_rodata_start = __pa_symbol(start);
		edgedma_rodata_end = __pa_symbol(end);
	}
}

/*
 * Without CONFIG_KALLSYMS_ALL kallsyms has no data symbols such as
 * __start_rodata, but always has the text bounds. arm64 puts rodata (and
 * the kernel's own page tables, no DMA buffers either) right after text and
 * before the init sections, with no freed gap: [_etext, _sinittext). x86
 * frees the gap after text, so there only the text range is known.
 */
static void __init edgedma_rodata_from_text_bounds(edgedma_lookup_fn lookup)
{
	unsigned long start, end;

	if (!IS_ENABLED(CONFIG_ARM64))
		return;
	start = lookup("_etext");
	end = lookup("_sinittext");
	if (start && end > start) {
		edgedma_rodata_start = __pa_symbol(start);
		edgedma_rodata_end = __pa_symbol(end);
	}
}

#ifdef EDGEDMA_HAVE_SWIOTLB_GLOBAL_POOL
/*
 * Until 5.15 swiotlb had one pool, io_tlb_start to io_tlb_end (set at boot,
 * or by swiotlb_late_init_with_tbl()), and exported neither: their
 * addresses come from kallsyms (a data symbol: CONFIG_KALLSYMS_ALL).
 */
static phys_addr_t *edgedma_io_tlb_start, *edgedma_io_tlb_end;

static void __init edgedma_swiotlb_from_kallsyms(edgedma_lookup_fn lookup)
{
	edgedma_io_tlb_start = (phys_addr_t *)lookup("io_tlb_start");
	edgedma_io_tlb_end = (phys_addr_t *)lookup("io_tlb_end");
	if (!edgedma_io_tlb_start || !edgedma_io_tlb_end) {
		edgedma_io_tlb_start = edgedma_io_tlb_end = NULL;
		pr_info("no CONFIG_KALLSYMS_ALL: swiotlb's pool cannot be found, bounce buffers go unseen\n");
	}
}

/* Unknown bounds (no CONFIG_KALLSYMS_ALL): a pool may be there. */
bool edgedma_swiotlb_active(struct device *dev)
{
	return !edgedma_io_tlb_end || READ_ONCE(*edgedma_io_tlb_end);
}

bool edgedma_is_swiotlb(struct device *dev, phys_addr_t phys)
{
	if (!edgedma_io_tlb_start)
		return false;
	return phys >= READ_ONCE(*edgedma_io_tlb_start) &&
	       phys < READ_ONCE(*edgedma_io_tlb_end);
}
#else
static void __init edgedma_swiotlb_from_kallsyms(edgedma_lookup_fn lookup)
{
}
#endif

#ifndef EDGEDMA_HAVE_UNWIND_PAST_KRETPROBE
static unsigned long edgedma_kretprobe_trampoline_start;
static unsigned long edgedma_kretprobe_trampoline_end;

static void __init edgedma_kretprobe_trampoline_from_kallsyms(void)
{
	if (!edgedma_function_range("kretprobe_trampoline",
				    &edgedma_kretprobe_trampoline_start,
				    &edgedma_kretprobe_trampoline_end))
		pr_info("no kretprobe_trampoline in kallsyms: call chains of maps end at their caller\n");
}

bool edgedma_in_kretprobe_trampoline(unsigned long addr)
{
	return addr >= edgedma_kretprobe_trampoline_start &&
	       addr < edgedma_kretprobe_trampoline_end;
}

#ifdef CONFIG_X86
unsigned int edgedma_unwind_from_return(struct pt_regs *regs,
					unsigned long caller, u64 *chain,
					unsigned int size)
{
	/* The caller's state as the function returned to it. */
	struct pt_regs at_caller = *regs;
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	if (!size)
		return 0;
	chain[n++] = caller;
	at_caller.ip = caller;
	at_caller.cs = __KERNEL_CS;
	/* Starting from registers, the unwinder steps past their frame. */
	for (unwind_start(&state, current, &at_caller, NULL);
	     !unwind_done(&state) && n < size; unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (addr != caller || n > 1)
			chain[n++] = addr;
	}
	return n;
}
#else
unsigned int edgedma_unwind_from_return(struct pt_regs *regs,
					unsigned long caller, u64 *chain,
					unsigned int size)
{
	return 0;
}
#endif
#else
static void __init edgedma_kretprobe_trampoline_from_kallsyms(void)
{
}
#endif

int __init edgedma_compat_init(void)
{
	edgedma_lookup_fn lookup = edgedma_find_lookup();

	edgedma_lookup = lookup;
	if (!lookup) {
		pr_info("kallsyms_lookup_name() not found (no CONFIG_KALLSYMS?): the rodata-buffer check is off\n");
		return 0;
	}
	edgedma_swiotlb_from_kallsyms(lookup);
	edgedma_image_from_kallsyms(lookup);
	if (!edgedma_rodata_end)
		edgedma_rodata_from_text_bounds(lookup);
	if (!edgedma_rodata_end)
		pr_info("no CONFIG_KALLSYMS_ALL: the rodata-buffer check sees kernel text only\n");
	edgedma_kretprobe_trampoline_from_kallsyms();
	return 0;
}

u64 edgedma_direct_dma_to_phys(struct device *dev, u64 dma_addr)
{
	if (dev->dma_range_map)
		return ~0ULL;
	return __sme_clr(dma_addr);
}

bool edgedma_function_range(const char *name, unsigned long *start,
			    unsigned long *end)
{
	unsigned long addr, size;
	char sym[KSYM_SYMBOL_LEN];
	bool in_module;

	addr = edgedma_lookup ? edgedma_lookup(name) : 0;
	if (!addr || !edgedma_function_at(addr, sym, start, &size, &in_module) ||
	    *start != addr)
		return false;
	*end = addr + size;
	return true;
}

#ifdef EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
/*
 * 5.18 on, ftrace_set_filter_ip() takes a function's start for its ftrace
 * site; before, only the site itself: the start on x86_64 (fentry), one or
 * two instructions in on arm64 (the patchable entry, after a BTI landing
 * pad). A site is at most that far in, so the first match is the one.
 */
static const unsigned int edgedma_ftrace_site_offsets[] = { 0, 4, 8 };

int edgedma_ftrace_filter_function(struct ftrace_ops *ops, const char *name,
				   unsigned long *start)
{
	const unsigned int *offsets = edgedma_ftrace_site_offsets;
	unsigned long end;
	unsigned int i;
	int err = -EINVAL;

	if (!edgedma_function_range(name, start, &end))
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(edgedma_ftrace_site_offsets) && *start + offsets[i] < end;
	     i++) {
		err = ftrace_set_filter_ip(ops, *start + offsets[i], 0, 0);
		if (err != -EINVAL)
			break;
	}
	return err;
}

void edgedma_ftrace_unfilter_function(struct ftrace_ops *ops, unsigned long start)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edgedma_ftrace_site_offsets); i++)
		if (!ftrace_set_filter_ip(ops, start + edgedma_ftrace_site_offsets[i], 1, 0))
			return;
}
#endif

#ifdef EDGEDMA_MCGRP_JOIN_REFUSED
void edgedma_compat_multicast_admin(const struct genl_family *family,
				    struct sk_buff *msg, unsigned int group)
{
	genlmsg_multicast(family, msg, 0, group, GFP_KERNEL);
}
#else
/* The opener's credentials, as netlink_capable() judges a sender. */
static int edgedma_not_admin(struct sock *dsk, struct sk_buff *skb, void *data)
{
	struct socket *sock = dsk->sk_socket;

	return !sock || !sock->file ||
	       !file_ns_capable(sock->file, &init_user_ns, CAP_SYS_ADMIN);
}

void edgedma_compat_multicast_admin(const struct genl_family *family,
				    struct sk_buff *msg, unsigned int group)
{
	unsigned int id = family->mcgrp_offset + group;

	NETLINK_CB(msg).dst_group = id;
	netlink_broadcast_filtered(init_net.genl_sock, msg, 0, id, GFP_KERNEL,
				   edgedma_not_admin, NULL);
}
#endif

#ifdef CONFIG_PREEMPT_RT
/*
 * iova_to_phys implementations that read the IO page table without a lock
 * (io-pgtable walks and the x86 IOMMUs' own walkers). Others, like
 * virtio-iommu's and arm-smmu (v2)'s hardware lookup, take a spinlock_t,
 * which sleeps on PREEMPT_RT. Names as sprint_symbol_no_offset() gives them.
 */
static const char *const edgedma_lockless_iova_to_phys[] = {
	"intel_iommu_iova_to_phys",
	"amd_iommu_iova_to_phys",
	"arm_smmu_iova_to_phys [arm_smmu_v3]",
#if IS_BUILTIN(CONFIG_ARM_SMMU_V3) && !IS_ENABLED(CONFIG_ARM_SMMU)
	"arm_smmu_iova_to_phys",
#endif
};

/* The last driver function judged on this CPU, and the verdict. */
static DEFINE_PER_CPU(void *, edgedma_judged_fn);
static DEFINE_PER_CPU(bool, edgedma_judged_lockless);

bool edgedma_iommu_translate_in_hook(struct iommu_domain *domain)
{
	void *fn = domain->ops ? (void *)domain->ops->iova_to_phys : NULL;
	char name[KSYM_SYMBOL_LEN];
	bool lockless = false;
	unsigned int i;

	if (!fn)
		return false;
	if (__this_cpu_read(edgedma_judged_fn) == fn)
		return __this_cpu_read(edgedma_judged_lockless);
	sprint_symbol_no_offset(name, (unsigned long)fn);
	for (i = 0; i < ARRAY_SIZE(edgedma_lockless_iova_to_phys); i++)
		if (!strcmp(name, edgedma_lockless_iova_to_phys[i]))
			lockless = true;
	__this_cpu_write(edgedma_judged_lockless, lockless);
	__this_cpu_write(edgedma_judged_fn, fn);
	return lockless;
}
#else
bool edgedma_iommu_translate_in_hook(struct iommu_domain *domain)
{
	return true;
}
#endif
