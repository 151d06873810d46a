// SPDX-License-Identifier: GPL-2.0
//
// edgedma record: the live streams to a recording file, with what is needed
// to read it elsewhere (the module and kernel, the policies, the live
// mappings at the start, the symbols of every caller involved).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/error.hpp>
#include <edgedma/event_stream.hpp>
#include <edgedma/map_event_stream.hpp>
#include <edgedma/recording.hpp>

#include "command.hpp"
#include "format.hpp"
#include "stop_signal.hpp"

namespace edgedma::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct RecordOptions {
	std::string output;
	std::optional<double> duration;
	std::optional<std::string> device;
	bool map_events = true;
	bool every_occurrence = false;
};

std::uint64_t unix_now_ns()
{
	timespec now{};
	::clock_gettime(CLOCK_REALTIME, &now);
	return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u +
	       static_cast<std::uint64_t>(now.tv_nsec);
}

// The kallsyms lines of every caller recorded. Modules come and go while a
// recording runs (a driver under test is often loaded and unloaded in it),
// so symbols are read again, at most every few seconds, while callers are
// left that no earlier read could name; the last read is at the end.
class SymbolCollector {
public:
	void want(std::uint64_t address)
	{
		if (address && !named_.contains(address))
			wanted_.insert(address);
	}

	void refresh(bool now)
	{
		if (wanted_.empty() || (!now && Clock::now() < next_read_))
			return;
		Symbolizer symbols = load_kernel_symbols();
		next_read_ = Clock::now() + std::chrono::seconds(3);
		std::vector<std::uint64_t> addresses(wanted_.begin(), wanted_.end());
		std::string text = symbols.excerpt(addresses);
		for (std::size_t start = 0; start < text.size();) {
			std::size_t end = text.find('\n', start);
			lines_.insert(text.substr(start, end - start));
			start = end == std::string::npos ? text.size() : end + 1;
		}
		for (std::uint64_t address : addresses)
			if (symbols.locate(address)) {
				named_.insert(address);
				wanted_.erase(address);
			}
	}

	std::string kallsyms() const
	{
		std::string text;
		for (const auto &line : lines_)
			text += line + '\n';
		return text;
	}

private:
	std::set<std::uint64_t> wanted_;
	std::set<std::uint64_t> named_;
	std::set<std::string> lines_;
	Clock::time_point next_read_{};
};

// Writes what passes the device filter and remembers what the end needs.
class Recorder {
public:
	Recorder(const std::string &path, std::optional<std::string> device)
		: writer_(path, RecordingHeader{recording_format_version, unix_now_ns()}),
		  device_(std::move(device))
	{
	}

	bool wanted(const std::string &device) const { return !device_ || device == *device_; }

	void write(const Record &record) { writer_.write(record); }

	void add_device(const std::string &device) { devices_.insert(device); }

	void finding(const Finding &finding)
	{
		if (!wanted(finding.device))
			return;
		symbols_.want(finding.caller);
		if (finding.map_caller)
			symbols_.want(*finding.map_caller);
		devices_.insert(finding.device);
		writer_.write(finding);
		end_.findings++;
	}

	void finding_loss(const Loss &loss)
	{
		writer_.write(loss);
		end_.findings_lost += loss.count();
	}

	// A later count of a finding's site, for the report to count the site
	// as often as it was found while recording, not only as often as when
	// its finding came. Repeats of a finding from before the recording
	// count nowhere in it: left out.
	void finding_repeats(const FindingRepeats &repeats, std::uint64_t first_seq)
	{
		if (!wanted(repeats.device) || repeats.seq < first_seq)
			return;
		writer_.write(repeats);
	}

	// A snapshot the module announced: its record read at once, while the
	// module's store still holds it (snapshot_slots). One whose slot was
	// reused first is counted and said at the end.
	void snapshot(Client &client, const SnapshotHeader &header)
	{
		if (!wanted(header.device))
			return;
		try {
			writer_.write(client.snapshot_get(header.seq));
			devices_.insert(header.device);
			snapshots_++;
		} catch (const Error &error) {
			snapshots_missed_.push_back(header.seq);
			std::cerr << "edgedma: snapshot " << header.seq << " not recorded: "
				  << error.what() << '\n';
		}
	}

	std::uint64_t snapshots() const { return snapshots_; }
	const std::vector<std::uint64_t> &snapshots_missed() const { return snapshots_missed_; }

