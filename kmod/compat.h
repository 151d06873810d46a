/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels edgedma builds for lives here.
 *
 * The EDGEDMA_HAVE_* macros come from feature probes that Kbuild runs
 * against the target tree (see compat.mk); nothing else in the module tests
 * kernel versions or probe results directly.
 */
#ifndef _EDGEDMA_COMPAT_H
#define _EDGEDMA_COMPAT_H

#include <linux/swiotlb.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/version.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "edgedma needs Linux 5.10 or newer (per-command netlink policies, dma_alloc_pages)"
#endif

/* 5.14 gave panic_notifier_list a header of its own; kernel.h had it. */
#ifdef EDGEDMA_HAVE_PANIC_NOTIFIER_H
#include <linux/panic_notifier.h>
#else
#include <linux/kernel.h>
#endif

#ifndef EDGEDMA_HAVE_NLA_STRSCPY
/* 5.11 renamed nla_strlcpy(), which returned the source's length. */
static inline ssize_t nla_strscpy(char *dst, const struct nlattr *nla, size_t dstsize)
{
	size_t srclen = nla_strlcpy(dst, nla, dstsize);

	return srclen >= dstsize ? -E2BIG : srclen;
}
#endif

/*
 * vbin_printf()/bstr_printf() (CONFIG_BINARY_PRINTF, which tracing selects:
 * every distribution kernel has it): a finding's sentence is kept as
 * arguments in hook context and made into text later. Without it, the
 * sentence is formatted where the finding is made.
 */
#ifdef CONFIG_BINARY_PRINTF
#define EDGEDMA_DEFERRED_SENTENCES	true
#else
#define EDGEDMA_DEFERRED_SENTENCES	false
static inline int vbin_printf(u32 *bin_buf, size_t size, const char *fmt, va_list args)
{
	return INT_MAX;
}

static inline int bstr_printf(char *buf, size_t size, const char *fmt, const u32 *bin_buf)
{
	return 0;
}
#endif

/*
 * Whether interrupts were off in the context a probe interrupted: a kprobe
 * handler runs in an exception (arm64: with interrupts masked), so its own
 * state says nothing about the caller's. An architecture difference.
 */
static inline bool edgedma_regs_irqs_off(struct pt_regs *regs)
{
#if defined(CONFIG_X86)
	return regs_irqs_disabled(regs);
#elif defined(CONFIG_ARM64)
	return !interrupts_enabled(regs);
#else
	return false;
#endif
}

/* A stack trace, where the kernel keeps the means (CONFIG_STACKTRACE). */
#ifdef CONFIG_STACKTRACE
#include <linux/stacktrace.h>
#define edgedma_stack_trace_save(entries, size, skip) \
	stack_trace_save(entries, size, skip)
#else
static inline unsigned int edgedma_stack_trace_save(unsigned long *entries,
						    unsigned int size,
						    unsigned int skip)
{
	return 0;
}
#endif

/*
 * Where the dump start callback has no extack (6.1), an error it returns
 * reaches userspace without its message; dumps then refuse in their first
 * dumpit call, whose error and extack arrive in NLMSG_DONE.
 */
#ifdef EDGEDMA_HAVE_DUMP_START_EXTACK
#define EDGEDMA_DUMP_START_HAS_EXTACK	true
#else
#define EDGEDMA_DUMP_START_HAS_EXTACK	false
#endif

/*
 * 6.2 split genetlink operations into do and dump halves; pre_doit() gets
 * the split form from then on.
 */
#ifdef EDGEDMA_HAVE_GENL_SPLIT_OPS
typedef struct genl_split_ops edgedma_genl_ops_t;

/* The attributes of a dump request, validated against the op's policy. */
static inline const struct nlattr *const *
edgedma_genl_dumpit_attrs(const struct genl_dumpit_info *info)
{
	return (const struct nlattr *const *)info->info.attrs;
}
#else
typedef struct genl_ops edgedma_genl_ops_t;

static inline const struct nlattr *const *
edgedma_genl_dumpit_attrs(const struct genl_dumpit_info *info)
{
	return (const struct nlattr *const *)info->attrs;
}
#endif

/*
 * Until 5.16 dma_alloc_noncoherent()/dma_free_noncoherent() were functions
 * of their own (hooked in kprobe mode) that went through dma_alloc_pages()/
 * dma_free_pages() (hooked as well) unless the device's dma_map_ops had
 * alloc_noncoherent/free_noncoherent: only the latter calls are theirs to
 * record, or a buffer would be recorded twice.
 */
#ifdef EDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN
#include <linux/dma-map-ops.h>

