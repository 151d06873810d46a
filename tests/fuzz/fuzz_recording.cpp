// SPDX-License-Identifier: GPL-2.0
//
// libFuzzer target: the input is a recording file. RecordingReader reads
// every record or throws edgedma::Error; the records it returned go to an
// Analyzer, whose summary must come out whatever they say and keep the
// promises of analysis.hpp (bounds, totals that add up). Any other
// exception, a crash, a sanitizer report or a broken promise is a finding.
//
// Reading with next(Record &), which reuses the record's storage, must
// give what next() gives, error included.
//
// What was read must also survive a round trip: the records written again
// with encode_recording() read back equal. A reader and a writer that
// disagree are a finding too (the target traps).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <edgedma/analysis.hpp>
#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>

namespace {

// Small enough that the analysis keeps few examples and buckets, so an
// input spends its time in the code rather than in copying.
edgedma::AnalysisOptions fuzz_options()
{
	edgedma::AnalysisOptions options;
	options.time_buckets = 16;
	options.examples_per_group = 2;
	options.findings_kept = 64;
	options.losses_kept = 4;
	return options;
}

[[noreturn]] void finding(const char *what)
{
	std::fprintf(stderr, "fuzz_recording: %s\n", what);
	std::abort();
}

struct Read {
	edgedma::RecordingHeader header;
	std::vector<edgedma::Record> records;
	std::uint64_t skipped = 0;
	bool complete = false;
	bool failed = false; // an Error ended the reading
	std::string error;   // its what()
};

Read read_all(std::span<const std::byte> bytes)
{
	Read read;
	try {
		edgedma::RecordingReader reader(bytes);
		read.header = reader.header();
		std::uint64_t last_offset = reader.offset();
		while (auto record = reader.next()) {
			read.records.push_back(std::move(*record));
			// Each record takes bytes: a reader that stands still
			// would loop for ever on a real file.
			if (reader.offset() <= last_offset)
				finding("the reader returned a record without moving on");
			last_offset = reader.offset();
		}
		if (reader.offset() > reader.size())
			finding("the reader's offset is past the end of the file");
		read.skipped = reader.skipped();
		read.complete = reader.complete();
	} catch (const edgedma::Error &error) {
		read.failed = true; // bad input, reported as such
		read.error = error.what();
	}
	return read;
}

// next(Record &), which decodes into what the record held before, must
// read exactly what next() reads: the same records and the same error,
// whatever an earlier record left in the storage.
void check_reuse(std::span<const std::byte> bytes, const Read &read)
{
	std::size_t count = 0;
	std::string error;
	try {
		edgedma::RecordingReader reader(bytes);
		edgedma::Record record;
		while (reader.next(record)) {
			if (count >= read.records.size() || !(record == read.records[count]))
				finding("next(Record &) read another record than next()");
			count++;
		}
	} catch (const edgedma::Error &caught) {
		error = caught.what();
	}
	if (count != read.records.size() || error != read.error)
		finding("next(Record &) ended elsewhere or otherwise than next()");
}

template <typename Number> Number sum(const std::vector<Number> &values)
{
	return std::accumulate(values.begin(), values.end(), Number{0});
}

// What analysis.hpp promises of every Summary, whatever the records said.
// Sums may wrap (sizes are the input's), but they wrap alike on both sides.
void check_summary(const edgedma::Summary &summary, const Read &read)
{
	const auto options = fuzz_options();
	bool timed = std::ranges::any_of(read.records, [](const edgedma::Record &r) {
		return std::holds_alternative<edgedma::Finding>(r) ||
		       std::holds_alternative<edgedma::MapEvent>(r);
	});
	if (summary.bucket_count > options.time_buckets)
		finding("the summary has more buckets than asked for");
	if ((summary.bucket_count != 0) != timed)
		finding("bucket_count is 0 exactly when nothing had a time: not so");
	if (timed) {
		if (summary.bucket_ns == 0 || summary.timeline_start_ns > summary.start_ns ||
		    summary.start_ns > summary.end_ns)
			finding("the timeline does not start at or before the first event");
		if ((summary.end_ns - summary.timeline_start_ns) / summary.bucket_ns >=
		    summary.bucket_count)
			finding("the last event falls after the last bucket");
	}
	std::uint64_t device_findings = 0;
	for (const auto &timeline : summary.devices) {
		for (const auto *column : {&timeline.bytes_mapped, &timeline.maps, &timeline.unmaps,
					   &timeline.syncs, &timeline.findings})
			if (column->size() != summary.bucket_count)
				finding("a device timeline is not bucket_count long");
		if (sum(timeline.findings) != timeline.total_findings)
			finding("a device's findings buckets do not add up to its total");
		if (sum(timeline.bytes_mapped) != timeline.total_bytes_mapped)
			finding("a device's bytes_mapped buckets do not add up to its total");
		if (sum(timeline.maps) + sum(timeline.unmaps) + sum(timeline.syncs) >
		    timeline.total_calls)
			finding("a device's buckets count more calls than its total");
		device_findings += timeline.total_findings;
	}
	if (device_findings != summary.findings_total)
		finding("the devices' findings do not add up to findings_total");
	std::uint64_t grouped = 0, grouped_logged = 0;
	for (const auto &group : summary.groups) {
		grouped += group.count;
		grouped_logged += group.logged;
		if (group.examples.size() > options.examples_per_group)
			finding("a group keeps more examples than asked for");
		if (group.logged == 0)
			finding("a group without a finding logged");
	}
	if (grouped != summary.occurrences_total)
		finding("the groups' counts do not add up to occurrences_total");
	if (grouped_logged != summary.findings_total)
		finding("the groups' logged findings do not add up to findings_total");
	if (summary.findings.size() > options.findings_kept ||
	    summary.losses.size() > options.losses_kept ||
	    summary.map_event_losses.size() > options.losses_kept)
		finding("the summary keeps more than asked for");
	if (!std::ranges::is_sorted(summary.findings, {}, &edgedma::Finding::seq))
		finding("the findings are not in seq order");
}

void analyze(const Read &read)
{
	try {
		edgedma::Analyzer analyzer(fuzz_options());
		analyzer.set_source("fuzz");
		analyzer.set_recorded_at(read.header.created_unix_ns);
		for (const auto &record : read.records)
			analyzer.add(record);
		analyzer.set_reader_state(read.skipped, read.complete);
		check_summary(analyzer.summary(), read);
	} catch (const edgedma::Error &) {
		// The analysis may refuse records it cannot make sense of.
	}
}

void round_trip(const Read &read)
{
	// Only a file read whole is a faithful picture of itself.
	if (read.failed)
		return;
	std::vector<std::byte> again;
	try {
		again = edgedma::encode_recording(read.header, read.records);
	} catch (const edgedma::Error &) {
		// The writer may refuse what it could never have written.
		return;
	}
	Read reread = read_all(again);
	if (reread.failed)
		finding("a recording written by encode_recording() does not read back");
	if (!(reread.header == read.header))
		finding("the header changed on a round trip");
	if (reread.records != read.records)
		finding("the records changed on a round trip");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	// A heap copy of exactly size bytes, so ASan sees a read past the end.
	std::unique_ptr<std::byte[]> bytes(new std::byte[size]);
	if (size)
		std::memcpy(bytes.get(), data, size);
	Read read = read_all({bytes.get(), size});
	check_reuse({bytes.get(), size}, read);
	analyze(read);
	round_trip(read);
	return 0;
}
