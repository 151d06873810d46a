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

# 6.12: the dma trace events (dma_map_page, ...). Kbuild also reads
# edgedma_dma_trace_events to build hook_tracepoint.o only where they exist.
edgedma_dma_trace_events := $(call edgedma_have_header,include/trace/events/dma.h)
ccflags-$(edgedma_dma_trace_events) += -DEDGEDMA_HAVE_DMA_TRACE_EVENTS

# 6.11: dma_sync_single_for_cpu() and the three other syncs became inline
# wrappers that skip devices needing no sync; the exported functions, the
# ones a kprobe can hook, are __dma_sync_*() since.
ccflags-$(call edgedma_header_has,include/linux/dma-mapping.h,void __dma_sync_single_for_cpu) += \
	-DEDGEDMA_HAVE_DMA_SYNC_WRAPPERS

# 5.19: get_kretprobe_retaddr(), when kretprobes moved onto rethook and the
# return address left struct kretprobe_instance on some architectures.
ccflags-$(call edgedma_header_has,include/linux/kprobes.h,get_kretprobe_retaddr) += \
	-DEDGEDMA_HAVE_GET_KRETPROBE_RETADDR

# 6.4: ptrauth_strip_kernel_insn_pac() (arm64), for return addresses read
# off the stack.
ccflags-$(call edgedma_header_has,arch/$(SRCARCH)/include/asm/compiler.h,define ptrauth_strip_kernel_insn_pac) += \
	-DEDGEDMA_HAVE_PTRAUTH_STRIP_KERNEL_INSN_PAC

# 6.7 (backported to the stable kernels, Debian's 6.1 among them):
# GENL_MCAST_CAP_SYS_ADMIN, a multicast group only CAP_SYS_ADMIN may join.
ccflags-$(call edgedma_header_has,include/net/genetlink.h,GENL_MCAST_CAP_SYS_ADMIN) += \
	-DEDGEDMA_HAVE_GENL_MCAST_CAP_SYS_ADMIN

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
