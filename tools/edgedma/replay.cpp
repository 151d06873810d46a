// SPDX-License-Identifier: GPL-2.0
//
// edgedma replay: the analysis of a recording, on any machine, without the
// module. It reads the file through the same path as `edgedma report FILE`
// and prints the same report.
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "report_support.hpp"

namespace edgedma::cli {
namespace {

struct ReplayOptions {
	std::string file;
	bool json = false;
	AnalysisOptions analysis;
};

int replay(const ReplayOptions &options)
{
	Summary summary = analyze_recording_file(options.file, options.analysis);
	print_report(summary, recording_symbols(summary), options.json);
	return 0;
}

} // namespace

Action setup_replay(CLI::App &command)
{
	auto options = std::make_shared<ReplayOptions>();
	command.add_option("FILE", options->file, "A recording made with `edgedma record`")
		->required();
	command.add_flag("--json", options->json,
			 "Print the report as one JSON document instead of text");
	add_analysis_options(command, options->analysis);
	command.footer("Needs no module: callers are named with the symbols the recording "
		       "carries.");
	return [options] { return replay(*options); };
}

} // namespace edgedma::cli
