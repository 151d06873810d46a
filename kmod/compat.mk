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

# dma trace events (dma_map_page, ...) exist from 6.12 on.
ccflags-$(call edgedma_have_header,include/trace/events/dma.h) += \
	-DEDGEDMA_HAVE_DMA_TRACE_EVENTS
