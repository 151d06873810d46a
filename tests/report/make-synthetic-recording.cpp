// SPDX-License-Identifier: GPL-2.0
//
// make-synthetic-recording: writes a recording as `edgedma record` would,
// without a module, for the report stage (tests/report/run): a million
// mapping events by default (synthetic_recording.hpp says what is in it).
// The same arguments always give the same file.
//
// Usage: make-synthetic-recording FILE [--events N] [--findings N]
//          [--snapshots DIR [--snapshot-copies N]]
//
// --snapshots adds every DIR/*.snap (snapshot records the real module
// wrote: tests/data/snapshots), each --snapshot-copies times.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "synthetic_recording.hpp"

namespace {

struct Arguments {
	std::string file;
	edgedma::synthetic::Options options;
};

Arguments parse(int argc, char **argv)
{
	Arguments arguments;
	for (int i = 1; i < argc; i++) {
		std::string argument = argv[i];
		if ((argument == "--events" || argument == "--findings") && i + 1 < argc) {
			std::uint64_t value = std::strtoull(argv[++i], nullptr, 10);
			(argument == "--events" ? arguments.options.events
						: arguments.options.findings) = value;
		} else if (argument == "--snapshots" && i + 1 < argc) {
			std::vector<std::filesystem::path> files;
			for (const auto &entry : std::filesystem::directory_iterator(argv[++i]))
				if (entry.path().extension() == ".snap")
					files.push_back(entry.path());
			std::ranges::sort(files);
			arguments.options.snapshot_files = std::move(files);
		} else if (argument == "--snapshot-copies" && i + 1 < argc) {
			arguments.options.snapshot_copies = std::strtoull(argv[++i], nullptr, 10);
		} else if (arguments.file.empty() && !argument.starts_with("-")) {
			arguments.file = argument;
		} else {
			throw std::invalid_argument("unexpected argument " + argument);
		}
	}
	if (arguments.file.empty())
		throw std::invalid_argument("usage: make-synthetic-recording FILE [--events N] "
					    "[--findings N] [--snapshots DIR [--snapshot-copies N]]");
	return arguments;
}

} // namespace

int main(int argc, char **argv)
try {
	Arguments arguments = parse(argc, argv);
	auto written = edgedma::synthetic::write_recording(arguments.file, arguments.options);
	std::cerr << "make-synthetic-recording: " << arguments.file << ": " << written.map_events
		  << " mapping events, " << written.findings << " findings, " << written.snapshots
		  << " snapshots, " << written.bytes
		  << " bytes\n";
	return 0;
} catch (const std::exception &error) {
	std::cerr << "make-synthetic-recording: " << error.what() << '\n';
	return 1;
}
