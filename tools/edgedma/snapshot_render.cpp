// SPDX-License-Identifier: GPL-2.0
#include "snapshot_render.hpp"

#include <array>
#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include <edgedma/info.hpp>
#include <edgedma/names.hpp>

#include "format.hpp"

namespace edgedma::cli {
namespace {

using Json = nlohmann::ordered_json;

template <typename Value> Json or_null(const std::optional<Value> &value)
{
	if (!value)
		return nullptr;
	return *value;
}

// A caller as the kernel named it when it took the snapshot, else as the
// symbols name it now; null when neither can (address 0).
Json caller_json(std::uint64_t address, const std::optional<std::string> &kernel_name,
		 const Symbolizer &symbols)
{
	return or_null(describe_caller(address, kernel_name, symbols));
}

std::string caller_text(std::uint64_t address, const std::optional<std::string> &kernel_name,
			const Symbolizer &symbols)
{
	return describe_caller(address, kernel_name, symbols).value_or("unknown");
}

// A time of the snapshot's clock against the snapshot's own: "3.00 ms
// before". The snapshot reads the NMI-safe clock, the hooks the usual one:
// a time a hair after the snapshot's says so rather than wrapping.
std::string before_snapshot(std::uint64_t time_ns, std::uint64_t snapshot_ns)
{
	if (time_ns <= snapshot_ns)
		return duration(snapshot_ns - time_ns) + " before";
	return duration(time_ns - snapshot_ns) + " after";
}

// ktime nanoseconds as seconds, as the kernel log stamps its lines.
std::string kernel_clock(std::uint64_t ns)
{
	char text[40];
	std::snprintf(text, sizeof text, "%llu.%06llu s",
		      static_cast<unsigned long long>(ns / 1000000000),
		      static_cast<unsigned long long>(ns % 1000000000 / 1000));
	return text;
}

// Why a part was left out, in words, by the reason's name (the uapi
// header's comments); a reason this tool does not know has its label alone.
std::string reason_text(std::uint32_t reason)
{
	constexpr std::array<std::pair<std::string_view, std::string_view>, 9> explained{{
		{"device-unseen", "the device made no DMA-API call edgedma saw"},
		{"lock-busy", "a lock was held; at panic its holder may be a stopped CPU"},
		{"not-kept", "the module keeps no unmap history (history_size=0)"},
		{"no-room", "more than the record holds (snapshot_size)"},
		{"may-sleep", "the IOMMU driver's lookup may sleep there (PREEMPT_RT)"},
		{"not-supported", "this architecture or kernel cannot"},
		{"limit", "past a module parameter's bound"},
		{"no-profile", "no controller profile describes the device"},
		{"read-clears", "reading it would change the device"},
	}};
	std::string label = skip_reason_label(reason);
	for (const auto &[name, words] : explained)
		if (name == label)
			return label + " (" + std::string(words) + ")";
	return label;
}

bool holds_trigger(const SnapshotHeader &header, std::uint64_t dma_addr, std::uint64_t size)
{
	return header.trigger_addr && covers(dma_addr, size, *header.trigger_addr);
}

std::string call_text(const Mapping &mapping)
{
	std::string text = call_kind_label(mapping.call);
	if (mapping.sg_index)
		text += " [" + std::to_string(*mapping.sg_index) + "/" +
			std::to_string(mapping.sg_count) + "]";
	return text;
}

Json mapping_json(const Mapping &mapping, const SnapshotHeader &header,
		  const Symbolizer &symbols)
{
	return {
		{"dma_addr", hex(mapping.dma_addr)},
		{"size", mapping.size},
		{"dir", direction_label(mapping.dir)},
		{"call", call_kind_label(mapping.call)},
		{"attrs", hex(mapping.attrs)},
		{"cpu_phys", hex_or_null(mapping.cpu_phys)},
		{"cpu_virt", hex_or_null(mapping.cpu_virt)},
		{"caller", caller_json(mapping.caller, mapping.caller_name, symbols)},
		{"caller_addr", code_address_hex(mapping.caller)},
		{"time_ns", mapping.time_ns},
		{"sg_index", or_null(mapping.sg_index)},
		{"sg_count", mapping.sg_count},
		{"holds_trigger_addr", holds_trigger(header, mapping.dma_addr, mapping.size)},
	};
}

Json unmap_json(const RecentUnmap &unmap, const SnapshotHeader &header,
		const Symbolizer &symbols)
{
	return {
		{"dma_addr", hex(unmap.dma_addr)},
		{"size", unmap.size},
		{"dir", direction_label(unmap.dir)},
		{"call", call_kind_label(unmap.call)},
		{"cpu_phys", hex_or_null(unmap.cpu_phys)},
		{"map_time_ns", unmap.map_time_ns},
		{"unmap_time_ns", unmap.unmap_time_ns},
		{"map_caller", caller_json(unmap.map_caller, unmap.map_caller_name, symbols)},
		{"map_caller_addr", code_address_hex(unmap.map_caller)},
		{"unmap_caller", caller_json(unmap.unmap_caller, unmap.unmap_caller_name, symbols)},
		{"unmap_caller_addr", code_address_hex(unmap.unmap_caller)},
		{"covers_trigger_addr", holds_trigger(header, unmap.dma_addr, unmap.size)},
	};
}

std::string driver_or_none(const std::string &driver)
{
	return driver.empty() ? "no driver" : driver;
}

std::string mappings_text(const Snapshot &snapshot, const Symbolizer &symbols)
{
	const SnapshotHeader &header = snapshot.header;
	std::string heading = "live mappings: " + std::to_string(snapshot.mappings.size()) +
			      " listed";
	if (snapshot.mappings_left_out)
		heading += ", " + std::to_string(snapshot.mappings_left_out) +
			   " left out (snapshot_mappings, or no room)";
	if (snapshot.mappings.empty())
		return heading + "\n";

	std::vector<std::vector<std::string>> rows{
		{"", "DMA ADDRESS", "SIZE", "DIR", "CALL", "MAPPED", "CALLER"}};
	bool marked = false;
	for (const Mapping &mapping : snapshot.mappings) {
		const bool holds = holds_trigger(header, mapping.dma_addr, mapping.size);
		marked |= holds;
		rows.push_back({holds ? "*" : "", hex(mapping.dma_addr),
				std::to_string(mapping.size), direction_label(mapping.dir),
				call_text(mapping), before_snapshot(mapping.time_ns, header.time_ns),
				caller_text(mapping.caller, mapping.caller_name, symbols)});
	}
	std::string text = heading + "\n";
	std::istringstream table(
		aligned_table(rows, {false, false, true, false, false, false, false}));
	for (std::string line; std::getline(table, line);)
		text += "  " + line + "\n";
	if (marked)
		text += "  (* holds the snapshot's address " + hex(*header.trigger_addr) + ")\n";
	return text;
}

std::string unmaps_text(const Snapshot &snapshot, const Symbolizer &symbols)
{
	const SnapshotHeader &header = snapshot.header;
	std::string text =
		"recent unmaps: " + std::to_string(snapshot.unmaps.size()) + " listed\n";
	bool marked = false;
	for (const RecentUnmap &unmap : snapshot.unmaps) {
		const bool covers_address = holds_trigger(header, unmap.dma_addr, unmap.size);
		marked |= covers_address;
		text += std::string(covers_address ? "  * " : "    ") + hex(unmap.dma_addr) + "  " +
			bytes(unmap.size) + "  " + direction_label(unmap.dir) + "  " +
			call_kind_label(unmap.call) + "\n";
		text += "      mapped   " + before_snapshot(unmap.map_time_ns, header.time_ns) +
			" by " + caller_text(unmap.map_caller, unmap.map_caller_name, symbols) +
			"\n";
		text += "      unmapped " + before_snapshot(unmap.unmap_time_ns, header.time_ns) +
			" by " + caller_text(unmap.unmap_caller, unmap.unmap_caller_name, symbols) +
			"\n";
	}
	if (marked)
		text += "  (* covered the snapshot's address " + hex(*header.trigger_addr) + ")\n";
	return text;
}

} // namespace

std::string snapshot_summary(const Snapshot &snapshot)
{
	const SnapshotHeader &header = snapshot.header;
	std::string text = "snapshot " + std::to_string(header.seq) + " of " + header.device +
			   " (" + driver_or_none(header.driver) +
			   "): " + counted(snapshot.mappings.size(), "live mapping") + ", " +
			   counted(snapshot.unmaps.size(), "recent unmap");
	if (header.trigger_addr) {
		const std::string address = hex(*header.trigger_addr);
		// The module lists the mapping holding the address first, and
		// the latest unmap of it first.
		if (!snapshot.mappings.empty() &&
		    holds_trigger(header, snapshot.mappings.front().dma_addr,
				  snapshot.mappings.front().size))
			text += "; " + address + " is in a live mapping";
		else if (!snapshot.unmaps.empty() &&
			 holds_trigger(header, snapshot.unmaps.front().dma_addr,
				       snapshot.unmaps.front().size))
			text += "; " + address + " was unmapped " +
				before_snapshot(snapshot.unmaps.front().unmap_time_ns,
						header.time_ns);
		else
			text += "; " + address + " is in no live mapping or recent unmap";
	}
	if (!snapshot.skipped.empty())
		text += "; " + counted(snapshot.skipped.size(), "part") + " skipped";
	if (snapshot.truncated)
		text += "; TRUNCATED";
	return text + "\n";
}

Json snapshot_header_json(const SnapshotHeader &header)
{
	Json access = nullptr;
	if (header.trigger_access)
		access = access_label(*header.trigger_access);
	return {
		{"seq", header.seq},
		{"time_ns", header.time_ns},
		{"real_time_ns", header.real_time_ns},
		{"cpu", header.cpu},
		{"trigger", snapshot_trigger_label(header.trigger)},
		{"trigger_addr", hex_or_null(header.trigger_addr)},
		{"trigger_access", std::move(access)},
		{"trigger_reason", or_null(header.trigger_reason)},
		{"trigger_symbol", or_null(header.trigger_symbol)},
		{"finding_seq", or_null(header.finding_seq)},
		{"device", header.device},
		{"driver", header.driver},
		{"record_size", header.record_size},
	};
}

std::string snapshot_list_text(const std::vector<SnapshotHeader> &headers)
{
	std::vector<std::vector<std::string>> rows{
		{"SEQ", "TAKEN", "TRIGGER", "DEVICE", "DRIVER", "ADDRESS", "BYTES"}};
	for (const SnapshotHeader &header : headers)
		rows.push_back({std::to_string(header.seq), utc_time(header.real_time_ns),
				snapshot_trigger_label(header.trigger), header.device,
				header.driver.empty() ? "-" : header.driver,
				header.trigger_addr ? hex(*header.trigger_addr) : "-",
				std::to_string(header.record_size)});
	return aligned_table(rows, {true, false, false, false, false, false, true});
}

Json snapshot_json(const Snapshot &snapshot, const Symbolizer &symbols)
{
	Json document = snapshot_header_json(snapshot.header);
	Json hook_mode = nullptr;
	if (snapshot.hook_mode)
		hook_mode = hook_mode_name(*snapshot.hook_mode);
	document["kernel_release"] = or_null(snapshot.kernel_release);
	document["hook_mode"] = std::move(hook_mode);
	document["truncated"] = snapshot.truncated;
	// Parts the module does not capture yet; the keys are there so that a
	// reader need not tell an old snapshot from one without them.
	document["registers"] = Json::array();
	document["descriptors"] = Json::array();
	document["views"] = Json::array();
	Json mappings = Json::array();
	for (const Mapping &mapping : snapshot.mappings)
		mappings.push_back(mapping_json(mapping, snapshot.header, symbols));
	document["mappings"] = std::move(mappings);
	document["mappings_left_out"] = snapshot.mappings_left_out;
	Json history = Json::array();
	for (const RecentUnmap &unmap : snapshot.unmaps)
		history.push_back(unmap_json(unmap, snapshot.header, symbols));
	document["history"] = std::move(history);
	Json skipped = Json::array();
	for (const SkippedPart &part : snapshot.skipped)
		skipped.push_back({{"part", snapshot_part_label(part.part)},
				   {"reason", skip_reason_label(part.reason)}});
	document["skipped"] = std::move(skipped);
	return document;
}

std::string snapshot_text(const Snapshot &snapshot, const Symbolizer &symbols)
{
	const SnapshotHeader &header = snapshot.header;
	// Wide enough for the longest label, "fault reason:", and a space.
	constexpr int label_width = 15;
	std::ostringstream text;
	auto line = [&text](std::string_view label, const std::string &value) {
		text << "  " << std::left << std::setw(label_width) << std::string(label) + ":"
		     << value << '\n';
	};
	text << "snapshot " << header.seq << '\n';
	if (snapshot.truncated)
		text << "  TRUNCATED: the record ran out of room (snapshot_size); what did not "
			"fit is missing\n";
	line("taken", utc_time(header.real_time_ns) + " on CPU " + std::to_string(header.cpu) +
			      " (kernel clock " + kernel_clock(header.time_ns) + ")");
	line("trigger", snapshot_trigger_label(header.trigger));
	if (header.trigger_symbol)
		line("handler", *header.trigger_symbol);
	if (header.trigger_reason)
		line("fault reason", std::to_string(*header.trigger_reason));
	if (header.finding_seq)
		line("finding", "#" + std::to_string(*header.finding_seq));
	std::string address = header.trigger_addr ? hex(*header.trigger_addr) : "none given";
	if (header.trigger_access)
		address += " (" + access_label(*header.trigger_access) + ")";
	line("address", address);
	line("device", header.device + " (" + driver_or_none(header.driver) + ")");
	line("kernel", snapshot.kernel_release.value_or("unknown (not in the record)"));
	line("hook mode", snapshot.hook_mode ? hook_mode_name(*snapshot.hook_mode)
					     : "unknown (not in the record)");
	line("record", bytes(header.record_size));

	text << '\n' << mappings_text(snapshot, symbols);
	text << '\n' << unmaps_text(snapshot, symbols);
	if (!snapshot.skipped.empty()) {
		text << "\nskipped parts:\n";
		for (const SkippedPart &part : snapshot.skipped)
			text << "  " << snapshot_part_label(part.part) << ": "
			     << reason_text(part.reason) << '\n';
	}
	return text.str();
}

} // namespace edgedma::cli
