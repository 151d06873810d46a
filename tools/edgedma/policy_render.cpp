// SPDX-License-Identifier: GPL-2.0
#include "policy_render.hpp"

#include <bit>
#include <iomanip>
#include <sstream>
#include <vector>

#include <linux/edgedma.h>

#include <edgedma/names.hpp>

#include "format.hpp"

namespace edgedma::cli {
namespace {

std::string alignment(std::uint32_t value)
{
	return value <= 1 ? std::string("none") : bytes(value);
}

std::string target_kind(const PolicyTarget &target)
{
	return target.kind == PolicyTarget::Kind::device ? "device" : "driver";
}

template <typename T, typename Convert>
nlohmann::ordered_json converted_or_null(const std::optional<T> &value, Convert convert)
{
	if (!value)
		return nullptr;
	return convert(*value);
}

std::string all_kind_names()
{
	std::vector<std::string> names;
	for (std::uint32_t kind : finding_kinds())
		names.push_back(finding_kind_label(kind));
	return joined(names);
}

// "a,b", "all" or "none" -> bits, each word's bit from @bit_of (nullopt:
// unknown word). @what names the words in the error, which lists @known.
template <typename BitOf>
std::uint32_t parse_word_list(std::string_view list, std::string_view what, std::uint32_t all,
			      BitOf bit_of, const std::string &known)
{
	std::uint32_t bits = 0;
	std::size_t start = 0;
	while (start <= list.size()) {
		std::size_t end = list.find(',', start);
		std::string_view word = list.substr(start, end == std::string_view::npos
								   ? std::string_view::npos
								   : end - start);
		while (!word.empty() && word.front() == ' ')
			word.remove_prefix(1);
		while (!word.empty() && word.back() == ' ')
			word.remove_suffix(1);
		if (word == "all") {
			bits |= all;
		} else if (word == "none") {
			// Adds nothing: "none" alone is the empty set.
		} else if (std::optional<std::uint32_t> bit = bit_of(word)) {
			bits |= *bit;
		} else {
			throw UsageError("unknown " + std::string(what) + " '" + std::string(word) +
					 "'; use 'all', 'none' or a comma-separated list of: " + known);
		}
		if (end == std::string_view::npos)
			break;
		start = end + 1;
	}
	return bits;
}

// "all", "none", "all but x, y" (mostly on, and no bit unknown) or "x, y".
std::string set_text(std::uint32_t bits, std::uint32_t all,
		     std::vector<std::string> (*names)(std::uint32_t))
{
	if (bits == all)
		return "all";
	if (bits == 0)
		return "none";
	if ((bits & ~all) == 0 && std::popcount(all & ~bits) <= std::popcount(bits))
		return "all but " + joined(names(all & ~bits));
	return joined(names(bits));
}

} // namespace

std::uint32_t parse_check_list(std::string_view list)
{
	return parse_word_list(list, "check", all_checks(),
			       [](std::string_view word) -> std::optional<std::uint32_t> {
				       if (auto kind = finding_kind_from_name(word))
					       return check_bit(*kind);
				       return std::nullopt;
			       },
			       all_kind_names());
}

std::uint32_t parse_trigger_list(std::string_view list)
{
	return parse_word_list(list, "snapshot trigger", all_snapshot_triggers(),
			       [](std::string_view word) -> std::optional<std::uint32_t> {
				       if (auto trigger = snapshot_trigger_from_name(word))
					       return std::uint32_t{1} << (*trigger - 1);
				       return std::nullopt;
			       },
			       joined(snapshot_trigger_names(all_snapshot_triggers())));
}

const std::uint32_t owned_hash_min_bytes = EDGEDMA_OWNED_HASH_MIN;
const std::uint32_t owned_hash_max_bytes = EDGEDMA_OWNED_HASH_MAX;

std::string triggers_text(std::uint32_t triggers)
{
	return set_text(triggers, all_snapshot_triggers(), snapshot_trigger_names);
}

std::string checks_text(std::uint32_t checks)
{
	return set_text(checks, all_checks(), check_names);
}

nlohmann::ordered_json policy_json(const Policy &policy)
{
	bool is_device = policy.target.kind == PolicyTarget::Kind::device;
	auto number = [](auto value) { return nlohmann::ordered_json(value); };
	auto hex_text = [](std::uint64_t value) { return nlohmann::ordered_json(hex(value)); };
	return {
		{"target", target_kind(policy.target)},
		{"device", is_device ? nlohmann::ordered_json(policy.target.name) : nullptr},
		{"driver", is_device ? nullptr : nlohmann::ordered_json(policy.target.name)},
		{"addr_align", converted_or_null(policy.addr_align, number)},
		{"len_align", converted_or_null(policy.len_align, number)},
		{"coherency", converted_or_null(policy.coherency,
				      [](std::uint32_t value) {
					      return nlohmann::ordered_json(coherency_label(value));
				      })},
		{"checks", converted_or_null(policy.checks,
				   [](std::uint32_t value) {
					   return nlohmann::ordered_json(check_names(value));
				   })},
		{"checks_mask", converted_or_null(policy.checks, number)},
		{"snapshot_triggers", converted_or_null(policy.snapshot_triggers,
					      [](std::uint32_t value) {
						      return nlohmann::ordered_json(
							      snapshot_trigger_names(value));
					      })},
		{"snapshot_findings", converted_or_null(policy.snapshot_findings,
					      [](std::uint32_t value) {
						      return nlohmann::ordered_json(check_names(value));
					      })},
		{"owned_hash_max", converted_or_null(policy.owned_hash_max, number)},
		{"dev_coherent", converted_or_null(policy.dev_coherent,
					 [](std::uint32_t value) {
						 return nlohmann::ordered_json(value != 0);
					 })},
		{"dma_mask", converted_or_null(policy.dma_mask, hex_text)},
		{"seg_boundary", converted_or_null(policy.seg_boundary, hex_text)},
		{"max_seg_size", converted_or_null(policy.max_seg_size, number)},
		{"cache_line", converted_or_null(policy.cache_line, number)},
	};
}

std::string policy_text(const Policy &policy)
{
	// Wide enough for the longest label, "address alignment:", and a space.
	constexpr int label_width = 19;
	std::ostringstream text;
	auto line = [&text](std::string_view label, const std::string &value) {
		text << std::left << std::setw(label_width) << std::string(label) + ":" << value
		     << '\n';
	};
	line(target_kind(policy.target), policy.target.name);
	if (policy.addr_align)
		line("address alignment", alignment(*policy.addr_align));
	if (policy.len_align)
		line("length alignment", alignment(*policy.len_align));
	if (policy.coherency || policy.dev_coherent) {
		std::string coherency =
			policy.coherency ? coherency_label(*policy.coherency) : "auto";
		if (policy.dev_coherent)
			coherency += std::string(" (the kernel says ") +
				     (*policy.dev_coherent ? "coherent" : "noncoherent") + ")";
		line("coherency", coherency);
	}
	if (policy.checks)
		line("checks", checks_text(*policy.checks));
	if (policy.snapshot_triggers)
		line("snapshots on", triggers_text(*policy.snapshot_triggers));
	if (policy.snapshot_findings)
		line("snapshot findings", checks_text(*policy.snapshot_findings));
	if (policy.owned_hash_max)
		line("owned hash max", bytes(*policy.owned_hash_max));
	if (policy.dma_mask)
		line("DMA mask", hex(*policy.dma_mask));
	if (policy.seg_boundary)
		line("segment boundary", hex(*policy.seg_boundary));
	if (policy.max_seg_size)
		line("max segment size", bytes(*policy.max_seg_size));
	if (policy.cache_line)
		line("cache line", bytes(*policy.cache_line));
	return text.str();
}

std::string policy_rule_text(const Policy &policy)
{
	std::vector<std::string> fields;
	if (policy.addr_align)
		fields.push_back("address alignment " + alignment(*policy.addr_align));
	if (policy.len_align)
		fields.push_back("length alignment " + alignment(*policy.len_align));
	if (policy.coherency)
		fields.push_back("coherency " + coherency_label(*policy.coherency));
	if (policy.checks)
		fields.push_back("checks " + checks_text(*policy.checks));
	if (policy.snapshot_triggers)
		fields.push_back("snapshots on " + triggers_text(*policy.snapshot_triggers));
	if (policy.snapshot_findings)
		fields.push_back("snapshot findings " + checks_text(*policy.snapshot_findings));
	if (policy.owned_hash_max)
		fields.push_back("owned hash max " + bytes(*policy.owned_hash_max));
	return target_kind(policy.target) + " " + policy.target.name + ": " +
	       joined(fields, "nothing set") + "\n";
}

} // namespace edgedma::cli
