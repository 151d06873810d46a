// SPDX-License-Identifier: GPL-2.0
//
// edgedma-replay-bench: how fast `edgedma replay` gets through a recording,
// in records per second of one core (CPU time, so other work on the machine
// disturbs the numbers less than it would wall-clock time).
//
//   BM_Replay   reading, decoding and analysing, as `edgedma replay` does
//               (analyze_recording() on a file, the file mapped each time)
//   BM_Read     reading and decoding alone: every record, nothing done
//               with it, one Record reused as analyze_recording() does
//   BM_ReadOptional  the same with the std::optional next(), a new Record
//               each time
//   BM_Analyze  the Analyzer alone, on records decoded beforehand
//   BM_Explain  `edgedma explain` of a recording of 10^4 snapshots: each
//               read, decoded and put through the cross-view comparison
//               (compare_views() and the side-by-side rows); its items are
//               snapshots. The snapshots are the records the real module
//               wrote in the guests (tests/data/snapshots), each as often
//               as the next, at least 10^4 in all.
//
// The recording is the report stage's synthetic one (tests/report/
// synthetic_recording.hpp: six devices, map/unmap/sync calls with callers,
// findings, losses), written to a temporary file before the first
// benchmark runs (under TMPDIR, removed at the end). It is then in the page
// cache: the numbers are those of a warm replay.
//
// Options besides Google Benchmark's own (--benchmark_out=FILE
// --benchmark_out_format=json for the orchestrator):
//   --events=N        mapping events in the synthetic recording (1000000)
//   --recording=FILE  benchmark this recording instead of a synthetic one
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include <benchmark/benchmark.h>

#include <edgedma/analysis.hpp>
#include <edgedma/cross_view.hpp>
#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>

#include "synthetic_recording.hpp"

namespace {

namespace fs = std::filesystem;

struct Settings {
	std::uint64_t events = 1'000'000;
	std::optional<fs::path> recording; // a given file instead of a synthetic one
};

Settings settings;

// A directory of our own under TMPDIR, removed with everything in it when
// the program ends.
class TemporaryDirectory {
public:
	TemporaryDirectory()
	{
		std::string pattern = (fs::temp_directory_path() / "edgedma-bench-XXXXXX").string();
		if (!::mkdtemp(pattern.data()))
			throw std::system_error(errno, std::generic_category(),
						"cannot make a directory like " + pattern);
		path_ = pattern;
	}
	~TemporaryDirectory()
	{
		std::error_code ignored;
		fs::remove_all(path_, ignored);
	}
	TemporaryDirectory(const TemporaryDirectory &) = delete;
	TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;

