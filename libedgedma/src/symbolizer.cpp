// SPDX-License-Identifier: LGPL-2.1-or-later
#include <edgedma/symbolizer.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <vector>

#include <edgedma/error.hpp>

#include "hex.hpp"

namespace edgedma {

// Names live in one buffer; symbols refer to them by offset, so moving the
// table never invalidates them.
struct Symbolizer::Table {
	struct Symbol {
		std::uint64_t address;
		std::uint64_t size;     // 0: unknown (the owner's last symbol)
		std::uint32_t name_offset;
		std::uint32_t name_length;
		std::uint32_t module;   // index into modules; 0 = core kernel
		char type;
	};

	std::string names;
	std::vector<std::string> modules{""};
	std::vector<Symbol> symbols; // sorted by address, one per address

	std::string_view name_of(const Symbol &symbol) const
	{
		return std::string_view(names).substr(symbol.name_offset, symbol.name_length);
	}
};

namespace {

// How far past an owner's last symbol an address may lie and still be
// taken as inside it: that symbol's size is unknown, and beyond this the
// guess would more likely be wrong than right.
constexpr std::uint64_t unsized_reach = 0x1000;

// Text before data, global before local: which name to show when several
// share an address (aliases).
int preference(char type)
{
	switch (type) {
	case 'T': return 0;
	case 't': return 1;
	case 'W': return 2;
	case 'w': return 3;
	default: return 4;
	}
}


// "$x", "$d", "$a", "$t", with or without a ".N" suffix, and ".L..." labels:
// the names the kernel's own kallsyms skips (is_mapping_symbol()).
bool is_mapping_symbol(std::string_view name)
{
	if (name.starts_with(".L") || name.starts_with("L0"))
		return true;
	return name.size() >= 2 && name[0] == '$' &&
	       std::string_view("adtx").find(name[1]) != std::string_view::npos &&
	       (name.size() == 2 || name[2] == '.');
}

std::string_view next_field(std::string_view &line)
{
	std::size_t start = line.find_first_not_of(" \t");
	if (start == std::string_view::npos) {
		line = {};
		return {};
	}
	line.remove_prefix(start);
	std::size_t end = line.find_first_of(" \t");
	std::string_view field = line.substr(0, end);
	line.remove_prefix(end == std::string_view::npos ? line.size() : end);
	return field;
}

} // namespace

Symbolizer::Symbolizer() = default;
Symbolizer::~Symbolizer() = default;
Symbolizer::Symbolizer(Symbolizer &&) noexcept = default;
Symbolizer &Symbolizer::operator=(Symbolizer &&) noexcept = default;

Symbolizer Symbolizer::from_kallsyms(const std::string &path)
{
	std::ifstream file(path);
	if (!file) {
		int error_number = errno;
		throw Error(path, "cannot open: " + std::generic_category().message(error_number),
			    error_number);
	}
	std::ostringstream text;
	text << file.rdbuf();
	if (file.bad())
		throw Error(path, "cannot read");
	return parse(text.str());
}

Symbolizer Symbolizer::parse(std::string_view text)
{
	auto table = std::make_unique<Table>();
	using Symbol = Table::Symbol;
	std::uint32_t last_module = 0;

	while (!text.empty()) {
		std::size_t end = text.find('\n');
		std::string_view line = text.substr(0, end);
		text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);

		std::string_view address_text = next_field(line);
		std::string_view type_text = next_field(line);
		std::string_view name = next_field(line);
		std::string_view module = next_field(line);
		std::uint64_t address = 0;
		auto [rest, status] = std::from_chars(address_text.data(),
						      address_text.data() + address_text.size(),
						      address, 16);
		if (status != std::errc{} || rest != address_text.data() + address_text.size() ||
		    type_text.size() != 1 || name.empty())
			continue;
		char type = type_text.front();
		// 0: hidden from this reader. Absolute and undefined symbols are
		// not places in memory.
		if (address == 0 || type == 'a' || type == 'A' || type == 'U')
			continue;
		// ELF mapping symbols and local labels mark where code or data
		// starts inside a function; /proc/kallsyms lists a module's on
		// older kernels (arm64 6.1), and they would name the address.
		if (is_mapping_symbol(name))
			continue;

		std::uint32_t module_index = 0;
		if (module.size() > 2 && module.front() == '[' && module.back() == ']') {
			std::string_view owner = module.substr(1, module.size() - 2);
			// A module's symbols come together: try the last one first.
			if (table->modules[last_module] != owner) {
				auto found = std::ranges::find(table->modules, owner);
				last_module = static_cast<std::uint32_t>(
					found - table->modules.begin());
				if (found == table->modules.end())
					table->modules.emplace_back(owner);
			}
			module_index = last_module;
		}
		if (table->names.size() + name.size() > UINT32_MAX)
			break; // far beyond any real kallsyms
		table->symbols.push_back(Symbol{address, 0,
						static_cast<std::uint32_t>(table->names.size()),
						static_cast<std::uint32_t>(name.size()),
						module_index, type});
		table->names.append(name);
	}

