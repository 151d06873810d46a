// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <edgedma/export.hpp>

namespace edgedma {

// The module's answer to GET_INFO: what it is and what this kernel offers.
struct Info {
	std::string module_version;
	std::string kernel_release; // as uname -r
	std::string arch;           // as uname -m
	std::uint32_t record_format = 0;
	std::uint32_t hook_modes = 0; // bitmask of enum edgedma_hook_mode
	std::uint32_t page_size = 0;     // bytes
	std::uint32_t cache_line = 0;    // the CPU's, cache_line_size(), bytes
	// dma_get_cache_alignment(): the least alignment the kernel gives DMA
	// buffers, bytes; 1 where the architecture keeps caches coherent.
	std::uint32_t dma_alignment = 0;
	// The enum edgedma_hook_mode in use; 0 when the module is not hooked.
	std::uint32_t hook_mode = 0;
	// Where the module catches IOMMU faults, comma-separated
	// ("dmar_fault", "arm_smmu_handle_evt", ...); "" when nowhere, absent
	// from older modules.
	std::optional<std::string> iommu_fault_hooks;
	// The device-tree node that configured the module (dts/bindings/
	// edgedma.yaml), with its policies applied and its children refused;
	// absent when none did.
	std::optional<std::string> dt_node;
	std::optional<std::uint32_t> dt_policies;
	std::optional<std::uint32_t> dt_refused;
	std::optional<std::uint32_t> dt_profiles; // absent from modules before profiles in the DT
	// API functions the hooks left out because this kernel has them only
	// as inline wrappers (dma_map_sgtable before 5.16), one line each:
	// "dma_map_sgtable: " and what that leaves unseen. Empty when none.
	std::vector<std::string> hooks_skipped;
	// Kprobe mode only (absent otherwise, and from older modules): the API
	// functions hooked with a kretprobe, and the entries (unmaps, frees,
	// syncs) hooked through ftrace and with kprobes.
	std::optional<std::uint32_t> hook_kretprobes;
	std::optional<std::uint32_t> hook_ftrace_entries;
	std::optional<std::uint32_t> hook_kprobe_entries;

	bool operator==(const Info &) const = default;
};

// The module's counters since it was loaded (GET_STATS).
struct Stats {
	std::uint64_t requests = 0; // netlink requests handled
	std::uint64_t rejected = 0; // requests the module refused
	std::uint64_t calls = 0;    // DMA-API calls the hooks saw
	std::uint64_t mappings_live = 0;  // entries in the live mapping table
	std::uint64_t pool_size = 0;      // entries preallocated for that table
	std::uint64_t pool_exhausted = 0; // mappings not tracked: pool empty
	std::uint64_t findings = 0;       // findings logged: the newest seq
	std::uint64_t events_dropped = 0; // findings never multicast
	std::uint64_t untracked_devices = 0; // calls from devices past device_slots
	std::uint64_t hook_missed = 0;       // DMA-API calls the hooks could not see
	// Unmaps and syncs of mappings made before edgedma watched the device.
	std::uint64_t unseen_mappings = 0;
	// Mapping-event stream: events numbered (dropped ones included) and
	// dropped by the module, all CPUs.
	std::uint64_t map_events = 0;
	std::uint64_t map_events_dropped = 0;
	// Kernel memory the module holds (preallocated at load), bytes; modules
	// (and recordings) from before it was counted do not say.
	std::optional<std::uint64_t> memory;
	// IOMMU translations the checks left out because the IOMMU driver could
	// sleep inside the hook (PREEMPT_RT): the checks that need the physical
	// address the device reaches did not run for those calls. Absent from
	// older modules, as is the next one.
	std::optional<std::uint64_t> translations_skipped;
	// The longest a hook ran with interrupts off, ns; timed only when the
	// module was loaded with measure_irqsoff=1, 0 otherwise.
	std::optional<std::uint64_t> irqsoff_max_ns;
	// Times the module turned off the DMA core's sync skipping (6.11+:
	// dev->dma_skip_sync) for a device it watches, so its syncs reach the
	// hooks; 0 where the kernel never skips syncs. Absent from older modules.
	std::optional<std::uint64_t> sync_skips_cleared;
	// Folding of repeated findings (absent from older modules, all three):
	// occurrences counted into the logged finding of their site (device,
	// kind, caller) instead of being logged; the sites seen; and
	// occurrences logged unfolded because the module's site table
	// (finding_sites) had no room for their site.
	std::optional<std::uint64_t> findings_folded;
	std::optional<std::uint64_t> finding_sites;
	std::optional<std::uint64_t> finding_sites_full;
	// Snapshots (absent from older modules, all four): stored (the newest
	// seq); triggers refused by a device's rate limit (snapshot_rate);
	// triggers that found no free slot; stored records that ran out of
	// room (snapshot_size).
	std::optional<std::uint64_t> snapshots;
	std::optional<std::uint64_t> snapshots_suppressed;
	std::optional<std::uint64_t> snapshots_dropped;
	std::optional<std::uint64_t> snapshots_truncated;
	// IOMMU faults the module saw, and of those, the ones of no device it
	// watches (absent from older modules, both).
	std::optional<std::uint64_t> iommu_faults;
	std::optional<std::uint64_t> iommu_faults_unowned;
	// Sockets asking for every occurrence of every finding
	// (Client::every_occurrence); while any does, nothing is folded.
	// Absent from older modules.
	std::optional<std::uint64_t> unfold_holders;
	// Live mappings the module dropped because the IOMMU handed their
	// address out again: the hooks missed their unmap (hook_missed says
	// how many calls were missed). Absent from older modules.
	std::optional<std::uint64_t> stale_mappings;

	bool operator==(const Stats &) const = default;
};

// Words for the hook modes set in a bitmask, in flag order: "tracepoint",
// "kprobe". A bit this library does not know yet (a newer module) appears as
// its hex value instead of being dropped.
EDGEDMA_API std::vector<std::string> hook_mode_names(std::uint32_t hook_modes);

// The word for the one hook mode in use (Info::hook_mode): "none" for 0,
// otherwise as hook_mode_names() spells it.
EDGEDMA_API std::string hook_mode_name(std::uint32_t hook_mode);

} // namespace edgedma
