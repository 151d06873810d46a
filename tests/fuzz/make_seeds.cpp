// SPDX-License-Identifier: GPL-2.0
//
// Writes the fuzz targets' seed inputs: small valid messages and recordings
// made by libedgedma's own encoders, so the seeds follow the format when it
// changes. tests/fuzz/run writes a fresh set next to the checked-in corpus
// (tests/fuzz/corpus/<target>/) before each run.
//
// usage: edgedma-fuzz-seeds DIR   (writes DIR/<target>/<name>)

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <linux/edgedma.h>
#include <linux/netlink.h>

#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>

#include "attribute_codec.hpp"
#include "decode.hpp"

namespace {

using namespace edgedma;
using Bytes = std::vector<std::byte>;

void write_file(const std::filesystem::path &path, std::span<const std::byte> bytes)
{
	std::ofstream out(path, std::ios::binary | std::ios::trunc);
	out.write(reinterpret_cast<const char *>(bytes.data()),
		  static_cast<std::streamsize>(bytes.size()));
	if (!out.flush())
		throw Error(path.string(), "cannot write the seed");
}

template <typename Plain> void append(Bytes &out, const Plain &value)
{
	const auto *bytes = reinterpret_cast<const std::byte *>(&value);
	out.insert(out.end(), bytes, bytes + sizeof value);
}

void put_u32(Bytes &out, int type, std::uint32_t value)
{
	detail::put_attribute(out, type, &value, sizeof value);
}

void put_u64(Bytes &out, int type, std::uint64_t value)
{
	detail::put_attribute(out, type, &value, sizeof value);
}

void put_string(Bytes &out, int type, const std::string &text)
{
	detail::put_attribute(out, type, text.c_str(), text.size() + 1);
}

void put_nested(Bytes &out, int type, const Bytes &inner)
{
	detail::put_attribute(out, type | NLA_F_NESTED, inner.data(), inner.size());
}

Info sample_info()
{
	return {.module_version = "0.4.0", .kernel_release = "6.12.9-arm64",
		.arch = "aarch64", .record_format = EDGEDMA_RECORD_FORMAT_VERSION,
		.hook_modes = 3, .page_size = 16384, .cache_line = 64,
		.dma_alignment = 128, .hook_mode = 1};
}

Stats sample_stats(std::uint64_t scale)
{
	Stats stats{.requests = 3 * scale, .rejected = 0, .calls = 500 * scale,
		    .mappings_live = 12, .pool_size = 4096, .pool_exhausted = 0,
		    .findings = 2 * scale, .events_dropped = 0, .untracked_devices = 0,
		    .hook_missed = 1, .unseen_mappings = 0, .map_events = 40 * scale,
		    .map_events_dropped = 1, .memory = 3 << 20};
	stats.findings_folded = 100 * scale;
	stats.finding_sites = 2;
	stats.finding_sites_full = 0;
	return stats;
}

Finding sample_finding(std::uint64_t seq, std::uint32_t kind, std::uint64_t time_ns)
{
	Finding finding;
	finding.seq = seq;
	finding.time_ns = time_ns;
	finding.kind = kind;
	finding.call = 1;
	finding.device = "0000:00:04.0";
	finding.driver = "edgedma_test_edu";
	finding.dma_addr = 0xfffff003;
	finding.size = 100;
	finding.dir = 1;
	finding.cpu_phys = 0x1234003;
	finding.caller = 0xffffffffc0001234;
	if (kind != 1)
		finding.map_caller = 0xffffffffc0001200;
	finding.detail = "buffer starts 3 bytes into a 64-byte cache line";
	return finding;
}

// The logged finding of a site the module found occurrences times.
Finding folded_finding(std::uint64_t seq, std::uint32_t kind, std::uint64_t time_ns,
		       std::uint64_t occurrences)
{
	Finding finding = sample_finding(seq, kind, time_ns);
	finding.occurrences = occurrences;
	finding.last_time_ns = time_ns + 1'000'000;
	return finding;
}

// A SCSI host driver's finding: the caller is scsi_dma_map(), the driver's
// frame further out.
Finding chained_finding(std::uint64_t seq, std::uint64_t time_ns)
{
	Finding finding = folded_finding(seq, 1, time_ns, 3);
	finding.caller = 0xffffffffc0300040;
	finding.caller_name = "scsi_dma_map+0x40/0x60 [scsi_mod]";
	finding.call_chain = {0xffffffffc0300040, 0xffffffff81001234, 0xffffffffc0a011a4};
	finding.call_chain_names = {"scsi_dma_map+0x40/0x60 [scsi_mod]", "?",
				    "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"};
	finding.driver_module = "megaraid_sas";
	return finding;
}

FindingRepeats sample_repeats(std::uint64_t seq, std::uint64_t occurrences)
{
	return FindingRepeats{.seq = seq, .kind = 1, .device = "0000:00:04.0",
			      .driver = "edgedma_test_edu", .occurrences = occurrences,
			      .last_time_ns = 9'500'000};
}

Mapping sample_mapping(bool scatter_gather)
{
	Mapping mapping;
	mapping.device = "0000:00:04.0";
	mapping.driver = "edgedma_test_edu";
	mapping.call = scatter_gather ? 3 : 1;
	mapping.dma_addr = 0xfffff000;
	mapping.size = 4096;
	mapping.dir = 2;
	mapping.attrs = 0;
	mapping.cpu_phys = 0x1234000;
	mapping.cpu_virt = 0xffff888001234000;
	mapping.caller = 0xffffffffc0001234;
	mapping.time_ns = 1'000'000;
	if (scatter_gather) {
		mapping.sg_index = 1;
		mapping.sg_count = 2;
	}
	return mapping;
}

Policy sample_policy(bool device)
{
	Policy policy;
	policy.target = device ? PolicyTarget{PolicyTarget::Kind::device, "0000:00:04.0"}
			       : PolicyTarget{PolicyTarget::Kind::driver, "nvme"};
	policy.addr_align = 64;
	policy.len_align = 64;
	policy.coherency = 2;
	policy.checks = 0xffff;
	if (device) {
		policy.dev_coherent = 0;
		policy.dma_mask = 0xfffffff;
		policy.seg_boundary = 0xffffffff;
		policy.max_seg_size = 65536;
		policy.cache_line = 64;
	}
	return policy;
}

MapEvent sample_map_event(std::uint32_t cpu, std::uint64_t seq, std::uint32_t call)
{
	MapEvent event;
	event.cpu = cpu;
	event.seq = seq;
	event.time_ns = 1'000'000 + seq * 1000;
	event.call = call;
	event.device = "0000:00:04.0";
	event.driver = "edgedma_test_edu";
	event.dma_addr = 0xfffff000 + seq * 0x1000;
	event.size = 4096;
	event.dir = 1;
	event.cpu_phys = 0x1234000;
	event.caller = 0xffffffffc0001234;
	return event;
}

// NLMSG_ERROR and NLMSG_DONE payloads (what follows struct nlmsghdr).
Bytes ack_payload(int error, bool with_extack)
{
	Bytes out;
	nlmsgerr header{};
	header.error = error;
	header.msg.nlmsg_len = NLMSG_HDRLEN; // the echo, capped or empty
	append(out, header);
	if (with_extack) {
		put_string(out, NLMSGERR_ATTR_MSG, "unknown attribute 9");
		put_u32(out, NLMSGERR_ATTR_MISS_TYPE, EDGEDMA_A_POLICY_DEVICE);
	}
	return out;
}

Bytes done_payload(int error)
{
	Bytes out;
	append(out, error);
	put_string(out, NLMSGERR_ATTR_MSG, "dump interrupted");
	return out;
}

void netlink_seeds(const std::filesystem::path &dir)
{
	using namespace detail;
	auto seed = [&](const char *name, const Bytes &bytes) { write_file(dir / name, bytes); };
	Bytes out;
	encode_info(sample_info(), out);
	seed("info", out);
	out.clear();
	encode_stats(sample_stats(1), out);
	seed("stats", out);
	out.clear();
	encode_finding(sample_finding(7, 1, 5'000'000), out);
	seed("finding", out);
	out.clear();
	encode_finding(folded_finding(8, 1, 6'000'000, 4103), out);
	seed("finding-folded", out);
	out.clear();
	encode_finding(chained_finding(9, 7'000'000), out);
	seed("finding-chained", out);
	out.clear();
	encode_finding_repeats(sample_repeats(8, 5000), out);
	seed("finding-repeats", out);
	out.clear();
	encode_mapping(sample_mapping(true), out);
	seed("mapping-sg", out);
	out.clear();
	encode_policy(sample_policy(true), out);
	seed("policy-device", out);
	out.clear();
	encode_policy(sample_policy(false), out);
	seed("policy-driver", out);
	out.clear();
	encode_map_event(sample_map_event(0, 1, 1), out);
	seed("map-event", out);

	Bytes events;
	for (std::uint64_t seq = 1; seq <= 2; seq++) {
		Bytes event;
		encode_map_event(sample_map_event(1, seq, seq == 1 ? 1 : 2), event);
		put_nested(events, EDGEDMA_A_MAP_EVENTS_EVENT, event);
	}
	seed("map-events", events);

	Bytes state;
	put_u32(state, EDGEDMA_A_MAP_EVENTS_WAS_ENABLED, 1);
	for (std::uint32_t cpu = 0; cpu < 2; cpu++) {
		Bytes cursor;
		put_u32(cursor, EDGEDMA_A_MAP_EVENTS_CPU, cpu);
		put_u64(cursor, EDGEDMA_A_MAP_EVENTS_NEXT_SEQ, 17 + cpu);
		put_u64(cursor, EDGEDMA_A_MAP_EVENTS_DROPPED, cpu);
		put_nested(state, EDGEDMA_A_MAP_EVENTS_CURSOR, cursor);
	}
	seed("map-events-state", state);

	seed("ack", ack_payload(0, false));
	seed("ack-extack", ack_payload(-EINVAL, true));
	seed("done-extack", done_payload(-EINTR));
}

void recording_seeds(const std::filesystem::path &dir)
{
	RecordingHeader header{.version = recording_format_version,
			       .created_unix_ns = 1'700'000'000'000'000'000};
	std::vector<Record> records{
		sample_info(),
		StatsSnapshot{StatsSnapshot::When::start, sample_stats(1)},
		DevicePolicy{sample_policy(true)},
		PolicyOverride{sample_policy(false)},
		LiveMapping{sample_mapping(false)},
		LiveMapping{sample_mapping(true)},
		sample_map_event(0, 1, 1),
		sample_finding(1, 1, 2'000'000),
		sample_map_event(0, 2, 2),
		sample_map_event(1, 5, 1),
		Loss{2, 3, Loss::Cause::gap},
		folded_finding(4, 5, 9'000'000, 101),
		sample_repeats(4, 150),
		chained_finding(6, 9'200'000),
		sample_repeats(6, 7),
		MapEventLoss{.cpu = 1, .first_seq = 1, .last_seq = 4},
		Loss{5, 5, Loss::Cause::overflow},
		SymbolTable{"ffffffffc0001200 t edu_map_buffer\t[edgedma_test_edu]\n"
			    "ffffffffc0001234 t edu_run_dma\t[edgedma_test_edu]\n"},
		StatsSnapshot{StatsSnapshot::When::end, sample_stats(2)},
		RecordingEnd{.duration_ns = 8'000'000, .findings = 3, .findings_lost = 3,
			     .map_events = 3, .map_events_lost = 4,
			     .map_events_lost_in_kernel = 1},
	};
	auto seed = [&](const char *name, std::span<const Record> some) {
		auto bytes = encode_recording(header, some);
		write_file(dir / name, bytes);
	};
	seed("full.edgedma", records);
	// Cut short: no end record, as a recorder that was killed leaves it.
	seed("no-end.edgedma", std::span(records).first(9));
	seed("empty.edgedma", std::span(records).last(1));
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	try {
		std::filesystem::path dir = argv[1];
		std::filesystem::create_directories(dir / "fuzz_netlink_decode");
		std::filesystem::create_directories(dir / "fuzz_recording");
		netlink_seeds(dir / "fuzz_netlink_decode");
		recording_seeds(dir / "fuzz_recording");
	} catch (const std::exception &error) {
		std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
		return 1;
	}
	return 0;
}
