# SPDX-License-Identifier: GPL-2.0
#
# Feature probes against the kernel tree the module is built for. Each probe
# names the kernel version that changed the API, so the reason stays known
# after the version stops mattering. Results are -D flags read by compat.h.

# A header file of the target tree exists.
edgedma_have_header = $(if $(wildcard $(srctree)/$(1) $(objtree)/$(1)),y)
# A header of the target tree matches an extended regular expression.
edgedma_header_has = $(shell grep -qsE '$(2)' $(srctree)/$(1) && echo y)

# The floor: per-command netlink policies (5.10). compat.h repeats the check
# for builds that bypass Kbuild's variables.
ifeq ($(shell [ $(VERSION) -gt 5 ] || [ $(VERSION) -eq 5 -a $(PATCHLEVEL) -ge 10 ] && echo ok),)
$(error edgedma needs Linux 5.10 or newer; $(KERNELRELEASE) is $(VERSION).$(PATCHLEVEL))
endif

# 6.2: struct genl_split_ops, passed to pre_doit.
ccflags-$(call edgedma_header_has,include/net/genetlink.h,struct genl_split_ops) += \
	-DEDGEDMA_HAVE_GENL_SPLIT_OPS

# After 6.1 (6.12 has it): the dump start callback gets the request's extack
# (netlink_dump_control.extack); before, an error it returns reaches
# userspace without its message.
ccflags-$(shell sed -n '/^struct netlink_dump_control {/,/^};/p' \
	$(srctree)/include/linux/netlink.h 2>/dev/null | grep -q netlink_ext_ack && echo y) += \
	-DEDGEDMA_HAVE_DUMP_START_EXTACK

# 6.12: the dma trace events (dma_map_page, ...), which exist only with
# CONFIG_TRACEPOINTS. Kbuild reads edgedma_hook_tracepoint to build
# hook_tracepoint.o only where tracepoint mode can work.
edgedma_dma_trace_events := $(call edgedma_have_header,include/trace/events/dma.h)
edgedma_hook_tracepoint := $(and $(edgedma_dma_trace_events),$(CONFIG_TRACEPOINTS),y)
ccflags-$(edgedma_hook_tracepoint) += -DEDGEDMA_HAVE_DMA_TRACE_EVENTS

# Kprobe mode: kretprobes on the map and allocation functions (KRETPROBES
# comes with KPROBES where the architecture has them).
edgedma_hook_kprobe := $(and $(CONFIG_KPROBES),$(CONFIG_KRETPROBES),y)

# Ops mode: edgedma's own dma_map_ops in dev->dma_ops, which exists only
# with CONFIG_DMA_OPS (selected with IOMMU_DMA until 6.12, where arm64 and
# x86_64 stopped selecting it: their IOMMU devices are called directly).
edgedma_hook_ops := $(and $(CONFIG_DMA_OPS),y)
ccflags-$(edgedma_hook_ops) += -DEDGEDMA_HAVE_HOOK_OPS

# 5.13: a dma_map_ops map_sg returns a negative errno on failure, not 0;
# dma_map_sgtable() became an exported function passing it on.
ccflags-$(call edgedma_header_has,include/linux/dma-mapping.h,^int dma_map_sgtable) += \
	-DEDGEDMA_HAVE_DMA_MAP_SG_ERRNO

# Until 5.11: dma_map_ops had alloc_noncoherent and free_noncoherent.
ccflags-$(call edgedma_header_has,include/linux/dma-map-ops.h,.[*]alloc_noncoherent.) += \
	-DEDGEDMA_HAVE_DMA_OPS_ALLOC_NONCOHERENT

# 6.1: dma_map_ops flags, DMA_F_PCI_P2PDMA_SUPPORTED.
ccflags-$(call edgedma_header_has,include/linux/dma-map-ops.h,define DMA_F_PCI_P2PDMA_SUPPORTED) += \
	-DEDGEDMA_HAVE_DMA_F_PCI_P2PDMA