static inline bool edgedma_noncoherent_through_ops(struct device *dev, bool alloc)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);

	return ops && (alloc ? ops->alloc_noncoherent != NULL : ops->free_noncoherent != NULL);
}
#endif

/*
 * The multicast groups carry kernel addresses: CAP_SYS_ADMIN only. Where
 * the kernel has the group flag (or the stable kernels' bit field) it
 * refuses the join itself; elsewhere edgedma_compat_multicast_admin() sends
 * only to sockets whose opener had CAP_SYS_ADMIN (compat.c), and a kernel
 * with neither cannot build. EDGEDMA_MCGRP_ADMIN goes in the group's
 * initializer.
 */
#if defined(EDGEDMA_HAVE_GENL_MCAST_CAP_SYS_ADMIN)
#define EDGEDMA_MCGRP_ADMIN		.flags = GENL_MCAST_CAP_SYS_ADMIN
#define EDGEDMA_MCGRP_JOIN_REFUSED
#elif defined(EDGEDMA_HAVE_GENL_MCGRP_CAP_SYS_ADMIN_BIT)
#define EDGEDMA_MCGRP_ADMIN		.cap_sys_admin = 1
#define EDGEDMA_MCGRP_JOIN_REFUSED
#else
#define EDGEDMA_MCGRP_ADMIN		.flags = 0
#ifndef EDGEDMA_HAVE_NETLINK_BROADCAST_FILTERED
#error "this kernel can neither restrict netlink multicast groups nor filter their members"
#endif
#endif
/* Multicast @msg to @family's group number @group (process context). */
void edgedma_compat_multicast_admin(const struct genl_family *family,
				    struct sk_buff *msg, unsigned int group);

/*
 * Return addresses as they sit on the stack, or as a function's own return
 * address: arm64 with pointer authentication keeps them signed in the top
 * bits, where stack traces give them stripped. 6.4 named the helper
 * ptrauth_strip_kernel_insn_pac(); before, ptrauth_strip_insn_pac() (5.10
 * on). Tracepoint mode (6.12 on) and ops mode (5.10 to 6.11) read them.
 */
#if defined(EDGEDMA_HAVE_PTRAUTH_STRIP_KERNEL_INSN_PAC)
#include <asm/compiler.h>
#define edgedma_strip_code_pointer(ptr)	ptrauth_strip_kernel_insn_pac(ptr)
#elif defined(EDGEDMA_HAVE_PTRAUTH_STRIP_INSN_PAC)
#include <asm/pointer_auth.h>
#define edgedma_strip_code_pointer(ptr)	ptrauth_strip_insn_pac(ptr)
#else
#define edgedma_strip_code_pointer(ptr)	(ptr)
#endif

/*
 * compat.c: what the module needs from the kernel that is not exported.
 * Looked up once at load through kallsyms; absent pieces turn the checks
 * that need them off rather than failing the load.
 */
int edgedma_compat_init(void);
/*
 * The function @addr is in, from kallsyms ("name+0xOFF/0xSIZE [module]"):
 * its name in @name (KSYM_SYMBOL_LEN bytes), its start and size, and
 * whether it is a module's. False where kallsyms does not know it.
 */
bool edgedma_function_at(unsigned long addr, char *name, unsigned long *start,
			 unsigned long *size, bool *in_module);
/* [start, end) of a kernel function by name (kallsyms); process context. */
bool edgedma_function_range(const char *name, unsigned long *start,
			    unsigned long *end);
/*
 * Until 5.14 (kretprobe_find_ret_addr()) the kernel's unwinders did not
 * put a kretprobed function's return address back in a stack trace: a
 * trace taken in a return handler has the kretprobe trampoline where the
 * caller's frame would be. arm64's trace goes on past it (the caller's
 * callers); x86_64's ends there, and the rest is unwound again from the
 * caller with the return handler's registers (ORC).
 */
#ifdef EDGEDMA_HAVE_UNWIND_PAST_KRETPROBE
static inline bool edgedma_in_kretprobe_trampoline(unsigned long addr)
{
	return false;
}

static inline unsigned int edgedma_unwind_from_return(struct pt_regs *regs,
						      unsigned long caller,
						      u64 *chain,
						      unsigned int size)
{
	return 0;
}
#else
bool edgedma_in_kretprobe_trampoline(unsigned long addr);
/* The frames from @caller outwards (the caller first); 0 if none. */
unsigned int edgedma_unwind_from_return(struct pt_regs *regs,
					unsigned long caller, u64 *chain,
					unsigned int size);
#endif

