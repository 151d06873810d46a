// SPDX-License-Identifier: GPL-2.0
#include "policy_render.hpp"

#include <bit>
#include <iomanip>
#include <sstream>
#include <vector>

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
nlohmann::ordered_json or_null(const std::optional<T> &value, Convert convert)
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

} // namespace

std::uint32_t parse_check_list(std::string_view list)
{
	std::uint32_t checks = 0;
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
			checks |= all_checks();
		} else if (word == "none") {
			// Adds nothing: "--checks none" turns every check off.
		} else if (auto kind = finding_kind_from_name(word)) {
			checks |= check_bit(*kind);
		} else {
			throw UsageError("unknown check '" + std::string(word) +
					 "'; use 'all', 'none' or a comma-separated list of: " +
					 all_kind_names());
		}
		if (end == std::string_view::npos)
			break;
		start = end + 1;
	}
	return checks;
}

std::string checks_text(std::uint32_t checks)
{
	std::uint32_t all = all_checks();
	if (checks == all)
		return "all";
	if (checks == 0)
		return "none";
	// Mostly on: say what is off, unless bits this tool does not know are
	// set too.
	if ((checks & ~all) == 0 && std::popcount(all & ~checks) <= std::popcount(checks))
		return "all but " + joined(check_names(all & ~checks));
	return joined(check_names(checks));
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
		{"addr_align", or_null(policy.addr_align, number)},
		{"len_align", or_null(policy.len_align, number)},
		{"coherency", or_null(policy.coherency,
				      [](std::uint32_t value) {
					      return nlohmann::ordered_json(coherency_label(value));
				      })},
		{"checks", or_null(policy.checks,
				   [](std::uint32_t value) {
					   return nlohmann::ordered_json(check_names(value));
				   })},
		{"checks_mask", or_null(policy.checks, number)},
		{"dev_coherent", or_null(policy.dev_coherent,
					 [](std::uint32_t value) {
						 return nlohmann::ordered_json(value != 0);
					 })},
		{"dma_mask", or_null(policy.dma_mask, hex_text)},
		{"seg_boundary", or_null(policy.seg_boundary, hex_text)},
		{"max_seg_size", or_null(policy.max_seg_size, number)},
		{"cache_line", or_null(policy.cache_line, number)},
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
	return target_kind(policy.target) + " " + policy.target.name + ": " +
	       joined(fields, "nothing set") + "\n";
}

} // namespace edgedma::cli
