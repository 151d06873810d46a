// SPDX-License-Identifier: GPL-2.0
#pragma once

#include <functional>
#include <span>
#include <string_view>

namespace CLI {
class App;
}

namespace edgedma::cli {

// What a subcommand does once the command line is parsed; returns the exit
// status. Failures are thrown (edgedma::Error, UsageError from format.hpp)
// and reported by main().
using Action = std::function<int()>;

// Adds a subcommand's options to its CLI::App and returns its action.
using Setup = Action (*)(CLI::App &command);

struct Subcommand {
	std::string_view name;
	std::string_view description;
	Setup setup;
};

// A command made of subcommands (policy set|get|list|del): adds each to
// command, requires one, and returns the action that runs the one given.
Action setup_group(CLI::App &command, std::span<const Subcommand> subcommands);

Action setup_status(CLI::App &command);
Action setup_findings(CLI::App &command);
Action setup_watch(CLI::App &command);
Action setup_mappings(CLI::App &command);
Action setup_devices(CLI::App &command);
Action setup_policy(CLI::App &command);
Action setup_snapshot(CLI::App &command);
Action setup_profile(CLI::App &command);
Action setup_record(CLI::App &command);
Action setup_report(CLI::App &command);
Action setup_replay(CLI::App &command);
Action setup_explain(CLI::App &command);
Action setup_collect(CLI::App &command);

} // namespace edgedma::cli