# 5.15: struct device's dma_io_tlb_mem, the device's swiotlb pool.
ccflags-$(call edgedma_header_has,include/linux/device.h,dma_io_tlb_mem;) += \
	-DEDGEDMA_HAVE_DEV_DMA_IO_TLB_MEM

# 6.3: the driver core's functions take const struct bus_type.
ccflags-$(call edgedma_header_has,include/linux/device/bus.h,bus_register_notifier.const struct bus_type) += \
	-DEDGEDMA_HAVE_CONST_BUS_TYPE

# What the build says about them (Kbuild prints it).
edgedma_hook_modes_said := \
	tracepoint $(if $(edgedma_hook_tracepoint),yes,no ($(if $(edgedma_dma_trace_events),CONFIG_TRACEPOINTS is off,no dma trace events: they came in 6.12))), \
	kprobe $(if $(edgedma_hook_kprobe),yes,no ($(if $(CONFIG_KPROBES),CONFIG_KRETPROBES,CONFIG_KPROBES) is off)), \
	ops $(if $(edgedma_hook_ops),yes,no (CONFIG_DMA_OPS is off$(if $(edgedma_dma_trace_events),: 6.12 calls IOMMU devices directly)))

# 6.11: dma_sync_single_for_cpu() and the three other syncs became inline
# wrappers that skip devices needing no sync; the exported functions, the
# ones a kprobe can hook, are __dma_sync_*() since.
ccflags-$(call edgedma_header_has,include/linux/dma-mapping.h,void __dma_sync_single_for_cpu) += \
	-DEDGEDMA_HAVE_DMA_SYNC_WRAPPERS

# 5.19: get_kretprobe_retaddr(), when kretprobes moved onto rethook and the
# return address left struct kretprobe_instance on some architectures.
ccflags-$(call edgedma_header_has,include/linux/kprobes.h,get_kretprobe_retaddr) += \
	-DEDGEDMA_HAVE_GET_KRETPROBE_RETADDR

# 5.14: kretprobe_find_ret_addr(), with which the unwinders put a kretprobed
# function's return address back where the trampoline's stands in a stack
# trace. Before, a trace taken in a return handler shows the trampoline in
# the caller's place and (x86_64) ends there.
ccflags-$(call edgedma_header_has,include/linux/kprobes.h,kretprobe_find_ret_addr) += \
	-DEDGEDMA_HAVE_UNWIND_PAST_KRETPROBE

# 6.4: ptrauth_strip_kernel_insn_pac() (arm64), for return addresses read
# off the stack.
ccflags-$(call edgedma_header_has,arch/$(SRCARCH)/include/asm/compiler.h,define ptrauth_strip_kernel_insn_pac) += \
	-DEDGEDMA_HAVE_PTRAUTH_STRIP_KERNEL_INSN_PAC
# Before 6.4 (5.10 on): ptrauth_strip_insn_pac(), in asm/pointer_auth.h.
ccflags-$(call edgedma_header_has,arch/$(SRCARCH)/include/asm/pointer_auth.h,ptrauth_strip_insn_pac) += \
	-DEDGEDMA_HAVE_PTRAUTH_STRIP_INSN_PAC

# 6.7 (backported to the stable kernels, Debian's 6.1 among them):
# GENL_MCAST_CAP_SYS_ADMIN, a multicast group only CAP_SYS_ADMIN may join.
# The 5.10 and 5.15 stable kernels got it as a bit field of the group,
# cap_sys_admin (Debian's 5.10.223 has it).
ccflags-$(call edgedma_header_has,include/net/genetlink.h,GENL_MCAST_CAP_SYS_ADMIN) += \
	-DEDGEDMA_HAVE_GENL_MCAST_CAP_SYS_ADMIN
ccflags-$(call edgedma_header_has,include/net/genetlink.h,u8[[:space:]]+cap_sys_admin:1) += \
	-DEDGEDMA_HAVE_GENL_MCGRP_CAP_SYS_ADMIN_BIT

