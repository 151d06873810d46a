// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The report as one JSON document: what `edgedma report --json` prints, and
// the data the HTML page embeds and draws. Fields are listed in
// Documentation/report.rst; 64-bit addresses are "0x..." strings, as in
// every other JSON the tool prints, because many JSON readers keep numbers
// as doubles.
#include <algorithm>

#include <linux/edgedma.h>

#include <edgedma/cross_view.hpp>
#include <edgedma/culprit.hpp>
#include <edgedma/info.hpp>
#include <edgedma/names.hpp>
#include <edgedma/report.hpp>

#include "report_common.hpp"
#include "snapshot_facts.hpp"

namespace edgedma {
namespace detail {
namespace {

using Json = nlohmann::ordered_json;

// Bumped when a field changes meaning or goes away; new fields do not.
constexpr int report_json_version = 1;

template <typename T>
Json or_null(const std::optional<T> &value)
{
	if (!value)
		return nullptr;
	return *value;
}

// @value through @name (a label, a list of names), or null.
template <typename T, typename Name>
Json named_or_null(const std::optional<T> &value, Name name)
{
	if (!value)
		return nullptr;
	return name(*value);
}

Json hex_or_null(const std::optional<std::uint64_t> &value)
{
	if (!value)
		return nullptr;
	return hex(*value);
}

// null when nothing names the caller (address 0 and no name).
Json caller_json(std::uint64_t address, const std::optional<std::string> &kernel_name,
		 const Symbolizer &symbols)
{
	return or_null(describe_caller(address, kernel_name, symbols));
}

Json caller_address_json(std::uint64_t address)
{
	if (address == 0)
		return nullptr;
	return hex(address);
}

// How far around the address a snapshot is about its picture reaches.
constexpr std::uint64_t picture_reach = 256 * 1024;

// The ranges a snapshot knows around the address it is about (its trigger
// address, else the first address a verdict is about, else its first
// mapping): live mappings, recent unmaps, descriptor buffers, the fault.
// Offsets and sizes are bytes from "start", small enough for any JSON
// reader's numbers; the page draws them.
Json address_space_json(const Snapshot &snapshot, std::span<const Verdict> verdicts)
{
	std::optional<std::uint64_t> focus = snapshot.header.trigger_addr;
	for (const Verdict &verdict : verdicts)
		for (const Evidence &item : verdict.evidence)
			if (!focus && item.dma_addr && verdict.severity != Severity::note)
				focus = item.dma_addr;
	if (!focus && !snapshot.mappings.empty())
		focus = snapshot.mappings.front().dma_addr;
	if (!focus)
		return nullptr;
	// Within reach of the focus, the window fits what is there, with a
	// margin, so that small buffers stay visible.
	const std::uint64_t reach_start = *focus > picture_reach ? *focus - picture_reach : 0;
	const std::uint64_t reach_end = *focus + picture_reach;
	auto reachable = [&](std::uint64_t address, std::uint64_t size) {
		return address < reach_end && address + std::max<std::uint64_t>(size, 1) > reach_start;
	};
	std::uint64_t low = *focus, high = *focus + 1;
	auto widen = [&](std::uint64_t address, std::uint64_t size) {
		if (!reachable(address, size))
			return;
		low = std::min(low, std::max(address, reach_start));
		high = std::max(high, std::min(address + std::max<std::uint64_t>(size, 1), reach_end));
	};
	for (const Mapping &mapping : snapshot.mappings)
		widen(mapping.dma_addr, mapping.size);
	for (const RecentUnmap &unmap : snapshot.unmaps)
		widen(unmap.dma_addr, unmap.size);
	for (const DescriptorChain &chain : snapshot.chains)
		for (const Descriptor &descriptor : chain.descriptors)
			for (const DescriptorBuffer &buffer : descriptor.buffers)
				if (buffer.addr)
					widen(buffer.addr, buffer.length.value_or(1));
	const std::uint64_t margin = std::max<std::uint64_t>((high - low) / 16, 256);
	const std::uint64_t start = low > margin ? low - margin : 0;
	const std::uint64_t end = high + margin;
	auto inside = [&](std::uint64_t address, std::uint64_t size) {
		return address < end && address + std::max<std::uint64_t>(size, 1) > start;
	};
	// Clipped to the window: offset and size within it.
	auto range = [&](const char *kind, std::uint64_t address, std::uint64_t size,
			 std::string label) {
		const std::uint64_t from = std::max(address, start);
		const std::uint64_t to = std::min(address + std::max<std::uint64_t>(size, 1), end);
		return Json{{"kind", kind},		{"dma_addr", hex(address)},
			    {"size", size},		{"offset", from - start},
			    {"length", to - from},	{"label", std::move(label)}};
	};
	Json ranges = Json::array();
	for (const Mapping &mapping : snapshot.mappings)
		if (inside(mapping.dma_addr, mapping.size))
			ranges.push_back(range("live", mapping.dma_addr, mapping.size,
					       direction_label(mapping.dir)));
	for (const RecentUnmap &unmap : snapshot.unmaps)
		if (inside(unmap.dma_addr, unmap.size))
			ranges.push_back(range("unmapped", unmap.dma_addr, unmap.size,
					       direction_label(unmap.dir)));
	Json pointers = Json::array();
	for (const DescriptorChain &chain : snapshot.chains)
		for (const Descriptor &descriptor : chain.descriptors)
			for (const DescriptorBuffer &buffer : descriptor.buffers)
				if (buffer.addr && inside(buffer.addr, 1))
					pointers.push_back(
						{{"label", chain.name + "[" +
								   std::to_string(descriptor.index) + "]"},
						 {"dma_addr", hex(buffer.addr)},
						 {"offset", buffer.addr - start},
						 {"state", buffer_state_label(buffer.state)}});
	for (const Register &reg : snapshot.registers)
		if (may_hold_address(reg) && inside(*reg.value, 1))
			pointers.push_back({{"label", reg.name},
					    {"dma_addr", hex(*reg.value)},
					    {"offset", *reg.value - start},
					    {"state", "register"}});
	Json fault = nullptr;
	if (snapshot.header.trigger == EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT &&
	    snapshot.header.trigger_addr)
		fault = {{"dma_addr", hex(*snapshot.header.trigger_addr)},
			 {"offset", *snapshot.header.trigger_addr - start}};
	return {{"start", hex(start)},	 {"size", end - start},	       {"focus", hex(*focus)},
		{"ranges", std::move(ranges)}, {"pointers", std::move(pointers)}, {"fault", std::move(fault)}};
}

// The views of a snapshot side by side, for the page's table.
Json side_by_side_json(const Snapshot &snapshot, std::span<const Verdict> verdicts)
{
	Json columns = Json::array();
	for (const SideBySideColumn &column : side_by_side_columns())
		columns.push_back(column.title);
	Json rows = Json::array();
	for (const SideBySideRow &row : side_by_side(snapshot, verdicts))
		rows.push_back({{"dma_addr", hex(row.dma_addr)},
				{"cells", row.cells},
				{"marked", row.marked}});
	return {{"columns", std::move(columns)}, {"rows", std::move(rows)}};
}

// One snapshot recorded: its header, where its address was (the verdict
// snapshot_address_owner() gives, with the mapping or unmap), and the
// sizes of its parts; `edgedma snapshot show` of a live module holds the
// rest.
Json snapshot_report_json(const Snapshot &snapshot, const Symbolizer &symbols)
{
	const SnapshotHeader &header = snapshot.header;
	const std::vector<Verdict> verdicts = compare_views(snapshot, symbols);
	const Verdict *lead = headline(verdicts);
	Json verdict_list = Json::array();
	for (const Verdict &verdict : verdicts)
		verdict_list.push_back(verdict_to_json<Json>(verdict));
	const SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
	Json address = nullptr;
	switch (owner.kind) {
	case SnapshotAddressOwner::Kind::no_address:
		break;
	case SnapshotAddressOwner::Kind::live:
		address = {
			{"where", "live"},
			{"dma_addr", hex(owner.mapping->dma_addr)},
			{"size", owner.mapping->size},
			{"mapped_ns_before", header.time_ns - std::min(header.time_ns,
								      owner.mapping->time_ns)},
			{"caller", caller_json(owner.mapping->caller, owner.mapping->caller_name,
					       symbols)},
		};
		break;
	case SnapshotAddressOwner::Kind::unmapped:
		address = {
			{"where", "unmapped"},
			{"dma_addr", hex(owner.unmap->dma_addr)},
			{"size", owner.unmap->size},
			{"unmapped_ns_before", header.time_ns - std::min(header.time_ns,
									owner.unmap->unmap_time_ns)},
			{"map_caller", caller_json(owner.unmap->map_caller,
						   owner.unmap->map_caller_name, symbols)},
			{"unmap_caller", caller_json(owner.unmap->unmap_caller,
						     owner.unmap->unmap_caller_name, symbols)},
		};
		break;
	case SnapshotAddressOwner::Kind::nowhere:
		address = {{"where", "nowhere"}};
		break;
	}
	return {
		{"seq", header.seq},
		{"time_ns", header.time_ns},
		{"real_time_ns", header.real_time_ns},
		{"trigger", snapshot_trigger_label(header.trigger)},
		{"trigger_addr", hex_or_null(header.trigger_addr)},
		{"trigger_access",
		 header.trigger_access ? Json(access_label(*header.trigger_access)) : Json(nullptr)},
		{"trigger_reason", or_null(header.trigger_reason)},
		{"trigger_symbol", or_null(header.trigger_symbol)},
		{"finding_seq", or_null(header.finding_seq)},
		{"finding_kind", header.finding_kind ? Json(finding_kind_label(*header.finding_kind))
						     : Json(nullptr)},
		{"device", header.device},
		{"driver", header.driver},
		{"address", std::move(address)},
		{"profile", or_null(snapshot.profile)},
		{"registers", snapshot.registers.size()},
		{"mappings", snapshot.mappings.size()},
		{"unmaps", snapshot.unmaps.size()},
		{"pages", snapshot.pages.size()},
		{"record_size", header.record_size},
		{"truncated", snapshot.truncated},
		{"headline", lead ? verdict_to_json<Json>(*lead) : Json(nullptr)},
		{"verdicts", std::move(verdict_list)},
		{"side_by_side", side_by_side_json(snapshot, verdicts)},
		{"address_space", address_space_json(snapshot, verdicts)},
	};
}

Json info_json(const Info &info)
{
	return {
		{"module_version", info.module_version},
		{"kernel_release", info.kernel_release},
		{"arch", info.arch},
		{"record_format", info.record_format},
		{"hook_mode", hook_mode_name(info.hook_mode)},
		{"hook_modes", hook_mode_names(info.hook_modes)},
		{"page_size", info.page_size},
		{"cache_line", info.cache_line},
		{"dma_alignment", info.dma_alignment},
	};
}

Json stats_json(const Stats &stats)
{
	return {
		{"requests", stats.requests},
		{"rejected", stats.rejected},
		{"calls", stats.calls},
		{"mappings_live", stats.mappings_live},
		{"pool_size", stats.pool_size},
		{"pool_exhausted", stats.pool_exhausted},
		{"findings", stats.findings},
		{"events_dropped", stats.events_dropped},
		{"untracked_devices", stats.untracked_devices},
		{"hook_missed", stats.hook_missed},
		{"unseen_mappings", stats.unseen_mappings},
		{"map_events", stats.map_events},
		{"map_events_dropped", stats.map_events_dropped},
		{"memory", or_null(stats.memory)},
		{"translations_skipped", or_null(stats.translations_skipped)},
		{"irqsoff_max_ns", or_null(stats.irqsoff_max_ns)},
		{"sync_skips_cleared", or_null(stats.sync_skips_cleared)},
		{"findings_folded", or_null(stats.findings_folded)},
		{"finding_sites", or_null(stats.finding_sites)},
		{"finding_sites_full", or_null(stats.finding_sites_full)},
		{"snapshots", or_null(stats.snapshots)},
		{"snapshots_suppressed", or_null(stats.snapshots_suppressed)},
		{"snapshots_dropped", or_null(stats.snapshots_dropped)},
		{"snapshots_truncated", or_null(stats.snapshots_truncated)},
		{"unfold_holders", or_null(stats.unfold_holders)},
		{"stale_mappings", or_null(stats.stale_mappings)},
	};
}

Json policy_json(const Policy &policy)
{
	Json dev_coherent = nullptr;
	if (policy.dev_coherent)
		dev_coherent = *policy.dev_coherent != 0;
	return {
		{"target", policy.target.kind == PolicyTarget::Kind::device ? "device" : "driver"},
		{"name", policy.target.name},
		{"addr_align", or_null(policy.addr_align)},
		{"len_align", or_null(policy.len_align)},
		{"coherency", named_or_null(policy.coherency, coherency_label)},
		{"checks", named_or_null(policy.checks, check_names)},
		{"snapshot_triggers", named_or_null(policy.snapshot_triggers, snapshot_trigger_names)},
		{"snapshot_findings", named_or_null(policy.snapshot_findings, check_names)},
		{"owned_hash_max", or_null(policy.owned_hash_max)},
		{"dev_coherent", dev_coherent},
		{"dma_mask", hex_or_null(policy.dma_mask)},
		{"seg_boundary", hex_or_null(policy.seg_boundary)},
		{"max_seg_size", or_null(policy.max_seg_size)},
		{"cache_line", or_null(policy.cache_line)},
	};
}

Json losses_json(const Summary &summary)
{
	Json finding_losses = Json::array();
	for (const Loss &loss : summary.losses)
		finding_losses.push_back({
			{"lost", loss.count()},
			{"first_seq", loss.first_seq},
			{"last_seq", loss.last_seq},
			{"cause", loss_cause_name(loss.cause)},
		});
	Json map_event_losses = Json::array();
	for (const MapEventLoss &loss : summary.map_event_losses)
		map_event_losses.push_back({
			{"cpu", loss.cpu},
			{"lost", loss.count()},
			{"first_seq", loss.first_seq},
			{"last_seq", loss.last_seq},
		});
	return {
		{"findings_lost", summary.findings_lost},
		{"map_events_lost", summary.map_events_lost},
		{"map_events_lost_in_kernel", summary.map_events_lost_in_kernel},
		{"map_events_lost_in_transit",
		 summary.map_events_lost - summary.map_events_lost_in_kernel},
		{"records_skipped", summary.records_skipped},
		{"recording_complete", summary.recording_complete},
		{"finding_losses", std::move(finding_losses)},
		{"map_event_losses", std::move(map_event_losses)},
	};
}

Json group_json(const FindingGroup &group, const Symbolizer &symbols)
{
	Json examples = Json::array();
	for (const Finding &finding : group.examples)
		examples.push_back(finding_json(finding, symbols));
	return {
		{"driver", group.driver},
		{"kind", finding_kind_label(group.kind)},
		{"count", group.count},
		{"logged", group.logged},
		{"devices", group.devices},
		{"first_ns", group.first_ns},
		{"last_ns", group.last_ns},
		{"examples", std::move(examples)},
	};
}

Json device_json(const DeviceTimeline &device)
{
	return {
		{"device", device.device},
		{"driver", device.driver},
		{"total_bytes_mapped", device.total_bytes_mapped},
		{"total_calls", device.total_calls},
		{"total_findings", device.total_findings},
		{"live_mappings", device.live_mappings},
		{"live_bytes", device.live_bytes},
		{"bytes_mapped", device.bytes_mapped},
		{"maps", device.maps},
		{"unmaps", device.unmaps},
		{"syncs", device.syncs},
		{"findings", device.findings},
	};
}

// [{"addr": "0x...", "name": "func+0x1c/0x80 [mod]" or null}], caller
// first: the name as the module gave it, null for "?" and where it gave
// none.
Json call_chain_json(const Finding &finding)
{
	Json chain = Json::array();
	for (std::size_t frame = 0; frame < finding.call_chain.size(); frame++) {
		Json name = nullptr;
		if (frame < finding.call_chain_names.size() &&
		    !finding.call_chain_names[frame].empty() &&
		    finding.call_chain_names[frame] != "?")
			name = finding.call_chain_names[frame];
		chain.push_back({{"addr", hex(finding.call_chain[frame])}, {"name", std::move(name)}});
	}
	return chain;
}

// The culprit's name: the caller's, named as "caller" is, when the caller
// is to blame.
Json culprit_json(const Finding &finding, const Symbolizer &symbols)
{
	const Culprit culprit = find_culprit(finding);
	if (culprit.is_caller())
		return caller_json(finding.caller, finding.caller_name, symbols);
	return or_null(culprit.name);
}

} // namespace

Json finding_json(const Finding &finding, const Symbolizer &symbols)
{
	std::uint64_t map_caller = finding.map_caller.value_or(0);
	return {
		{"seq", finding.seq},
		{"time_ns", finding.time_ns},
		{"kind", finding_kind_label(finding.kind)},
		{"call", call_kind_label(finding.call)},
		{"device", finding.device},
		{"driver", finding.driver},
		{"dma_addr", hex(finding.dma_addr)},
		{"size", finding.size},
		{"dir", direction_label(finding.dir)},
		{"cpu_phys", hex_or_null(finding.cpu_phys)},
		{"caller", caller_json(finding.caller, finding.caller_name, symbols)},
		{"caller_addr", caller_address_json(finding.caller)},
		{"map_caller", caller_json(map_caller, finding.map_caller_name, symbols)},
		{"map_caller_addr", caller_address_json(map_caller)},
		{"detail", finding.detail},
		{"occurrences", or_null(finding.occurrences)},
		{"last_time_ns", or_null(finding.last_time_ns)},
		{"call_chain", call_chain_json(finding)},
		{"driver_module", or_null(finding.driver_module)},
		{"culprit", culprit_json(finding, symbols)},
	};
}

Json summary_json(const Summary &summary, const Symbolizer &symbols)
{
	Json groups = Json::array();
	for (const FindingGroup &group : summary.groups)
		groups.push_back(group_json(group, symbols));
	Json devices = Json::array();
	for (const DeviceTimeline &device : summary.devices)
		devices.push_back(device_json(device));
	Json findings = Json::array();
	for (const Finding &finding : summary.findings)
		findings.push_back(finding_json(finding, symbols));
	Json device_policies = Json::array();
	for (const Policy &policy : summary.device_policies)
		device_policies.push_back(policy_json(policy));
	Json overrides = Json::array();
	for (const Policy &policy : summary.policy_overrides)
		overrides.push_back(policy_json(policy));
	Json snapshots = Json::array();
	for (const Snapshot &snapshot : summary.snapshots)
		snapshots.push_back(snapshot_report_json(snapshot, symbols));

	Json recorded = nullptr;
	if (summary.recorded_unix_ns != 0)
		recorded = summary.recorded_unix_ns;
	return {
		{"report_version", report_json_version},
		{"source", summary.source},
		{"recorded_unix_ns", recorded},
		{"module", summary.info ? info_json(*summary.info) : Json(nullptr)},
		{"stats_end", summary.stats_end ? stats_json(*summary.stats_end) : Json(nullptr)},
		{"time",
		 {
			 {"start_ns", summary.start_ns},
			 {"end_ns", summary.end_ns},
			 {"duration_ns", summary.end_ns - summary.start_ns},
			 {"timeline_start_ns", summary.timeline_start_ns},
			 {"bucket_ns", summary.bucket_ns},
			 {"bucket_count", summary.bucket_count},
		 }},
		{"totals",
		 {
			 {"findings", summary.findings_total},
			 {"occurrences", summary.occurrences_total},
			 {"map_events", summary.map_events_total},
			 {"devices", summary.devices.size()},
			 {"groups", summary.groups.size()},
			 {"live_mappings_at_start", summary.live_mappings_at_start},
			 {"findings_kept", summary.findings.size()},
		 }},
		{"losses", losses_json(summary)},
		{"snapshots", std::move(snapshots)},
		{"snapshots_total", summary.snapshots_total},
		{"groups", std::move(groups)},
		{"devices", std::move(devices)},
		{"findings", std::move(findings)},
		{"policies",
		 {
			 {"devices", std::move(device_policies)},
			 {"overrides", std::move(overrides)},
		 }},
	};
}

} // namespace detail

std::string render_report_json(const Summary &summary, const Symbolizer &symbols)
{
	return detail::dump_json(detail::summary_json(summary, symbols)) + "\n";
}

std::string render_finding_json(const Finding &finding, const Symbolizer &symbols)
{
	return detail::dump_json(detail::finding_json(finding, symbols));
}

} // namespace edgedma
