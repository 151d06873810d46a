# SPDX-License-Identifier: GPL-2.0
#
# edgedma: the one entry point.
#
#   make               module for the running kernel (or KDIR=...), library, tools
#   make check         install what is missing, build everything, run every test
#   make demo          boot x86_64 and arm64 guests and show edgedma at work
#   make fuzz          the libFuzzer targets, FUZZ_SECONDS (600) each
#   make fuzz-module   the module's netlink fuzzer in the guests, FUZZ_MESSAGES per pass
#   make bench         the benchmarks: writes Documentation/benchmarks.rst
#   make soak          edgedma reloaded 200 times under DMA and netlink traffic
#   make traffic-soak  a traffic scenario in two guests at once, 10 rounds
#   make modules-all   the module (and test drivers) for every test kernel
#   make vendor-kernels  build the x86_64 kernel without kprobes and its module
#   make guest-tools   static edgedma tool and kselftests for the guests
#   make deps          install packages and fetch kernels (only what is missing)
#   make install       library, tool, manual pages, module (DESTDIR=, PREFIX=/usr/local)
#   make dkms-source   the module's sources in /usr/src/edgedma-VERSION for dkms
#   make clean         remove build/ except the downloaded kernels, sysroot, bpftrace roots
#
# Everything is built under build/ (BUILD=...).

VERSION := $(shell cat VERSION)
BUILD ?= $(CURDIR)/build
JOBS ?= $(shell nproc)

# Guest kernels: ARCH-KERNEL, fetched from Debian by tools/vm/fetch-kernels.
TARGETS := x86_64-6.1 x86_64-6.12 arm64-6.1 arm64-6.12 arm64-6.12-16k arm64-6.12-rt
# Debian 11's 5.10, the kernel of most vendor BSPs (Documentation/bsp.rst).
TARGETS += x86_64-5.10 arm64-5.10
# The debug lane: 6.12 with KASAN, lockdep and kmemleak, built from Debian's
# linux-source-6.12 by tools/vm/build-kernel debug (make deps), not fetched.
TARGETS += x86_64-6.12-debug
# The i.MX-like lane: 6.1 with no kprobes, ftrace or tracepoints (ops mode),
# built from linux-source-6.1 by tools/vm/build-kernel imx (make deps).
TARGETS += arm64-6.1-imx
# The Rockchip/Jetson-like lane: 6.1 with no kprobes, ftrace and tracepoints
# on (ops mode; trigger hooks through ftrace), built likewise (make deps).
TARGETS += arm64-6.1-rockchip
GUEST_ARCHES := x86_64 arm64
# The benchmarks' kernel: 6.1 with CONFIG_DMA_API_DEBUG, built from
# linux-source-6.1 by tools/vm/build-kernel on demand (make bench), not by
# make deps, and not in TARGETS (modules-all and make check leave it out).
BENCH_KERNEL := x86_64-6.1-dma-debug
# The other kernel configured like the vendors' (Documentation/bsp.rst):
# x86_64 without kprobes; built from linux-source-6.1 by
# tools/vm/build-kernel on demand (make vendor-kernels, or the first
# edgedma-vm --kernel 6.1-nokprobes), not by make deps or make check. The
# i.MX- and Rockchip-like ones are in TARGETS.
VENDOR_KERNELS := x86_64-6.1-nokprobes

