// SPDX-License-Identifier: GPL-2.0
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <edgedma/info.hpp>

namespace edgedma::cli {

// `edgedma status --json`: module_version, kernel_release, arch,
// record_format, hook_modes (array of words), hook_mode (the one in use,
// "none" when unhooked), page_size, cache_line, dma_alignment,
// iommu_fault_hooks (the module's string; left out for older modules), and
// "stats"
// {requests, rejected, calls, mappings_live, pool_size, pool_exhausted,
// findings, events_dropped, untracked_devices, hook_missed, unseen_mappings,
// map_events, map_events_dropped, and memory, translations_skipped,
// irqsoff_max_ns, sync_skips_cleared, findings_folded, finding_sites,
// finding_sites_full, snapshots, snapshots_suppressed, snapshots_dropped and
// snapshots_truncated, iommu_faults, iommu_faults_unowned, unfold_holders and
// stale_mappings when the module sends them} when the counters were
// read.
nlohmann::ordered_json status_json(const Info &info, const std::optional<Stats> &stats);

// `edgedma status`: one aligned "label: value" line per fact.
std::string status_text(const Info &info, const std::optional<Stats> &stats);

} // namespace edgedma::cli
