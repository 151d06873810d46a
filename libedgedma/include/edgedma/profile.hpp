// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Controller profiles (Documentation/profiles.rst): which registers of a DMA
// controller a snapshot reads and how its descriptors are laid out, written
// as a device-tree source fragment and sent to the module with
// Client::profile_set().

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

// The compatible string of a profile node.
inline constexpr std::string_view profile_compatible = "edgedma,profile-v1";

// One controller profile, as PROFILE_SET takes it and PROFILE_GET gives it
// back. The registers are definitions (no value, no skipped) and the chains
// layouts (nothing walked).
struct Profile {
	std::string name; // 1 to 31 characters
	// Exactly one of the three: the devices it describes.
	std::optional<std::uint32_t> pci_id;   // vendor << 16 | device
	std::optional<std::string> compatible; // a device-tree compatible
	std::optional<std::string> device;     // one device, by dev_name()
	std::vector<Register> registers;
	std::vector<DescriptorChain> chains;

	bool operator==(const Profile &) const = default;
};

// A profile the module holds (Client::profile_list(), profile_get()).
struct LoadedProfile {
	// Whole from profile_get(); name and match alone from profile_list().
	Profile profile;
	std::uint32_t bound = 0; // devices it is bound to now
	// From profile_get(): the dev_name() of each.
	std::vector<std::string> bound_devices;
	std::uint32_t register_count = 0;
	std::uint32_t chain_count = 0;

	bool operator==(const LoadedProfile &) const = default;
};

// The profiles in a device-tree blob: every node compatible with
// profile_compatible, in the blob's order, checked against the schema and
// the module's limits. source names the blob in errors. Throws Error naming
// the source, the node and the property at fault.
EDGEDMA_API std::vector<Profile> parse_profile_blob(std::span<const std::byte> blob,
						    std::string_view source);

// The profiles of a file: a device-tree blob (.dtb, by its magic) is read
// as it is; anything else is device-tree source, compiled by running dtc
// (device-tree-compiler) from PATH. Throws Error when the file cannot be
// read, dtc is missing or refuses the source (with what dtc said), or the
// profiles do not follow the schema.
EDGEDMA_API std::vector<Profile> read_profile_file(const std::filesystem::path &file);

// "vvvv:dddd" of a Profile::pci_id.
EDGEDMA_API std::string pci_id_label(std::uint32_t pci_id);

} // namespace edgedma