	auto &symbols = table->symbols;
	std::ranges::stable_sort(symbols, [](const Symbol &a, const Symbol &b) {
		if (a.address != b.address)
			return a.address < b.address;
		return preference(a.type) < preference(b.type);
	});
	// std::unique, not std::ranges::unique: clang 14 cannot use the
	// subrange that returns with libstdc++ 12 (Debian 12's pair).
	symbols.erase(std::unique(symbols.begin(), symbols.end(),
				  [](const Symbol &a, const Symbol &b) {
					  return a.address == b.address;
				  }),
		      symbols.end());
	// A symbol reaches up to the next one of its owner. Where the next
	// symbol belongs to someone else, the end is not known.
	for (std::size_t i = 0; i + 1 < symbols.size(); i++)
		if (symbols[i + 1].module == symbols[i].module)
			symbols[i].size = symbols[i + 1].address - symbols[i].address;

	Symbolizer symbolizer;
	symbolizer.table_ = std::move(table);
	return symbolizer;
}

bool Symbolizer::empty() const noexcept
{
	return size() == 0;
}

std::size_t Symbolizer::size() const noexcept
{
	return table_ ? table_->symbols.size() : 0;
}

std::optional<Symbolizer::Location> Symbolizer::locate(std::uint64_t address) const
{
	if (empty())
		return std::nullopt;
	const auto &symbols = table_->symbols;
	// The last symbol at or below address.
	auto after = std::ranges::upper_bound(symbols, address, {}, &Table::Symbol::address);
	if (after == symbols.begin())
		return std::nullopt;
	const Table::Symbol &symbol = *std::prev(after);
	std::uint64_t offset = address - symbol.address;
	if (symbol.size != 0 ? offset >= symbol.size : offset >= unsized_reach)
		return std::nullopt;
	Location location;
	location.symbol = table_->name_of(symbol);
	location.offset = offset;
	if (symbol.size != 0)
		location.size = symbol.size;
	location.module = table_->modules[symbol.module];
	return location;
}

std::string Symbolizer::excerpt(std::span<const std::uint64_t> addresses) const
{
	if (empty())
		return {};
	const auto &symbols = table_->symbols;
	std::vector<std::size_t> wanted;
	for (std::uint64_t address : addresses) {
		if (!locate(address))
			continue;
		auto after = std::ranges::upper_bound(symbols, address, {},
						      &Table::Symbol::address);
		auto index = static_cast<std::size_t>(std::prev(after) - symbols.begin());
		wanted.push_back(index);
		if (index + 1 < symbols.size() && symbols[index + 1].module == symbols[index].module)
			wanted.push_back(index + 1);
	}
	std::ranges::sort(wanted);
	wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());

	std::string text;
	for (std::size_t index : wanted) {
		const Table::Symbol &symbol = symbols[index];
		char address[17];
		std::snprintf(address, sizeof address, "%016llx",
			      static_cast<unsigned long long>(symbol.address));
		text += address;
		text += ' ';
		text += symbol.type;
		text += ' ';
		text += table_->name_of(symbol);
		if (symbol.module != 0)
			text += "\t[" + table_->modules[symbol.module] + "]";
		text += '\n';
	}
	return text;
}

std::string Symbolizer::describe(std::uint64_t address) const
{
	auto location = locate(address);
	if (!location)
		return detail::hex(address);
	std::string text(location->symbol);
	text += "+" + detail::hex(location->offset);
	if (location->size)
		text += "/" + detail::hex(*location->size);
	if (!location->module.empty())
		text += " [" + std::string(location->module) + "]";
	return text;
}

std::optional<std::string> describe_caller(std::uint64_t address,
					   const std::optional<std::string> &kernel_name,
					   const Symbolizer &symbols)
{
	if (kernel_name && !kernel_name->empty())
		return *kernel_name;
	if (address == 0)
		return std::nullopt;
	return symbols.describe(address);
}

} // namespace edgedma
