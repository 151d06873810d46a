// SPDX-License-Identifier: GPL-2.0
#include "synthetic_recording.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <linux/edgedma.h>

#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma::synthetic {
namespace {

constexpr std::uint32_t cpus = 4;
constexpr std::uint64_t start_ns = 1'234'000'000'000; // ktime at the start
constexpr std::uint64_t event_gap_ns = 30'000;         // 1 M events: 30 s

// One device and how it uses the DMA API over time.
struct DeviceHabit {
	const char *device;
	const char *driver;
	std::uint32_t map_call;
	std::uint32_t unmap_call;
	std::uint64_t size;
	std::uint32_t weight;  // share of the events while active
	std::uint64_t period_ns; // 0: always active; else active half of each period
	std::uint64_t caller;
};

const DeviceHabit habits[] = {
	{"0000:00:04.0", "edgedma_test_edu", EDGEDMA_CALL_MAP_PAGE, EDGEDMA_CALL_UNMAP_PAGE,
	 4096, 8, 0, 0xffffffffc0a01234},
	{"0000:00:02.0", "e1000e", EDGEDMA_CALL_MAP_PAGE, EDGEDMA_CALL_UNMAP_PAGE, 2048, 10,
	 4'000'000'000, 0xffffffffc0b02040},
	{"nvme0", "nvme", EDGEDMA_CALL_MAP_SG, EDGEDMA_CALL_UNMAP_SG, 131072, 6, 10'000'000'000,
	 0xffffffffc0c00480},
	{"0000:00:1f.2", "ahci", EDGEDMA_CALL_MAP_SG, EDGEDMA_CALL_UNMAP_SG, 65536, 1, 0,
	 0xffffffffc0d00100},
	{"fe300000.dma", "", EDGEDMA_CALL_ALLOC_COHERENT, EDGEDMA_CALL_FREE_COHERENT, 16384, 1,
	 7'000'000'000, 0xffffffff81234560},
	{"virtio1", "virtio_net", EDGEDMA_CALL_MAP_PAGE, EDGEDMA_CALL_UNMAP_PAGE, 1536, 4,
	 2'500'000'000, 0xffffffffc0e00200},
};

// The symbols the callers above fall in, as /proc/kallsyms shows them.
constexpr const char *kallsyms =
	"ffffffff81234000 T dma_pool_alloc\n"
	"ffffffff81235000 T dma_pool_free\n"
	"ffffffffc0a01000 t edu_run_mode\t[edgedma_test_edu]\n"
	"ffffffffc0a01800 t edu_unmap\t[edgedma_test_edu]\n"
	"ffffffffc0b02000 t e1000_alloc_rx_buffers\t[e1000e]\n"
	"ffffffffc0b02800 t e1000_clean_rx_irq\t[e1000e]\n"
	"ffffffffc0c00400 t nvme_map_data\t[nvme]\n"
	"ffffffffc0c00900 t nvme_unmap_data\t[nvme]\n"
	"ffffffffc0d00000 t ahci_qc_prep\t[libahci]\n"
	"ffffffffc0d00400 t ahci_qc_issue\t[libahci]\n"
	"ffffffffc0e00100 t virtnet_add_recvbuf\t[virtio_net]\n"
	"ffffffffc0e00400 t virtnet_receive\t[virtio_net]\n";

// Findings of the kinds the module reports, on the devices above.
struct FindingTemplate {
	std::size_t habit;
	std::uint32_t kind;
	std::uint32_t call;
	const char *detail;
};

const FindingTemplate finding_templates[] = {
	{0, EDGEDMA_FINDING_ADDR_MISALIGNED, EDGEDMA_CALL_MAP_PAGE,
	 "DMA address 0x3f001 is not aligned to the 64 bytes the device needs"},
	{0, EDGEDMA_FINDING_DOUBLE_UNMAP, EDGEDMA_CALL_UNMAP_PAGE,
	 "dma_unmap_page of 0x3f000, which was unmapped already"},
	{1, EDGEDMA_FINDING_CACHELINE_SHARED, EDGEDMA_CALL_MAP_PAGE,
	 "buffer 0x12340020+2048 shares its first cache line with live data on a "
	 "non-coherent device"},
	{2, EDGEDMA_FINDING_BOUNCED, EDGEDMA_CALL_MAP_SG,
	 "segment 3 was bounced through swiotlb: the device sees another page"},
	{4, EDGEDMA_FINDING_LEAK, EDGEDMA_CALL_ALLOC_COHERENT,
	 "16384 bytes at 0xfe00000 still allocated when the driver unbound"},
	{5, EDGEDMA_FINDING_UNMAP_UNKNOWN, EDGEDMA_CALL_UNMAP_PAGE,
	 "dma_unmap_page of 0x7700, which no mapping covers"},
};

// The writer, counting what goes through it.
class CountingWriter {
public:
	CountingWriter(const std::filesystem::path &file, const RecordingHeader &header)
		: writer_(file, header)
	{
	}
	void write(const Record &record)
	{
		writer_.write(record);
		records_++;
	}
	void finish(const RecordingEnd &end)
	{
		writer_.finish(end);
		records_++;
	}
	std::uint64_t records() const { return records_; }
	std::uint64_t bytes_written() const { return writer_.bytes_written(); }

private:
	RecordingWriter writer_;
	std::uint64_t records_ = 0;
};

bool active(const DeviceHabit &habit, std::uint64_t since_start)
{
	return habit.period_ns == 0 || since_start % habit.period_ns < habit.period_ns / 2;
}

void write_preamble(CountingWriter &writer)
{
	Info info;
	info.module_version = "0.1.0";
	info.kernel_release = "6.1.0-synthetic-amd64";
	info.arch = "x86_64";
	info.record_format = EDGEDMA_RECORD_FORMAT_VERSION;
	info.hook_modes = 1u << (EDGEDMA_HOOK_MODE_KPROBE - 1);
	info.hook_mode = EDGEDMA_HOOK_MODE_KPROBE;
	info.page_size = 4096;
	info.cache_line = 64;
	info.dma_alignment = 64;
	writer.write(info);

	Stats stats;
	stats.calls = 1000;
	stats.pool_size = 65536;
	writer.write(StatsSnapshot{StatsSnapshot::When::start, stats});

	for (const DeviceHabit &habit : habits) {
		Policy policy;
		policy.target = {PolicyTarget::Kind::device, habit.device};
		policy.addr_align = 64;
		policy.len_align = 1;
		policy.coherency = EDGEDMA_COHERENCY_AUTO;
		policy.checks = (1u << EDGEDMA_FINDING_LEAK) - 1;
		policy.dev_coherent = habit.driver == std::string("e1000e") ? 0 : 1;
		policy.dma_mask = 0xffffffffffffffff;
		policy.cache_line = 64;
		writer.write(DevicePolicy{policy});
	}
	Policy override_policy;
	override_policy.target = {PolicyTarget::Kind::driver, "edgedma_test_edu"};
	override_policy.addr_align = 64;
	writer.write(PolicyOverride{override_policy});

	for (std::uint64_t i = 0; i < 24; i++) {
		const DeviceHabit &habit = habits[i % std::size(habits)];
		Mapping mapping;
		mapping.device = habit.device;
		mapping.driver = habit.driver;
		mapping.call = habit.map_call;
		mapping.dma_addr = 0x100000 + i * habit.size;
		mapping.size = habit.size;
		mapping.dir = 2;
		mapping.caller = habit.caller;
		mapping.time_ns = start_ns - 1'000'000'000 + i;
		writer.write(LiveMapping{mapping});
	}
	writer.write(SymbolTable{kallsyms});
}

} // namespace

Written write_recording(const std::filesystem::path &file, const Options &options)
{
	std::mt19937_64 random(20240501);
	RecordingHeader header;
	header.created_unix_ns = 1'714'557'600'000'000'000; // 2024-05-01 10:00 UTC
	CountingWriter writer(file, header);
	write_preamble(writer);

	// A CPU's stream skips seqs where events were lost: cpu 2 loses a
	// stretch a third of the way in, cpu 3 one near the end.
	std::uint64_t next_seq[cpus] = {1, 1, 1, 1};
	const std::uint64_t lost_in_kernel = 400, lost_in_transit = 100;
	bool lost_kernel_done = false, lost_transit_done = false;

	// Findings 3..5 never reach the recorder: a Loss says so.
	constexpr std::uint64_t first_lost_finding = 3, last_lost_finding = 5;
	std::uint64_t findings_made = 0, findings_written = 0;
	std::uint64_t finding_every =
		options.findings ? std::max<std::uint64_t>(1, options.events / options.findings) : 0;
	std::uint64_t written = 0;
	std::vector<std::uint32_t> weights;
	MapEvent event;
	for (std::uint64_t i = 0; i < options.events; i++) {
		std::uint64_t since_start = i * event_gap_ns;
		// Per-CPU streams interleave: a few microseconds out of order.
		std::uint64_t jitter = random() % 20'000;
		event.time_ns = start_ns + since_start + jitter;

		weights.clear();
		std::uint32_t total = 0;
		for (const DeviceHabit &habit : habits) {
			std::uint32_t weight = active(habit, since_start) ? habit.weight : 0;
			weights.push_back(weight);
			total += weight;
		}
		std::uint32_t pick = static_cast<std::uint32_t>(random() % total);
		std::size_t chosen = 0;
		while (pick >= weights[chosen]) {
			pick -= weights[chosen];
			chosen++;
		}
		const DeviceHabit &habit = habits[chosen];

		event.cpu = static_cast<std::uint32_t>(i % cpus);
		if (event.cpu == 2 && !lost_kernel_done && i > options.events / 3) {
			writer.write(MapEventLoss{2, next_seq[2], next_seq[2] + lost_in_kernel - 1});
			next_seq[2] += lost_in_kernel;
			lost_kernel_done = true;
		}
		if (event.cpu == 3 && !lost_transit_done && i > options.events * 9 / 10) {
			writer.write(MapEventLoss{3, next_seq[3], next_seq[3] + lost_in_transit - 1});
			next_seq[3] += lost_in_transit;
			lost_transit_done = true;
		}
		event.seq = next_seq[event.cpu]++;
		event.device = habit.device;
		event.driver = habit.driver;
		std::uint32_t what = static_cast<std::uint32_t>(random() % 8);
		event.call = what < 4 ? habit.map_call
			   : what < 7 ? habit.unmap_call
				      : std::uint32_t{EDGEDMA_CALL_SYNC_SINGLE_FOR_CPU};
		// nvme's requests grow over the recording.
		event.size = habit.size * (chosen == 2 ? 1 + since_start / 3'000'000'000 : 1);
		event.dma_addr = 0x40000000 + (random() % 4096) * 4096;
		event.dir = static_cast<std::uint32_t>(1 + random() % 2);
		event.caller = habit.caller;
		event.nents = habit.map_call == EDGEDMA_CALL_MAP_SG ? 4 : 0;
		writer.write(event);
		written++;

		if (finding_every && i % finding_every == finding_every / 2 &&
		    findings_made < options.findings) {
			std::uint64_t seq = ++findings_made;
			if (seq >= first_lost_finding && seq <= last_lost_finding)
				continue;
			const FindingTemplate &shape =
				finding_templates[seq % std::size(finding_templates)];
			const DeviceHabit &owner = habits[shape.habit];
			Finding finding;
			finding.seq = seq;
			finding.time_ns = event.time_ns + 1;
			finding.kind = shape.kind;
			finding.call = shape.call;
			finding.device = owner.device;
			finding.driver = owner.driver;
			finding.dma_addr = 0x3f001;
			finding.size = owner.size;
			finding.dir = 1;
			finding.cpu_phys = 0x123456001;
			finding.caller = owner.caller;
			if (shape.kind == EDGEDMA_FINDING_DOUBLE_UNMAP)
				finding.map_caller = owner.caller - 0x100;
			// The built-in DMA controller driver allocates through
			// dma_pool_alloc(): a helper, and the driver's frame the
			// culprit (the page shows both).
			if (shape.kind == EDGEDMA_FINDING_LEAK) {
				finding.call_chain = {owner.caller, 0xffffffff81300140};
				finding.call_chain_names = {"dma_pool_alloc+0x560/0x1000",
							    "pl330_alloc_descs+0x140/0x400"};
				finding.driver_module = "";
			}
			finding.detail = shape.detail;
			writer.write(finding);
			findings_written++;
		}
	}
	const bool findings_lost = findings_made >= last_lost_finding;
	if (findings_lost)
		writer.write(Loss{first_lost_finding, last_lost_finding, Loss::Cause::gap});

	std::uint64_t snapshots = 0;
	for (const std::filesystem::path &path : options.snapshot_files) {
		std::ifstream in(path, std::ios::binary);
		const std::vector<char> text((std::istreambuf_iterator<char>(in)),
					     std::istreambuf_iterator<char>());
		if (!in.eof() && in.fail())
			throw Error("synthetic recording", "cannot read " + path.string());
		std::vector<std::byte> bytes(text.size());
		std::ranges::transform(text, bytes.begin(), [](char c) { return std::byte(c); });
		const Snapshot snapshot = decode_snapshot_record(bytes);
		for (std::uint64_t copy = 0; copy < options.snapshot_copies; copy++, snapshots++)
			writer.write(snapshot);
	}

	Stats stats;
	stats.calls = 1000 + written + lost_in_kernel + lost_in_transit;
	stats.findings = findings_made;
	stats.pool_size = 65536;
	stats.map_events = written + lost_in_kernel + lost_in_transit;
	stats.map_events_dropped = lost_in_kernel;
	writer.write(StatsSnapshot{StatsSnapshot::When::end, stats});

	RecordingEnd end;
	end.duration_ns = options.events * event_gap_ns;
	end.findings = findings_written;
	end.findings_lost = findings_lost ? last_lost_finding - first_lost_finding + 1 : 0;
	end.map_events = written;
	end.map_events_lost = (lost_kernel_done ? lost_in_kernel : 0) +
			      (lost_transit_done ? lost_in_transit : 0);
	end.map_events_lost_in_kernel = lost_kernel_done ? lost_in_kernel : 0;
	writer.finish(end);
	return {written, findings_written, snapshots, writer.records(), writer.bytes_written()};
}

} // namespace edgedma::synthetic
