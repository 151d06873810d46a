// SPDX-License-Identifier: LGPL-2.1-or-later
#include "report_common.hpp"

#include <array>
#include <cstdio>
#include <ctime>

#include <edgedma/culprit.hpp>

namespace edgedma::detail {


std::string caller_text(std::uint64_t address, const std::optional<std::string> &kernel_name,
			const Symbolizer &symbols)
{
	return describe_caller(address, kernel_name, symbols).value_or("unknown");
}

std::string culprit_text(const Finding &finding, const Symbolizer &symbols)
{
	const Culprit culprit = find_culprit(finding);
	if (culprit.is_caller() || !culprit.name)
		return caller_text(finding.caller, finding.caller_name, symbols);
	return *culprit.name;
}

std::string byte_size(std::uint64_t bytes)
{
	constexpr std::array units{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	if (bytes < 1024)
		return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
	double value = static_cast<double>(bytes) / 1024;
	std::size_t unit = 0;
	while (value >= 1024 && unit + 1 < units.size()) {
		value /= 1024;
		unit++;
	}
	char text[32];
	std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
	return text;
}

std::string duration(std::uint64_t ns)
{
	char text[32];
	double value = static_cast<double>(ns);
	if (ns < 1000)
		std::snprintf(text, sizeof text, "%llu ns", static_cast<unsigned long long>(ns));
	else if (ns < 1000000)
		std::snprintf(text, sizeof text, "%.1f us", value / 1e3);
	else if (ns < 1000000000)
		std::snprintf(text, sizeof text, "%.2f ms", value / 1e6);
	else
		std::snprintf(text, sizeof text, "%.3f s", value / 1e9);
	return text;
}

std::string utc_time(std::uint64_t unix_ns)
{
	std::time_t seconds = static_cast<std::time_t>(unix_ns / 1000000000);
	std::tm broken{};
	gmtime_r(&seconds, &broken);
	char text[64];
	std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &broken);
	return text;
}

std::string counted(std::uint64_t count, const std::string &noun)
{
	return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string dump_json(const nlohmann::ordered_json &document)
{
	return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace edgedma::detail
