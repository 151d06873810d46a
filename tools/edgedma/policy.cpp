// SPDX-License-Identifier: GPL-2.0
//
// edgedma policy set|get|list|del: the overrides the checks hold devices and
// drivers to (alignment, coherency, which checks run).
#include <cerrno>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>
#include <edgedma/names.hpp>

#include "command.hpp"
#include "format.hpp"
#include "policy_render.hpp"

namespace edgedma::cli {
namespace {

// DEVICE or --driver NAME.
struct TargetOptions {
	std::string device;
	std::string driver;

	PolicyTarget target() const
	{
		if (device.empty() == driver.empty())
			throw UsageError("name a DEVICE or a --driver NAME (one of them)");
		return device.empty() ? PolicyTarget{PolicyTarget::Kind::driver, driver}
				      : PolicyTarget{PolicyTarget::Kind::device, device};
	}
};

void add_target_options(CLI::App &command, TargetOptions &options)
{
	auto *device = command.add_option("device", options.device,
					  "The device (its dev_name(), e.g. 0000:00:04.0)");
	command.add_option("--driver", options.driver, "Every device this driver binds")
		->excludes(device);
}

struct SetOptions {
	TargetOptions target;
	std::optional<std::uint32_t> addr_align;
	std::optional<std::uint32_t> len_align;
	std::optional<std::string> coherency;
	std::optional<std::string> checks;
	std::optional<std::string> disable;
	std::optional<std::string> enable;
	std::optional<std::string> snapshot_on;
	std::optional<std::string> snapshot_findings;
	std::optional<std::uint32_t> owned_hash_max;
};

// The checks --disable takes away from and --enable adds to: those the
// target runs now.
std::uint32_t current_checks(Client &client, const PolicyTarget &target)
{
	if (target.kind == PolicyTarget::Kind::device) {
		try {
			// The policy in force, driver overrides included.
			if (auto checks = client.policy_get(target.name).checks)
				return *checks;
		} catch (const Error &error) {
			// A device not present (yet): its own override, if any.
			if (error.error_number() != ENODEV)
				throw;
		}
	}
	for (const Policy &rule : client.policy_list())
		if (rule.target == target && rule.checks)
			return *rule.checks;
	return default_checks();
}

int policy_set(const SetOptions &options)
{
	PolicyChange change;
	change.target = options.target.target();
	change.addr_align = options.addr_align;
	change.len_align = options.len_align;
	if (options.coherency)
		change.coherency = coherency_from_name(*options.coherency);
	if (options.checks)
		change.checks = parse_check_list(*options.checks);
	std::optional<std::uint32_t> disable, enable;
	if (options.disable)
		disable = parse_check_list(*options.disable);
	if (options.enable)
		enable = parse_check_list(*options.enable);
	if (options.snapshot_on)
		change.snapshot_triggers = parse_trigger_list(*options.snapshot_on);
	if (options.snapshot_findings)
		change.snapshot_findings = parse_check_list(*options.snapshot_findings);
	change.owned_hash_max = options.owned_hash_max;
	if (!change.addr_align && !change.len_align && !change.coherency && !change.checks &&
	    !disable && !enable && !change.snapshot_triggers && !change.snapshot_findings &&
	    !change.owned_hash_max)
		throw UsageError("nothing to set: give --addr-align, --len-align, "
				 "--coherency, --checks, --enable, --disable, --snapshot-on, "
				 "--snapshot-findings or --owned-hash-max");

	Client client;
	if (disable || enable)
		change.checks =
			(change.checks.value_or(current_checks(client, change.target)) |
			 enable.value_or(0)) &
			~disable.value_or(0);
	client.policy_set(change);
	return 0;
}

int policy_get(const std::string &device, bool json)
{
	Client client;
	Policy policy = client.policy_get(device);
	if (json)
		std::cout << policy_json(policy).dump() << '\n';
	else
		std::cout << policy_text(policy);
	return 0;
}

int policy_list(bool json)
{
	Client client;
	std::vector<Policy> rules = client.policy_list();
	if (json) {
		for (const Policy &rule : rules)
			std::cout << policy_json(rule).dump() << '\n';
		return 0;
	}
	if (rules.empty())
		std::cout << "no overrides set: every device runs every check, with its own "
			     "alignment and coherency\n";
	for (const Policy &rule : rules)
		std::cout << policy_rule_text(rule);
	return 0;
}

int policy_del(const TargetOptions &options)
{
	PolicyTarget target = options.target();
	Client client;
	client.policy_del(target);
	return 0;
}

Action setup_set(CLI::App &command)
{
	auto options = std::make_shared<SetOptions>();
	add_target_options(command, options->target);
	command.add_option("--addr-align", options->addr_align,
			   "DMA addresses must be aligned to N bytes (a power of two; 1: "
			   "no requirement)");
	command.add_option("--len-align", options->len_align,
			   "Lengths must be multiples of N bytes (a power of two; 1: no "
			   "requirement)");
	command.add_option("--coherency", options->coherency,
			   "Treat the device as coherent or not; auto: as the kernel says")
		->check(CLI::IsMember({"auto", "coherent", "noncoherent"}));
	command.add_option("--checks", options->checks,
			   "The checks that run: 'all', 'none' or a comma-separated list "
			   "of finding kinds (addr-misaligned,leak,...)");
	command.add_option("--enable", options->enable,
			   "Turn these checks on (besides --checks, or those running now), e.g. "
			   "cpu-write-while-device-owned, which is off by default");
	command.add_option("--disable", options->disable,
			   "Turn these checks off (from --checks, or from those running now)");
	command.add_option("--snapshot-on", options->snapshot_on,
			   "The triggers that snapshot the device: 'all' (the default), "
			   "'none' or a comma-separated list of iommu-fault, "
			   "controller-error, oops, panic, finding, manual (snapshot take "
			   "is never refused)");
	command.add_option("--snapshot-findings", options->snapshot_findings,
			   "Findings of these kinds snapshot the device where they are "
			   "found: 'all', 'none' (the default) or a list of finding kinds "
			   "(their checks must run)");
	command.add_option("--owned-hash-max", options->owned_hash_max,
			   "Bytes of each to-device buffer, from its start, the check "
			   "cpu-write-while-device-owned hashes (64 to 1048576; default: "
			   "the module parameter owned_hash_max, 16384)")
		->check(CLI::Range(owned_hash_min_bytes, owned_hash_max_bytes));
	command.footer("Fields left out keep their value. A device override wins over a "
		       "driver override.");
	return [options] { return policy_set(*options); };
}

Action setup_get(CLI::App &command)
{
	auto device = std::make_shared<std::string>();
	auto json = std::make_shared<bool>(false);
	command.add_option("device", *device, "The device (its dev_name())")->required();
	command.add_flag("--json", *json, "Print one JSON object instead of text");
	command.footer("Shows the policy in force, overrides merged with what the device "
		       "itself says, and the device's DMA facts.");
	return [device, json] { return policy_get(*device, *json); };
}

Action setup_policy_list(CLI::App &command)
{
	auto json = std::make_shared<bool>(false);
	command.add_flag("--json", *json, "One JSON object per override and line");
	return [json] { return policy_list(*json); };
}

Action setup_del(CLI::App &command)
{
	auto options = std::make_shared<TargetOptions>();
	add_target_options(command, *options);
	return [options] { return policy_del(*options); };
}

constexpr Subcommand policy_commands[] = {
	{"set", "Override the policy of a device or a driver", setup_set},
	{"get", "Show the policy in force for a device", setup_get},
	{"list", "List every override set", setup_policy_list},
	{"del", "Remove the override of a device or a driver", setup_del},
};

} // namespace

Action setup_policy(CLI::App &command)
{
	Action run = setup_group(command, policy_commands);
	command.footer("All of them need CAP_SYS_ADMIN.");
	return run;
}

} // namespace edgedma::cli
