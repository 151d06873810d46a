// SPDX-License-Identifier: GPL-2.0
#pragma once

// What `edgedma report` and `edgedma replay` share: reading a recording
// into a summary (with a progress line on a terminal), naming its callers,
// and printing the report.

#include <cstdint>
#include <string>

#include <edgedma/analysis.hpp>
#include <edgedma/symbolizer.hpp>

namespace CLI {
class App;
}

namespace edgedma::cli {

// Reads and analyses the recording at path. Errors are thrown as
// edgedma::Error naming the file ("FILE: ..."). When stderr is a terminal
// and the file is large, a progress line shows how far it has come.
Summary analyze_recording_file(const std::string &path, const AnalysisOptions &options);

// The symbols the recording carries, so that callers are named as on the
// machine it was made on.
Symbolizer recording_symbols(const Summary &summary);

// The text report, or the JSON document with json, on stdout.
void print_report(const Summary &summary, const Symbolizer &symbols, bool json);

// Adds --buckets to a subcommand that analyses.
void add_analysis_options(CLI::App &command, AnalysisOptions &options);

} // namespace edgedma::cli
