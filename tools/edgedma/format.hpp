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

// JSON carries 64-bit addresses as "0x..." strings: many JSON readers (jq
// among them) keep numbers as doubles and would round a kernel address.
nlohmann::ordered_json hex_or_null(const std::optional<std::uint64_t> &value);

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

} // namespace edgedma::cli
