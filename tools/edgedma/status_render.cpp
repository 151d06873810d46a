// SPDX-License-Identifier: GPL-2.0
#include "status_render.hpp"

#include <iomanip>
#include <sstream>

#include "format.hpp"

namespace edgedma::cli {

nlohmann::ordered_json status_json(const Info &info, const std::optional<Stats> &stats)
{
	nlohmann::ordered_json status = {
		{"module_version", info.module_version},
		{"kernel_release", info.kernel_release},
		{"arch", info.arch},
		{"record_format", info.record_format},
		{"hook_modes", hook_mode_names(info.hook_modes)},
		{"hook_mode", hook_mode_name(info.hook_mode)},
		{"page_size", info.page_size},
		{"cache_line", info.cache_line},
		{"dma_alignment", info.dma_alignment},
	};
	// Left out for an older module, as the newer counters below.
	if (info.iommu_fault_hooks)
		status["iommu_fault_hooks"] = *info.iommu_fault_hooks;
	if (!info.hooks_skipped.empty())
		status["hooks_skipped"] = info.hooks_skipped;
	if (info.hook_kretprobes && info.hook_ftrace_entries && info.hook_kprobe_entries)
		status["kprobe_hooks"] = {
			{"kretprobes", *info.hook_kretprobes},
			{"ftrace_entries", *info.hook_ftrace_entries},
			{"kprobe_entries", *info.hook_kprobe_entries},
		};
	if (info.dt_node)
		status["device_tree"] = {
			{"node", *info.dt_node},
			{"policies", info.dt_policies.value_or(0)},
			{"profiles", info.dt_profiles.value_or(0)},
			{"refused", info.dt_refused.value_or(0)},
		};
	if (stats)
		status["stats"] = {
			{"requests", stats->requests},
			{"rejected", stats->rejected},
			{"calls", stats->calls},
			{"mappings_live", stats->mappings_live},
			{"pool_size", stats->pool_size},
			{"pool_exhausted", stats->pool_exhausted},
			{"findings", stats->findings},
			{"events_dropped", stats->events_dropped},
			{"untracked_devices", stats->untracked_devices},
			{"hook_missed", stats->hook_missed},
			{"unseen_mappings", stats->unseen_mappings},
			{"map_events", stats->map_events},
			{"map_events_dropped", stats->map_events_dropped},
		};
	// Counters older modules do not send are left out rather than shown
	// as 0, which would claim something the module never said.
	if (stats && stats->memory)
		status["stats"]["memory"] = *stats->memory;
	if (stats && stats->translations_skipped)
		status["stats"]["translations_skipped"] = *stats->translations_skipped;
	if (stats && stats->irqsoff_max_ns)
		status["stats"]["irqsoff_max_ns"] = *stats->irqsoff_max_ns;
	if (stats && stats->sync_skips_cleared)
		status["stats"]["sync_skips_cleared"] = *stats->sync_skips_cleared;
	if (stats && stats->findings_folded)
		status["stats"]["findings_folded"] = *stats->findings_folded;
	if (stats && stats->finding_sites)
		status["stats"]["finding_sites"] = *stats->finding_sites;
	if (stats && stats->finding_sites_full)
		status["stats"]["finding_sites_full"] = *stats->finding_sites_full;
	if (stats && stats->snapshots)
		status["stats"]["snapshots"] = *stats->snapshots;
	if (stats && stats->snapshots_suppressed)
		status["stats"]["snapshots_suppressed"] = *stats->snapshots_suppressed;
	if (stats && stats->snapshots_dropped)
		status["stats"]["snapshots_dropped"] = *stats->snapshots_dropped;
	if (stats && stats->snapshots_truncated)
		status["stats"]["snapshots_truncated"] = *stats->snapshots_truncated;
	if (stats && stats->iommu_faults)
		status["stats"]["iommu_faults"] = *stats->iommu_faults;
	if (stats && stats->iommu_faults_unowned)
		status["stats"]["iommu_faults_unowned"] = *stats->iommu_faults_unowned;
	if (stats && stats->unfold_holders)
		status["stats"]["unfold_holders"] = *stats->unfold_holders;
	if (stats && stats->stale_mappings)
		status["stats"]["stale_mappings"] = *stats->stale_mappings;
	return status;
}

std::string status_text(const Info &info, const std::optional<Stats> &stats)
{
	// Wide enough for the longest label, "untracked-device calls:", and a
	// space.
	constexpr int label_width = 24;
	std::ostringstream text;
	auto line = [&text](std::string_view label, const auto &value) {
		text << std::left << std::setw(label_width)
		     << (label.empty() ? std::string() : std::string(label) + ":") << value << '\n';
	};
	line("module version", info.module_version);
	line("kernel", info.kernel_release);
	line("arch", info.arch);
	line("record format", info.record_format);
	line("hook modes", joined(hook_mode_names(info.hook_modes)));
	line("hook mode in use", hook_mode_name(info.hook_mode));
	// Kprobe mode: which of its hooks cost a breakpoint, and whether an
	// unmap can be missed inside another probe's handler (kprobes only).
	if (info.hook_kretprobes && info.hook_ftrace_entries && info.hook_kprobe_entries)
		line("kprobe mode hooks",
		     std::to_string(*info.hook_kretprobes) + " kretprobes (maps), " +
			     std::to_string(*info.hook_ftrace_entries) +
			     " entries through ftrace, " +
			     std::to_string(*info.hook_kprobe_entries) + " with kprobes");
	line("page size", bytes(info.page_size));
	line("CPU cache line", bytes(info.cache_line));
	line("DMA buffer alignment", bytes(info.dma_alignment));
	if (info.iommu_fault_hooks)
		line("IOMMU fault hooks", info.iommu_fault_hooks->empty()
						  ? std::string("none (IOMMU faults not caught)")
						  : *info.iommu_fault_hooks);
	// One line per function, the first under the label, the others below.
	for (std::size_t i = 0; i < info.hooks_skipped.size(); i++)
		line(i ? "" : "hooks left out", info.hooks_skipped[i]);
	if (info.dt_node) {
		auto count = [](std::uint32_t n, const char *one, const char *many) {
			return std::to_string(n) + " " + (n == 1 ? one : many);
		};
		line("configured by",
		     "device tree " + *info.dt_node + ": " +
			     count(info.dt_policies.value_or(0), "policy", "policies") + " and " +
			     count(info.dt_profiles.value_or(0), "profile", "profiles") +
			     " applied, " + std::to_string(info.dt_refused.value_or(0)) +
			     " refused");
	}
	if (stats) {
		line("requests handled", stats->requests);
		line("requests rejected", stats->rejected);
		line("DMA-API calls seen", stats->calls);
		line("live mappings", std::to_string(stats->mappings_live) + " (pool of " +
				      std::to_string(stats->pool_size) + ")");
		line("mappings not tracked", std::to_string(stats->pool_exhausted) +
					     " (pool empty)");
		line("findings logged", stats->findings);
		line("findings not notified", stats->events_dropped);
		line("untracked-device calls", stats->untracked_devices);
		line("calls hooks missed", stats->hook_missed);
		line("unmaps of unseen maps", stats->unseen_mappings);
		line("mapping events", std::to_string(stats->map_events) + " (" +
				       std::to_string(stats->map_events_dropped) + " dropped)");
		if (stats->memory)
			line("kernel memory held", bytes(*stats->memory));
		if (stats->translations_skipped)
			line("translations skipped", std::to_string(*stats->translations_skipped) +
							     " (IOMMU could sleep)");
		if (stats->irqsoff_max_ns) {
			// The module sends 0 when it was not asked to time hooks.
			if (*stats->irqsoff_max_ns == 0)
				line("irqs-off max", "not timed (measure_irqsoff=0)");
			else
				line("irqs-off max", std::to_string(*stats->irqsoff_max_ns) + " ns");
		}
		if (stats->sync_skips_cleared)
			line("sync skips turned off", std::to_string(*stats->sync_skips_cleared) +
							      " (syncs kept visible, 6.11+)");
		if (stats->findings_folded)
			line("findings folded", std::to_string(*stats->findings_folded) +
							" (repeats counted, not logged)");
		if (stats->finding_sites)
			line("finding sites", std::to_string(*stats->finding_sites) +
						      " (device, kind, caller)");
		if (stats->finding_sites_full)
			line("site table full", std::to_string(*stats->finding_sites_full) +
							" (findings logged unfolded)");
		if (stats->snapshots)
			line("snapshots stored", *stats->snapshots);
		if (stats->snapshots_suppressed)
			line("snapshots rate-limited", std::to_string(*stats->snapshots_suppressed) +
							       " (triggers over snapshot_rate)");
		if (stats->snapshots_dropped)
			line("snapshots dropped", std::to_string(*stats->snapshots_dropped) +
							  " (triggers with no free slot)");
		if (stats->snapshots_truncated)
			line("snapshots truncated", std::to_string(*stats->snapshots_truncated) +
							    " (records over snapshot_size)");
		if (stats->iommu_faults)
			line("IOMMU faults seen", *stats->iommu_faults);
		if (stats->iommu_faults_unowned)
			line("IOMMU faults unowned", std::to_string(*stats->iommu_faults_unowned) +
							     " (of no watched device)");
		if (stats->stale_mappings)
			line("stale mappings dropped", std::to_string(*stats->stale_mappings) +
							   " (IOVA mapped again: unmap missed)");
		if (stats->unfold_holders && *stats->unfold_holders)
			line("every occurrence", "asked by " + std::to_string(*stats->unfold_holders) +
							 " listener(s): repeats are not folded");
	}
	return text.str();
}

} // namespace edgedma::cli
