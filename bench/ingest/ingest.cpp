// SPDX-License-Identifier: GPL-2.0
//
// edgedma-bench-ingest: how fast libedgedma takes in the module's
// mapping-event stream, received with io_uring or with a plain poll+recv
// loop (ReceiveMode::recv), decoding every event either way. bench-guest
// runs one of each side by side on the same stream while the benchmark
// driver maps and unmaps; the figure that tells them apart is events per
// second of the consumer's own CPU time (both keep up with the wall clock
// as long as the producer is the slower side).

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <edgedma/map_event_stream.hpp>

namespace {

using Clock = std::chrono::steady_clock;

double cpu_seconds()
{
	rusage usage{};
	if (::getrusage(RUSAGE_SELF, &usage) != 0)
		throw std::runtime_error("getrusage failed");
	auto seconds = [](const timeval &tv) {
		return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
	};
	return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Counts what the stream hands over, one event at a time: the way
// `edgedma record` takes it (MapStreamHandlers, no copy per event).
struct Tally {
	std::uint64_t events = 0;
	std::uint64_t loss_reports = 0;

	edgedma::MapStreamHandlers handlers()
	{
		return {[this](const edgedma::MapEvent &) { events++; },
			[this](const edgedma::MapEventLoss &) { loss_reports++; }};
	}
};

int run(const std::string &receive, double duration, bool json)
{
	edgedma::MapEventStream::Options options;
	options.receive_mode = receive == "recv" ? edgedma::ReceiveMode::recv
						 : edgedma::ReceiveMode::automatic;
	Tally tally;
	double cpu_start = cpu_seconds();
	auto start = Clock::now();
	auto deadline = start + std::chrono::duration_cast<Clock::duration>(
					std::chrono::duration<double>(duration));
	edgedma::MapEventStream stream(options);
	const edgedma::MapStreamHandlers handlers = tally.handlers();
	while (Clock::now() < deadline)
		stream.poll(deadline - Clock::now(), handlers);
	stream.finish(handlers);
	double wall = std::chrono::duration<double>(Clock::now() - start).count();
	double cpu = cpu_seconds() - cpu_start;
	const auto &c = stream.counters();

	nlohmann::json out = {
		{"receive", receive},
		{"receive_mode", std::string(edgedma::receive_mode_name(stream.receive_mode()))},
		{"receive_buffer", stream.receive_buffer()},
		{"events", tally.events},
		{"received", c.received},
		{"lost", c.lost},
		{"lost_in_kernel", c.lost_in_kernel},
		{"late", c.late},
		{"overflows", c.overflows},
		{"messages", c.messages},
		{"seconds", wall},
		{"cpu_seconds", cpu},
		{"events_per_second", wall > 0 ? static_cast<double>(tally.events) / wall : 0.0},
		{"events_per_cpu_second", cpu > 0 ? static_cast<double>(tally.events) / cpu : 0.0},
	};
	if (json)
		std::cout << out.dump() << '\n';
	else
		std::cout << out.dump(1) << '\n';
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{"Events per second libedgedma ingests from the mapping-event stream "
		     "(needs the edgedma module and CAP_SYS_ADMIN)",
		     "edgedma-bench-ingest"};
	std::string receive = "io_uring";
	double duration = 10;
	bool json = false;
	app.add_option("--receive", receive, "io_uring (the library's default) or recv "
		       "(a plain poll+recv loop)")
		->check(CLI::IsMember({"io_uring", "recv"}))
		->default_str("io_uring");
	app.add_option("--duration", duration, "Seconds to receive for")
		->check(CLI::PositiveNumber)
		->default_str("10");
	app.add_flag("--json", json, "One line of JSON");
	CLI11_PARSE(app, argc, argv);
	try {
		return run(receive, duration, json);
	} catch (const std::exception &e) {
		std::cerr << "edgedma-bench-ingest: " << e.what() << '\n';
	}
	return 1;
}