/* Kernel text or read-only data of the kernel image. */
extern u64 edgedma_text_start, edgedma_text_end;
extern u64 edgedma_rodata_start, edgedma_rodata_end;

static inline bool edgedma_overlaps(u64 phys, u64 size, u64 start, u64 end)
{
	return end && phys < end && phys + size > start;
}

/* Inline: every map asks. */
static inline bool edgedma_phys_in_kernel_rodata(u64 phys, u64 size)
{
	return edgedma_overlaps(phys, size, edgedma_text_start, edgedma_text_end) ||
	       edgedma_overlaps(phys, size, edgedma_rodata_start, edgedma_rodata_end);
}
/*
 * The physical address behind a DMA address on the direct (no IOMMU)
 * path; ~0ULL where the device has a DMA range map, which only the
 * kernel's own unexported helper can translate.
 */
u64 edgedma_direct_dma_to_phys(struct device *dev, u64 dma_addr);

/*
 * Whether the hooks may ask @domain's driver for a translation with
 * interrupts off. Always on kernels where spinlock_t spins; on PREEMPT_RT,
 * where it sleeps, only for drivers known to walk their page tables
 * without one (compat.c). Hook context.
 */
struct iommu_domain;
bool edgedma_iommu_translate_in_hook(struct iommu_domain *domain);

/*
 * 6.11 made dma_sync_single_for_cpu() and the three other syncs inline
 * wrappers that return at once for devices needing no sync
 * (dev->dma_skip_sync); the exported functions behind them, which both
 * hook modes see, are __dma_sync_*(), and exist only with
 * CONFIG_DMA_NEED_SYNC. Before 6.11 the public names were the functions.
 * EDGEDMA_HAVE_DMA_SYNC_HOOKS says whether there is anything to hook.
 */
#ifdef EDGEDMA_HAVE_DMA_SYNC_WRAPPERS
#ifdef CONFIG_DMA_NEED_SYNC
#define EDGEDMA_HAVE_DMA_SYNC_HOOKS
#define edgedma_dma_sync_single_for_cpu		__dma_sync_single_for_cpu
#define edgedma_dma_sync_single_for_device	__dma_sync_single_for_device
#define edgedma_dma_sync_sg_for_cpu		__dma_sync_sg_for_cpu
#define edgedma_dma_sync_sg_for_device		__dma_sync_sg_for_device
#endif
#else
#define EDGEDMA_HAVE_DMA_SYNC_HOOKS
#define edgedma_dma_sync_single_for_cpu		dma_sync_single_for_cpu
#define edgedma_dma_sync_single_for_device	dma_sync_single_for_device
#define edgedma_dma_sync_sg_for_cpu		dma_sync_sg_for_cpu
#define edgedma_dma_sync_sg_for_device		dma_sync_sg_for_device
#endif

/*
 * 6.11+: whether the DMA core skips @dev's syncs (dev->dma_skip_sync), and
 * turning that off or back on. Kernels without the flag never skip a sync.
 * The flag is a bitfield, written as the DMA core itself writes it on its
 * hot path (dma_reset_need_sync()): only when it changes.
 */
#if defined(EDGEDMA_HAVE_DMA_SKIP_SYNC) && defined(CONFIG_DMA_NEED_SYNC)
#define EDGEDMA_HAVE_SYNC_SKIPPING	1
static inline bool edgedma_dev_skips_sync(const struct device *dev)
{
	return dev->dma_skip_sync;
}

static inline void edgedma_dev_set_skip_sync(struct device *dev, bool skip)
{
	if (dev->dma_skip_sync != skip)
		dev->dma_skip_sync = skip;
}
#else
#define EDGEDMA_HAVE_SYNC_SKIPPING	0
static inline bool edgedma_dev_skips_sync(const struct device *dev)
{
	return false;
}

static inline void edgedma_dev_set_skip_sync(struct device *dev, bool skip) { }
#endif

#ifdef CONFIG_KRETPROBES
/*
 * Where a kretprobed function returns to. 5.19 moved kretprobes onto
 * rethook on some architectures and added get_kretprobe_retaddr() to hide
 * where the address is kept.
 */
static inline unsigned long
edgedma_kretprobe_return_address(struct kretprobe_instance *ri)
{
#ifdef EDGEDMA_HAVE_GET_KRETPROBE_RETADDR
	return get_kretprobe_retaddr(ri);
#else
	return (unsigned long)ri->ret_addr;
#endif
}
#else
/* No kretprobes: nothing registers a handler that would ask. */
static inline unsigned long
edgedma_kretprobe_return_address(struct kretprobe_instance *ri)
{
	return 0;
}
#endif

