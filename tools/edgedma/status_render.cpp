// SPDX-License-Identifier: GPL-2.0
#include "status_render.hpp"

#include <iomanip>
#include <sstream>

namespace edgedma::cli {
namespace {

std::string joined(const std::vector<std::string> &words)
{
	if (words.empty())
		return "none";
	std::string text = words.front();
	for (std::size_t i = 1; i < words.size(); i++)
		text += ", " + words[i];
	return text;
}

std::string bytes(std::uint32_t count)
{
	return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

} // namespace

nlohmann::ordered_json status_json(const Info &info, const std::optional<Stats> &stats)
{
	nlohmann::ordered_json status = {
		{"module_version", info.module_version},
		{"kernel_release", info.kernel_release},
		{"arch", info.arch},
		{"record_format", info.record_format},
		{"hook_modes", hook_mode_names(info.hook_modes)},
		{"page_size", info.page_size},
		{"cache_line", info.cache_line},
		{"dma_alignment", info.dma_alignment},
	};
	if (stats)
		status["stats"] = {{"requests", stats->requests},
				   {"rejected", stats->rejected}};
	return status;
}

std::string status_text(const Info &info, const std::optional<Stats> &stats)
{
	// Wide enough for the longest label, "DMA buffer alignment:", and a space.
	constexpr int label_width = 22;
	std::ostringstream text;
	auto line = [&text](std::string_view label, const auto &value) {
		text << std::left << std::setw(label_width) << std::string(label) + ":"
		     << value << '\n';
	};
	line("module version", info.module_version);
	line("kernel", info.kernel_release);
	line("arch", info.arch);
	line("record format", info.record_format);
	line("hook modes", joined(hook_mode_names(info.hook_modes)));
	line("page size", bytes(info.page_size));
	line("CPU cache line", bytes(info.cache_line));
	line("DMA buffer alignment", bytes(info.dma_alignment));
	if (stats) {
		line("requests handled", stats->requests);
		line("requests rejected", stats->rejected);
	}
	return text.str();
}

} // namespace edgedma::cli
