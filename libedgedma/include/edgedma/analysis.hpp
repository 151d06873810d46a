// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The analysis behind `edgedma report` and `edgedma replay`: records in
// (from the live module or from a recording), a bounded summary out. Memory
// does not grow with the number of events: the timeline keeps a fixed
// number of time buckets and widens them as the recording grows, and only
// the first findings of each group are kept whole.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <edgedma/export.hpp>
#include <edgedma/info.hpp>
#include <edgedma/records.hpp>
#include <edgedma/recording.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma {

struct AnalysisOptions {
	std::uint32_t time_buckets = 240;    // per device timeline; 2 at least
	std::uint32_t examples_per_group = 8; // findings kept whole per group
	std::uint32_t findings_kept = 10000;  // for the findings table
	std::uint32_t losses_kept = 1000;     // Loss and MapEventLoss records kept
	std::uint32_t snapshots_kept = 256;   // Snapshot records kept whole
};

// Findings of one kind from one driver.
struct FindingGroup {
	std::string driver;  // "" for devices with no driver bound
	std::uint32_t kind = 0;
	// Occurrences: a finding the module folded repeats into counts as its
	// Finding::occurrences (a site's count once, however many of its
	// entries carry it), or as the latest FindingRepeats of it said where
	// that is more; one without a count as 1.
	std::uint64_t count = 0;
	std::uint64_t logged = 0;         // the findings logged, as Summary::findings_total
	std::vector<std::string> devices; // sorted, distinct
	std::uint64_t first_ns = 0;
	std::uint64_t last_ns = 0;        // of the latest occurrence
	// The first ones, in seq order, each with the count the latest
	// FindingRepeats of it said where that is more than its own.
	std::vector<Finding> examples;
};

// One device's activity over time. Bucket i covers
// [Summary::timeline_start_ns + i * bucket_ns, + bucket_ns).
struct DeviceTimeline {
	std::string device;
	std::string driver;
	std::vector<std::uint64_t> bytes_mapped; // sizes of maps and allocs
	std::vector<std::uint64_t> maps;         // map and alloc calls
	std::vector<std::uint64_t> unmaps;       // unmap and free calls
	std::vector<std::uint64_t> syncs;
	// Findings logged in each bucket, at their time, as total_findings
	// counts them: log entries (as Summary::findings_total), not
	// occurrences, since the repeats folded into one have no time of their
	// own but the latest. FindingGroup::count has the occurrences.
	std::vector<std::uint64_t> findings;
	std::uint64_t total_bytes_mapped = 0;
	std::uint64_t total_calls = 0;
	std::uint64_t total_findings = 0;
	// Mappings live when the recording started (not in the buckets: they
	// were made before it).
	std::uint64_t live_mappings = 0;
	std::uint64_t live_bytes = 0;
};

struct Summary {
	std::string source;                // "live module" or the file name
	std::optional<Info> info;          // the module and kernel recorded
	std::optional<Stats> stats_end;    // the module's counters at the end
	std::vector<Policy> device_policies;
	std::vector<Policy> policy_overrides;
	std::uint64_t live_mappings_at_start = 0;

	std::uint64_t recorded_unix_ns = 0; // when recording started; 0 if live
	std::uint64_t start_ns = 0;  // first event or finding, ktime ns
	std::uint64_t end_ns = 0;    // last one
	// Buckets are bucket_ns wide and aligned to multiples of it, so the
	// first one starts at or a little before start_ns. bucket_count is at
	// most AnalysisOptions::time_buckets, 0 when nothing had a time.
	std::uint64_t timeline_start_ns = 0;
	std::uint64_t bucket_ns = 0;
	std::uint32_t bucket_count = 0;

	// Findings logged (as the module numbers them, comparable with its
	// seq, findings_lost and findings.size()) and the occurrences they
	// stand for (as FindingGroup::count; more than the logged ones where the
	// module folded repeats).
	std::uint64_t findings_total = 0;
	std::uint64_t occurrences_total = 0;
	std::uint64_t map_events_total = 0;
	std::uint64_t findings_lost = 0;
	std::uint64_t map_events_lost = 0;
	std::uint64_t map_events_lost_in_kernel = 0;
	std::uint64_t records_skipped = 0; // unknown record types in the file
	bool recording_complete = true;    // false: the file has no end record

	std::vector<FindingGroup> groups;     // by driver, then kind
	std::vector<DeviceTimeline> devices;  // by device name
	std::vector<Finding> findings;        // first findings_kept, seq order, as examples
	std::vector<Loss> losses;             // finding losses, as recorded (the first ones)
	std::vector<MapEventLoss> map_event_losses; // the first ones
	// The snapshots recorded (the first snapshots_kept, by seq) and how
	// many there were.
	std::vector<Snapshot> snapshots;
	std::uint64_t snapshots_total = 0;
	std::string kallsyms;                 // symbols recorded, if any
};

// Feeds records in and builds the Summary. Records may come in any order of
// time; the timeline copes with events before the first one seen.
class EDGEDMA_API Analyzer {
public:
	explicit Analyzer(const AnalysisOptions &options = {});
	~Analyzer();
	Analyzer(Analyzer &&) noexcept;
	Analyzer &operator=(Analyzer &&) noexcept;
	Analyzer(const Analyzer &) = delete;
	Analyzer &operator=(const Analyzer &) = delete;

	void set_source(std::string source);
	// CLOCK_REALTIME when the recording started (RecordingHeader).
	void set_recorded_at(std::uint64_t unix_ns);
	void add(const Record &record);
	// Unknown record types the reader skipped; whether it saw the end.
	void set_reader_state(std::uint64_t skipped, bool complete);

	// The summary of everything added so far.
	Summary summary() const;

private:
	class Impl;
	std::unique_ptr<Impl> impl_;
};

// How far reading a recording has come: bytes read of the file's size and
// records read. Called every few thousand records, and once at the end.
using RecordingProgress =
	std::function<void(std::uint64_t offset, std::uint64_t size, std::uint64_t records)>;

// Reads every record of reader into an Analyzer and returns the summary:
// the one path `edgedma report FILE` and `edgedma replay FILE` share.
// source names the recording in the summary. Throws the reader's Error on a
// malformed or truncated file.
EDGEDMA_API Summary analyze_recording(RecordingReader &reader, std::string source,
				      const AnalysisOptions &options = {},
				      const RecordingProgress &progress = {});

} // namespace edgedma
