// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Controller profiles from device-tree source or blobs (the schema of
// Documentation/profiles.rst): dtc compiles the source, libfdt reads the
// blob, and every rule the module applies to PROFILE_SET is checked here
// first, so that a mistake is named by file, node and property rather than
// by a netlink attribute.
#include <edgedma/profile.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <set>

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>
#include <linux/edgedma.h>

#include <edgedma/error.hpp>
#include <edgedma/names.hpp>

#include "unique_fd.hpp"

extern char **environ;

namespace edgedma {
namespace {

// The module's limits (kmod/profiles.h); its PROFILE_SET refuses beyond them.
constexpr std::size_t name_max = 31;
constexpr std::size_t match_key_max = 63;
constexpr std::size_t registers_max = 96;
constexpr std::size_t register_fields_max = 16;
constexpr std::uint32_t windows_max = 6;
constexpr std::size_t chains_max = 8;
constexpr std::size_t chain_fields_max = 16;
constexpr std::uint32_t desc_size_min = 4;
constexpr std::uint32_t desc_size_max = 128;
constexpr std::uint32_t chain_descs_max = 4096;
constexpr std::uint32_t chain_align_log2_max = 16; // kmod/profiles.h

// Properties dtc adds to a node that a label refers to.
constexpr std::array<std::string_view, 2> phandle_properties{"phandle", "linux,phandle"};

std::string in_quotes(std::string_view text)
{
	return "'" + std::string(text) + "'";
}

std::string join(std::initializer_list<std::string_view> words)
{
	std::string text;
	for (std::string_view word : words)
		text += (text.empty() ? "" : ", ") + std::string(word);
	return text;
}

// A node of the blob, with what errors about it need to name it.
class Node {
public:
	Node(const void *blob, int offset, std::string_view source)
		: blob_(blob), offset_(offset), source_(source)
	{
	}

	std::string name() const
	{
		const char *name = fdt_get_name(blob_, offset_, nullptr);
		return name ? name : "";
	}

	std::string path() const
	{
		std::array<char, 512> buffer{};
		if (fdt_get_path(blob_, offset_, buffer.data(), buffer.size()) < 0)
			return name();
		return buffer.data();
	}

	[[noreturn]] void fail(std::string message) const
	{
		throw Error(std::string(source_) + ": " + path(), std::move(message));
	}

	[[noreturn]] void fail(std::string_view property, std::string message) const
	{
		fail("property " + in_quotes(property) + ": " + message);
	}

	// Refuses any property the schema does not have here: a misspelt
	// property would otherwise be silently left out.
	void allow_properties(std::initializer_list<std::string_view> properties) const
	{
		for (const std::string &found : property_names()) {
			if (std::ranges::find(properties, found) != properties.end())
				continue;
			if (properties.size() == 0)
				fail("unknown property " + in_quotes(found) + ": only nodes go here");
			fail("unknown property " + in_quotes(found) + " (known here: " +
			     join(properties) + ")");
		}
	}

	// The same for child nodes.
	void allow_children(std::initializer_list<std::string_view> children) const
	{
		for (const Node &child : this->children()) {
			if (std::ranges::find(children, child.name()) != children.end())
				continue;
			if (children.size() == 0)
				child.fail("unknown node: " + path() + " has no child nodes");
			child.fail("unknown node (known in " + path() + ": " + join(children) + ")");
		}
	}

	void allow(std::initializer_list<std::string_view> properties,
		   std::initializer_list<std::string_view> children) const
	{
		allow_properties(properties);
		allow_children(children);
	}

	std::optional<std::span<const std::byte>> property(std::string_view name) const
	{
		int length = 0;
		const void *value = fdt_getprop_namelen(blob_, offset_, name.data(),
							static_cast<int>(name.size()), &length);
		if (!value)
			return std::nullopt;
		return std::span(static_cast<const std::byte *>(value),
				 static_cast<std::size_t>(length));
	}

