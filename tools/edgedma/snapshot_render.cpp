// SPDX-License-Identifier: GPL-2.0
#include "snapshot_render.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include <linux/edgedma.h>

#include <edgedma/cross_view.hpp>
#include <edgedma/info.hpp>
#include <edgedma/names.hpp>
#include <edgedma/pl330.hpp>

#include "format.hpp"

namespace edgedma::cli {
namespace {

using Json = nlohmann::ordered_json;

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

// A register's value and a field's: hex, but a single bit as 0 or 1.
std::string field_text(const RegisterField &field, std::uint64_t value)
{
	const std::uint64_t bits = field_value(value, field);
	return field.name + "=" + (field.bits == 1 ? std::to_string(bits) : hex(bits));
}

// Why a register was not read: the reason's words alone for read-clears,
// the reason as the skipped parts show it otherwise.
std::string not_read_text(std::uint32_t reason)
{
	if (skip_reason_label(reason) == "read-clears")
		return "not read: reading it would change the device";
	return "not read: " + reason_text(reason);
}

Json register_json(const Register &reg)
{
	Json fields = Json::object();
	for (const RegisterField &field : reg.fields)
		fields[field.name] = reg.value ? Json(field_value(*reg.value, field)) : Json(nullptr);
	Json skipped = nullptr;
	if (reg.skipped)
		skipped = skip_reason_label(*reg.skipped);
	return {
		{"name", reg.name},
		{"window", reg.window},
		{"offset", hex(reg.offset)},
		{"width", reg.width},
		{"flags", register_flag_names(reg.flags)},
		{"fields", std::move(fields)},
		{"value", hex_or_null(reg.value)},
		{"skipped", std::move(skipped)},
	};
}

Json page_json(const PageView &page)
{
	Json domain = iommu_domain_label(page.iommu_domain);
	Json memtype = nullptr;
	if (page.pte_memtype)
		memtype = memtype_label(*page.pte_memtype);
	Json flags = nullptr;
	if (page.flags)
		flags = page_flag_names(*page.flags);
	return {
		{"dma_addr", hex(page.dma_addr)},
		{"expected_phys", hex_or_null(page.expected_phys)},
		{"iommu",
		 {
			 {"domain", std::move(domain)},
			 {"phys", hex_or_null(page.iommu_phys)},
			 {"unmapped", page.iommu_unmapped},
		 }},
		{"cpu",
		 {
			 {"virt", hex_or_null(page.cpu_virt)},
			 {"pte", hex_or_null(page.pte)},
			 {"size", or_null(page.pte_size)},
			 {"present", or_null(page.pte_present)},
			 {"writable", or_null(page.pte_writable)},
			 {"executable", or_null(page.pte_executable)},
			 {"pfn", hex_or_null(page.pte_pfn)},
			 {"memtype", std::move(memtype)},
		 }},
		{"phys",
		 {
			 {"addr", hex_or_null(page.phys)},
			 {"pfn_valid", or_null(page.pfn_valid)},
			 {"flags", std::move(flags)},
			 {"refcount", or_null(page.refcount)},
			 {"swiotlb", or_null(page.swiotlb)},
		 }},
	};
}

// The fields of a read descriptor, "name=0x.." each; "" when not read.
std::string descriptor_fields_text(const DescriptorChain &chain, const Descriptor &descriptor)
{
	std::string text;
	for (std::size_t i = 0; i < chain.fields.size(); i++) {
		const auto value = descriptor_field_value(chain, descriptor, i);
		if (!value)
			continue;
		text += (text.empty() ? "" : " ") + chain.fields[i].name + "=" + hex(*value);
	}
	return text;
}

std::string buffer_text(const DescriptorBuffer &buffer)
{
	std::string text = "buffer " + hex(buffer.addr);
	if (buffer.length)
		text += "+" + std::to_string(*buffer.length);
	const std::string where = buffer.mapping_addr && buffer.mapping_size
		? hex(*buffer.mapping_addr) + "+" + std::to_string(*buffer.mapping_size)
		: std::string();
	switch (buffer.state) {
	case EDGEDMA_BUFFER_LIVE: return text + ": live, in " + where;
	case EDGEDMA_BUFFER_OVERRUN: return text + ": OVERRUNS the live mapping " + where;
	case EDGEDMA_BUFFER_UNMAPPED: return text + ": UNMAPPED (recent unmap " + where + ")";
	case EDGEDMA_BUFFER_UNKNOWN: return text + ": in NO mapping or recent unmap";
	case EDGEDMA_BUFFER_NULL: return text + ": null (unused)";
	}
	return text + ": " + buffer_state_label(buffer.state);
}

// Where an address a program loads lies, by the snapshot's lists.
std::string loaded_address_text(const Snapshot &snapshot, std::uint64_t address)
{
	if (const Mapping *mapping = live_mapping_holding(snapshot, address))
		return "live, in " + hex(mapping->dma_addr) + "+" + std::to_string(mapping->size);
	if (const RecentUnmap *unmap = unmap_holding(snapshot, address))
		return "UNMAPPED (recent unmap " + hex(unmap->dma_addr) + "+" +
		       std::to_string(unmap->size) + ")";
	return "in no mapping or recent unmap the snapshot lists (a FIFO?)";
}

// A PL330 program, one instruction a line, "=>" at the channel's CPC.
std::string program_text(const Snapshot &snapshot, const Pl330Program &program)
{
	std::string text = "  program at " + hex(program.start) + ", decoded up to: " +
			   program.ended + "\n";
	for (const Pl330Instruction &instruction : program.instructions) {
		const bool here = program.pc && *program.pc == instruction.addr;
		text += std::string(here ? "  => " : "     ") + hex(instruction.addr) + "  " +
			instruction.text;
		if (instruction.moves && *instruction.moves != Pl330Register::ccr)
			text += "  " + loaded_address_text(snapshot, instruction.immediate);
		text += "\n";
	}
	if (program.pc && !program.pc_on_instruction)
		text += "  the CPC " + hex(*program.pc) + " is on no instruction decoded here\n";
	return text;
}

std::string chains_text(const Snapshot &snapshot)
{
	std::string text;
	for (const DescriptorChain &chain : snapshot.chains) {
		text += "descriptors: " + chain.name + " (" + chain_kind_label(chain.kind) + ", " +
			bytes(chain.desc_size) + " each" +
			(chain.direction ? ", " + direction_label(*chain.direction) : "") + ")";
		if (chain.start)
			text += ", start " + hex(*chain.start);
		if (chain.count)
			text += ", " + std::to_string(*chain.count) +
				(chain.kind == EDGEDMA_CHAIN_PL330_PROGRAM ? " blocks" : " slots");
		if (chain.head)
			text += ", head " + std::to_string(*chain.head);
		if (chain.tail)
			text += ", tail " + std::to_string(*chain.tail);
		text += "\n";
		if (chain.skipped)
			text += "  not walked: " + skip_reason_label(*chain.skipped) + "\n";
		if (const auto program = pl330_program(chain)) {
			text += program_text(snapshot, *program);
			continue;
		}
		for (const Descriptor &descriptor : chain.descriptors) {
			text += "  [" + std::to_string(descriptor.index) + "] " +
				hex(descriptor.dma_addr) + "  ";
			if (descriptor.owner)
				text += descriptor_owner_label(*descriptor.owner) + "'s  ";
			if (descriptor.state == EDGEDMA_DESC_READ)
				text += descriptor_fields_text(chain, descriptor) + "\n";
			else
				text += "NOT READ: " + descriptor_state_label(descriptor.state) + "\n";
			for (const DescriptorBuffer &buffer : descriptor.buffers)
				text += "      " + buffer_text(buffer) + "\n";
		}
		if (chain.walk && *chain.walk) {
			std::string words;
			for (const std::string &word : chain_walk_names(*chain.walk))
				words += (words.empty() ? "" : ", ") + word;
			text += "  walk ended: " + words + "\n";
		}
	}
	return text;
}

nlohmann::ordered_json chain_json(const DescriptorChain &chain)
{
	Json fields = Json::array();
	for (const DescriptorField &field : chain.fields)
		fields.push_back(descriptor_field_json(field));
	Json descriptors = Json::array();
	for (const Descriptor &descriptor : chain.descriptors) {
		Json values = Json::object();
		for (std::size_t i = 0; i < chain.fields.size(); i++) {
			const auto value = descriptor_field_value(chain, descriptor, i);
			values[chain.fields[i].name] = value ? Json(hex(*value)) : Json(nullptr);
		}
		std::string raw;
		for (std::byte b : descriptor.bytes) {
			char two[3];
			std::snprintf(two, sizeof two, "%02x", std::to_integer<unsigned>(b));
			raw += two;
		}
		Json buffers = Json::array();
		for (const DescriptorBuffer &buffer : descriptor.buffers)
			buffers.push_back(
				{{"field", buffer.field},
				 {"addr", hex(buffer.addr)},
				 {"length", buffer.length ? Json(*buffer.length) : Json(nullptr)},
				 {"state", buffer_state_label(buffer.state)},
				 {"mapping_addr", buffer.mapping_addr ? Json(hex(*buffer.mapping_addr))
								      : Json(nullptr)},
				 {"mapping_size", buffer.mapping_size ? Json(*buffer.mapping_size)
								      : Json(nullptr)}});
		descriptors.push_back({{"index", descriptor.index},
				       {"dma_addr", hex(descriptor.dma_addr)},
				       {"state", descriptor_state_label(descriptor.state)},
				       {"owner", descriptor.owner
							 ? Json(descriptor_owner_label(*descriptor.owner))
							 : Json(nullptr)},
				       {"fields", std::move(values)},
				       {"bytes", raw},
				       {"buffers", std::move(buffers)}});
	}
	Json walk = Json::array();
	for (const std::string &word : chain_walk_names(chain.walk.value_or(0)))
		walk.push_back(word);
	Json program = nullptr;
	if (const auto decoded = pl330_program(chain)) {
		Json instructions = Json::array();
		for (const Pl330Instruction &instruction : decoded->instructions) {
			Json one = {{"addr", hex(instruction.addr)},
				    {"size", instruction.size},
				    {"text", instruction.text}};
			if (instruction.moves) {
				one["loads"] = pl330_register_label(*instruction.moves);
				one["value"] = hex(instruction.immediate);
			}
			instructions.push_back(std::move(one));
		}
		program = {{"start", hex(decoded->start)},
			   {"pc", decoded->pc ? Json(hex(*decoded->pc)) : Json(nullptr)},
			   {"pc_on_instruction", decoded->pc_on_instruction},
			   {"ended", decoded->ended},
			   {"instructions", std::move(instructions)}};
	}
	return {{"name", chain.name},
		{"kind", chain_kind_label(chain.kind)},
		{"start", chain.start ? Json(hex(*chain.start)) : Json(nullptr)},
		{"count", chain.count ? Json(*chain.count) : Json(nullptr)},
		{"head", chain.head ? Json(*chain.head) : Json(nullptr)},
		{"tail", chain.tail ? Json(*chain.tail) : Json(nullptr)},
		{"walk", std::move(walk)},
		{"skipped", chain.skipped ? Json(skip_reason_label(*chain.skipped)) : Json(nullptr)},
		{"desc_size", chain.desc_size},
		{"direction", chain.direction ? Json(direction_label(*chain.direction)) : Json(nullptr)},
		{"fields", std::move(fields)},
		{"descriptors", std::move(descriptors)},
		{"program", std::move(program)}};
}

// "TITLE:" and the registers as a table, each one's fields under it.
std::string registers_text(const std::string &title, const std::vector<Register> &registers)
{
	std::string text = title + ":";
	if (registers.empty())
		return text + " none listed\n";
	text += "\n";
	std::vector<std::vector<std::string>> rows{{"NAME", "WHERE", "WIDTH", "VALUE"}};
	for (const Register &reg : registers)
		rows.push_back({reg.name,
				"window " + std::to_string(reg.window) + " +" + hex(reg.offset),
				bytes(reg.width),
				reg.value ? hex(*reg.value) : not_read_text(reg.skipped.value_or(0))});
	std::istringstream table(aligned_table(rows, {false, false, true, false}));
	std::size_t row = 0;
	for (std::string line; std::getline(table, line); row++) {
		// Trailing spaces of the last column's padding, none.
		while (!line.empty() && line.back() == ' ')
			line.pop_back();
		text += "  " + line + "\n";
		if (row == 0)
			continue;
		const Register &reg = registers[row - 1];
		if (!reg.value || reg.fields.empty())
			continue;
		std::string fields;
		for (const RegisterField &field : reg.fields)
			fields += (fields.empty() ? "" : " ") + field_text(field, *reg.value);
		text += "    " + fields + "\n";
	}
	return text;
}

std::string yes_no(bool value, std::string_view yes, std::string_view no)
{
	return std::string(value ? yes : no);
}

std::string page_text(const PageView &page)
{
	std::string text = "  " + hex(page.dma_addr) + "\n";
	text += "    table:     " + (page.expected_phys
					     ? "expects phys " + hex(*page.expected_phys)
					     : std::string("no live mapping holds it")) +
		"\n";
	std::string iommu = "domain " + iommu_domain_label(page.iommu_domain) + ", ";
	if (page.iommu_unmapped)
		iommu += "unmapped: an access faults";
	else if (page.iommu_phys)
		iommu += "translates to " + hex(*page.iommu_phys);
	else
		iommu += "translation not read";
	if (page.expected_phys && page.iommu_phys && *page.expected_phys != *page.iommu_phys)
		iommu += " (NOT where the table expects)";
	text += "    IOMMU:     " + iommu + "\n";
	std::string cpu;
	if (!page.cpu_virt) {
		cpu = "no page-table entry read";
	} else {
		cpu = "virt " + hex(*page.cpu_virt);
		if (page.pte)
			cpu += ", pte " + hex(*page.pte);
		if (page.pte_present && !*page.pte_present) {
			cpu += ", not present";
		} else if (page.pte_present) {
			cpu += ", present";
			if (page.pte_writable)
				cpu += yes_no(*page.pte_writable, ", writable", ", read-only");
			if (page.pte_executable)
				cpu += yes_no(*page.pte_executable, ", executable",
					      ", not executable");
			if (page.pte_pfn)
				cpu += ", pfn " + hex(*page.pte_pfn);
			if (page.pte_memtype)
				cpu += ", " + memtype_label(*page.pte_memtype);
			if (page.pte_size)
				cpu += ", maps " + bytes(*page.pte_size);
		}
	}
	text += "    CPU:       " + cpu + "\n";
	std::string allocator;
	if (!page.phys) {
		allocator = "no physical page known";
	} else {
		allocator = "phys " + hex(*page.phys);
		if (page.pfn_valid)
			allocator += yes_no(*page.pfn_valid, ", pfn valid",
					    ", pfn not valid (memory the kernel does not manage)");
		if (page.flags)
			allocator += ", flags " + joined(page_flag_names(*page.flags));
		if (page.refcount)
			allocator += ", refcount " + std::to_string(*page.refcount);
		if (page.swiotlb)
			allocator += yes_no(*page.swiotlb, ", in a swiotlb bounce pool",
					    ", not swiotlb");
	}
	text += "    allocator: " + allocator + "\n";
	return text;
}

// "rx0[118]" for each descriptor whose buffer lies in @page, at most a few.
std::vector<std::string> page_buffer_names(const Snapshot &snapshot, const PageView &page)
{
	std::vector<std::string> names;
	for (const PageBuffer &held : buffers_in_page(snapshot, page))
		names.push_back(held.chain->name + "[" + std::to_string(held.descriptor->index) +
				"] " + buffer_state_label(held.buffer->state));
	return names;
}

std::string pages_text(const Snapshot &snapshot)
{
	std::string text = "pages: " + std::to_string(snapshot.pages.size()) + " viewed\n";
	for (const PageView &page : snapshot.pages) {
		std::string view = page_text(page);
		std::vector<std::string> names = page_buffer_names(snapshot, page);
		if (!names.empty()) {
			constexpr std::size_t shown = 4;
			std::string list;
			for (std::size_t i = 0; i < names.size() && i < shown; i++)
				list += (i ? ", " : "") + names[i];
			if (names.size() > shown)
				list += " and " + std::to_string(names.size() - shown) + " more";
			// After the address line: why the page is here.
			view.insert(view.find('\n') + 1, "    buffer of: " + list + "\n");
		}
		text += view;
	}
	return text;
}

std::string device_of(const Mapping &mapping)
{
	if (mapping.device.empty())
		return "unknown device";
	return mapping.device + " (" + (mapping.driver.empty() ? "no driver" : mapping.driver) + ")";
}

std::string lines_text(const Snapshot &snapshot, const Symbolizer &symbols)
{
	std::string text = "cache lines: ";
	text += snapshot.cache_line ? bytes(*snapshot.cache_line) : std::string("size unknown");
	if (snapshot.coherent)
		text += *snapshot.coherent
			? ", device coherent"
			: ", device NOT coherent (the CPU caches must be synced)";
	text += "\n";
	text += "  sharers: " + std::to_string(snapshot.line_sharers.size()) +
		" (live mappings sharing a cache line with the first mapping)\n";
	for (const Mapping &sharer : snapshot.line_sharers) {
		text += "    " + hex(sharer.dma_addr) + "  " + bytes(sharer.size) + "  " +
			direction_label(sharer.dir) + "  " + call_text(sharer) + "  " +
			device_of(sharer) + "\n";
		text += "      cpu phys " +
			(sharer.cpu_phys ? hex(*sharer.cpu_phys) : std::string("unknown")) +
			", by " + caller_text(sharer.caller, sharer.caller_name, symbols) + "\n";
	}
	return text;
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
	// The latest unmap in the address's page: an IOMMU faults on pages.
	const RecentUnmap *owner = snapshot_address_owner(snapshot).unmap;
	for (const RecentUnmap &unmap : snapshot.unmaps) {
		const bool covers_address =
			&unmap == owner || holds_trigger(header, unmap.dma_addr, unmap.size);
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
		text += "  (* covered the snapshot's address " + hex(*header.trigger_addr) +
			", or was the latest unmap in its page)\n";
	return text;
}

// One row per page viewed, one column per view; a cell whose view a
// warning or error names for that page ends in " !".
std::string side_by_side_text(const Snapshot &snapshot, const std::vector<Verdict> &verdicts)
{
	std::vector<std::vector<std::string>> rows;
	std::vector<std::string> titles{"  PAGE"};
	for (const SideBySideColumn &column : side_by_side_columns())
		titles.emplace_back(column.title);
	rows.push_back(std::move(titles));
	bool marked = false;
	for (const SideBySideRow &page : side_by_side(snapshot, verdicts)) {
		std::vector<std::string> row{"  " + hex(page.dma_addr)};
		for (std::size_t c = 0; c < page.cells.size(); c++) {
			row.push_back(page.cells[c] + (page.marked[c] ? " !" : ""));
			marked = marked || page.marked[c];
		}
		rows.push_back(std::move(row));
	}
	std::string text = "views side by side (IOMMU domain " +
			   iommu_domain_label(snapshot.pages.front().iommu_domain) + "):\n" +
			   aligned_table(rows, std::vector<bool>(rows.front().size(), false));
	if (marked)
		text += "  (! where the views disagree: the verdicts below say how)\n";
	return text;
}

std::string verdicts_text(const std::vector<Verdict> &verdicts)
{
	std::ostringstream text;
	text << "verdicts (cross-view comparison):\n";
	for (const Verdict &verdict : verdicts) {
		text << "  " << verdict_line(verdict) << '\n';
		for (const Evidence &item : verdict.evidence)
			text << "      " << item.view << ": " << item.subject << ": " << item.value
			     << '\n';
	}
	return text.str();
}

} // namespace

nlohmann::ordered_json descriptor_field_json(const DescriptorField &field)
{
	return {{"name", field.name},
		{"offset", field.offset},
		{"width", field.width},
		{"shift", field.shift},
		{"bits", field.bits ? Json(*field.bits) : Json(nullptr)},
		{"role", field.role ? Json(descriptor_role_label(*field.role)) : Json(nullptr)}};
}

std::string snapshot_announcement_text(const SnapshotHeader &header)
{
	std::string text = "snapshot " + std::to_string(header.seq) + " of " + header.device +
			   " (" + driver_or_none(header.driver) +
			   "): " + snapshot_trigger_label(header.trigger);
	if (header.trigger_addr) {
		text += " at " + hex(*header.trigger_addr);
		if (header.trigger_access)
			text += " (" + access_label(*header.trigger_access) + ")";
	}
	if (header.trigger_symbol)
		text += " in " + *header.trigger_symbol;
	if (header.finding_seq) {
		text += " for finding " + std::to_string(*header.finding_seq);
		if (header.finding_kind)
			text += " (" + finding_kind_label(*header.finding_kind) + ")";
	}
	text += ", " + std::to_string(header.record_size) + " bytes: edgedma snapshot show " +
		std::to_string(header.seq) + "\n";
	return text;
}

std::string snapshot_summary(const Snapshot &snapshot)
{
	const SnapshotHeader &header = snapshot.header;
	std::string text = "snapshot " + std::to_string(header.seq) + " of " + header.device +
			   " (" + driver_or_none(header.driver) +
			   "): " + counted(snapshot.mappings.size(), "live mapping") + ", " +
			   counted(snapshot.unmaps.size(), "recent unmap");
	if (header.trigger_addr) {
		const std::string address = hex(*header.trigger_addr);
		const SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
		if (owner.kind == SnapshotAddressOwner::Kind::live)
			text += "; " + address + " is in a live mapping";
		else if (owner.kind == SnapshotAddressOwner::Kind::unmapped)
			text += "; " + address + " was unmapped " +
				before_snapshot(owner.unmap->unmap_time_ns, header.time_ns) +
				(holds_trigger(header, owner.unmap->dma_addr, owner.unmap->size)
					 ? std::string()
					 : " (" + hex(owner.unmap->dma_addr) + ", in its page)");
		else
			text += "; " + address + " is in no live mapping or recent unmap";
	}
	if (!snapshot.skipped.empty())
		text += "; " + counted(snapshot.skipped.size(), "part") + " skipped";
	if (snapshot.truncated)
		text += "; TRUNCATED";
	return text + "\n";
}

std::string verdict_line(const Verdict &verdict)
{
	std::string severity(severity_name(verdict.severity));
	std::ranges::transform(severity, severity.begin(), [](char c) { return c - 'a' + 'A'; });
	return severity + " " + verdict.rule + ": " + verdict.sentence;
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
		{"finding_kind", header.finding_kind ? Json(finding_kind_label(*header.finding_kind))
						     : Json(nullptr)},
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
	return snapshot_json(snapshot, symbols, compare_views(snapshot, symbols));
}

Json snapshot_json(const Snapshot &snapshot, const Symbolizer &symbols,
		   const std::vector<Verdict> &verdicts)
{
	Json document = snapshot_header_json(snapshot.header);
	const Verdict *lead = headline(verdicts);
	document["headline"] = lead ? verdict_to_json<Json>(*lead) : Json(nullptr);
	Json verdict_list = Json::array();
	for (const Verdict &verdict : verdicts)
		verdict_list.push_back(verdict_to_json<Json>(verdict));
	document["verdicts"] = std::move(verdict_list);
	Json hook_mode = nullptr;
	if (snapshot.hook_mode)
		hook_mode = hook_mode_name(*snapshot.hook_mode);
	document["kernel_release"] = or_null(snapshot.kernel_release);
	document["hook_mode"] = std::move(hook_mode);
	document["truncated"] = snapshot.truncated;
	document["capture_ns"] = or_null(snapshot.capture_ns);
	document["profile"] = or_null(snapshot.profile);
	Json registers = Json::array();
	for (const Register &reg : snapshot.registers)
		registers.push_back(register_json(reg));
	document["registers"] = std::move(registers);
	Json iommu = nullptr;
	if (snapshot.iommu) {
		Json iommu_registers = Json::array();
		for (const Register &reg : snapshot.iommu->registers)
			iommu_registers.push_back(register_json(reg));
		iommu = {{"device", snapshot.iommu->device},
			 {"profile", or_null(snapshot.iommu->profile)},
			 {"registers", std::move(iommu_registers)}};
	}
	document["iommu"] = std::move(iommu);
	Json chains = Json::array();
	for (const DescriptorChain &chain : snapshot.chains)
		chains.push_back(chain_json(chain));
	document["descriptors"] = std::move(chains);
	Json views = Json::array();
	for (const PageView &page : snapshot.pages) {
		Json view = page_json(page);
		view["buffer_of"] = page_buffer_names(snapshot, page);
		view["disagree"] = views_disagreeing_on(snapshot, page, verdicts);
		views.push_back(std::move(view));
	}
	document["views"] = std::move(views);
	document["cache_line"] = or_null(snapshot.cache_line);
	document["coherent"] = or_null(snapshot.coherent);
	Json sharers = Json::array();
	for (const Mapping &sharer : snapshot.line_sharers) {
		Json item = mapping_json(sharer, snapshot.header, symbols);
		item.erase("holds_trigger_addr");
		item["device"] = sharer.device.empty() ? Json(nullptr) : Json(sharer.device);
		item["driver"] = sharer.device.empty() ? Json(nullptr) : Json(sharer.driver);
		sharers.push_back(std::move(item));
	}
	document["line_sharers"] = std::move(sharers);
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
	return snapshot_text(snapshot, symbols, compare_views(snapshot, symbols));
}

std::string snapshot_text(const Snapshot &snapshot, const Symbolizer &symbols,
			  const std::vector<Verdict> &verdicts)
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
	// What the comparison makes of it, first: the rest is its evidence.
	if (const Verdict *lead = headline(verdicts))
		text << "  " << verdict_line(*lead) << "\n\n";
	line("taken", utc_time(header.real_time_ns) + " on CPU " + std::to_string(header.cpu) +
			      " (kernel clock " + kernel_clock(header.time_ns) + ")");
	line("trigger", snapshot_trigger_label(header.trigger));
	if (header.trigger_symbol)
		line("handler", *header.trigger_symbol);
	if (header.trigger_reason)
		line("fault reason", std::to_string(*header.trigger_reason));
	if (header.finding_seq)
		line("finding", "#" + std::to_string(*header.finding_seq) +
					(header.finding_kind
						 ? " (" + finding_kind_label(*header.finding_kind) + ")"
						 : std::string()));
	std::string address = header.trigger_addr ? hex(*header.trigger_addr) : "none given";
	if (header.trigger_access)
		address += " (" + access_label(*header.trigger_access) + ")";
	line("address", address);
	line("device", header.device + " (" + driver_or_none(header.driver) + ")");
	line("kernel", snapshot.kernel_release.value_or("unknown (not in the record)"));
	line("hook mode", snapshot.hook_mode ? hook_mode_name(*snapshot.hook_mode)
					     : "unknown (not in the record)");
	line("record", bytes(header.record_size));