/*
 * Kprobe mode hooks the entries of the functions whose result it does not
 * need (unmaps, frees, syncs) through ftrace where the kernel has a
 * dynamic ftrace site with registers or arguments: a call from the
 * function's first instructions into the callback, where a kprobe takes a
 * breakpoint exception and steps the displaced instruction (arm64), or
 * goes through the kprobe layer on top of ftrace (x86_64). How the
 * callback reaches the arguments changed twice:
 * - 5.11: struct ftrace_regs in place of pt_regs, and callbacks ask for
 *   recursion protection (FTRACE_OPS_FL_RECURSION) where before they had
 *   it unless they opted out (FTRACE_OPS_FL_RECURSION_SAFE);
 * - 6.2 on arm64, 6.x on x86_64: ftrace_regs_get_argument(), the arguments
 *   without saving every register.
 * The protection also keeps preemption off around the callback.
 */
#if defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)
#define EDGEDMA_HAVE_FTRACE_ENTRY_HOOKS
#include <linux/ftrace.h>

#ifdef EDGEDMA_HAVE_FTRACE_OPS_FL_RECURSION
#define EDGEDMA_FTRACE_RECURSION	FTRACE_OPS_FL_RECURSION
#else
#define EDGEDMA_FTRACE_RECURSION	0
#endif

#if defined(EDGEDMA_HAVE_FTRACE_REGS_GET_ARGUMENT)
typedef struct ftrace_regs edgedma_ftrace_regs_t;
#define EDGEDMA_FTRACE_OPS_FLAGS	EDGEDMA_FTRACE_RECURSION
#define edgedma_ftrace_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
#elif defined(EDGEDMA_HAVE_FTRACE_REGS)
typedef struct ftrace_regs edgedma_ftrace_regs_t;
#define EDGEDMA_FTRACE_OPS_FLAGS	(FTRACE_OPS_FL_SAVE_REGS | EDGEDMA_FTRACE_RECURSION)
/* Never NULL: FTRACE_OPS_FL_SAVE_REGS saved them all. */
#define edgedma_ftrace_arg(fregs, n)	regs_get_kernel_argument(ftrace_get_regs(fregs), n)
#else
typedef struct pt_regs edgedma_ftrace_regs_t;
#define EDGEDMA_FTRACE_OPS_FLAGS	(FTRACE_OPS_FL_SAVE_REGS | EDGEDMA_FTRACE_RECURSION)
#define edgedma_ftrace_arg(regs, n)	regs_get_kernel_argument(regs, n)
#endif

/*
 * Adds the ftrace site of the kernel function @name to @ops' filter, and
 * gives where the function starts (its site is in its first 16 bytes):
 * -ENOENT when kallsyms has no such function, -EINVAL when it has no
 * ftrace site (notrace, or ftrace off). Process context.
 */
int edgedma_ftrace_filter_function(struct ftrace_ops *ops, const char *name,
				   unsigned long *start);
/* Takes that site out of @ops' filter again (@start as the filter gave). */
void edgedma_ftrace_unfilter_function(struct ftrace_ops *ops, unsigned long start);
/*
 * Frees what the filter holds, on an ops not registered (or no more):
 * 5.10 does not export ftrace_free_filter(); a reset to the empty filter
 * frees the same on every kernel.
 */
static inline void edgedma_ftrace_filter_clear(struct ftrace_ops *ops)
{
	ftrace_set_filter(ops, NULL, 0, 1);
}
#endif

/*
 * The return address of a function whose kprobe fired at its entry, before
 * the function touched the stack or the link register: where the caller
 * resumes. It sits where the kernel's own kretprobes read it from: the top
 * of the stack on x86_64, the link register on arm64. 0 (unknown) on other
 * architectures.
 */
static inline unsigned long
edgedma_kprobe_entry_return_address(struct pt_regs *regs)
{
#if defined(CONFIG_X86_64)
	return *(unsigned long *)kernel_stack_pointer(regs);
#elif defined(CONFIG_ARM64)
	return procedure_link_pointer(regs);
#else
	return 0;
#endif
}

/*
 * Whether @dev's maps can be bounced at all: swiotlb has a pool for it with
 * slabs in it (the direct path and iommu-dma bounce only through swiotlb,
 * and a machine whose memory every device reaches sets none up). Any
 * context; read at each call, as a late pool may come.
 */
