// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <string_view>
#include <system_error>

#include <edgedma/error.hpp>
#include <edgedma/report.hpp>

namespace edgedma::cli {

std::string hex(std::uint64_t value)
{
	char text[sizeof "0x" + 16];
	std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
	return text;
}

std::uint64_t parse_dma_address(const std::string &text, const std::string &option)
{
	// Not CLI11's integer parsing: it reads a leading 0 as octal and wraps
	// "-1" round to the largest address.
	std::string_view digits = text;
	int base = 10;
	if (digits.starts_with("0x") || digits.starts_with("0X")) {
		digits.remove_prefix(2);
		base = 16;
	}
	std::uint64_t address = 0;
	const char *end = digits.data() + digits.size();
	auto [stop, error] = std::from_chars(digits.data(), end, address, base);
	if (digits.empty() || error != std::errc{} || stop != end)
		throw UsageError(option + " " + text +
				 ": not a DMA address (0x and hex digits, or decimal)");
	return address;
}

std::string json_text(const nlohmann::ordered_json &document)
{
	return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

nlohmann::ordered_json hex_or_null(const std::optional<std::uint64_t> &value)
{
	if (!value)
		return nullptr;
	return hex(*value);
}

std::string code_address(std::uint64_t address, const Symbolizer &symbols)
{
	if (address == 0)
		return "unknown";
	return symbols.describe(address);
}

nlohmann::ordered_json code_address_json(std::uint64_t address, const Symbolizer &symbols)
{
	if (address == 0)
		return nullptr;
	return symbols.describe(address);
}

nlohmann::ordered_json code_address_hex(std::uint64_t address)
{
	if (address == 0)
		return nullptr;
	return hex(address);
}

Symbolizer load_kernel_symbols()
{
	try {
		return Symbolizer::from_kallsyms();
	} catch (const Error &) {
		return Symbolizer();
	}
}

std::string joined(const std::vector<std::string> &words, const std::string &none)
{
	if (words.empty())
		return none;
	std::string text = words.front();
	for (std::size_t i = 1; i < words.size(); i++)
		text += ", " + words[i];
	return text;
}

std::string bytes(std::uint64_t count)
{
	return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

std::string counted(std::uint64_t count, const std::string &noun)
{
	return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string duration(std::uint64_t ns)
{
	// As the reports write it.
	return describe_duration(ns);
}

std::string utc_time(std::uint64_t unix_ns)
{
	const std::time_t seconds = static_cast<std::time_t>(unix_ns / 1000000000);
	const auto milliseconds = static_cast<unsigned>(unix_ns % 1000000000 / 1000000);
	std::tm broken{};
	gmtime_r(&seconds, &broken);
	char date[32];
	std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &broken);
	char text[48];
	std::snprintf(text, sizeof text, "%s.%03u UTC", date, milliseconds);
	return text;
}

std::string aligned_table(const std::vector<std::vector<std::string>> &rows,
			  const std::vector<bool> &right_aligned)
{
	std::vector<std::size_t> width;
	for (const auto &row : rows) {
		width.resize(std::max(width.size(), row.size()));
		for (std::size_t column = 0; column < row.size(); column++)
			width[column] = std::max(width[column], row[column].size());
	}
	std::string text;
	for (const auto &row : rows) {
		std::string line;
		for (std::size_t column = 0; column < row.size(); column++) {
			const std::string &cell = row[column];
			const std::string padding(width[column] - cell.size(), ' ');
			if (column > 0)
				line += "  ";
			const bool right = column < right_aligned.size() && right_aligned[column];
			line += right ? padding + cell : cell + padding;
		}
		line.erase(line.find_last_not_of(' ') + 1);
		text += line + '\n';
	}
	return text;
}

} // namespace edgedma::cli