	if (!snapshot.pages.empty())
		text << '\n' << side_by_side_text(snapshot, verdicts);
	text << '\n' << verdicts_text(verdicts);
	if (snapshot.profile)
		text << '\n'
		     << registers_text("registers (profile " + *snapshot.profile + ")",
				       snapshot.registers);
	if (snapshot.iommu && snapshot.iommu->profile)
		text << '\n'
		     << registers_text("IOMMU " + snapshot.iommu->device + " registers (profile " +
					       *snapshot.iommu->profile + ")",
				       snapshot.iommu->registers);
	else if (snapshot.iommu)
		text << "\nIOMMU " << snapshot.iommu->device
		     << ": no profile bound (edgedma profile load one to read its registers)\n";
	if (!snapshot.chains.empty())
		text << '\n' << chains_text(snapshot);
	text << '\n' << mappings_text(snapshot, symbols);
	text << '\n' << unmaps_text(snapshot, symbols);
	if (!snapshot.pages.empty())
		text << '\n' << pages_text(snapshot);
	if (snapshot.cache_line || snapshot.coherent || !snapshot.line_sharers.empty())
		text << '\n' << lines_text(snapshot, symbols);
	if (!snapshot.skipped.empty()) {
		text << "\nskipped parts:\n";
		for (const SkippedPart &part : snapshot.skipped)
			text << "  " << snapshot_part_label(part.part) << ": "
			     << reason_text(part.reason) << '\n';
	}
	return text.str();
}

} // namespace edgedma::cli