# Until 6.2: netlink_broadcast_filtered(), the fallback for kernels without
# the group flag above.
ccflags-$(call edgedma_header_has,include/linux/netlink.h,netlink_broadcast_filtered) += \
	-DEDGEDMA_HAVE_NETLINK_BROADCAST_FILTERED

# 6.11: struct device's dma_skip_sync (under CONFIG_DMA_NEED_SYNC): the DMA
# core's inline sync wrappers return at once for a device that has it set,
# so no hook sees those syncs unless it is kept clear (sync_visible.c).
ccflags-$(call edgedma_header_has,include/linux/device.h,dma_skip_sync:1) += \
	-DEDGEDMA_HAVE_DMA_SKIP_SYNC

# 6.12: is_swiotlb_buffer() gave way to swiotlb_find_pool(), which with
# SWIOTLB_DYNAMIC calls the unexported __swiotlb_find_pool().
ccflags-$(call edgedma_header_has,include/linux/swiotlb.h,swiotlb_find_pool.struct device) += \
	-DEDGEDMA_HAVE_SWIOTLB_FIND_POOL

# Until 5.15: one global swiotlb pool, io_tlb_start to io_tlb_end, which
# modules cannot read (not exported); is_swiotlb_buffer() took the address
# only. compat.c finds the two variables through kallsyms at load.
ccflags-$(call edgedma_header_has,include/linux/swiotlb.h,bool is_swiotlb_buffer.phys_addr_t) += \
	-DEDGEDMA_HAVE_SWIOTLB_GLOBAL_POOL

# 5.11: nla_strlcpy() became nla_strscpy() (returning -E2BIG on truncation).
ccflags-$(call edgedma_header_has,include/net/netlink.h,nla_strscpy) += \
	-DEDGEDMA_HAVE_NLA_STRSCPY

# 5.14: the panic notifier list moved out of kernel.h into its own header.
ccflags-$(call edgedma_have_header,include/linux/panic_notifier.h) += \
	-DEDGEDMA_HAVE_PANIC_NOTIFIER_H

# Until 5.16: dma_alloc_noncoherent() and dma_free_noncoherent() were
# functions of their own that used the device's ops->alloc_noncoherent
# (dma-iommu's) and fell back to dma_alloc_pages()/dma_free_pages() without
# one; later they are inline wrappers around those two.
ccflags-$(call edgedma_header_has,include/linux/dma-mapping.h,^void .dma_alloc_noncoherent.struct device) += \
	-DEDGEDMA_HAVE_DMA_ALLOC_NONCOHERENT_FN

# Kprobe mode's entry hooks through ftrace (ftrace_ops on the function's
# ftrace site): how a callback reaches the arguments changed twice.
# 5.11: callbacks get struct ftrace_regs, not pt_regs, and
# FTRACE_OPS_FL_RECURSION_SAFE gave way to FTRACE_OPS_FL_RECURSION (asking
# for the protection rather than opting out of it).
ccflags-$(call edgedma_header_has,include/linux/ftrace.h,^struct ftrace_regs) += \
	-DEDGEDMA_HAVE_FTRACE_REGS
ccflags-$(call edgedma_header_has,include/linux/ftrace.h,FTRACE_OPS_FL_RECURSION[[:space:]]*=) += \
	-DEDGEDMA_HAVE_FTRACE_OPS_FL_RECURSION
# 6.2 on arm64 (where ftrace saves arguments only) and 6.x elsewhere:
# ftrace_regs_get_argument(), the arguments without saving every register.
ccflags-$(or $(call edgedma_header_has,include/linux/ftrace_regs.h,define ftrace_regs_get_argument),$(call edgedma_header_has,arch/$(SRCARCH)/include/asm/ftrace.h,ftrace_regs_get_argument)) += \
	-DEDGEDMA_HAVE_FTRACE_REGS_GET_ARGUMENT
