// SPDX-License-Identifier: GPL-2.0
//
// edgedma status: what the loaded module says about itself and this kernel.
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>

#include "command.hpp"
#include "status_render.hpp"

namespace edgedma::cli {
namespace {

struct StatusOptions {
	bool json = false;
	bool stats = false;
};

int show_status(const StatusOptions &options)
{
	Client client;
	Info info = client.get_info();
	std::optional<Stats> stats;
	if (options.stats)
		stats = client.get_stats();

	// Everything is read before anything is printed, so a refused --stats
	// leaves no half-written JSON behind.
	if (options.json)
		std::cout << status_json(info, stats).dump() << '\n';
	else
		std::cout << status_text(info, stats);
	return 0;
}

} // namespace

Action setup_status(CLI::App &command)
{
	auto options = std::make_shared<StatusOptions>();
	command.add_flag("--json", options->json, "Print one JSON object instead of text");
	command.add_flag("--stats", options->stats,
			 "Also show the module's counters (needs CAP_SYS_ADMIN)");
	return [options] { return show_status(*options); };
}

} // namespace edgedma::cli
