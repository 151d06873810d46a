// SPDX-License-Identifier: GPL-2.0
//
// edgedma profile load|list|show|unload: controller profiles, the registers
// and descriptor layout a snapshot reads (Documentation/profiles.rst).
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/profile.hpp>

#include "command.hpp"
#include "format.hpp"
#include "profile_render.hpp"

namespace edgedma::cli {
namespace {

struct LoadOptions {
	std::string file;
	std::optional<std::string> device;
	bool check = false;
};

int profile_load(const LoadOptions &options)
{
	std::vector<Profile> profiles = read_profile_file(options.file);
	if (options.device) {
		if (profiles.size() != 1)
			throw UsageError("--device gives one profile one device, and " +
					 options.file + " holds " +
					 std::to_string(profiles.size()) + " profiles");
		Profile &profile = profiles.front();
		profile.pci_id.reset();
		profile.compatible.reset();
		profile.device = *options.device;
	}
	if (options.check) {
		for (const Profile &profile : profiles)
			std::cout << profile_checked_text(profile);
		return 0;
	}
	Client client;
	for (const Profile &profile : profiles) {
		client.profile_set(profile);
		std::cout << profile_loaded_text(client.profile_get(profile.name));
	}
	return 0;
}

int profile_list(bool json)
{
	Client client;
	std::vector<LoadedProfile> profiles = client.profile_list();
	if (json) {
		for (const LoadedProfile &loaded : profiles)
			std::cout << json_text(profile_summary_json(loaded)) << '\n';
		return 0;
	}
	if (profiles.empty())
		std::cout << "no profiles loaded\n";
	else
		std::cout << profile_list_text(profiles);
	return 0;
}

int profile_show(const std::string &name, bool json)
{
	Client client;
	LoadedProfile loaded = client.profile_get(name);
	if (json)
		std::cout << json_text(profile_json(loaded)) << '\n';
	else
		std::cout << profile_text(loaded);
	return 0;
}

int profile_unload(const std::string &name)
{
	Client client;
	client.profile_del(name);
	std::cout << "profile " << name << " unloaded\n";
	return 0;
}

Action setup_load(CLI::App &command)
{
	auto options = std::make_shared<LoadOptions>();
	command.add_option("file", options->file,
			   "A profile: device-tree source (compiled with dtc) or a blob (.dtb)")
		->required();
	command.add_option("--device", options->device,
			   "Bind it to this one device (its dev_name(), e.g. 0000:00:04.0) "
			   "instead of what its match-* property says")
		->type_name("DEVICE");
	command.add_flag("--check", options->check,
			 "Check the file against the schema and the module's limits, load "
			 "nothing (no module needed)");
	command.footer("Every node with compatible = \"edgedma,profile-v1\" is one profile; "
		       "a profile of the same name is replaced. The module binds it to the "
		       "matching devices present and refuses it, naming the register, when a "
		       "register lies outside a device's MMIO windows. Devices that appear "
		       "later are bound when it is loaded again.");
	return [options] { return profile_load(*options); };
}

Action setup_profile_list(CLI::App &command)
{
	auto json = std::make_shared<bool>(false);
	command.add_flag("--json", *json, "One JSON object per profile and line");
	return [json] { return profile_list(*json); };
}

Action setup_profile_show(CLI::App &command)
{
	auto name = std::make_shared<std::string>();
	auto json = std::make_shared<bool>(false);
	command.add_option("name", *name, "The profile's name (profile list)")->required();
	command.add_flag("--json", *json, "Print one JSON object instead of text");
	command.footer("Shows what it matches, the devices it is bound to, its registers with "
		       "their bit fields, and its descriptor chains with their fields.");
	return [name, json] { return profile_show(*name, *json); };
}

Action setup_unload(CLI::App &command)
{
	auto name = std::make_shared<std::string>();
	command.add_option("name", *name, "The profile's name (profile list)")->required();
	command.footer("Snapshots of its devices then hold no registers or descriptors "
		       "(skipped: no-profile).");
	return [name] { return profile_unload(*name); };
}

constexpr Subcommand profile_commands[] = {
	{"load", "Load the profiles of a file into the module", setup_load},
	{"list", "List the profiles the module holds", setup_profile_list},
	{"show", "Show one loaded profile whole", setup_profile_show},
	{"unload", "Remove a profile from the module", setup_unload},
};

} // namespace

Action setup_profile(CLI::App &command)
{
	Action run = setup_group(command, profile_commands);
	command.footer("A profile names a DMA controller's registers and its descriptor "
		       "layout, so that snapshots of the device read them. All of them need "
		       "CAP_SYS_ADMIN, but load --check.");
	return run;
}

} // namespace edgedma::cli
