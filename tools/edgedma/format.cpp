// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <cstdio>

#include <edgedma/error.hpp>

namespace edgedma::cli {

std::string hex(std::uint64_t value)
{
	char text[sizeof "0x" + 16];
	std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
	return text;
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

} // namespace edgedma::cli