	// What the stream hands over (MapEventStream::poll() with handlers):
	// the events by reference, written without a copy.
	MapStreamHandlers map_event_handlers()
	{
		return {[this](const MapEvent &event) { map_event(event); },
			[this](const MapEventLoss &loss) { map_event_loss(loss); }};
	}

	void map_event(const MapEvent &event)
	{
		if (!wanted(event.device))
			return;
		symbols_.want(event.caller);
		// Mostly the device of the event before: no set look-up then.
		if (event.device != last_device_) {
			devices_.insert(event.device);
			last_device_ = event.device;
		}
		writer_.write(event);
		end_.map_events++;
	}

	void map_event_loss(const MapEventLoss &loss)
	{
		writer_.write(loss);
		end_.map_events_lost += loss.count();
	}

	// Device policies, symbols and the end record; the file is complete.
	void finish(Client &client, std::uint64_t duration_ns, std::uint64_t lost_in_kernel)
	{
		for (const auto &device : devices_) {
			try {
				writer_.write(DevicePolicy{client.policy_get(device)});
			} catch (const Error &) {
				// Gone since (hot-unplugged, or not a PCI or platform
				// device): the recording simply has no policy for it.
			}
		}
		symbols_.refresh(true);
		writer_.write(SymbolTable{symbols_.kallsyms()});
		end_.duration_ns = duration_ns;
		end_.map_events_lost_in_kernel = lost_in_kernel;
		writer_.finish(end_);
	}

	const RecordingEnd &end() const { return end_; }
	std::uint64_t bytes_written() const { return writer_.bytes_written(); }
	void add_caller(std::uint64_t caller) { symbols_.want(caller); }
	// Reads the kernel's symbols if callers wait for a name (now: at once).
	void name_callers(bool now) { symbols_.refresh(now); }

private:
	RecordingWriter writer_;
	std::optional<std::string> device_;
	std::set<std::string> devices_;
	std::string last_device_; // of the last mapping event, in devices_
	SymbolCollector symbols_;
	RecordingEnd end_;
	std::uint64_t snapshots_ = 0;
	std::vector<std::uint64_t> snapshots_missed_;
};

// "12.0 s, 48211 mapping events, 3 findings, 0 lost" on one line that
// rewrites itself; only on a terminal.
class Progress {
public:
	Progress() : enabled_(::isatty(STDERR_FILENO) == 1) {}

	void show(Clock::duration elapsed, const RecordingEnd &end)
	{
		if (!enabled_ || Clock::now() < next_)
			return;
		next_ = Clock::now() + std::chrono::milliseconds(200);
		std::fprintf(stderr, "\r\033[Krecording: %.1f s, %llu mapping events, %llu findings, %llu lost",
			     std::chrono::duration<double>(elapsed).count(),
			     static_cast<unsigned long long>(end.map_events),
			     static_cast<unsigned long long>(end.findings),
			     static_cast<unsigned long long>(end.map_events_lost + end.findings_lost));
		shown_ = true;
	}

	void clear()
	{
		if (shown_)
			std::fputs("\r\033[K", stderr);
		shown_ = false;
	}

private:
	bool enabled_;
	bool shown_ = false;
	Clock::time_point next_{};
};

