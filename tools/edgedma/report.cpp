// SPDX-License-Identifier: GPL-2.0
//
// edgedma report: what went wrong and when, from a recording or from the
// live module, as text, JSON, one self-contained HTML page or a trace
// Perfetto opens. The live module and a recording go through the same
// Analyzer, so both read the same.
#include <cerrno>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include <CLI/CLI.hpp>

#include <edgedma/analysis.hpp>
#include <edgedma/client.hpp>
#include <edgedma/error.hpp>
#include <edgedma/report.hpp>

#include "command.hpp"
#include "format.hpp"
#include "report_support.hpp"

namespace edgedma::cli {
namespace {

constexpr std::string_view live_source = "live";

struct ReportOptions {
	std::optional<std::string> source;
	std::optional<std::string> html;
	std::optional<std::string> trace;
	bool json = false;
	AnalysisOptions analysis;
};

// Everything the module can tell without a recording: its facts, counters,
// policies, the live mappings and the findings still in its log.
Summary live_summary(const AnalysisOptions &options)
{
	Client client;
	Analyzer analyzer(options);
	analyzer.set_source("live module");
	analyzer.add(client.get_info());
	// Before the findings: a log that is empty although findings were
	// logged has lost them all, and findings logged after this read must
	// not count as lost.
	Stats stats = client.get_stats();
	std::vector<Policy> overrides = client.policy_list();
	std::vector<Mapping> mappings = client.mappings();
	std::vector<Finding> findings = client.findings(1);

	// The log is bounded: what it no longer holds is a loss, not nothing.
	std::uint64_t first_held = findings.empty() ? stats.findings + 1 : findings.front().seq;
	if (first_held > 1)
		analyzer.add(Loss{1, first_held - 1, Loss::Cause::gap});

	analyzer.add(StatsSnapshot{StatsSnapshot::When::end, stats});
	for (Policy &policy : overrides)
		analyzer.add(PolicyOverride{std::move(policy)});
	std::set<std::string> devices;
	for (const Mapping &mapping : mappings) {
		devices.insert(mapping.device);
		analyzer.add(LiveMapping{mapping});
	}
	for (const Finding &finding : findings) {
		devices.insert(finding.device);
		analyzer.add(finding);
	}
	for (const std::string &device : devices) {
		try {
			analyzer.add(DevicePolicy{client.policy_get(device)});
		} catch (const Error &) {
			// Unbound or gone since: its findings still count.
		}
	}
	return analyzer.summary();
}

void write_file(const std::string &path, const std::string &content)
{
	std::ofstream file(path, std::ios::binary | std::ios::trunc);
	if (!file) {
		int error_number = errno;
		throw Error(path, "cannot create: " + std::generic_category().message(error_number),
			    error_number);
	}
	file << content;
	file.close();
	if (!file)
		throw Error(path, "cannot write");
	std::cerr << "edgedma: wrote " << path << '\n';
}

int report(const ReportOptions &options)
{
	bool live = !options.source || *options.source == live_source;
	Summary summary = live ? live_summary(options.analysis)
			       : analyze_recording_file(*options.source, options.analysis);
	Symbolizer symbols = live ? load_kernel_symbols() : recording_symbols(summary);

	if (options.html)
		write_file(*options.html, render_report_html(summary, symbols));
	if (options.trace)
		write_file(*options.trace, render_report_trace(summary, symbols));
	if (options.json || (!options.html && !options.trace))
		print_report(summary, symbols, options.json);
	return 0;
}

} // namespace

Action setup_report(CLI::App &command)
{
	auto options = std::make_shared<ReportOptions>();
	command.add_option("SOURCE", options->source,
			   "A recording made with `edgedma record`, or `live` (the default) "
			   "for the loaded module");
	command.add_option("--html", options->html,
			   "Write one self-contained HTML page: findings, timeline, heatmap");
	command.add_option("--trace", options->trace,
			   "Write the timeline as a Chrome trace (open it in Perfetto)");
	command.add_flag("--json", options->json,
			 "Print the report as one JSON document instead of text");
	add_analysis_options(command, options->analysis);
	command.footer("The text report goes to standard output unless --html or --trace is "
		       "given. The live module needs CAP_SYS_ADMIN; a recording needs no "
		       "module and names callers with the symbols it carries.");
	return [options] { return report(*options); };
}

} // namespace edgedma::cli
