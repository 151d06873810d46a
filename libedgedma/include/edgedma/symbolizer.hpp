// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <edgedma/export.hpp>

namespace edgedma {

// Kernel addresses to "symbol+0xoff/0xsize [module]", the way the kernel's
// %pS prints them, from a snapshot of /proc/kallsyms (the core kernel's and
// every loaded module's symbols). Loaded once, sorted, looked up by binary
// search.
//
// Without privilege (kptr_restrict) /proc/kallsyms shows every address as
// 0; such a table is empty() and describe() prints raw addresses.
class EDGEDMA_API Symbolizer {
public:
	// Knows no symbols: describe() prints every address raw.
	Symbolizer();
	~Symbolizer();
	Symbolizer(Symbolizer &&) noexcept;
	Symbolizer &operator=(Symbolizer &&) noexcept;
	Symbolizer(const Symbolizer &) = delete;
	Symbolizer &operator=(const Symbolizer &) = delete;

	// Reads a kallsyms file. Throws Error when it cannot be read.
	static Symbolizer from_kallsyms(const std::string &path = "/proc/kallsyms");
	// Parses text in the format of /proc/kallsyms: "ADDRESS TYPE NAME" and
	// an optional "\t[MODULE]". Lines it cannot parse are skipped.
	static Symbolizer parse(std::string_view text);

	// True when no symbol has a usable address.
	bool empty() const noexcept;
	std::size_t size() const noexcept;

	struct Location {
		std::string_view symbol;
		std::uint64_t offset = 0;
		// Up to the next symbol of the same owner; unknown for an owner's
		// last symbol.
		std::optional<std::uint64_t> size;
		std::string_view module; // empty for the core kernel
	};
	// The symbol holding address; views into this Symbolizer.
	std::optional<Location> locate(std::uint64_t address) const;

	// "symbol+0xoff/0xsize [module]" ("/0xsize" left out when the size is
	// unknown, " [module]" for the core kernel), or "0x<hex>" when no symbol
	// holds address.
	std::string describe(std::uint64_t address) const;

	// The lines of /proc/kallsyms that name these addresses: each holding
	// symbol and the one after it (which gives its size), in the format
	// parse() reads. A recording carries this, not the whole table.
	std::string excerpt(std::span<const std::uint64_t> addresses) const;

private:
	struct Table;
	std::unique_ptr<const Table> table_;
};

// The name of a caller of the DMA API: kernel_name, the module's own name
// for it made when it saw the call (Finding::caller_name), when there is
// one; else symbols.describe(address); nothing for address 0 without a name
// (the module could not tell). The module's name comes first because
// symbols, read afterwards, can be wrong: a module loaded into memory freed
// with another module's __init text is named after that init function, and
// a module unloaded since has no symbols at all.
EDGEDMA_API std::optional<std::string> describe_caller(std::uint64_t address,
							const std::optional<std::string> &kernel_name,
							const Symbolizer &symbols);

} // namespace edgedma