	std::optional<std::vector<std::uint32_t>> cells(std::string_view name) const
	{
		auto value = property(name);
		if (!value)
			return std::nullopt;
		if (value->empty() || value->size() % 4)
			fail(name, "expected cells (<N ...>), got " + std::to_string(value->size()) +
					   " bytes");
		std::vector<std::uint32_t> cells;
		for (std::size_t i = 0; i < value->size(); i += 4) {
			fdt32_t cell;
			std::memcpy(&cell, value->data() + i, sizeof(cell));
			cells.push_back(fdt32_to_cpu(cell));
		}
		return cells;
	}

	std::optional<std::uint32_t> cell(std::string_view name) const
	{
		auto values = cells(name);
		if (!values)
			return std::nullopt;
		if (values->size() != 1)
			fail(name, "expected one cell (<N>), got " + std::to_string(values->size()));
		return values->front();
	}

	std::uint32_t required_cell(std::string_view name) const
	{
		auto value = cell(name);
		if (!value)
			fail("missing property " + in_quotes(name));
		return *value;
	}

	std::optional<std::vector<std::string>> strings(std::string_view name) const
	{
		auto value = property(name);
		if (!value)
			return std::nullopt;
		if (value->empty() || value->back() != std::byte{0})
			fail(name, "expected a string (\"...\")");
		std::vector<std::string> strings;
		const char *text = reinterpret_cast<const char *>(value->data());
		for (std::size_t at = 0; at < value->size();) {
			std::string item(text + at);
			at += item.size() + 1;
			strings.push_back(std::move(item));
		}
		return strings;
	}

	std::optional<std::string> string(std::string_view name) const
	{
		auto values = strings(name);
		if (!values)
			return std::nullopt;
		if (values->size() != 1)
			fail(name, "expected one string, got " + std::to_string(values->size()));
		return values->front();
	}

	// A property without a value: present or not.
	bool flag(std::string_view name) const
	{
		auto value = property(name);
		if (value && !value->empty())
			fail(name, "is a flag: write it alone (" + std::string(name) +
					   ";), without a value");
		return value.has_value();
	}

	std::optional<Node> child(std::string_view name) const
	{
		int offset = fdt_subnode_offset_namelen(blob_, offset_, name.data(),
							static_cast<int>(name.size()));
		if (offset < 0)
			return std::nullopt;
		return Node(blob_, offset, source_);
	}

	std::vector<Node> children() const
	{
		std::vector<Node> nodes;
		int child;
		fdt_for_each_subnode(child, blob_, offset_)
			nodes.emplace_back(blob_, child, source_);
		return nodes;
	}

