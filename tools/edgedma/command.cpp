// SPDX-License-Identifier: GPL-2.0
#include "command.hpp"

#include <map>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

namespace edgedma::cli {

Action setup_group(CLI::App &command, std::span<const Subcommand> subcommands)
{
	command.require_subcommand(1);
	auto actions = std::make_shared<std::map<const CLI::App *, Action>>();
	for (const Subcommand &subcommand : subcommands) {
		CLI::App *sub = command.add_subcommand(std::string(subcommand.name),
						       std::string(subcommand.description));
		actions->emplace(sub, subcommand.setup(*sub));
	}
	return [&command, actions] {
		return actions->at(command.get_subcommands().front())();
	};
}

} // namespace edgedma::cli
