// SPDX-License-Identifier: GPL-2.0
#include "mapping_render.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include <edgedma/names.hpp>

#include "format.hpp"

namespace edgedma::cli {
namespace {

using GroupKey = std::tuple<std::string, std::string, std::uint32_t, std::uint32_t,
			    std::uint64_t, std::uint64_t, std::uint32_t>;

GroupKey key_of(const Mapping &mapping)
{
	return {mapping.device, mapping.driver, mapping.call, mapping.dir,
		mapping.attrs,  mapping.caller, mapping.sg_count};
}

std::string where(const Mapping &mapping)
{
	std::string text = bytes(mapping.size) + " at " + hex(mapping.dma_addr);
	if (mapping.cpu_phys)
		text += " phys " + hex(*mapping.cpu_phys);
	return text;
}

} // namespace

bool MappingGroup::complete() const
{
	if (!scatter_gather())
		return true;
	if (segments.size() != first().sg_count)
		return false;
	for (std::uint32_t i = 0; i < segments.size(); i++)
		if (segments[i].sg_index != i)
			return false;
	return true;
}

std::uint64_t MappingGroup::total_size() const
{
	std::uint64_t total = 0;
	for (const Mapping &segment : segments)
		total += segment.size;
	return total;
}

std::vector<MappingGroup> group_mappings(std::vector<Mapping> mappings)
{
	std::ranges::stable_sort(mappings, [](const Mapping &a, const Mapping &b) {
		return std::tie(a.time_ns, a.sg_index) < std::tie(b.time_ns, b.sg_index);
	});

	std::vector<MappingGroup> groups;
	// Per key: the groups still waiting for segments, oldest first.
	std::map<GroupKey, std::vector<std::size_t>> open;
	for (Mapping &mapping : mappings) {
		if (!mapping.sg_index) {
			groups.push_back({{std::move(mapping)}});
			continue;
		}
		auto &waiting = open[key_of(mapping)];
		std::uint32_t index = *mapping.sg_index;
		auto joins = waiting.end();
		if (index > 0)
			joins = std::ranges::find_if(waiting, [&](std::size_t group) {
				return groups[group].segments.back().sg_index == index - 1;
			});
		if (joins == waiting.end()) {
			// A new mapping; also where an earlier segment is missing.
			groups.push_back({{std::move(mapping)}});
			if (groups.back().segments.size() < groups.back().first().sg_count)
				waiting.push_back(groups.size() - 1);
			continue;
		}
		MappingGroup &group = groups[*joins];
		group.segments.push_back(std::move(mapping));
		if (index + 1 >= group.first().sg_count)
			waiting.erase(joins);
	}

	std::ranges::stable_sort(groups, [](const MappingGroup &a, const MappingGroup &b) {
		return std::tie(a.first().device, a.first().time_ns) <
		       std::tie(b.first().device, b.first().time_ns);
	});
	return groups;
}

nlohmann::ordered_json mapping_json(const MappingGroup &group, const Symbolizer &symbols,
				    bool consistent)
{
	const Mapping &first = group.first();
	nlohmann::ordered_json segments = nlohmann::ordered_json::array();
	if (group.scatter_gather())
		for (const Mapping &segment : group.segments)
			segments.push_back({
				{"index", *segment.sg_index},
				{"dma_addr", hex(segment.dma_addr)},
				{"size", segment.size},
				{"cpu_phys", hex_or_null(segment.cpu_phys)},
				{"cpu_virt", hex_or_null(segment.cpu_virt)},
			});
	return {
		{"device", first.device},
		{"driver", first.driver},
		{"call", call_kind_label(first.call)},
		{"dir", direction_label(first.dir)},
		{"attrs", hex(first.attrs)},
		{"dma_addr", hex(first.dma_addr)},
		{"size", group.total_size()},
		{"cpu_phys", hex_or_null(first.cpu_phys)},
		{"cpu_virt", hex_or_null(first.cpu_virt)},
		{"caller", code_address_json(first.caller, symbols)},
		{"caller_addr", code_address_hex(first.caller)},
		{"time_ns", first.time_ns},
		{"sg_count", first.sg_count},
		{"complete", group.complete()},
		{"segments", std::move(segments)},
		{"consistent", consistent},
	};
}

std::string inconsistent_table_note(int reads)
{
	std::string during = reads == 1 ? "during its one read"
					: "during each of " + std::to_string(reads) + " reads";
	return "the mapping table changed " + during +
	       "; this list may miss or repeat entries";
}

std::string mappings_text(const std::vector<MappingGroup> &groups, const Symbolizer &symbols)
{
	std::ostringstream text;
	const std::string *device = nullptr;
	for (const MappingGroup &group : groups) {
		const Mapping &first = group.first();
		if (!device || *device != first.device) {
			device = &first.device;
			text << first.device << " ("
			     << (first.driver.empty() ? "no driver" : first.driver) << ")\n";
		}
		text << "  " << call_kind_label(first.call) << " " << direction_label(first.dir)
		     << " ";
		if (group.scatter_gather()) {
			text << group.segments.size() << " of " << first.sg_count << " segments, "
			     << bytes(group.total_size());
			if (!group.complete())
				text << " (segments missing: not all were tracked)";
		} else {
			text << where(first);
		}
		if (first.attrs)
			text << " attrs " << hex(first.attrs);
		text << " by " << code_address(first.caller, symbols) << "\n";
		if (group.scatter_gather())
			for (const Mapping &segment : group.segments)
				text << "      [" << *segment.sg_index << "] " << where(segment)
				     << "\n";
	}
	return text.str();
}

} // namespace edgedma::cli