	// The names of its properties, in order (bit-field lists).
	std::vector<std::string> property_names() const
	{
		std::vector<std::string> names;
		int property;
		fdt_for_each_property_offset(property, blob_, offset_) {
			const char *name = nullptr;
			fdt_getprop_by_offset(blob_, property, &name, nullptr);
			if (name && std::ranges::find(phandle_properties, std::string_view(name)) ==
					    phandle_properties.end())
				names.emplace_back(name);
		}
		return names;
	}

private:
	const void *blob_;
	int offset_;
	std::string_view source_;
};

void check_name(const Node &node, std::string_view what, const std::string &name)
{
	if (name.empty())
		node.fail(std::string(what) + " has an empty name");
	if (name.size() > name_max)
		node.fail(std::string(what) + " name " + in_quotes(name) + " is " +
			  std::to_string(name.size()) + " characters; at most " +
			  std::to_string(name_max));
}

bool valid_width(std::uint32_t width)
{
	return width == 1 || width == 2 || width == 4 || width == 8;
}

Register parse_register(const Node &node)
{
	node.allow({"window", "offset", "width", "read-clears", "read-on-error"}, {"fields"});
	Register reg;
	reg.name = node.name();
	check_name(node, "a register", reg.name);
	reg.window = node.required_cell("window");
	if (reg.window >= windows_max)
		node.fail("window", std::to_string(reg.window) + " is past the last window (" +
					    std::to_string(windows_max - 1) +
					    "): a PCI BAR or platform reg index");
	reg.offset = node.required_cell("offset");
	reg.width = node.required_cell("width");
	if (!valid_width(reg.width))
		node.fail("width", std::to_string(reg.width) + " is not 1, 2, 4 or 8");
	if (reg.offset % reg.width)
		node.fail("offset", "not a multiple of the width (" + std::to_string(reg.width) +
					    ")");
	if (node.flag("read-clears"))
		reg.flags |= EDGEDMA_REGISTER_READ_CLEARS;
	if (node.flag("read-on-error")) {
		if (!(reg.flags & EDGEDMA_REGISTER_READ_CLEARS))
			node.fail("read-on-error", "is for a register that clears when read: "
						   "say read-clears too");
		reg.flags |= EDGEDMA_REGISTER_READ_ON_ERROR;
	}

	auto fields = node.child("fields");
	if (!fields)
		return reg;
	fields->allow_children({});
	for (const std::string &name : fields->property_names()) {
		if (reg.fields.size() == register_fields_max)
			fields->fail(name, "a register has at most " +
						   std::to_string(register_fields_max) + " fields");
		check_name(*fields, "a field", name);
		auto value = *fields->cells(name);
		if (value.size() != 2)
			fields->fail(name, "expected <lowest-bit bits>, got " +
						   std::to_string(value.size()) + " cells");
		RegisterField field{name, value[0], value[1]};
		if (field.bits < 1 || field.bits > 64 ||
		    field.shift + std::uint64_t{field.bits} > reg.width * 8u)
			fields->fail(name, "bits " + std::to_string(field.shift) + " to " +
						   std::to_string(field.shift + field.bits) +
						   " do not fit a " + std::to_string(reg.width * 8) +
						   "-bit register");
		reg.fields.push_back(std::move(field));
	}
	return reg;
}

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 5> role_names{{
	{"address", EDGEDMA_DESC_ROLE_ADDRESS},
	{"length", EDGEDMA_DESC_ROLE_LENGTH},
	{"next", EDGEDMA_DESC_ROLE_NEXT},
	{"control", EDGEDMA_DESC_ROLE_CONTROL},
	{"status", EDGEDMA_DESC_ROLE_STATUS},
}};

DescriptorField parse_descriptor_field(const Node &node, std::uint32_t desc_size)
{
	node.allow({"offset", "width", "bits", "role"}, {});
	DescriptorField field;
	field.name = node.name();
	check_name(node, "a descriptor field", field.name);
	field.offset = node.required_cell("offset");
	field.width = node.required_cell("width");
	if (!valid_width(field.width))
		node.fail("width", std::to_string(field.width) + " is not 1, 2, 4 or 8");
	if (field.offset + std::uint64_t{field.width} > desc_size)
		node.fail("offset", "bytes " + std::to_string(field.offset) + " to " +
					    std::to_string(field.offset + field.width) +
					    " run past the " + std::to_string(desc_size) +
					    "-byte descriptor");
	if (auto bits = node.cells("bits")) {
		if (bits->size() != 2)
			node.fail("bits", "expected <lowest-bit bits>, got " +
						  std::to_string(bits->size()) + " cells");
		field.shift = (*bits)[0];
		field.bits = (*bits)[1];
		if (*field.bits < 1 || *field.bits > 64 ||
		    field.shift + std::uint64_t{*field.bits} > field.width * 8u)
			node.fail("bits", "bits " + std::to_string(field.shift) + " to " +
						  std::to_string(field.shift + *field.bits) +
						  " do not fit " + std::to_string(field.width) +
						  " bytes");
	}
	if (auto role = node.string("role")) {
		auto known = std::ranges::find(role_names, *role,
					       &std::pair<std::string_view, std::uint32_t>::first);
		if (known == role_names.end())
			node.fail("role", in_quotes(*role) +
						  " is not a role (address, length, next, control, "
						  "status)");
		field.role = known->second;
	}
	return field;
}

// The register a chain names: the profile's, and readable by a snapshot.
std::string chain_register(const Node &node, std::string_view property, const std::string &name,
			   const std::vector<Register> &registers)
{
	auto reg = std::ranges::find(registers, name, &Register::name);
	if (reg == registers.end())
		node.fail(property, "names " + in_quotes(name) +
					    ", which is not among the profile's registers");
	if (reg->flags & EDGEDMA_REGISTER_READ_CLEARS)
		node.fail(property, "names " + in_quotes(name) +
					    ", which clears when read: a snapshot cannot read it");
	return name;
}

DescriptorChain parse_chain(const Node &node, const std::vector<Register> &registers)
{
	node.allow({"kind", "start", "length", "length-in-bytes", "entries", "head", "tail",
		    "descriptor-size", "max-descriptors", "big-endian", "align-log2", "direction"},
		   {"fields"});
	DescriptorChain chain;
	chain.name = node.name();
	check_name(node, "a chain", chain.name);

	auto kind = node.string("kind");
	if (!kind)
		node.fail("missing property 'kind' (\"ring\", \"list\" or \"pl330-program\")");
	if (*kind == "ring")
		chain.kind = EDGEDMA_CHAIN_RING;
	else if (*kind == "list")
		chain.kind = EDGEDMA_CHAIN_LIST;
	else if (*kind == "pl330-program")
		chain.kind = EDGEDMA_CHAIN_PL330_PROGRAM;
	else
		node.fail("kind", in_quotes(*kind) +
					  " is not \"ring\", \"list\" or \"pl330-program\"");

	auto start = node.strings("start");
	if (!start)
		node.fail("missing property 'start' (the register holding the first "
			  "descriptor's address: \"reg\", or \"low-reg\", \"high-reg\")");
	if (start->size() > 2)
		node.fail("start", "names " + std::to_string(start->size()) +
					   " registers; at most 2 (low and high halves)");
	chain.start_reg = chain_register(node, "start", (*start)[0], registers);
	if (start->size() == 2)
		chain.start_hi_reg = chain_register(node, "start", (*start)[1], registers);
	if (auto length = node.string("length"))
		chain.length_reg = chain_register(node, "length", *length, registers);
	if (auto head = node.string("head"))
		chain.head_reg = chain_register(node, "head", *head, registers);
	if (auto tail = node.string("tail"))
		chain.tail_reg = chain_register(node, "tail", *tail, registers);
	chain.entries = node.cell("entries");
	if (chain.entries && !*chain.entries)
		node.fail("entries", "a ring has at least one entry");
	if (node.flag("length-in-bytes"))
		chain.flags |= EDGEDMA_CHAIN_LENGTH_IN_BYTES;
	if (node.flag("big-endian"))
		chain.flags |= EDGEDMA_CHAIN_BIG_ENDIAN;

	if (auto size = node.cell("descriptor-size"))
		chain.desc_size = *size;
	else
		node.fail("missing property 'descriptor-size'");
	if (chain.desc_size < desc_size_min || chain.desc_size > desc_size_max)
		node.fail("descriptor-size", std::to_string(chain.desc_size) + " is not from " +
						     std::to_string(desc_size_min) + " to " +
						     std::to_string(desc_size_max) + " bytes");
	chain.max_descs = node.cell("max-descriptors");
	if (chain.max_descs && (*chain.max_descs < 1 || *chain.max_descs > chain_descs_max))
		node.fail("max-descriptors", std::to_string(*chain.max_descs) +
						     " is not from 1 to " +
						     std::to_string(chain_descs_max));
	chain.align_log2 = node.cell("align-log2");
	if (chain.align_log2 && (*chain.align_log2 < 1 || *chain.align_log2 > chain_align_log2_max))
		node.fail("align-log2", std::to_string(*chain.align_log2) + " is not from 1 to " +
						std::to_string(chain_align_log2_max) +
						" (2 bytes to 64 KiB)");
	if (auto direction = node.string("direction")) {
		if (*direction == "to-device")
			chain.direction = dma_direction::to_device;
		else if (*direction == "from-device")
			chain.direction = dma_direction::from_device;
		else
			node.fail("direction", in_quotes(*direction) +
						       " is not \"to-device\" (the device reads the "
						       "buffers) or \"from-device\" (it writes them)");
	}

	if (chain.kind == EDGEDMA_CHAIN_RING && chain.length_reg.has_value() == chain.entries.has_value())
		node.fail("a ring needs its size: 'length' (a register) or 'entries', "
			  "not both");
	if (chain.kind == EDGEDMA_CHAIN_LIST &&
	    (chain.length_reg || chain.entries || chain.head_reg || chain.tail_reg ||
	     (chain.flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES)))
		node.fail("a list takes no 'length', 'entries', 'length-in-bytes', 'head' or "
			  "'tail': it ends where its next field says");
	if ((chain.flags & EDGEDMA_CHAIN_LENGTH_IN_BYTES) && !chain.length_reg)
		node.fail("length-in-bytes", "says how the 'length' register counts, and "
					     "there is none");
	if (chain.kind == EDGEDMA_CHAIN_PL330_PROGRAM) {
		// The module's rule (kmod/nl_profiles.c): the microcode buffer
		// is read whole, from the CPC rounded down to its size.
		const std::uint64_t total =
			std::uint64_t{chain.entries.value_or(0)} * chain.desc_size;
		if (!chain.entries || *chain.entries > 64 || (total & (total - 1)))
			node.fail("a pl330-program needs 'entries' (1 to 64) blocks of "
				  "'descriptor-size' bytes, a power of two in all: the "
				  "driver's microcode buffer (pl330.c: 256 bytes)");
		if (chain.length_reg || chain.head_reg || chain.tail_reg || chain.flags)
			node.fail("a pl330-program takes no 'length', 'head', 'tail', "
				  "'length-in-bytes' or 'big-endian'");
		if (node.child("fields"))
			node.fail("a pl330-program has no 'fields': its instructions are "
				  "decoded");
		return chain;
	}

	auto fields = node.child("fields");
	if (!fields)
		node.fail("missing node 'fields' (the descriptor's fields)");
	fields->allow_properties({});
	for (const Node &child : fields->children()) {
		if (chain.fields.size() == chain_fields_max)
			child.fail("a chain has at most " + std::to_string(chain_fields_max) +
				   " descriptor fields");
		chain.fields.push_back(parse_descriptor_field(child, chain.desc_size));
	}
	auto nexts = std::ranges::count(chain.fields, std::optional<std::uint32_t>(EDGEDMA_DESC_ROLE_NEXT),
					&DescriptorField::role);
	if (chain.kind == EDGEDMA_CHAIN_LIST && nexts != 1)
		node.fail("a list needs exactly one field of role \"next\" (it has " +
			  std::to_string(nexts) + ")");
	if (chain.kind == EDGEDMA_CHAIN_RING && nexts)
		node.fail("a ring has no field of role \"next\": its descriptors follow "
			  "each other");
	return chain;
}

template <typename Item>
void check_unique(const Node &node, const std::vector<Item> &items, std::string_view what)
{
	std::set<std::string> seen;
	for (const Item &item : items)
		if (!seen.insert(item.name).second)
			node.fail("two " + std::string(what) + " named " + in_quotes(item.name));
}

Profile parse_profile(const Node &node)
{
	node.allow({"compatible", "profile-name", "match-pci-id", "match-compatible",
		    "match-device"},
		   {"registers", "descriptors"});
	Profile profile;
	auto name = node.string("profile-name");
	if (!name)
		node.fail("missing property 'profile-name'");
	profile.name = *name;
	check_name(node, "the profile", profile.name);

	if (auto id = node.cells("match-pci-id")) {
		if (id->size() != 2 || (*id)[0] > 0xffff || (*id)[1] > 0xffff)
			node.fail("match-pci-id", "expected <vendor device>, each 16 bits");
		profile.pci_id = (*id)[0] << 16 | (*id)[1];
	}
	auto key = [&](std::string_view property) {
		auto value = node.string(property);
		if (value && (value->empty() || value->size() > match_key_max))
			node.fail(property, "must be 1 to " + std::to_string(match_key_max) +
						    " characters");
		return value;
	};
	profile.compatible = key("match-compatible");
	profile.device = key("match-device");
	if (profile.pci_id.has_value() + profile.compatible.has_value() +
		    profile.device.has_value() != 1)
		node.fail("needs exactly one of 'match-pci-id', 'match-compatible' and "
			  "'match-device'");

	auto registers = node.child("registers");
	if (!registers)
		node.fail("missing node 'registers'");
	registers->allow_properties({});
	for (const Node &child : registers->children()) {
		if (profile.registers.size() == registers_max)
			child.fail("a profile has at most " + std::to_string(registers_max) +
				   " registers");
		profile.registers.push_back(parse_register(child));
	}
	if (profile.registers.empty())
		registers->fail("a profile needs at least one register");
	check_unique(*registers, profile.registers, "registers");

	if (auto descriptors = node.child("descriptors")) {
		descriptors->allow_properties({});
		for (const Node &child : descriptors->children()) {
			if (profile.chains.size() == chains_max)
				child.fail("a profile has at most " + std::to_string(chains_max) +
					   " descriptor chains");
			profile.chains.push_back(parse_chain(child, profile.registers));
		}
		check_unique(*descriptors, profile.chains, "chains");
	}
	return profile;
}

std::vector<std::byte> read_fd(int fd, std::string_view what)
{
	std::vector<std::byte> bytes;
	if (::lseek(fd, 0, SEEK_SET) < 0)
		throw Error(std::string(what), std::string("lseek: ") + std::strerror(errno), errno);
	std::array<std::byte, 16384> chunk;
	for (;;) {
		ssize_t n = ::read(fd, chunk.data(), chunk.size());
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			throw Error(std::string(what), std::string("read: ") + std::strerror(errno),
				    errno);
		if (n == 0)
			return bytes;
		bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
	}
}

detail::UniqueFd memory_file(const char *name)
{
	detail::UniqueFd fd(::memfd_create(name, MFD_CLOEXEC));
	if (!fd)
		throw Error("compile profile", std::string("memfd_create: ") + std::strerror(errno),
			    errno);
	return fd;
}

// Runs dtc on the source; its output and its messages go to memory files,
// which never block it the way a full pipe would.
std::vector<std::byte> compile_source(const std::filesystem::path &file)
{
	const std::string context = "compile " + file.string();
	detail::UniqueFd out = memory_file("edgedma-dtc-out");
	detail::UniqueFd err = memory_file("edgedma-dtc-err");

	posix_spawn_file_actions_t actions;
	if (int rc = posix_spawn_file_actions_init(&actions))
		throw Error(context, std::string("posix_spawn_file_actions_init: ") +
				     std::strerror(rc), rc);
	struct ActionsGuard {
		posix_spawn_file_actions_t *actions;
		~ActionsGuard() { posix_spawn_file_actions_destroy(actions); }
	} guard{&actions};
	for (int rc : {posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
		       posix_spawn_file_actions_adddup2(&actions, out.get(), 1),
		       posix_spawn_file_actions_adddup2(&actions, err.get(), 2)})
		if (rc)
			throw Error(context, std::string("posix_spawn_file_actions: ") +
						     std::strerror(rc),
				    rc);

	std::string path = file.string();
	// -q: warnings about node names matter to board files, not to profiles.
	std::array<const char *, 10> argv{"dtc", "-q", "-I", "dts", "-O", "dtb", "-o", "-",
					  path.c_str(), nullptr};
	pid_t pid;
	if (int rc = posix_spawnp(&pid, "dtc", &actions, nullptr,
				  const_cast<char *const *>(argv.data()), environ)) {
		if (rc == ENOENT)
			throw Error(context, "dtc not found: install device-tree-compiler, or "
					     "compile the profile where dtc is (dtc -I dts -O dtb "
					     "-o PROFILE.dtb PROFILE.dts) and load the .dtb",
				    rc);
		throw Error(context, std::string("cannot run dtc: ") + std::strerror(rc), rc);
	}
	int status = 0;
	while (::waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			throw Error(context, std::string("waitpid: ") + std::strerror(errno), errno);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		auto said = read_fd(err.get(), context);
		std::string message(reinterpret_cast<const char *>(said.data()), said.size());
		while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
			message.pop_back();
		std::string how = WIFEXITED(status)
					  ? "dtc failed (exit " + std::to_string(WEXITSTATUS(status)) + ")"
					  : "dtc was killed (signal " +
						    std::to_string(WTERMSIG(status)) + ")";
		throw Error(context, message.empty() ? how : how + ":\n" + message);
	}
	return read_fd(out.get(), context);
}

} // namespace

std::vector<Profile> parse_profile_blob(std::span<const std::byte> blob, std::string_view source)
{
	const void *fdt = blob.data();
	if (blob.size() < sizeof(fdt_header) || fdt_magic(fdt) != FDT_MAGIC)
		throw Error(std::string(source), "not a device-tree blob (no FDT magic)");
	if (fdt_totalsize(fdt) > blob.size())
		throw Error(std::string(source), "device-tree blob cut short: its header says " +
							 std::to_string(fdt_totalsize(fdt)) +
							 " bytes, there are " +
							 std::to_string(blob.size()));
	if (int rc = fdt_check_full(fdt, blob.size()))
		throw Error(std::string(source),
			    std::string("damaged device-tree blob: ") + fdt_strerror(rc));

	std::vector<Profile> profiles;
	const std::string compatible(profile_compatible);
	for (int node = fdt_node_offset_by_compatible(fdt, -1, compatible.c_str()); node >= 0;
	     node = fdt_node_offset_by_compatible(fdt, node, compatible.c_str()))
		profiles.push_back(parse_profile(Node(fdt, node, source)));
	if (profiles.empty())
		throw Error(std::string(source), "no profile in it: no node has compatible = \"" +
							 compatible + "\"");
	std::set<std::string> names;
	for (const Profile &profile : profiles)
		if (!names.insert(profile.name).second)
			throw Error(std::string(source),
				    "two profiles named " + in_quotes(profile.name));
	return profiles;
}

std::vector<Profile> read_profile_file(const std::filesystem::path &file)
{
	detail::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
	if (!fd)
		throw Error(file.string(), std::string("cannot open: ") + std::strerror(errno),
			    errno);
	std::vector<std::byte> bytes = read_fd(fd.get(), file.string());
	bool is_blob = bytes.size() >= sizeof(fdt32_t) && fdt_magic(bytes.data()) == FDT_MAGIC;
	if (!is_blob)
		bytes = compile_source(file);
	return parse_profile_blob(bytes, file.string());
}

std::string pci_id_label(std::uint32_t pci_id)
{
	std::array<char, 16> text{};
	std::snprintf(text.data(), text.size(), "%04x:%04x", pci_id >> 16, pci_id & 0xffff);
	return text.data();
}

} // namespace edgedma
