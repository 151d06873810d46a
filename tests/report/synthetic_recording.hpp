// SPDX-License-Identifier: GPL-2.0
#pragma once

// A recording as `edgedma record` would write it, made without a module: a
// machine with a handful of devices of different habits, mapping events by
// the million, findings of several kinds and losses of every sort, so that
// every part of a report has something to show. Shared by the report stage
// (make-synthetic-recording) and the replay benchmark (bench/host), so both
// measure and draw the same kind of file. The same options always give the
// same file.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace edgedma::synthetic {

struct Options {
	std::uint64_t events = 1'000'000; // MapEvent records
	std::uint64_t findings = 300;     // findings made (a few are lost)
	// Snapshot records to add (as `edgedma snapshot save` wrote them:
	// tests/data/snapshots), each snapshot_copies times.
	std::vector<std::filesystem::path> snapshot_files;
	std::uint64_t snapshot_copies = 1;
};

struct Written {
	std::uint64_t map_events = 0;
	std::uint64_t findings = 0; // Finding records
	std::uint64_t snapshots = 0; // Snapshot records
	std::uint64_t records = 0;  // every record, RecordingEnd included
	std::uint64_t bytes = 0;
};

// Throws edgedma::Error when the file cannot be written.
Written write_recording(const std::filesystem::path &file, const Options &options);

} // namespace edgedma::synthetic
