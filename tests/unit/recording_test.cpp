// SPDX-License-Identifier: GPL-2.0
//
// The recording file format as Documentation/recording-format.rst describes
// it: round trips, and clear errors for files that are cut, damaged or newer.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <linux/edgedma.h>

#include <edgedma/error.hpp>
#include <edgedma/recording.hpp>

#include "decode.hpp"
#include "record_messages.hpp"
#include "snapshot_records.hpp"

namespace edgedma::test {
namespace recording_test {

MapEvent sample_map_event(std::uint32_t cpu, std::uint64_t seq)
{
	return MapEvent{
		.cpu = cpu,
		.seq = seq,
		.time_ns = 7'000'000'000 + seq,
		.call = EDGEDMA_CALL_MAP_SG,
		.device = "0000:00:04.0",
		.driver = "edgedma_test_edu",
		.dma_addr = 0xfee0'0000,
		.size = 3 * 4096,
		.dir = 2,
		.attrs = 0x20,
		.cpu_phys = std::nullopt,
		.caller = 0xffffffffc0a01234,
		.nents = 3,
	};
}

std::vector<Record> every_kind_of_record()
{
	Policy device_policy{.target = {PolicyTarget::Kind::device, "0000:00:04.0"},
			     .addr_align = 64,
			     .len_align = 64,
			     .coherency = EDGEDMA_COHERENCY_AUTO,
			     .checks = 0xffff,
			     .snapshot_triggers = std::nullopt,
			     .snapshot_findings = std::nullopt,
			     .owned_hash_max = std::nullopt,
			     .dev_coherent = 0,
			     .dma_mask = 0xffff'ffff,
			     .seg_boundary = 0xffff'ffff,
			     .max_seg_size = 65536,
			     .cache_line = 64};
	Policy driver_override;
	driver_override.target = {PolicyTarget::Kind::driver, "edgedma_test_edu"};
	driver_override.addr_align = 256;
	Stats stats;
	stats.requests = 5;
	stats.calls = 1000;
	stats.findings = 3;
	stats.map_events = 900;
	return {
		Info{"0.4.0", "6.12.0-arm64", "aarch64", EDGEDMA_RECORD_FORMAT_VERSION, 3, 4096, 64,
		     64, 2, "arm_smmu_handle_evt", std::nullopt, std::nullopt, std::nullopt,
		     std::nullopt, {}, 6, 9, 0},
		StatsSnapshot{StatsSnapshot::When::start, stats},
		PolicyOverride{driver_override},
		LiveMapping{sample_mapping()},
		sample_finding(1),
		scsi_finding(5),
		sample_repeats(1, 4103, 9'000'000'000),
		Loss{2, 4, Loss::Cause::overflow},
		sample_map_event(1, 17),
		MapEventLoss{1, 18, 20},
		StatsSnapshot{StatsSnapshot::When::end, stats},
		DevicePolicy{device_policy},
		SymbolTable{"ffffffffc0a01000 t edu_map\t[edgedma_test_edu]\n"},
		sample_snapshot_with_views(),
		RecordingEnd{1'000'000'000, 1, 3, 1, 3, 2},
	};
}

std::vector<Record> read_all(RecordingReader &reader)
{
	std::vector<Record> records;
	while (auto record = reader.next())
		records.push_back(std::move(*record));
	return records;
}

std::string error_of(std::span<const std::byte> bytes)
{
	try {
		RecordingReader reader(bytes);
		read_all(reader);
	} catch (const Error &error) {
		return error.what();
	}
	return "no error";
}

template <typename Plain> void overwrite(std::vector<std::byte> &bytes, std::size_t at, Plain value)
{
	std::memcpy(bytes.data() + at, &value, sizeof value);
}

constexpr std::size_t first_record = 32;

// The payload length in the header of the record at offset.
std::uint32_t payload_length(const std::vector<std::byte> &bytes, std::size_t offset)
{
	std::uint32_t length;
	std::memcpy(&length, bytes.data() + offset + 4, sizeof length);
	return length;
}

TEST(Recording, EveryRecordKindRoundTrips)
{
	auto records = every_kind_of_record();
	RecordingHeader header{recording_format_version, 1'700'000'000'000'000'000};
	auto bytes = encode_recording(header, records);
	RecordingReader reader(bytes);
	EXPECT_EQ(reader.header(), header);
	EXPECT_EQ(read_all(reader), records);
	EXPECT_TRUE(reader.complete());
	EXPECT_EQ(reader.skipped(), 0u);
	EXPECT_EQ(reader.offset(), bytes.size());
}

// A SNAPSHOT record carries the module's record bytes unchanged: the same
// bytes as SNAPSHOT_GET, devcoredump and the crash region.
TEST(Recording, SnapshotRecordIsTheModulesBytes)
{
	const Snapshot snapshot = sample_snapshot_with_views();
	auto bytes = encode_recording({}, std::vector<Record>{snapshot});
	ASSERT_GE(bytes.size(), first_record + 8 + snapshot.record.size());
	std::uint16_t type;
	std::memcpy(&type, bytes.data() + first_record, sizeof type);
	EXPECT_EQ(type, 14u);
	EXPECT_EQ(payload_length(bytes, first_record), snapshot.record.size());
	EXPECT_TRUE(std::equal(snapshot.record.begin(), snapshot.record.end(),
			       bytes.begin() + first_record + 8));
}

TEST(Recording, WriterAndFileReaderAgree)
{
	auto path = std::filesystem::path(::testing::TempDir()) / "edgedma-roundtrip.edr";
	auto records = every_kind_of_record();
	{
		RecordingWriter writer(path, RecordingHeader{recording_format_version, 42});
		for (std::size_t i = 0; i + 1 < records.size(); i++)
			writer.write(records[i]);
		writer.finish(std::get<RecordingEnd>(records.back()));
		EXPECT_EQ(writer.bytes_written(), std::filesystem::file_size(path));
		EXPECT_THROW(writer.write(sample_finding(9)), Error);
	}
	RecordingReader reader(path);
	EXPECT_EQ(read_all(reader), records);
	std::filesystem::remove(path);
}

TEST(Recording, AMapEventWrittenOnItsOwnIsTheRecordsBytes)
{
	auto dir = std::filesystem::path(::testing::TempDir());
	MapEvent event = sample_map_event(1, 5);
	event.device = "fe2a0000.ethernet-longer-than-a-small-string";
	MapEventLoss loss{1, 6, 9};
	RecordingEnd end{};
	auto write = [&](const std::filesystem::path &path, bool on_its_own) {
		RecordingWriter writer(path, RecordingHeader{recording_format_version, 42});
		if (on_its_own)
			writer.write(event);
		else
			writer.write(Record{event});
		writer.write(loss);
		writer.finish(end);
	};
	write(dir / "edgedma-event-alone.edr", true);
	write(dir / "edgedma-event-record.edr", false);
	auto bytes_of = [](const std::filesystem::path &path) {
		std::ifstream in(path, std::ios::binary);
		return std::vector<char>(std::istreambuf_iterator<char>(in), {});
	};
	auto alone = bytes_of(dir / "edgedma-event-alone.edr");
	EXPECT_EQ(alone, bytes_of(dir / "edgedma-event-record.edr"));
	RecordingReader reader(dir / "edgedma-event-alone.edr");
	EXPECT_EQ(read_all(reader), (std::vector<Record>{event, loss, end}));
	std::filesystem::remove(dir / "edgedma-event-alone.edr");
	std::filesystem::remove(dir / "edgedma-event-record.edr");
}

TEST(Recording, RecordsAreEightByteAligned)
{
	auto bytes = encode_recording({}, every_kind_of_record());
	std::size_t offset = first_record;
	while (offset < bytes.size()) {
		ASSERT_EQ(offset % 8, 0u);
		std::uint32_t length;
		std::memcpy(&length, bytes.data() + offset + 4, sizeof length);
		offset += 8 + ((length + 7) & ~7u);
	}
	EXPECT_EQ(offset, bytes.size());
}

TEST(Recording, FoldedFindingsAndTheFoldingCountersRoundTrip)
{
	Stats stats;
	stats.findings = 2;
	stats.findings_folded = 4102;
	stats.finding_sites = 1;
	stats.finding_sites_full = 0;
	// A finding the module counted, and one without a count, as every
	// recording from before folding holds.
	std::vector<Record> records{folded_finding(1, 4103, 2'100'000'000), sample_finding(2),
				    StatsSnapshot{StatsSnapshot::When::end, stats}};
	auto bytes = encode_recording({}, records);
	RecordingReader reader(bytes);
	auto read = read_all(reader);
	EXPECT_EQ(read, records);
	ASSERT_EQ(read.size(), 3u);
	EXPECT_EQ(std::get<Finding>(read[0]).occurrences, std::optional<std::uint64_t>(4103));
	EXPECT_FALSE(std::get<Finding>(read[1]).occurrences);
	EXPECT_FALSE(std::get<Finding>(read[1]).last_time_ns);
	EXPECT_EQ(std::get<StatsSnapshot>(read[2]).stats.finding_sites_full,
		  std::optional<std::uint64_t>(0));
}

TEST(Recording, RepeatsAndCallChainsRoundTripAsTheFormatPageSays)
{
	std::vector<Record> records{scsi_finding(1), sample_repeats(1, 4103, 9'000'000'000)};
	auto bytes = encode_recording({}, records);
	// The second record is FINDING_REPEATS, type 13, the notification's
	// attributes.
	std::size_t second = first_record + 8 + ((payload_length(bytes, first_record) + 7) & ~7u);
	std::uint16_t type;
	std::memcpy(&type, bytes.data() + second, sizeof type);
	EXPECT_EQ(type, 13u);
	std::vector<std::byte> attributes;
	detail::encode_finding_repeats(std::get<FindingRepeats>(records[1]), attributes);
	EXPECT_EQ(payload_length(bytes, second), attributes.size());
	RecordingReader reader(bytes);
	auto read = read_all(reader);
	EXPECT_EQ(read, records);
	ASSERT_EQ(read.size(), 2u);
	EXPECT_EQ(std::get<Finding>(read[0]).call_chain.size(), 5u);
	EXPECT_EQ(std::get<Finding>(read[0]).driver_module,
		  std::optional<std::string>("megaraid_sas"));
	EXPECT_EQ(std::get<FindingRepeats>(read[1]).occurrences, 4103u);
}

TEST(Recording, AReaderThatDoesNotKnowRepeatsSkipsThem)
{
	// As an older edgedma reads a newer recording: type 13 is then an
	// unknown type, skipped and counted, the rest read as ever. Here a
	// type this reader does not know stands in for it.
	auto bytes = encode_recording({}, std::vector<Record>{sample_finding(1),
							       sample_repeats(1, 7, 8)});
	std::size_t second = first_record + 8 + ((payload_length(bytes, first_record) + 7) & ~7u);
	overwrite<std::uint16_t>(bytes, second, 201);
	RecordingReader reader(bytes);
	auto records = read_all(reader);
	ASSERT_EQ(records.size(), 1u);
	EXPECT_EQ(reader.skipped(), 1u);
}

TEST(Recording, UnknownRecordTypesAreSkippedAndCounted)
{
	auto bytes = encode_recording({}, std::vector<Record>{sample_finding(1)});
	// A record from a newer edgedma: type 200, 5 bytes, padded to 8.
	std::vector<std::byte> future(16);
	overwrite<std::uint16_t>(future, 0, 200);
	overwrite<std::uint32_t>(future, 4, 5);
	bytes.insert(bytes.begin() + first_record, future.begin(), future.end());
	RecordingReader reader(bytes);
	auto records = read_all(reader);
	ASSERT_EQ(records.size(), 1u);
	EXPECT_EQ(std::get<Finding>(records[0]), sample_finding(1));
	EXPECT_EQ(reader.skipped(), 1u);
	EXPECT_FALSE(reader.complete());
}

TEST(Recording, TruncatedFilesNameTheOffset)
{
	auto bytes = encode_recording({}, std::vector<Record>{sample_finding(1), sample_finding(2)});
	auto cut = std::span(bytes).first(bytes.size() - 20);
	std::string error = error_of(cut);
	EXPECT_TRUE(contains(error, "truncated")) << error;
	EXPECT_TRUE(contains(error, "FINDING record")) << error;
	// The second record starts where the first ends.
	RecordingReader whole(bytes);
	whole.next();
	EXPECT_TRUE(contains(error, "offset " + std::to_string(whole.offset()))) << error;

	EXPECT_TRUE(contains(error_of(std::span(bytes).first(20)), "32-byte file header"));
	EXPECT_TRUE(contains(error_of(std::span(bytes).first(first_record + 5)),
			     "offset 32: truncated"));
}

TEST(Recording, CorruptRecordsAreRejectedWithTheirOffset)
{
	auto bytes = encode_recording({}, std::vector<Record>{sample_finding(1)});
	// The first attribute (FINDING_SEQ) now claims to be 3 bytes long.
	overwrite<std::uint16_t>(bytes, first_record + 8, 7);
	std::string error = error_of(bytes);
	EXPECT_TRUE(contains(error, "record at offset 32 (FINDING)")) << error;

	auto flagged = encode_recording({}, std::vector<Record>{sample_finding(1)});
	overwrite<std::uint16_t>(flagged, first_record + 2, 1);
	EXPECT_TRUE(contains(error_of(flagged), "offset 32: record flags 1")) << error_of(flagged);

	auto huge = encode_recording({}, std::vector<Record>{sample_finding(1)});
	overwrite<std::uint32_t>(huge, first_record + 4, 0xffff'fff0);
	EXPECT_TRUE(contains(error_of(huge), "exceeds the format's limit"));

	auto bad_loss = encode_recording({}, std::vector<Record>{MapEventLoss{0, 9, 3}});
	EXPECT_TRUE(contains(error_of(bad_loss), "is not a range")) << error_of(bad_loss);
}

TEST(Recording, ForeignAndFutureFilesAreRefused)
{
	auto bytes = encode_recording({}, {});
	auto not_ours = bytes;
	not_ours[0] = std::byte{'X'};
	EXPECT_TRUE(contains(error_of(not_ours), "not an edgedma recording"));

	auto future = bytes;
	overwrite<std::uint32_t>(future, 8, recording_format_version + 1);
	std::string error = error_of(future);
	EXPECT_TRUE(contains(error, "version " + std::to_string(recording_format_version + 1) +
					    " is newer"))
		<< error;

	auto flags = bytes;
	overwrite<std::uint32_t>(flags, 24, 4);
	EXPECT_TRUE(contains(error_of(flags), "file flags 4"));
}

TEST(Recording, ALargerHeaderFromALaterMinorVersionIsSkipped)
{
	auto bytes = encode_recording({}, std::vector<Record>{sample_finding(3)});
	bytes.insert(bytes.begin() + first_record, 8, std::byte{0xee});
	overwrite<std::uint32_t>(bytes, 12, 40);
	RecordingReader reader(bytes);
	auto records = read_all(reader);
	ASSERT_EQ(records.size(), 1u);
	EXPECT_EQ(std::get<Finding>(records[0]).seq, 3u);
}

std::vector<Record> read_all_into_one(RecordingReader &reader)
{
	std::vector<Record> records;
	Record record;
	while (reader.next(record))
		records.push_back(record);
	return records;
}

TEST(Recording, NextIntoOneRecordReadsWhatNextReads)
{
	// Mapping events that set what the next one leaves out (cpu_phys,
	// nents, a long driver name), with other kinds between them.
	auto records = every_kind_of_record();
	MapEvent full = sample_map_event(0, 1);
	full.cpu_phys = 0x1234'5000;
	full.driver = "a_driver_name_longer_than_any_small_string";
	MapEvent bare = sample_map_event(3, 2);
	bare.nents = 0;
	bare.driver = "";
	bare.device = "nvme0";
	records.insert(records.begin() + 1, {full, bare, full, sample_finding(7), bare});
	auto bytes = encode_recording({}, records);

	RecordingReader reader(bytes);
	EXPECT_EQ(read_all_into_one(reader), records);
	EXPECT_TRUE(reader.complete());
	EXPECT_EQ(reader.offset(), bytes.size());

	Record left = sample_finding(4);
	EXPECT_FALSE(reader.next(left));
	EXPECT_EQ(left, Record{sample_finding(4)}) << "the end leaves the record alone";
}

TEST(Recording, NextIntoOneRecordSkipsUnknownTypes)
{
	auto bytes = encode_recording({}, std::vector<Record>{sample_map_event(0, 1)});
	std::vector<std::byte> future(16);
	overwrite<std::uint16_t>(future, 0, 200);
	overwrite<std::uint32_t>(future, 4, 5);
	bytes.insert(bytes.begin() + first_record, future.begin(), future.end());
	RecordingReader reader(bytes);
	Record record;
	ASSERT_TRUE(reader.next(record));
	EXPECT_EQ(record, Record{sample_map_event(0, 1)});
	EXPECT_FALSE(reader.next(record));
	EXPECT_EQ(reader.skipped(), 1u);
}

TEST(Recording, CorruptMapEventsAreNamedByOffsetAndType)
{
	// The second event's CPU (its first attribute) is 5 bytes long.
	auto bytes = encode_recording(
		{}, std::vector<Record>{sample_map_event(0, 1), sample_map_event(0, 2)});
	std::size_t second = first_record + 8 + ((payload_length(bytes, first_record) + 7) & ~7u);
	overwrite<std::uint16_t>(bytes, second + 8, 9);
	const std::string expected = "recording: record at offset " + std::to_string(second) +
				     " (MAP_EVENT): EDGEDMA_A_MAP_EVENT_CPU has 5 bytes, "
				     "expected 4 (u32)";
	EXPECT_EQ(error_of(bytes), expected);

	RecordingReader reader(bytes);
	Record record;
	ASSERT_TRUE(reader.next(record));
	try {
		reader.next(record);
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_EQ(std::string(error.what()), expected);
	}
}

TEST(Recording, MissingFileSaysSo)
{
	try {
		RecordingReader reader(std::filesystem::path("/nonexistent/edgedma.edr"));
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_TRUE(contains(error.what(), "/nonexistent/edgedma.edr")) << error.what();
		EXPECT_EQ(error.error_number(), ENOENT);
	}
}

TEST(MapEventCodec, NotificationWithSeveralEventsDecodes)
{
	GenlMessage message(EDGEDMA_CMD_MAP_EVENTS);
	std::vector<MapEvent> sent{sample_map_event(0, 1), sample_map_event(0, 2)};
	sent[1].cpu_phys = 0x4000'1000;
	sent[1].nents = 0;
	for (const auto &event : sent) {
		std::vector<std::byte> attributes;
		detail::encode_map_event(event, attributes);
		message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, attributes);
	}
	auto decoded = detail::decode_map_events(message.attributes(), "MAP_EVENTS");
	EXPECT_EQ(decoded, sent);
}

TEST(MapEventCodec, NotificationDecodesAppendedAfterEarlierEvents)
{
	GenlMessage message(EDGEDMA_CMD_MAP_EVENTS);
	std::vector<MapEvent> sent{sample_map_event(1, 7), sample_map_event(1, 8)};
	for (const auto &event : sent) {
		std::vector<std::byte> attributes;
		detail::encode_map_event(event, attributes);
		message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, attributes);
	}
	std::vector<MapEvent> events{sample_map_event(0, 3)};
	detail::decode_map_events_into(message.attributes(), "MAP_EVENTS", events);
	ASSERT_EQ(events.size(), 3u);
	EXPECT_EQ(events[0], sample_map_event(0, 3));
	EXPECT_EQ(events[1], sent[0]);
	EXPECT_EQ(events[2], sent[1]);
}

TEST(MapEventCodec, MalformedNotificationAppendsNothing)
{
	GenlMessage message(EDGEDMA_CMD_MAP_EVENTS);
	std::vector<std::byte> good;
	detail::encode_map_event(sample_map_event(1, 7), good);
	message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, good);
	// The second event lacks every required attribute but one.
	std::vector<std::byte> bad;
	MapEvent partial = sample_map_event(1, 8);
	detail::encode_map_event(partial, bad);
	bad.resize(16);
	message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, bad);

	std::vector<MapEvent> events{sample_map_event(0, 3)};
	EXPECT_THROW(detail::decode_map_events_into(message.attributes(), "MAP_EVENTS", events),
		     Error);
	ASSERT_EQ(events.size(), 1u);
	EXPECT_EQ(events[0], sample_map_event(0, 3));
}

// A notification of events, each encoded as the module sends it.
GenlMessage map_events_message(const std::vector<MapEvent> &events)
{
	GenlMessage message(EDGEDMA_CMD_MAP_EVENTS);
	for (const auto &event : events) {
		std::vector<std::byte> attributes;
		detail::encode_map_event(event, attributes);
		message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, attributes);
	}
	return message;
}

TEST(MapEventCodec, SlotsDecodeTheNextBatchOverTheLastKeepingTheNamesBuffers)
{
	const std::string long_device = "fe2a0000.ethernet-longer-than-a-small-string";
	const std::string long_driver = "rk_gmac-dwmac-longer-than-a-small-string";
	std::vector<MapEvent> first{sample_map_event(0, 1), sample_map_event(0, 2)};
	for (auto &event : first) {
		event.device = long_device;
		event.driver = long_driver;
		event.cpu_phys = 0x4000'1000;
		event.nents = 3;
	}
	detail::MapEventSlots slots;
	detail::decode_map_events_into(map_events_message(first).attributes(), "MAP_EVENTS",
				       slots);
	ASSERT_EQ(slots.size(), 2u);
	EXPECT_TRUE(std::ranges::equal(slots.events(), first));
	const char *device_buffer = slots.events()[1].device.data();
	const char *driver_buffer = slots.events()[1].driver.data();

	// The next batch: one event fewer attribute-wise (no CPU_PHYS, no
	// NENTS), the same names, a different device for the first.
	std::vector<MapEvent> second{sample_map_event(1, 7), sample_map_event(1, 8)};
	second[1].device = long_device;
	second[1].driver = long_driver;
	second[1].nents = 0;
	slots.clear();
	detail::decode_map_events_into(map_events_message(second).attributes(), "MAP_EVENTS",
				       slots);
	ASSERT_EQ(slots.size(), 2u);
	EXPECT_TRUE(std::ranges::equal(slots.events(), second));
	EXPECT_EQ(slots.events()[1].device.data(), device_buffer);
	EXPECT_EQ(slots.events()[1].driver.data(), driver_buffer);
}

TEST(MapEventCodec, MalformedNotificationTakesNoSlot)
{
	std::vector<std::byte> good, bad;
	detail::encode_map_event(sample_map_event(1, 7), good);
	detail::encode_map_event(sample_map_event(1, 8), bad);
	bad.resize(16);
	GenlMessage message(EDGEDMA_CMD_MAP_EVENTS);
	message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, good);
	message.put_bytes(EDGEDMA_A_MAP_EVENTS_EVENT | NLA_F_NESTED, bad);

	detail::MapEventSlots slots;
	detail::decode_map_events_into(map_events_message({sample_map_event(0, 3)}).attributes(),
				       "MAP_EVENTS", slots);
	EXPECT_THROW(detail::decode_map_events_into(message.attributes(), "MAP_EVENTS", slots),
		     Error);
	ASSERT_EQ(slots.size(), 1u);
	EXPECT_EQ(slots.events()[0], sample_map_event(0, 3));
	// The slot the bad event was decoded into is reused whole.
	detail::decode_map_events_into(map_events_message({sample_map_event(2, 4)}).attributes(),
				       "MAP_EVENTS", slots);
	ASSERT_EQ(slots.size(), 2u);
	EXPECT_EQ(slots.events()[1], sample_map_event(2, 4));
}

TEST(MapEventCodec, DecodingIntoAnEarlierEventGivesTheFreshDecode)
{
	MapEvent earlier = sample_map_event(1, 9);
	earlier.cpu_phys = 0x4000'1000;
	earlier.device = "a-device-name-too-long-for-the-small-string-buffer";
	MapEvent sent = sample_map_event(2, 10);
	sent.nents = 0; // absent on the wire, like cpu_phys
	std::vector<std::byte> attributes;
	detail::encode_map_event(sent, attributes);

	MapEvent decoded = earlier;
	detail::decode_map_event_into(attributes, "MAP_EVENTS", decoded);
	EXPECT_EQ(decoded, sent);
	EXPECT_EQ(decoded, detail::decode_map_event(attributes, "MAP_EVENTS"));
}

// Attributes split at their boundaries, for reordering.
std::vector<std::vector<std::byte>> split_attributes(const std::vector<std::byte> &stream)
{
	std::vector<std::vector<std::byte>> parts;
	std::size_t at = 0;
	while (at < stream.size()) {
		std::uint16_t length;
		std::memcpy(&length, stream.data() + at, sizeof length);
		std::size_t total = (length + 3u) & ~std::size_t{3};
		parts.emplace_back(stream.begin() + static_cast<std::ptrdiff_t>(at),
				   stream.begin() + static_cast<std::ptrdiff_t>(at + total));
		at += total;
	}
	return parts;
}

// An attribute of @type with a zeroed payload of @payload_length bytes.
std::vector<std::byte> attribute_of(std::uint16_t type, std::size_t payload_length)
{
	std::vector<std::byte> attribute((4 + payload_length + 3) & ~std::size_t{3});
	const auto length = static_cast<std::uint16_t>(4 + payload_length);
	std::memcpy(attribute.data(), &length, sizeof length);
	std::memcpy(attribute.data() + 2, &type, sizeof type);
	return attribute;
}

std::vector<std::byte> joined(const std::vector<std::vector<std::byte>> &parts)
{
	std::vector<std::byte> stream;
	for (const auto &part : parts)
		stream.insert(stream.end(), part.begin(), part.end());
	return stream;
}

// @event as the module sends it, one element per attribute.
std::vector<std::vector<std::byte>> attributes_of(const MapEvent &event)
{
	std::vector<std::byte> attributes;
	detail::encode_map_event(event, attributes);
	return split_attributes(attributes);
}

TEST(MapEventCodec, AnyAttributeOrderAndUnknownTypesAreAccepted)
{
	MapEvent sent = sample_map_event(2, 10);
	sent.cpu_phys = 0x4000'1000;
	auto parts = attributes_of(sent);
	std::ranges::reverse(parts);
	// From a newer module: a type past any the decoder indexes, and one
	// just past the last it knows.
	for (std::uint16_t type : {std::uint16_t{300}, std::uint16_t{EDGEDMA_A_MAP_EVENT_MAX + 1}})
		parts.insert(parts.begin() + 3, attribute_of(type, 4));
	EXPECT_EQ(detail::decode_map_event(joined(parts), "MAP_EVENTS"), sent);
}

// The layout the module and the recording write (every attribute in the
// table's order) decodes by a shorter path; each way off it must decode as
// the general walk does.
TEST(MapEventCodec, PaddingBeforeAValueDecodesTheSame)
{
	// As a kernel without efficient unaligned access sends a u64.
	MapEvent sent = sample_map_event(2, 10);
	sent.cpu_phys = 0x4000'1000;
	auto parts = attributes_of(sent);
	parts.insert(parts.begin() + 1, attribute_of(EDGEDMA_A_MAP_EVENT_PAD, 0));
	parts.push_back(attribute_of(EDGEDMA_A_MAP_EVENT_PAD, 0));
	EXPECT_EQ(detail::decode_map_event(joined(parts), "MAP_EVENTS"), sent);
}

TEST(MapEventCodec, InOrderWithANewerAttributeAtTheEndDecodes)
{
	MapEvent sent = sample_map_event(2, 10);
	auto parts = attributes_of(sent);
	parts.push_back(attribute_of(EDGEDMA_A_MAP_EVENT_MAX + 1, 8));
	MapEvent decoded = sample_map_event(0, 1);
	decoded.cpu_phys = 0x1000; // absent on the wire: emptied
	detail::decode_map_event_into(joined(parts), "MAP_EVENTS", decoded);
	EXPECT_EQ(decoded, sent);
}

TEST(MapEventCodec, InOrderWithAWrongSizeIsRefusedByName)
{
	auto parts = attributes_of(sample_map_event(2, 10));
	parts[2] = attribute_of(EDGEDMA_A_MAP_EVENT_TIME_NS, 4); // a u64 sent as 4 bytes
	try {
		detail::decode_map_event(joined(parts), "MAP_EVENTS");
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_EQ(std::string(error.what()),
			  "MAP_EVENTS: EDGEDMA_A_MAP_EVENT_TIME_NS has 4 bytes, expected 8 (u64)");
	}
}

TEST(MapEventCodec, NamesDecodedOverEarlierNamesAreTheNewOnes)
{
	// The decoder keeps a name it already holds: a longer, a shorter, an
	// empty one, and a name with bytes after its NUL must still come out
	// as a fresh decode gives them.
	MapEvent decoded;
	for (std::string device : {"dev-a", "dev-ab", "dev-a", "dev", "", "dev", "dev"}) {
		MapEvent sent = sample_map_event(1, 2);
		sent.device = device;
		std::vector<std::byte> attributes;
		detail::encode_map_event(sent, attributes);
		detail::decode_map_event_into(attributes, "MAP_EVENTS", decoded);
		EXPECT_EQ(decoded, sent) << device;
		EXPECT_EQ(decoded, detail::decode_map_event(attributes, "MAP_EVENTS"));
	}
	auto parts = attributes_of(sample_map_event(1, 2));
	// "dev\0xyz\0": the name is "dev".
	auto device = attribute_of(EDGEDMA_A_MAP_EVENT_DEVICE, 8);
	std::memcpy(device.data() + 4, "dev\0xyz", 8);
	parts[4] = device;
	detail::decode_map_event_into(joined(parts), "MAP_EVENTS", decoded);
	EXPECT_EQ(decoded.device, "dev");
}

TEST(MapEventCodec, RepeatedAttributeIsRefused)
{
	std::vector<std::byte> attributes;
	detail::encode_map_event(sample_map_event(2, 10), attributes);
	auto parts = split_attributes(attributes);
	attributes.insert(attributes.end(), parts[1].begin(), parts[1].end());
	try {
		detail::decode_map_event(attributes, "MAP_EVENTS");
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_EQ(std::string(error.what()),
			  "MAP_EVENTS: EDGEDMA_A_MAP_EVENT_SEQ appears more than once");
	}
}

TEST(MapEventCodec, MissingAttributeIsNamed)
{
	auto event = sample_map_event(2, 5);
	std::vector<std::byte> attributes;
	detail::encode_map_event(event, attributes);
	// Drop the first attribute (CPU, 8 bytes).
	attributes.erase(attributes.begin(), attributes.begin() + 8);
	try {
		detail::decode_map_event(attributes, "MAP_EVENTS");
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_TRUE(contains(error.what(), "missing EDGEDMA_A_MAP_EVENT_CPU")) << error.what();
	}
}

} // namespace recording_test
} // namespace edgedma::test