arch_of = $(firstword $(subst -, ,$(1)))
kbuild_arch = $(if $(filter arm64,$(call arch_of,$(1))),ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
cross_cc = $(if $(filter arm64,$(1)),aarch64-linux-gnu-gcc,gcc)
# Debian 11's kernel headers name gcc-10, which Debian 12 does not have: its
# gcc 12 builds modules that 5.10 loads (vermagic names no compiler).
kbuild_cc = $(if $(filter %-5.10,$(1)),CC=$(call cross_cc,$(call arch_of,$(1))))

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build

all: userspace module

# ---- the module -----------------------------------------------------------

module:
ifneq ($(KDIR),)
	$(MAKE) -C kmod KDIR=$(KDIR) EDGEDMA_VERSION=$(VERSION)
else ifneq ($(wildcard $(RUNNING_KDIR)/Makefile),)
	$(MAKE) -C kmod KDIR=$(RUNNING_KDIR) EDGEDMA_VERSION=$(VERSION)
else
	@echo "edgedma: no headers for the running kernel ($(RUNNING_KDIR));" \
	      "skipping the module. Use KDIR=... or 'make modules-all'."
endif

# A kernel built from source, on demand (a no-op when the cache matches its
# config fragments).
kernel-$(BENCH_KERNEL): kernel-x86_64-6.1-%:
	tools/vm/build-kernel $* $(BUILD)/kernels

# The bench kernel's modules build like the others', once it is built.
module-$(BENCH_KERNEL): kernel-$(BENCH_KERNEL)

# The vendor-like kernels and the module for each (make vendor-kernels).
VENDOR_KERNEL_RULES := $(addprefix kernel-,$(VENDOR_KERNELS))
$(VENDOR_KERNEL_RULES): kernel-%:
	tools/vm/build-kernel $(lastword $(subst -, ,$*)) $(BUILD)/kernels
$(addprefix module-,$(VENDOR_KERNELS)): module-%: kernel-%
vendor-kernels: $(addprefix module-,$(VENDOR_KERNELS))

# Kbuild writes objects beside the sources, so each target gets a tree of
# links to kmod/ (and tests/drivers/, bench/driver/) of its own.
MODULE_RULES := $(addprefix module-,$(TARGETS))
modules-all: $(MODULE_RULES)

$(MODULE_RULES) module-$(BENCH_KERNEL) $(addprefix module-,$(VENDOR_KERNELS)): module-%:
	@test -f $(BUILD)/kernels/$*/.complete || \
		{ echo "edgedma: no kernel $* in $(BUILD)/kernels (make deps)"; exit 1; }
	@mkdir -p $(BUILD)/kmod/$* $(BUILD)/test-drivers/$* $(BUILD)/bench-driver/$*
	@cp -rs --remove-destination $(CURDIR)/kmod/. $(BUILD)/kmod/$*/
	@cp -rs --remove-destination $(CURDIR)/tests/drivers/. $(BUILD)/test-drivers/$*/
	@cp -rs --remove-destination $(CURDIR)/bench/driver/. $(BUILD)/bench-driver/$*/
	$(MAKE) -s -C $(BUILD)/kernels/$*/kdir M=$(BUILD)/kmod/$* $(call kbuild_arch,$*) \
		$(call kbuild_cc,$*) EDGEDMA_VERSION=$(VERSION) modules
	$(MAKE) -s -C $(BUILD)/kernels/$*/kdir M=$(BUILD)/test-drivers/$* $(call kbuild_arch,$*) \
		$(call kbuild_cc,$*) modules
	$(MAKE) -s -C $(BUILD)/kernels/$*/kdir M=$(BUILD)/bench-driver/$* $(call kbuild_arch,$*) \
		$(call kbuild_cc,$*) modules

# ---- userspace ------------------------------------------------------------

userspace:
	cmake -S . -B $(BUILD)/host -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)/host -j$(JOBS)

# Static programs the guests run: the edgedma tool and the kselftests.
GUEST_RULES := $(addprefix guest-tools-,$(GUEST_ARCHES))
guest-tools: $(GUEST_RULES)

# The x86_64 guests' tool and edgedma-bench-ingest are the host build's own
# objects linked static (EDGEDMA_STATIC_TOOLS, in BUILD/host/static): no
# second build. The arm64 ones are a cross build of their own.
guest-programs-x86_64:
	cmake -S . -B $(BUILD)/host -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEDGEDMA_STATIC_TOOLS=ON >/dev/null
	cmake --build $(BUILD)/host -j$(JOBS) --target edgedma-static edgedma-bench-ingest-static
