// SPDX-License-Identifier: GPL-2.0
#pragma once

// Small pieces every view of the tool shares.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <edgedma/symbolizer.hpp>

namespace edgedma::cli {

// A command line that parsed but makes no sense (neither a device nor a
// driver, an unknown check name): main() reports it like a parse error.
class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// "0x1f00"
std::string hex(std::uint64_t value);

// A DMA address as the kernel prints them, 0x and hex digits, or in
// decimal ("010" is ten, not octal). Throws UsageError naming option when
// text is no such number or does not fit 64 bits.
std::uint64_t parse_dma_address(const std::string &text, const std::string &option);

// JSON carries 64-bit addresses as "0x..." strings: many JSON readers (jq
// among them) keep numbers as doubles and would round a kernel address.
nlohmann::ordered_json hex_or_null(const std::optional<std::uint64_t> &value);

// One line of JSON. Device, driver and caller names come from drivers and
// the kernel: a broken UTF-8 sequence is replaced, never thrown on.
std::string json_text(const nlohmann::ordered_json &document);

// An optional value for JSON: the value, or null when absent.
template <typename Value> nlohmann::ordered_json or_null(const std::optional<Value> &value)
{
	if (!value)
		return nullptr;
	return *value;
}

// A kernel code address for people: "symbol+0xoff/0xsize [module]", the raw
// address where no symbol is known, "unknown" for 0 (the module could not
// tell).
std::string code_address(std::uint64_t address, const Symbolizer &symbols);
// The same for JSON: null for 0.
nlohmann::ordered_json code_address_json(std::uint64_t address, const Symbolizer &symbols);
nlohmann::ordered_json code_address_hex(std::uint64_t address);

// /proc/kallsyms, or no symbols when it cannot be read (then addresses
// print raw).
Symbolizer load_kernel_symbols();

// "a, b, c"; "none" when empty.
std::string joined(const std::vector<std::string> &words, const std::string &none = "none");

// "1 byte", "4096 bytes"
std::string bytes(std::uint64_t count);

// The count with the noun, plural when it is not 1: "1 mapping", "3 mappings".
std::string counted(std::uint64_t count, const std::string &noun);

// "850 ns", "12.5 us", "3.20 ms", "1.234 s"
std::string duration(std::uint64_t ns);

// "2026-12-04 20:44:43.123 UTC", from ns since the epoch.
std::string utc_time(std::uint64_t unix_ns);

// Rows as columns as wide as their widest cell, two spaces apart, each
// cell left-aligned, or right-aligned where right_aligned says so (numbers);
// no spaces at the end of a line. A line per row.
std::string aligned_table(const std::vector<std::vector<std::string>> &rows,
			  const std::vector<bool> &right_aligned);

} // namespace edgedma::cli
