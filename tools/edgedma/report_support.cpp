// SPDX-License-Identifier: GPL-2.0
#include "report_support.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>
#include <edgedma/report.hpp>

namespace edgedma::cli {
namespace {

// Smaller files are read before anyone would look at a progress line.
constexpr std::uint64_t progress_threshold = 4 << 20;
// A line redrawn more often flickers and costs more than it tells.
constexpr auto progress_interval = std::chrono::milliseconds(100);

// "edgedma: reading FILE: 42% (3.1 M records/s)" on stderr, redrawn in
// place and erased when reading ends, so that nothing of it stays in the
// terminal's scrollback, and nothing at all when stderr is not a terminal.
class ProgressLine {
public:
	ProgressLine(const std::string &path, std::uint64_t size)
		: path_(path), shown_(size > progress_threshold && isatty(STDERR_FILENO) == 1)
	{
	}
	~ProgressLine() { clear(); }
	ProgressLine(const ProgressLine &) = delete;
	ProgressLine &operator=(const ProgressLine &) = delete;

	bool shown() const { return shown_; }

	void update(std::uint64_t offset, std::uint64_t size, std::uint64_t records)
	{
		auto now = Clock::now();
		if (!shown_ || now < next_draw_)
			return;
		next_draw_ = now + progress_interval;
		double seconds = std::chrono::duration<double>(now - start_).count();
		double rate = seconds > 0 ? static_cast<double>(records) / seconds / 1e6 : 0;
		unsigned percent = size ? static_cast<unsigned>(offset * 100 / size) : 100;
		std::fprintf(stderr, "\redgedma: reading %s: %u%% (%.1f M records/s)\033[K",
			     path_.c_str(), percent, rate);
		std::fflush(stderr);
		drawn_ = true;
	}

	void clear()
	{
		if (!drawn_)
			return;
		std::fputs("\r\033[K", stderr);
		std::fflush(stderr);
		drawn_ = false;
	}

private:
	using Clock = std::chrono::steady_clock;
	std::string path_;
	bool shown_;
	bool drawn_ = false;
	Clock::time_point start_ = Clock::now();
	Clock::time_point next_draw_ = start_;
};

// "FILE: what went wrong", once: the reader may have named the file itself.
Error naming_file(const Error &error, const std::string &path)
{
	if (error.context() == path || std::string_view(error.what()).starts_with(path + ": "))
		return error;
	return Error(path, error.what(), error.error_number());
}

} // namespace

Summary analyze_recording_file(const std::string &path, const AnalysisOptions &options)
{
	try {
		RecordingReader reader{std::filesystem::path(path)};
		ProgressLine progress(path, reader.size());
		RecordingProgress report_progress;
		if (progress.shown())
			report_progress = [&progress](std::uint64_t offset, std::uint64_t size,
						      std::uint64_t records) {
				progress.update(offset, size, records);
			};
		return analyze_recording(reader, path, options, report_progress);
	} catch (const Error &error) {
		throw naming_file(error, path);
	}
}

Symbolizer recording_symbols(const Summary &summary)
{
	return Symbolizer::parse(summary.kallsyms);
}

void print_report(const Summary &summary, const Symbolizer &symbols, bool json)
{
	if (json)
		std::cout << render_report_json(summary, symbols);
	else
		std::cout << render_report_text(summary, symbols);
}

void add_analysis_options(CLI::App &command, AnalysisOptions &options)
{
	command.add_option("--buckets", options.time_buckets,
			   "Time buckets per device in the timeline (default 240)")
		->check(CLI::Range(2, 100000));
}

} // namespace edgedma::cli