guest-programs-arm64:
	cmake -S . -B $(BUILD)/guest-arm64 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DEDGEDMA_STATIC=ON -DEDGEDMA_BUILD_TESTS=OFF \
		-DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
		-DEDGEDMA_SYSROOT=$(BUILD)/sysroot-arm64 >/dev/null
	cmake --build $(BUILD)/guest-arm64 -j$(JOBS)
guest-tool-x86_64 := $(BUILD)/host/static/edgedma
guest-ingest-x86_64 := $(BUILD)/host/static/edgedma-bench-ingest
guest-tool-arm64 := $(BUILD)/guest-arm64/tools/edgedma/edgedma
guest-ingest-arm64 := $(BUILD)/guest-arm64/bench/ingest/edgedma-bench-ingest

$(GUEST_RULES): guest-tools-%: guest-programs-%
	$(MAKE) -s -C tests/kselftest O=$(BUILD)/guest/$*/kselftest CC=$(call cross_cc,$*)
	@mkdir -p $(BUILD)/guest/$*/bin
	@cp $(guest-tool-$*) $(guest-ingest-$*) $(BUILD)/guest/$*/bin/
	@cp tests/guest/run-suite $(BUILD)/guest/$*/bin/edgedma-run-suite
	@cp tests/guest/kmemleak-check $(BUILD)/guest/$*/bin/edgedma-kmemleak-check
	@cp $(BUILD)/guest/$*/kselftest/helpers/edgedma-as-nobody \
		$(BUILD)/guest/$*/kselftest/helpers/edgedma-netlink-fuzz $(BUILD)/guest/$*/bin/
	@# The shipped profiles as blobs: the guests have no dtc.
	@mkdir -p $(BUILD)/guest/$*/profiles
	@for p in dts/profiles/*.dts; do \
		dtc -q -I dts -O dtb -o $(BUILD)/guest/$*/profiles/$$(basename $$p .dts).dtb $$p || exit 1; \
	done

# ---- installing -----------------------------------------------------------
# make install [DESTDIR=...] [PREFIX=/usr/local] [KDIR=...]: the library with
# its headers, pkg-config file and CMake package, the edgedma tool, its
# manual pages and bash completion (cmake --install), and the module when
# `make` or `make module` built one (Kbuild's modules_install, into
# /lib/modules/RELEASE/extra). KMOD_DIR=$(BUILD)/kmod/TARGET with
# KDIR=$(BUILD)/kernels/TARGET/kdir installs one that `make modules-all`
# built instead. Documentation/install.rst has the details.
PREFIX ?= /usr/local
INSTALL_ROOT := $(abspath $(DESTDIR))
KMOD_DIR ?= $(CURDIR)/kmod
MODULE_KDIR := $(or $(KDIR),$(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR)))

install: install-userspace install-module

install-userspace: userspace
	DESTDIR=$(INSTALL_ROOT) cmake --install $(BUILD)/host --prefix $(PREFIX)
	@if [ -z "$(INSTALL_ROOT)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi

# The module goes in for the release the kernel itself names (UTS_RELEASE),
# which must be the one it was built for; Debian's 6.1 headers hold another
# one in include/config/kernel.release, hence KERNELRELEASE=.
install-module:
ifeq ($(wildcard $(KMOD_DIR)/edgedma.ko),)
	@echo "edgedma: no module built (make module [KDIR=...]); not installing one"
else ifeq ($(MODULE_KDIR),)
	@echo "edgedma: $(KMOD_DIR)/edgedma.ko is there but not the headers it was" \
	      "built with; pass KDIR=... to install it"
else
	@release=$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		$(MODULE_KDIR)/include/generated/utsrelease.h) && \
	 built=$$(modinfo -F vermagic $(KMOD_DIR)/edgedma.ko | cut -d' ' -f1) && \
	 if [ -z "$$release" ] || [ "$$built" != "$$release" ]; then \
		echo "edgedma: $(KMOD_DIR)/edgedma.ko is built for $$built, KDIR is" \
		     "'$$release'; build the module for the kernel to install it for"; exit 1; fi && \
	 echo "edgedma: installing the module for $$release" && \
	 $(MAKE) -C $(MODULE_KDIR) M=$(abspath $(KMOD_DIR)) KERNELRELEASE=$$release \
		INSTALL_MOD_PATH=$(INSTALL_ROOT) INSTALL_MOD_DIR=extra modules_install && \
	 if [ -z "$(INSTALL_ROOT)" ]; then depmod -a $$release; fi
