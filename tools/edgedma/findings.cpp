// SPDX-License-Identifier: GPL-2.0
//
// edgedma findings: what the module's findings log still holds.
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/event_stream.hpp>
#include <edgedma/report.hpp>

#include "command.hpp"
#include "finding_render.hpp"
#include "format.hpp"

namespace edgedma::cli {
namespace {

struct FindingsOptions {
	bool json = false;
	std::optional<std::string> device;
	std::uint64_t since = 1;
};

int show_findings(const FindingsOptions &options)
{
	Client client;
	std::vector<Finding> findings = client.findings(options.since);
	// The log is bounded: say what it no longer holds rather than let a
	// short list pass for a complete one.
	if (!findings.empty() && findings.front().seq > options.since)
		std::cerr << "edgedma: findings " << options.since << ".."
			  << findings.front().seq - 1
			  << " are no longer in the module's log (findings_log_size)\n";

	Symbolizer symbols = load_kernel_symbols();
	for (const Finding &finding : findings) {
		if (options.device && finding.device != *options.device)
			continue;
		if (options.json)
			std::cout << render_finding_json(finding, symbols) << '\n';
		else
			std::cout << finding_text(finding, symbols);
	}
	return 0;
}

} // namespace

Action setup_findings(CLI::App &command)
{
	auto options = std::make_shared<FindingsOptions>();
	command.add_flag("--json", options->json,
			 "One JSON object per finding and line instead of text");
	command.add_option("--device", options->device,
			   "Only findings about this device (its dev_name(), e.g. 0000:00:04.0)");
	command.add_option("--since", options->since,
			   "First sequence number to show (default 1: all the log holds)")
		->check(CLI::PositiveNumber);
	command.footer("Repeats of a finding at its site (device, kind, caller) are one "
		       "entry with a count and the first and last time; every occurrence, as "
		       "it happens: edgedma watch --every-occurrence (or record). "
		       "Needs CAP_SYS_ADMIN. Callers are named from /proc/kallsyms "
		       "when it shows addresses (as root), raw otherwise.");
	return [options] { return show_findings(*options); };
}

} // namespace edgedma::cli