#if !defined(CONFIG_SWIOTLB)
static inline bool edgedma_swiotlb_active(struct device *dev)
{
	return false;
}
#elif defined(EDGEDMA_HAVE_SWIOTLB_GLOBAL_POOL)
/* Until 5.15: the global pool's bounds, found through kallsyms (compat.c). */
bool edgedma_swiotlb_active(struct device *dev);
#else
/* is_swiotlb_active()'s test, inline: every map asks. */
static inline bool edgedma_swiotlb_active(struct device *dev)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;

	return mem && READ_ONCE(mem->nslabs);
}
#endif

/* Whether @phys lies in a swiotlb bounce pool of @dev. Any context. */
#if !defined(CONFIG_SWIOTLB)
static inline bool edgedma_is_swiotlb(struct device *dev, phys_addr_t phys)
{
	return false;
}
#elif defined(EDGEDMA_HAVE_SWIOTLB_FIND_POOL)
/*
 * The default pool only: the pools SWIOTLB_DYNAMIC adds are found by a
 * function modules cannot call (Debian builds without it).
 */
static inline bool edgedma_is_swiotlb(struct device *dev, phys_addr_t phys)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;

	return mem && phys >= mem->defpool.start && phys < mem->defpool.end;
}
#elif defined(EDGEDMA_HAVE_SWIOTLB_GLOBAL_POOL)
/* Until 5.15: the global pool's bounds, found through kallsyms (compat.c). */
bool edgedma_is_swiotlb(struct device *dev, phys_addr_t phys);
#else
static inline bool edgedma_is_swiotlb(struct device *dev, phys_addr_t phys)
{
	return is_swiotlb_buffer(dev, phys);
}
#endif

/*
 * An extack message naming what was wrong, with the bad attribute marked.
 * 6.2 gave extack a buffer for formatted messages (NL_SET_ERR_MSG_FMT);
 * before, only a constant message fits, and the attribute's offset says
 * which one it was.
 */
#ifdef NL_SET_ERR_MSG_FMT
#define edgedma_extack_attr_fmt(extack, attr, fallback, fmt, ...)	\
	do {								\
		NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__);		\
		NL_SET_BAD_ATTR(extack, attr);				\
	} while (0)
#else
#define edgedma_extack_attr_fmt(extack, attr, fallback, fmt, ...)	\
	NL_SET_ERR_MSG_ATTR(extack, attr, fallback)
#endif

/*
 * Ops mode (hook_ops.c). Until 5.13 a dma_map_ops map_sg returned 0 for
 * failure (the core BUG()s on a negative count); since, a negative errno,
 * which dma_map_sgtable() passes on (and which became an exported
 * function then).
 */
#ifdef EDGEDMA_HAVE_DMA_MAP_SG_ERRNO
static inline int edgedma_map_sg_failed(void) { return -EIO; }
#else
static inline int edgedma_map_sg_failed(void) { return 0; }
#endif

/*
 * 6.1 (DMA_F_PCI_P2PDMA_SUPPORTED): with a table set, the core asks the
 * table's flags whether PCI peer-to-peer DMA works; without one (direct)
 * it does.
 */
#ifdef EDGEDMA_HAVE_DMA_F_PCI_P2PDMA
static inline void edgedma_dma_ops_set_p2pdma(struct dma_map_ops *ops)
{
	ops->flags |= DMA_F_PCI_P2PDMA_SUPPORTED;
}
#else
static inline void edgedma_dma_ops_set_p2pdma(struct dma_map_ops *ops) { }
#endif

/*
 * The DMA state of a device that the bus set once, when it configured the
 * device's DMA (of_dma_configure, acpi_dma_configure): whether it snoops
 * the CPU's caches, and (5.15 on) its swiotlb pool, a restricted-dma-pool
 * of its own or the default one.
 */
static inline void edgedma_shadow_copy_dma_state(struct device *shadow,
						 const struct device *dev)
{
#if defined(CONFIG_ARCH_HAS_SYNC_DMA_FOR_DEVICE) || \
	defined(CONFIG_ARCH_HAS_SYNC_DMA_FOR_CPU) || \
	defined(CONFIG_ARCH_HAS_SYNC_DMA_FOR_CPU_ALL)
	shadow->dma_coherent = dev->dma_coherent;
#endif
#if defined(CONFIG_SWIOTLB) && defined(EDGEDMA_HAVE_DEV_DMA_IO_TLB_MEM)
	shadow->dma_io_tlb_mem = dev->dma_io_tlb_mem;
#endif
}

/* 6.3: the driver core takes const struct bus_type everywhere. */
#ifdef EDGEDMA_HAVE_CONST_BUS_TYPE
typedef const struct bus_type edgedma_bus_type;
#else
typedef struct bus_type edgedma_bus_type;
#endif

#endif /* _EDGEDMA_COMPAT_H */
