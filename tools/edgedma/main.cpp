// SPDX-License-Identifier: GPL-2.0
//
// edgedma: the command line over libedgedma. Each subcommand lives in its own
// file and is listed once, in the table below.
#include <exception>
#include <iostream>
#include <map>
#include <string>

#include <CLI/CLI.hpp>

#include <edgedma/error.hpp>

#include "command.hpp"
#include "format.hpp"

namespace {

using namespace edgedma::cli;

constexpr Subcommand subcommands[] = {
	{"status", "Show the module, this kernel's DMA facts and the hook modes it offers",
	 setup_status},
	{"findings", "List the findings still in the module's log", setup_findings},
	{"watch", "Stream findings as the module reports them", setup_watch},
	{"mappings", "List the live DMA mappings the module tracks", setup_mappings},
	{"devices", "List the devices the module has seen calling the DMA API, with their counts",
	 setup_devices},
	{"policy", "Set, show and remove per-device and per-driver check policies",
	 setup_policy},
	{"snapshot", "Take, list and show snapshots: a device's DMA state, frozen",
	 setup_snapshot},
	{"profile", "Load, list, show and unload controller profiles (registers, descriptors)",
	 setup_profile},
	{"record", "Save the live findings and mapping events to a recording file",
	 setup_record},
	{"report", "Explain a recording or the live module: text, JSON, an HTML page, a trace",
	 setup_report},
	{"replay", "Analyse a recording offline, without the module", setup_replay},
	{"explain", "Explain saved snapshots (a recording, a snapshot file) without the module",
	 setup_explain},
	{"collect", "Save the snapshots an earlier boot's oops or panic left in the crash region",
	 setup_collect},
};

constexpr int exit_failure = 1;
constexpr int exit_usage = 2;

void report(std::string_view text)
{
	std::cerr << "edgedma: " << text << '\n';
}

int usage_error(const std::string &problem)
{
	report("usage: " + problem);
	std::cerr << "Run 'edgedma --help' or 'edgedma COMMAND --help'.\n";
	return exit_usage;
}

int run(int argc, char **argv)
{
	CLI::App app("Find DMA bugs in the running kernel with the edgedma module",
		     "edgedma");
	app.set_version_flag("--version", "edgedma " EDGEDMA_TOOL_VERSION);
	// At most one here, so that an unknown command is reported as such
	// rather than as a missing one; none is caught after parsing.
	app.require_subcommand(0, 1);

	std::map<const CLI::App *, Action> actions;
	for (const auto &subcommand : subcommands) {
		CLI::App *command = app.add_subcommand(std::string(subcommand.name),
						       std::string(subcommand.description));
		actions.emplace(command, subcommand.setup(*command));
	}

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &error) {
		// --help and --version arrive as "errors" that succeed.
		if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
			return app.exit(error);
		return usage_error(error.what());
	}
	if (app.get_subcommands().empty())
		return usage_error("a command is required");

	int status;
	try {
		status = actions.at(app.get_subcommands().front())();
	} catch (const UsageError &error) {
		return usage_error(error.what());
	}
	// A full disk or a closed pipe must not pass for success.
	std::cout.flush();
	if (!std::cout) {
		report("output: cannot write to standard output");
		return exit_failure;
	}
	return status;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		return run(argc, argv);
	} catch (const std::exception &error) {
		// edgedma::Error reads "<context>: <message>".
		report(error.what());
	}
	return exit_failure;
}