endif

# The module's sources as dkms wants them: /usr/src/edgedma-VERSION with
# dkms.conf and VERSION. Then: dkms install edgedma/VERSION
DKMS_SOURCE := $(INSTALL_ROOT)/usr/src/edgedma-$(VERSION)
KMOD_SOURCES := Kbuild Makefile compat.mk include/uapi/linux/edgedma.h \
	$(filter-out %.mod.c,$(notdir $(wildcard kmod/*.c))) $(notdir $(wildcard kmod/*.h))

dkms-source:
	rm -rf $(DKMS_SOURCE)
	mkdir -p $(DKMS_SOURCE)
	cd kmod && cp --parents $(KMOD_SOURCES) $(DKMS_SOURCE)/
	echo $(VERSION) > $(DKMS_SOURCE)/VERSION
	sed 's/@VERSION@/$(VERSION)/' kmod/dkms.conf > $(DKMS_SOURCE)/dkms.conf
	@echo "edgedma: module source in $(DKMS_SOURCE); next: dkms install edgedma/$(VERSION)"

# ---- dependencies, tests, demo -------------------------------------------

deps:
	tools/install-deps $(BUILD)

# Built in a second make so that a fresh machine installs cmake and the
# compilers before anything needs them. The module trees build two at a time
# (each Kbuild run is mostly serial); cmake runs its own parallel builds.
build-all:
	$(MAKE) userspace
	$(MAKE) -j$(JOBS) modules-all
	$(MAKE) guest-tools

check:
	@$(MAKE) -s deps
	@$(MAKE) build-all
	tests/run-check --build $(BUILD)

# The libFuzzer targets of tests/fuzz, FUZZ_SECONDS each (make check runs
# them for 20 s); crashing inputs are kept in $(BUILD)/test-results.
FUZZ_SECONDS ?= 600
fuzz:
	tools/install-deps $(BUILD) --host-only
	tests/fuzz/run --build $(BUILD) --seconds $(FUZZ_SECONDS)

# The module's netlink fuzzer (tests/kselftest/netlink_fuzz.c) at length:
# FUZZ_MESSAGES malformed and mutated requests as root, as nobody and from a
# user namespace, in every test kernel but the debug one (make check runs
# 20000 per pass, 5000 on the debug kernel). FUZZ_SEED repeats a run.
FUZZ_MESSAGES ?= 1000000
FUZZ_KERNELS ?= x86_64:6.12 arm64:6.12 x86_64:6.1 arm64:6.1
fuzz-module:
	@$(MAKE) -s deps
	@$(MAKE) build-all
	for k in $(FUZZ_KERNELS); do \
		tools/edgedma-vm --arch $${k%%:*} --kernel $${k#*:} --timeout 14400 -- \
			edgedma-netlink-fuzz --messages $(FUZZ_MESSAGES) \
			$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) || exit 1; \
	done

# The benchmarks (Documentation/benchmarks.rst, not part of make check):
# every guest kernel on both paths, DMA-API debug, bpftrace, the host
# replay benchmark. BENCH_ARGS go to bench/run (e.g. BENCH_ARGS="--arch
# x86_64 --repeats 3"); the page and its JSON are rewritten at the end.
BENCH_ARGS ?=
bench:
	@$(MAKE) -s deps
	tools/install-deps $(BUILD) --bench
	@$(MAKE) build-all
	@$(MAKE) module-$(BENCH_KERNEL)
	bench/run --out $(BUILD)/bench/results.json $(BENCH_ARGS)
	bench/write-report $(BUILD)/bench/results.json

# The unload soak (not part of make check, which reloads 6 times per
# integration lane): edgedma unloaded and loaded SOAK_RELOADS times while
# the test driver maps in a loop and two processes send every netlink
# command, on x86_64 and arm64 6.12. A WARN, oops or failed unload fails it.
SOAK_RELOADS ?= 200
soak:
	@$(MAKE) -s deps
	@$(MAKE) build-all
	for arch in x86_64 arm64; do \
		tools/edgedma-vm --arch $$arch --kernel 6.12 --timeout 7200 -- sh -c \
			"EDGEDMA_RELOADS=$(SOAK_RELOADS) EDGEDMA_INTEGRATION_TESTS=reload_under_loop \
			 /host$(CURDIR)/tests/guest/integration-test" || exit 1; \
	done

# The traffic soak (not part of make check, which runs each traffic scenario
# once, two guests at a time): TRAFFIC_SOAK_ROUNDS rounds of two copies of
# the same traffic scenario at once, with edgedma, on TRAFFIC_SOAK_LANE.
# Two guests on a 2-core machine are what made the megasas frame-map hang
# show (1 guest in ~16); any failed run fails the soak, its serial log kept.
TRAFFIC_SOAK_ROUNDS ?= 10
TRAFFIC_SOAK_LANE ?= arm64-6.12+nc
TRAFFIC_SOAK_SCENARIO ?= real-drivers-traffic
traffic-soak:
	@$(MAKE) -s deps
	@$(MAKE) build-all
	@mkdir -p $(BUILD)/test-results
	@for i in $$(seq $(TRAFFIC_SOAK_ROUNDS)); do \
		pids=; \
		for copy in 1 2; do \
			tests/scenarios/run-all --lane $(TRAFFIC_SOAK_LANE) $(TRAFFIC_SOAK_SCENARIO) \
				> $(BUILD)/test-results/traffic-soak-$$copy.ktap 2>&1 & \
			pids="$$pids $$!"; \
		done; \
		failed=0; for pid in $$pids; do wait $$pid || failed=1; done; \
		if [ $$failed -ne 0 ]; then \
			grep -h "^not ok\|^  # " $(BUILD)/test-results/traffic-soak-?.ktap | grep -v "^  # loaded" | tail -40; \
			echo "traffic-soak: round $$i of $(TRAFFIC_SOAK_ROUNDS) failed ($(BUILD)/test-results/traffic-soak-?.ktap)"; \
			exit 1; \
		fi; \
		echo "traffic-soak: round $$i of $(TRAFFIC_SOAK_ROUNDS): both runs passed"; \
	done

demo:
	@$(MAKE) -s deps
	@$(MAKE) build-all
	tools/demo

clean:
	rm -rf $(BUILD)/host $(BUILD)/guest-* $(BUILD)/guest/*/bin $(BUILD)/guest/*/kselftest \
		$(BUILD)/kmod $(BUILD)/test-drivers $(BUILD)/bench-driver $(BUILD)/vm-runs
	$(MAKE) -s -C tests/kselftest clean O=$(BUILD)/guest/x86_64/kselftest || true

.PHONY: all module modules-all $(MODULE_RULES) kernel-$(BENCH_KERNEL) module-$(BENCH_KERNEL) vendor-kernels $(VENDOR_KERNEL_RULES) $(addprefix module-,$(VENDOR_KERNELS)) userspace guest-tools $(GUEST_RULES) \
	guest-programs-x86_64 guest-programs-arm64 \
	deps build-all check fuzz fuzz-module bench soak demo clean install install-userspace install-module dkms-source
