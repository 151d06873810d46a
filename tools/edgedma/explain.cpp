// SPDX-License-Identifier: GPL-2.0
//
// edgedma explain: the cross-view comparison of saved snapshots, on any
// machine, without the module: every snapshot of a recording, or one record
// as `edgedma snapshot save` or a devcoredump holds it. Same output as
// `edgedma snapshot show`.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include <edgedma/cross_view.hpp>
#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>
#include <edgedma/snapshot.hpp>

#include "command.hpp"
#include "format.hpp"
#include "snapshot_render.hpp"

namespace edgedma::cli {
namespace {

struct ExplainOptions {
	std::string file;
	bool json = false;
};

std::vector<std::byte> read_whole(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	if (!in)
		throw Error("explain", "cannot open " + path + ": " + std::strerror(errno), errno);
	std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	if (in.bad())
		throw Error("explain", "cannot read " + path);
	std::vector<std::byte> bytes(text.size());
	std::memcpy(bytes.data(), text.data(), text.size());
	return bytes;
}

// Counts what the comparison made of the snapshots, for the last line.
struct Tally {
	std::uint64_t snapshots = 0;
	std::uint64_t errors = 0;   // snapshots headed by an error
	std::uint64_t warnings = 0; // ... by a warning
	std::uint64_t consistent = 0;

	void add(const std::vector<Verdict> &verdicts)
	{
		snapshots++;
		const Verdict *lead = headline(verdicts);
		if (!lead)
			return;
		if (lead->severity == Severity::error)
			errors++;
		else if (lead->severity == Severity::warning)
			warnings++;
		else if (lead->rule == "consistent")
			consistent++;
	}
};

// Shows one snapshot and counts it: the comparison runs once for both.
void explain_one(const Snapshot &snapshot, const Symbolizer &symbols, bool json, Tally &tally)
{
	const std::vector<Verdict> verdicts = compare_views(snapshot, symbols);
	if (json) {
		std::cout << json_text(snapshot_json(snapshot, symbols, verdicts)) << '\n';
	} else {
		if (tally.snapshots)
			std::cout << '\n';
		std::cout << snapshot_text(snapshot, symbols, verdicts);
	}
	tally.add(verdicts);
}

// A recording: the symbols it carries first (written when it stopped),
// then each snapshot as it comes, so a long recording is never held whole.
Tally explain_recording(const std::string &path, bool json)
{
	std::string kallsyms;
	{
		RecordingReader reader{std::filesystem::path(path)};
		Record record;
		while (reader.next(record))
			if (const auto *table = std::get_if<SymbolTable>(&record))
				kallsyms += table->kallsyms;
	}
	const Symbolizer symbols = Symbolizer::parse(kallsyms);
	Tally tally;
	RecordingReader reader{std::filesystem::path(path)};
	Record record;
	while (reader.next(record))
		if (const auto *snapshot = std::get_if<Snapshot>(&record))
			explain_one(*snapshot, symbols, json, tally);
	return tally;
}

int explain(const ExplainOptions &options)
{
	const std::vector<std::byte> bytes = read_whole(options.file);
	if (bytes.empty())
		throw Error("explain", options.file + " is empty: neither a recording nor a "
						     "snapshot record");
	Tally tally;
	if (looks_like_recording(bytes)) {
		tally = explain_recording(options.file, options.json);
	} else {
		Snapshot snapshot;
		try {
			snapshot = decode_snapshot_record(bytes);
		} catch (const Error &error) {
			throw Error("explain", options.file +
						       " is neither a recording nor a snapshot record (" +
						       error.message() + ")");
		}
		// The kernel named the callers when it took the snapshot; the
		// symbols of this machine would name another kernel's.
		const Symbolizer no_symbols;
		explain_one(snapshot, no_symbols, options.json, tally);
	}
	if (!options.json)
		std::cout << (tally.snapshots ? "\n" : "") << "explained " << tally.snapshots
			  << (tally.snapshots == 1 ? " snapshot" : " snapshots") << " of "
			  << options.file << ": " << tally.errors << " headed by an error, "
			  << tally.warnings << " by a warning, " << tally.consistent
			  << " consistent\n";
	return 0;
}

} // namespace

Action setup_explain(CLI::App &command)
{
	auto options = std::make_shared<ExplainOptions>();
	command.add_option("FILE", options->file,
			   "A recording (edgedma record), or one snapshot record (edgedma "
			   "snapshot save, or a devcoredump's data)")
		->required();
	command.add_flag("--json", options->json,
			 "One JSON object per snapshot and line, as snapshot show --json");
	command.footer("Needs no module: shows each snapshot as `edgedma snapshot show` does, "
		       "led by the cross-view comparison's headline, and ends with how many "
		       "were headed by an error, a warning or found consistent.");
	return [options] { return explain(*options); };
}

} // namespace edgedma::cli
