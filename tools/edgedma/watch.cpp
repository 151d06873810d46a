// SPDX-License-Identifier: GPL-2.0
//
// edgedma watch: findings as the module reports them, through libedgedma's
// io_uring event stream. Nothing is skipped silently: findings the stream
// could not deliver are reported as lost, on stderr and (with --json) as
// {"lost": N, ...} lines among the findings. The module's word that a
// finding's site was found again (FINDING_REPEATS) is a line of its own,
// {"repeats": {...}} with --json.
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include <time.h>

#include <CLI/CLI.hpp>

#include <edgedma/client.hpp>
#include <edgedma/cross_view.hpp>
#include <edgedma/error.hpp>
#include <edgedma/event_stream.hpp>
#include <edgedma/report.hpp>

#include "command.hpp"
#include "finding_render.hpp"
#include "snapshot_render.hpp"
#include "format.hpp"
#include "stop_signal.hpp"

namespace edgedma::cli {
namespace {

struct WatchOptions {
	bool json = false;
	std::optional<std::string> device;
	std::optional<std::uint64_t> count;
	std::optional<double> timeout;
	std::optional<std::uint64_t> since;
	std::string receive = "auto";
	int receive_buffer = EventStream::Options{}.receive_buffer;
	bool every_occurrence = false;
};

ReceiveMode receive_mode(const std::string &name)
{
	if (name == "multishot")
		return ReceiveMode::multishot;
	if (name == "batched")
		return ReceiveMode::batched;
	if (name == "recv")
		return ReceiveMode::recv;
	return ReceiveMode::automatic;
}

void report_loss(const Loss &loss, bool json)
{
	std::cerr << "edgedma: " << describe(loss) << '\n';
	if (json)
		std::cout << loss_json(loss).dump() << '\n';
}

// The module's clock (ktime_get_ns() is CLOCK_MONOTONIC), to say how long
// ago the latest repeat was.
std::optional<std::uint64_t> module_clock_ns()
{
	timespec now{};
	if (::clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return std::nullopt;
	return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u +
	       static_cast<std::uint64_t>(now.tv_nsec);
}

void report_repeats(const FindingRepeats &repeats, bool json)
{
	if (json)
		std::cout << json_text(repeats_json(repeats)) << '\n';
	else
		std::cout << repeats_text(repeats, module_clock_ns());
}

// A snapshot as it is announced, with the headline of the cross-view
// comparison: the record is read back from the module's store, which a
// newer snapshot may have taken over meanwhile (then the reason is shown
// instead).
void report_snapshot(Client &client, const SnapshotHeader &header, const Symbolizer &symbols,
		     bool json)
{
	using Json = nlohmann::ordered_json;
	Json lead = nullptr;
	std::string lead_text;
	try {
		const Snapshot snapshot = client.snapshot_get(header.seq);
		const std::vector<Verdict> verdicts = compare_views(snapshot, symbols);
		if (const Verdict *verdict = headline(verdicts)) {
			lead = verdict_to_json<Json>(*verdict);
			lead_text = "  " + verdict_line(*verdict) + "\n";
		}
	} catch (const Error &error) {
		lead_text = "  (no headline: " + error.message() + ")\n";
	}
	if (json) {
		Json announced = snapshot_header_json(header);
		announced["headline"] = std::move(lead);
		std::cout << json_text(Json{{"snapshot", std::move(announced)}}) << '\n';
		return;
	}
	std::cout << snapshot_announcement_text(header) << lead_text;
}

void summarise(const StreamCounters &counters)
{
	if (counters.recovered_from_log == 0 && counters.lost == 0 && counters.overflows == 0)
		return;
	std::cerr << "edgedma: " << counters.received << " findings received, "
		  << counters.recovered_from_log << " recovered from the module's log, "
		  << counters.lost << " lost; " << counters.overflows
		  << " socket overflows\n";
}

int watch(const WatchOptions &options)
{
	using Clock = std::chrono::steady_clock;
	// Stop signals are checked between waits at least this often.
	constexpr auto slice = std::chrono::milliseconds(500);

	catch_stop_signals();
	EventStream::Options stream_options;
	stream_options.receive_mode = receive_mode(options.receive);
	stream_options.from_seq = options.since;
	stream_options.receive_buffer = options.receive_buffer;
	EventStream stream(stream_options);
	Symbolizer symbols = load_kernel_symbols();
	// Reads back each snapshot announced, for its headline; holds the
	// request for every occurrence as long as it lives.
	Client client;
	if (options.every_occurrence)
		client.every_occurrence(true);

	std::optional<Clock::time_point> deadline;
	if (options.timeout)
		deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
						  std::chrono::duration<double>(*options.timeout));
	std::uint64_t shown = 0;
	bool done = options.count && *options.count == 0;
	while (!done && !stop_requested()) {
		auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(slice);
		if (deadline) {
			auto left = *deadline - Clock::now();
			if (left <= Clock::duration::zero())
				break;
			wait = std::min(wait, std::chrono::duration_cast<std::chrono::nanoseconds>(left));
		}
		for (const StreamEvent &event : stream.poll(wait)) {
			if (const auto *loss = std::get_if<Loss>(&event)) {
				report_loss(*loss, options.json);
				continue;
			}
			// Not a finding: --count does not count them.
			if (const auto *repeats = std::get_if<FindingRepeats>(&event)) {
				if (!done && (!options.device || repeats->device == *options.device))
					report_repeats(*repeats, options.json);
				continue;
			}
			// Not a finding either: --count does not count them.
			if (const auto *snapshot = std::get_if<SnapshotHeader>(&event)) {
				if (!done && (!options.device || snapshot->device == *options.device))
					report_snapshot(client, *snapshot, symbols, options.json);
				continue;
			}
			const auto &finding = std::get<Finding>(event);
			if (done || (options.device && finding.device != *options.device))
				continue;
			if (options.json)
				std::cout << render_finding_json(finding, symbols) << '\n';
			else
				std::cout << finding_text(finding, symbols);
			done = options.count && ++shown >= *options.count;
		}
		std::cout.flush();
	}
	summarise(stream.counters());
	return 0;
}

} // namespace

Action setup_watch(CLI::App &command)
{
	auto options = std::make_shared<WatchOptions>();
	command.add_flag("--json", options->json,
			 "One JSON object per finding and line; losses as "
			 "{\"lost\": N, ...} lines, repeats as {\"repeats\": {...}} lines, "
			 "snapshots as {\"snapshot\": {...}} lines with their headline");
	command.add_option("--device", options->device,
			   "Only findings and snapshots of this device (its dev_name())");
	command.add_option("--count", options->count, "Exit after N findings");
	command.add_flag("--every-occurrence", options->every_occurrence,
			 "Show every occurrence of every finding: the module stops folding "
			 "repeats at their call site while this runs (a storm then costs the "
			 "driver the whole finding path per call; what the socket cannot keep "
			 "is shown as lost)");
	command.add_option("--timeout", options->timeout, "Exit after S seconds")
		->check(CLI::NonNegativeNumber);
	command.add_option("--since", options->since,
			   "Start at this sequence number, from the module's log, instead "
			   "of with the next finding")
		->check(CLI::PositiveNumber);
	command.add_option("--receive", options->receive,
			   "How io_uring receives: multishot (Linux 6.0+), batched, or "
			   "auto (multishot where the kernel has it, recv where io_uring is "
			   "disabled); recv receives without io_uring, a system call per "
			   "message")
		->check(CLI::IsMember({"auto", "multishot", "batched", "recv"}))
		->default_str("auto");
	command.add_option("--receive-buffer", options->receive_buffer,
			   "Socket receive buffer to ask for, bytes (a small one shows how "
			   "the stream recovers from overflows)")
		->check(CLI::Range(1024, 1 << 30))
		->default_str(std::to_string(options->receive_buffer));
	command.footer("Exits with status 0 after --count findings, --timeout seconds, "
		       "SIGTERM or SIGINT (Ctrl-C). Needs CAP_SYS_ADMIN.");
	return [options] { return watch(*options); };
}

} // namespace edgedma::cli
