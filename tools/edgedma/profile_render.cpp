// SPDX-License-Identifier: GPL-2.0
#include "profile_render.hpp"

#include <linux/edgedma.h>

#include <edgedma/names.hpp>

#include "format.hpp"
#include "snapshot_render.hpp"

namespace edgedma::cli {
namespace {

using Json = nlohmann::ordered_json;

Json optional_json(const std::optional<std::string> &value)
{
	return value ? Json(*value) : Json(nullptr);
}

Json optional_json(const std::optional<std::uint32_t> &value)
{
	return value ? Json(*value) : Json(nullptr);
}

Json match_json(const Profile &profile)
{
	if (profile.pci_id)
		return {{"pci_id", pci_id_label(*profile.pci_id)}};
	if (profile.compatible)
		return {{"compatible", *profile.compatible}};
	if (profile.device)
		return {{"device", *profile.device}};
	return nullptr;
}

std::string counts_text(std::size_t registers, std::size_t chains)
{
	return counted(registers, "register") + ", " + counted(chains, "chain");
}

// The bits of a field as hardware manuals write them: [7] or [15:8].
std::string bit_range(std::uint32_t shift, std::uint32_t bits)
{
	if (bits <= 1)
		return "[" + std::to_string(shift) + "]";
	return "[" + std::to_string(shift + bits - 1) + ":" + std::to_string(shift) + "]";
}

std::string register_fields_text(const Register &reg)
{
	std::string text;
	for (const RegisterField &field : reg.fields)
		text += (text.empty() ? "" : " ") + field.name + bit_range(field.shift, field.bits);
	return text.empty() ? "-" : text;
}

// "ring of 16-byte descriptors at tdbal0/tdbah0, tdlen0 bytes long, head
// tdh0, tail tdt0, at most 32 walked, big-endian"
std::string chain_layout_text(const DescriptorChain &chain)
{
	std::string text = chain_kind_label(chain.kind) + " of " + std::to_string(chain.desc_size) +
			   "-byte descriptors at " + chain.start_reg.value_or("?");
	if (chain.start_hi_reg)
		text += "/" + *chain.start_hi_reg;
	if (chain.length_reg)
		text += ", " + *chain.length_reg +
			(chain.flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES ? " bytes" : " descriptors") +
			" long";
	if (chain.entries)
		text += ", " + counted(*chain.entries, "entry");
	if (chain.head_reg)
		text += ", head " + *chain.head_reg;
	if (chain.tail_reg)
		text += ", tail " + *chain.tail_reg;
	if (chain.direction)
		text += ", " + direction_label(*chain.direction) + " buffers";
	if (chain.max_descs)
		text += ", at most " + std::to_string(*chain.max_descs) + " walked";
	if (chain.flags & EDGEDMA_CHAIN_BIG_ENDIAN)
		text += ", big-endian";
	return text;
}

std::string indented(const std::string &table, const std::string &indent)
{
	std::string text;
	std::size_t at = 0;
	while (at < table.size()) {
		std::size_t end = table.find('\n', at);
		if (end == std::string::npos)
			end = table.size();
		text += indent + table.substr(at, end - at) + "\n";
		at = end + 1;
	}
	return text;
}

} // namespace

std::string profile_match_text(const Profile &profile)
{
	if (profile.pci_id)
		return "pci " + pci_id_label(*profile.pci_id);
	if (profile.compatible)
		return "compatible " + *profile.compatible;
	if (profile.device)
		return "device " + *profile.device;
	return "nothing";
}

std::string profile_checked_text(const Profile &profile)
{
	return "profile " + profile.name + " (" + profile_match_text(profile) +
	       "): " + counts_text(profile.registers.size(), profile.chains.size()) + "; valid\n";
}

std::string profile_loaded_text(const LoadedProfile &loaded)
{
	std::string text = "profile " + loaded.profile.name + " (" +
			   profile_match_text(loaded.profile) + "): " +
			   counts_text(loaded.register_count, loaded.chain_count) + "; ";
	if (!loaded.bound)
		return text + "no device present matches it\n";
	text += "bound to " + counted(loaded.bound, "device");
	if (!loaded.bound_devices.empty())
		text += ": " + joined(loaded.bound_devices);
	return text + "\n";
}

std::string profile_list_text(const std::vector<LoadedProfile> &profiles)
{
	std::vector<std::vector<std::string>> rows{{"NAME", "MATCH", "BOUND", "REGISTERS", "CHAINS"}};
	for (const LoadedProfile &loaded : profiles)
		rows.push_back({loaded.profile.name, profile_match_text(loaded.profile),
				std::to_string(loaded.bound), std::to_string(loaded.register_count),
				std::to_string(loaded.chain_count)});
	return aligned_table(rows, {false, false, true, true, true});
}

Json profile_summary_json(const LoadedProfile &loaded)
{
	return {{"name", loaded.profile.name},
		{"match", match_json(loaded.profile)},
		{"bound", loaded.bound},
		{"register_count", loaded.register_count},
		{"chain_count", loaded.chain_count}};
}

std::string profile_text(const LoadedProfile &loaded)
{
	const Profile &profile = loaded.profile;
	std::string text = "profile " + profile.name + "\n";
	text += "  match: " + profile_match_text(profile) + "\n";
	text += "  bound: " + (loaded.bound ? counted(loaded.bound, "device") + ": " +
						      joined(loaded.bound_devices)
					    : std::string("no device")) +
		"\n";

	text += "registers (" + std::to_string(profile.registers.size()) + "):\n";
	std::vector<std::vector<std::string>> rows{{"NAME", "WHERE", "WIDTH", "FLAGS", "FIELDS"}};
	for (const Register &reg : profile.registers)
		rows.push_back({reg.name,
				"window " + std::to_string(reg.window) + " +" + hex(reg.offset),
				bytes(reg.width), joined(register_flag_names(reg.flags), "-"),
				register_fields_text(reg)});
	text += indented(aligned_table(rows, {false, false, true, false, false}), "  ");

	if (profile.chains.empty())
		return text + "descriptor chains: none\n";
	text += "descriptor chains (" + std::to_string(profile.chains.size()) + "):\n";
	for (const DescriptorChain &chain : profile.chains) {
		text += "  " + chain.name + ": " + chain_layout_text(chain) + "\n";
		std::vector<std::vector<std::string>> fields{{"FIELD", "OFFSET", "WIDTH", "BITS", "ROLE"}};
		for (const DescriptorField &field : chain.fields)
			fields.push_back({field.name, std::to_string(field.offset),
					  bytes(field.width),
					  field.bits ? bit_range(field.shift, *field.bits) : "all",
					  field.role ? descriptor_role_label(*field.role) : "-"});
		text += indented(aligned_table(fields, {false, true, true, false, false}), "    ");
	}
	return text;
}

Json profile_json(const LoadedProfile &loaded)
{
	const Profile &profile = loaded.profile;
	Json registers = Json::array();
	for (const Register &reg : profile.registers) {
		Json fields = Json::array();
		for (const RegisterField &field : reg.fields)
			fields.push_back(
				{{"name", field.name}, {"shift", field.shift}, {"bits", field.bits}});
		registers.push_back({{"name", reg.name},
				     {"window", reg.window},
				     {"offset", hex(reg.offset)},
				     {"width", reg.width},
				     {"flags", register_flag_names(reg.flags)},
				     {"fields", std::move(fields)}});
	}
	Json chains = Json::array();
	for (const DescriptorChain &chain : profile.chains) {
		Json fields = Json::array();
		for (const DescriptorField &field : chain.fields)
			fields.push_back(descriptor_field_json(field));
		chains.push_back({{"name", chain.name},
				  {"kind", chain_kind_label(chain.kind)},
				  {"start_reg", optional_json(chain.start_reg)},
				  {"start_hi_reg", optional_json(chain.start_hi_reg)},
				  {"length_reg", optional_json(chain.length_reg)},
				  {"length_in_bytes", (chain.flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES) != 0},
				  {"entries", optional_json(chain.entries)},
				  {"head_reg", optional_json(chain.head_reg)},
				  {"tail_reg", optional_json(chain.tail_reg)},
				  {"desc_size", chain.desc_size},
				  {"max_descs", optional_json(chain.max_descs)},
				  {"direction", chain.direction
							? Json(direction_label(*chain.direction))
							: Json(nullptr)},
				  {"big_endian", (chain.flags & EDGEDMA_CHAIN_BIG_ENDIAN) != 0},
				  {"fields", std::move(fields)}});
	}
	return {{"name", profile.name},
		{"match", match_json(profile)},
		{"bound", loaded.bound},
		{"bound_devices", loaded.bound_devices},
		{"registers", std::move(registers)},
		{"chains", std::move(chains)}};
}

} // namespace edgedma::cli