int record(const RecordOptions &options)
{
	catch_stop_signals();
	Client client;
	Info info = client.get_info();
	// Before the counters: the start counts say folding was off. The
	// request lasts as long as client does, even if this process is killed.
	if (options.every_occurrence)
		client.every_occurrence(true);
	Stats start_stats = client.get_stats();

	Recorder recorder(options.output, options.device);
	recorder.write(info);
	recorder.write(StatsSnapshot{StatsSnapshot::When::start, start_stats});
	for (auto &policy : client.policy_list())
		recorder.write(PolicyOverride{std::move(policy)});
	for (auto &mapping : client.mappings(options.device)) {
		recorder.add_device(mapping.device);
		recorder.add_caller(mapping.caller);
		recorder.write(LiveMapping{std::move(mapping)});
	}
	recorder.name_callers(true);

	// Findings from the one after the counters just read: none falls
	// between the two.
	EventStream::Options finding_options;
	finding_options.from_seq = start_stats.findings + 1;
	EventStream findings(finding_options);
	std::optional<MapEventStream> map_events;
	if (options.map_events)
		map_events.emplace();
	const MapStreamHandlers map_event_handlers = recorder.map_event_handlers();

	auto start = Clock::now();
	std::optional<Clock::time_point> deadline;
	if (options.duration)
		deadline = start + std::chrono::duration_cast<Clock::duration>(
					   std::chrono::duration<double>(*options.duration));
	Progress progress;
	auto take_findings = [&](std::optional<std::chrono::nanoseconds> wait) {
		for (const StreamEvent &event : findings.poll(wait)) {
			if (const auto *loss = std::get_if<Loss>(&event))
				recorder.finding_loss(*loss);
			else if (const auto *repeats = std::get_if<FindingRepeats>(&event))
				recorder.finding_repeats(*repeats, *finding_options.from_seq);
			else if (const auto *snapshot = std::get_if<SnapshotHeader>(&event))
				recorder.snapshot(client, *snapshot);
			else
				recorder.finding(std::get<Finding>(event));
		}
	};
	while (!stop_requested()) {
		auto wait = std::chrono::nanoseconds(std::chrono::milliseconds(50));
		if (deadline) {
			auto left = *deadline - Clock::now();
			if (left <= Clock::duration::zero())
				break;
			wait = std::min(wait, std::chrono::duration_cast<std::chrono::nanoseconds>(left));
		}
		if (map_events) {
			map_events->poll(wait, map_event_handlers);
			take_findings(std::chrono::nanoseconds::zero());
		} else {
			take_findings(wait);
		}
		recorder.name_callers(false);
		progress.show(Clock::now() - start, recorder.end());
	}

	std::uint64_t lost_in_kernel = 0;
	if (map_events) {
		map_events->finish(map_event_handlers);
		lost_in_kernel = map_events->counters().lost_in_kernel;
	}
	// Findings the last calls caused are logged by now; one more look.
	take_findings(std::chrono::nanoseconds::zero());
	recorder.write(StatsSnapshot{StatsSnapshot::When::end, client.get_stats()});
	auto duration = Clock::now() - start;
	recorder.finish(client,
			static_cast<std::uint64_t>(
				std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count()),
			lost_in_kernel);
	progress.clear();

	const RecordingEnd &end = recorder.end();
	std::cerr << "edgedma: recorded " << end.map_events << " mapping events, "
		  << end.findings << " findings and " << recorder.snapshots() << " snapshots in "
		  << std::chrono::duration<double>(duration).count()
		  << " s to " << options.output << " (" << recorder.bytes_written() << " bytes)\n";
	if (end.map_events_lost || end.findings_lost)
		std::cerr << "edgedma: lost " << end.map_events_lost << " mapping events ("
			  << end.map_events_lost_in_kernel
			  << " dropped by the module, the rest overflowed the socket) and "
			  << end.findings_lost << " findings\n";
	if (!recorder.snapshots_missed().empty())
		std::cerr << "edgedma: " << recorder.snapshots_missed().size()
			  << " snapshots announced were gone from the module's store before "
			     "they could be read (snapshot_slots)\n";
	return 0;
}

} // namespace

Action setup_record(CLI::App &command)
{
	auto options = std::make_shared<RecordOptions>();
	command.add_option("-o,--output", options->output, "The recording file to write")
		->required();
	command.add_option("--duration", options->duration, "Stop after S seconds")
		->check(CLI::NonNegativeNumber);
	command.add_option("--device", options->device,
			   "Only this device's mapping events, findings and mappings (its "
			   "dev_name())");
	command.add_flag("!--no-map-events", options->map_events,
			 "Findings only: leave the module's mapping-event stream off");
	command.add_flag("--every-occurrence", options->every_occurrence,
			 "Record every occurrence of every finding as a finding of its own: "
			 "the module stops folding repeats at their call site while the "
			 "recording runs (a finding storm then costs the driver the whole "
			 "finding path per call, and what the module's log or the socket "
			 "cannot keep is counted as lost)");
	command.footer("Records until --duration passes, SIGTERM or SIGINT (Ctrl-C), then "
		       "writes the device policies, the kernel symbols of the callers involved "
		       "(snapshots taken meanwhile are recorded whole as they are announced) "
		       "and the counts, and says what was lost. The mapping-event stream is "
		       "turned on for the recording and off again after. Read it with "
		       "'edgedma replay' or 'edgedma report'. Needs CAP_SYS_ADMIN.");
	return [options] { return record(*options); };
}

} // namespace edgedma::cli