	const fs::path &path() const { return path_; }

private:
	fs::path path_;
};

// The recording every benchmark reads, and what a full read of it must
// find: a benchmark whose pass sees anything else measured something else.
struct Recording {
	fs::path file;
	std::uint64_t records = 0;
	std::uint64_t map_events = 0;
	std::uint64_t bytes = 0;
};

// Made on first use, so that --benchmark_list_tests and a filter that
// selects nothing write no file.
const Recording &recording()
{
	static TemporaryDirectory directory;
	static const Recording made = [] {
		Recording result;
		if (!settings.recording) {
			// The writer's own counts: what the reader must find.
			result.file = directory.path() / "synthetic.edr";
			auto written = edgedma::synthetic::write_recording(
				result.file, {.events = settings.events, .snapshot_files = {}});
			result.records = written.records;
			result.map_events = written.map_events;
			result.bytes = written.bytes;
			return result;
		}
		// A given file has no other witness than a first read.
		result.file = *settings.recording;
		edgedma::RecordingReader reader(result.file);
		while (auto record = reader.next()) {
			result.records++;
			if (std::holds_alternative<edgedma::MapEvent>(*record))
				result.map_events++;
		}
		result.bytes = reader.size();
		return result;
	}();
	return made;
}

// The records of the recording, decoded once, for BM_Analyze.
const std::vector<edgedma::Record> &decoded_records()
{
	static const std::vector<edgedma::Record> records = [] {
		std::vector<edgedma::Record> result;
		result.reserve(recording().records);
		edgedma::RecordingReader reader(recording().file);
		while (auto record = reader.next())
			result.push_back(std::move(*record));
		return result;
	}();
	return records;
}

void set_counters(benchmark::State &state, std::uint64_t records_per_pass)
{
	const auto passes = static_cast<std::uint64_t>(state.iterations());
	state.SetItemsProcessed(static_cast<std::int64_t>(passes * records_per_pass));
	state.SetBytesProcessed(static_cast<std::int64_t>(passes * recording().bytes));
	state.counters["records"] = static_cast<double>(records_per_pass);
	// Seconds per record (shown as ns), the figure the profile speaks of.
	state.counters["time_per_record"] = benchmark::Counter(
		static_cast<double>(records_per_pass),
		benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Setup hooks: the recording is made, and decoded, before a benchmark's
// function runs, so that a profile of that function (bench/host/
// callgrind-per-record) holds only what it measures. A failure here is met
// again, and reported, when the benchmark asks for the same thing.
void prepare_recording(const benchmark::State &)
{
	try {
		recording();
	} catch (const std::exception &) {
	}
}

void prepare_decoded_records(const benchmark::State &state)
{
	prepare_recording(state);
	try {
		decoded_records();
	} catch (const std::exception &) {
	}
}

// Runs a benchmark body, turning an exception into a skipped benchmark
// that says why, rather than a program that dies in the middle of a report.
template <typename Body> void guarded(benchmark::State &state, Body body)
{
	try {
		body();
	} catch (const std::exception &error) {
		state.SkipWithError(error.what());
	}
}

void BM_Replay(benchmark::State &state)
{
	guarded(state, [&] {
		const auto &file = recording();
		const std::string source = file.file.string();
		for (auto _ : state) {
			edgedma::RecordingReader reader(file.file);
			edgedma::Summary summary = edgedma::analyze_recording(reader, source);
			if (summary.map_events_total != file.map_events) {
				state.SkipWithError("the replay did not count every mapping event");
				return;
			}
			benchmark::DoNotOptimize(summary);
		}
		set_counters(state, file.records);
	});
}

// Reads the whole recording once per iteration; read_all returns how many
// records it got.
template <typename ReadAll> void read_benchmark(benchmark::State &state, ReadAll read_all)
{
	guarded(state, [&] {
		const auto &file = recording();
		for (auto _ : state) {
			edgedma::RecordingReader reader(file.file);
			if (read_all(reader) != file.records) {
				state.SkipWithError("the reader did not return every record");
				return;
			}
		}
		set_counters(state, file.records);
	});
}

// Reading as analyze_recording() does: one Record, decoded into each time.
void BM_Read(benchmark::State &state)
{
	read_benchmark(state, [](edgedma::RecordingReader &reader) {
		std::uint64_t records = 0;
		edgedma::Record record;
		while (reader.next(record)) {
			benchmark::DoNotOptimize(record);
			records++;
		}
		return records;
	});
}

// Reading with the other next(), a new Record each time: what a program
// that keeps the records pays.
void BM_ReadOptional(benchmark::State &state)
{
	read_benchmark(state, [](edgedma::RecordingReader &reader) {
		std::uint64_t records = 0;
		while (auto record = reader.next()) {
			benchmark::DoNotOptimize(*record);
			records++;
		}
		return records;
	});
}

void BM_Analyze(benchmark::State &state)
{
	guarded(state, [&] {
		const auto &records = decoded_records();
		for (auto _ : state) {
			edgedma::Analyzer analyzer;
			for (const auto &record : records)
				analyzer.add(record);
			edgedma::Summary summary = analyzer.summary();
			if (summary.map_events_total != recording().map_events) {
				state.SkipWithError("the analysis did not count every mapping event");
				return;
			}
			benchmark::DoNotOptimize(summary);
		}
		set_counters(state, records.size());
	});
}

// The snapshot fixtures, made into a recording of at least
// snapshots_wanted snapshots (each fixture as often as the next, so the
// count is rounded up to a multiple of theirs) on first use.
constexpr std::uint64_t snapshots_wanted = 10'000;

struct SnapshotRecording {
	fs::path file;
	std::uint64_t snapshots = 0;
};

const SnapshotRecording &snapshot_recording()
{
	static TemporaryDirectory directory;
	static const SnapshotRecording made = [] {
		std::vector<fs::path> files;
		for (const auto &entry : fs::directory_iterator(EDGEDMA_SNAPSHOT_FIXTURE_DIR))
			if (entry.path().extension() == ".snap")
				files.push_back(entry.path());
		if (files.empty())
			throw std::runtime_error(std::string("no snapshot fixtures (*.snap) in ") +
						 EDGEDMA_SNAPSHOT_FIXTURE_DIR);
		const std::uint64_t copies = (snapshots_wanted + files.size() - 1) / files.size();
		SnapshotRecording result{directory.path() / "snapshots.edr", copies * files.size()};
		edgedma::synthetic::write_recording(
			result.file, {.events = 1000,
				      .findings = 10,
				      .snapshot_files = files,
				      .snapshot_copies = copies});
		return result;
	}();
	return made;
}

void prepare_snapshot_recording(const benchmark::State &)
{
	try {
		snapshot_recording();
	} catch (const std::exception &) {
	}
}

void BM_Explain(benchmark::State &state)
{
	guarded(state, [&] {
		const fs::path &file = snapshot_recording().file;
		const std::uint64_t snapshots = snapshot_recording().snapshots;
		const edgedma::Symbolizer no_symbols;
		for (auto _ : state) {
			edgedma::RecordingReader reader(file);
			edgedma::Record record;
			std::uint64_t explained = 0;
			while (reader.next(record))
				if (const auto *snapshot = std::get_if<edgedma::Snapshot>(&record)) {
					const auto verdicts = edgedma::compare_views(*snapshot, no_symbols);
					benchmark::DoNotOptimize(edgedma::headline(verdicts));
					benchmark::DoNotOptimize(
						edgedma::side_by_side(*snapshot, verdicts));
					explained++;
				}
			if (explained != snapshots) {
				state.SkipWithError("the recording did not hold every snapshot");
				return;
			}
		}
		const auto passes = static_cast<std::uint64_t>(state.iterations());
		state.SetItemsProcessed(static_cast<std::int64_t>(passes * snapshots));
		state.counters["snapshots"] = static_cast<double>(snapshots);
		state.counters["time_per_snapshot"] =
			benchmark::Counter(static_cast<double>(snapshots),
					   benchmark::Counter::kIsIterationInvariantRate |
						   benchmark::Counter::kInvert);
	});
}

// A pass over a million records takes tens of milliseconds: milliseconds
// read best.
BENCHMARK(BM_Replay)->Setup(prepare_recording)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Read)->Setup(prepare_recording)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadOptional)->Setup(prepare_recording)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Analyze)->Setup(prepare_decoded_records)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Explain)->Setup(prepare_snapshot_recording)->Unit(benchmark::kMillisecond);

// Takes our own options out of argv, leaving Google Benchmark's and
// anything unknown (which it then reports).
void parse_own_options(int &argc, char **argv)
{
	int kept = 1;
	for (int i = 1; i < argc; i++) {
		std::string_view argument = argv[i];
		if (argument.starts_with("--events=")) {
			std::string value(argument.substr(9));
			char *end = nullptr;
			settings.events = std::strtoull(value.c_str(), &end, 10);
			if (value.empty() || *end != '\0' || settings.events == 0)
				throw std::invalid_argument("--events needs a positive number, not '" +
							    value + "'");
		} else if (argument.starts_with("--recording=")) {
			settings.recording = fs::path(argument.substr(12));
		} else {
			argv[kept++] = argv[i];
		}
	}
	argc = kept;
	argv[argc] = nullptr;
}

} // namespace

int main(int argc, char **argv)
try {
	benchmark::Initialize(&argc, argv);
	parse_own_options(argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::AddCustomContext("recording",
				    settings.recording ? settings.recording->string()
						       : "synthetic, " +
							 std::to_string(settings.events) +
							 " mapping events");
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
} catch (const std::exception &error) {
	std::cerr << "edgedma-replay-bench: " << error.what() << '\n';
	return 1;
}
