// SPDX-License-Identifier: GPL-2.0
//
// Snapshot records (decode_snapshot), the SNAPSHOT_GET dump's and the
// SNAPSHOT notification's headers (decode_snapshot_header) and the
// SNAPSHOT_TAKE reply (decode_snapshot_taken).
#include <array>
#include <bit>
#include <random>
#include <vector>

#include <linux/edgedma.h>

#include "snapshot_records.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace decode_snapshot_test {

using detail::decode_snapshot;
using detail::decode_snapshot_header;
using detail::decode_snapshot_taken;

constexpr std::string_view context = "SNAPSHOT_GET reply";

detail::AttributeStream stream_of(const std::vector<std::byte> &bytes)
{
	return {bytes.data(), bytes.size()};
}

Snapshot decode(const RecordBuilder &record)
{
	return decode_snapshot(stream_of(record.bytes()), context);
}

// The Error's message, after checking its context (the record's, or one of
// its items').
std::string decode_error(const RecordBuilder &record, std::string_view where = context)
{
	return error_message_of([&] { decode(record); }, where);
}

// The record of a snapshot with one change made to its parts.
template <typename Change> RecordBuilder changed_record(Change change)
{
	Snapshot snapshot = sample_snapshot();
	change(snapshot);
	return record_of(snapshot);
}

// A SNAPSHOT_GET reply: the record copied after the generic netlink
// header, as nl_snapshots.c sends it.
GenlMessage reply_carrying(std::span<const std::byte> record)
{
	GenlMessage reply(EDGEDMA_CMD_SNAPSHOT_GET);
	check_libnl(nlmsg_append(reply.get(), const_cast<std::byte *>(record.data()),
				 record.size(), NLMSG_ALIGNTO),
		    "nlmsg_append");
	return reply;
}

// The wire numbers the hand-laid record below spells out.
static_assert(EDGEDMA_A_SNAPSHOT_SEQ == 2 && EDGEDMA_A_SNAPSHOT_TIME_NS == 3 &&
	      EDGEDMA_A_SNAPSHOT_REAL_TIME_NS == 4 && EDGEDMA_A_SNAPSHOT_CPU == 5 &&
	      EDGEDMA_A_SNAPSHOT_TRIGGER == 6 && EDGEDMA_A_SNAPSHOT_DEVICE == 12 &&
	      EDGEDMA_A_SNAPSHOT_DRIVER == 13 && EDGEDMA_A_SNAPSHOT_SKIPPED == 19 &&
	      EDGEDMA_A_SNAPSHOT_TRUNCATED == 20);
static_assert(EDGEDMA_A_SKIP_PART == 2 && EDGEDMA_A_SKIP_REASON == 3 &&
	      EDGEDMA_SNAPSHOT_PART_MAPPINGS == 1 && EDGEDMA_SKIP_DEVICE_UNSEEN == 1);

// A device that never called the DMA API, snapshot with nothing but its
// header, one skipped part and TRUNCATED, byte for byte (little-endian).
// The u64 payloads of SEQ and REAL_TIME_NS start 4 bytes past an 8-byte
// boundary: the module does not pad them.
constexpr auto hand_laid_record = std::to_array<unsigned char>({
	0x0c, 0x00, 0x02, 0x00, 0x07, 0, 0, 0, 0, 0, 0, 0,          // SEQ 7
	0x0c, 0x00, 0x03, 0x00, 0x88, 0x77, 0x66, 0x55,             // TIME_NS
	0x44, 0x33, 0x22, 0x11,                                     //   0x1122334455667788
	0x0c, 0x00, 0x04, 0x00, 0x01, 0x02, 0, 0, 0, 0, 0, 0,       // REAL_TIME_NS 0x201
	0x08, 0x00, 0x05, 0x00, 0x03, 0, 0, 0,                      // CPU 3
	0x08, 0x00, 0x06, 0x00, 0x01, 0, 0, 0,                      // TRIGGER manual
	0x09, 0x00, 0x0c, 0x00, 'd', 'e', 'v', '0', 0, 0, 0, 0,     // DEVICE "dev0"
	0x05, 0x00, 0x0d, 0x00, 0, 0, 0, 0,                         // DRIVER ""
	0x14, 0x00, 0x13, 0x80,                                     // SKIPPED, nested:
	0x08, 0x00, 0x02, 0x00, 0x01, 0, 0, 0,                      //   PART mappings
	0x08, 0x00, 0x03, 0x00, 0x01, 0, 0, 0,                      //   REASON device-unseen
	0x08, 0x00, 0x14, 0x00, 0x01, 0, 0, 0,                      // TRUNCATED
});

std::vector<std::byte> hand_laid_bytes()
{
	std::vector<std::byte> bytes(hand_laid_record.size());
	std::memcpy(bytes.data(), hand_laid_record.data(), bytes.size());
	return bytes;
}

TEST(DecodeSnapshot, ReadsARecordLaidOutByHand)
{
	if constexpr (std::endian::native != std::endian::little)
		GTEST_SKIP() << "the record is spelled out little-endian";
	const std::vector<std::byte> bytes = hand_laid_bytes();
	Snapshot snapshot = decode_snapshot(stream_of(bytes), context);

	EXPECT_EQ(snapshot.header.seq, 7u);
	EXPECT_EQ(snapshot.header.time_ns, 0x1122334455667788u);
	EXPECT_EQ(snapshot.header.real_time_ns, 0x201u);
	EXPECT_EQ(snapshot.header.cpu, 3u);
	EXPECT_EQ(snapshot.header.trigger, std::uint32_t{EDGEDMA_SNAPSHOT_TRIGGER_MANUAL});
	EXPECT_FALSE(snapshot.header.trigger_addr);
	EXPECT_EQ(snapshot.header.device, "dev0");
	EXPECT_EQ(snapshot.header.driver, "");
	EXPECT_EQ(snapshot.header.record_size, hand_laid_record.size());
	EXPECT_FALSE(snapshot.kernel_release);
	EXPECT_FALSE(snapshot.hook_mode);
	EXPECT_TRUE(snapshot.mappings.empty());
	EXPECT_TRUE(snapshot.unmaps.empty());
	EXPECT_EQ(snapshot.mappings_left_out, 0u);
	EXPECT_EQ(snapshot.skipped,
		  (std::vector<SkippedPart>{{EDGEDMA_SNAPSHOT_PART_MAPPINGS,
					     EDGEDMA_SKIP_DEVICE_UNSEEN}}));
	EXPECT_TRUE(snapshot.truncated);
	EXPECT_EQ(snapshot.record, bytes);
}

TEST(DecodeSnapshot, TheTestsRecordBuilderLaysOutAsTheModuleDoes)
{
	if constexpr (std::endian::native != std::endian::little)
		GTEST_SKIP() << "the record is spelled out little-endian";
	RecordBuilder record;
	record.u64(EDGEDMA_A_SNAPSHOT_SEQ, 7)
		.u64(EDGEDMA_A_SNAPSHOT_TIME_NS, 0x1122334455667788)
		.u64(EDGEDMA_A_SNAPSHOT_REAL_TIME_NS, 0x201)
		.u32(EDGEDMA_A_SNAPSHOT_CPU, 3)
		.u32(EDGEDMA_A_SNAPSHOT_TRIGGER, EDGEDMA_SNAPSHOT_TRIGGER_MANUAL)
		.string(EDGEDMA_A_SNAPSHOT_DEVICE, "dev0")
		.string(EDGEDMA_A_SNAPSHOT_DRIVER, "")
		.nest(EDGEDMA_A_SNAPSHOT_SKIPPED,
		      skipped_nest({EDGEDMA_SNAPSHOT_PART_MAPPINGS, EDGEDMA_SKIP_DEVICE_UNSEEN}))
		.u32(EDGEDMA_A_SNAPSHOT_TRUNCATED, 1);
	EXPECT_EQ(record.bytes(), hand_laid_bytes());
}

TEST(DecodeSnapshot, ReadsEveryPartOfARecordInItsOrder)
{
	const Snapshot expected = sample_snapshot();
	Snapshot snapshot = decode_snapshot(stream_of(expected.record), context);
	EXPECT_EQ(snapshot, expected);
	// The mapping holding the address first, as the module wrote them.
	ASSERT_EQ(snapshot.mappings.size(), 2u);
	EXPECT_EQ(snapshot.mappings[0].dma_addr, 0xfffff000u);
	EXPECT_EQ(snapshot.mappings[1].sg_index, 1u);
	ASSERT_EQ(snapshot.unmaps.size(), 2u);
	EXPECT_EQ(snapshot.unmaps[0].unmap_caller_name,
		  "edu_unmap+0x20/0x80 [edgedma_test_edu]");
	EXPECT_FALSE(snapshot.unmaps[1].map_caller_name);
	EXPECT_EQ(snapshot.header.record_size, expected.record.size());
}

TEST(DecodeSnapshot, GivesEachMappingTheDeviceAndDriverOfTheHeader)
{
	Snapshot snapshot = decode_snapshot(stream_of(sample_snapshot().record), context);
	for (const Mapping &mapping : snapshot.mappings) {
		EXPECT_EQ(mapping.device, "0000:00:04.0");
		EXPECT_EQ(mapping.driver, "edgedma_test_edu");
	}
}

TEST(DecodeSnapshot, ReadsUnpaddedU64sAtAnyFourByteOffset)
{
	const Snapshot expected = sample_snapshot();
	// Some u64 payload of the record starts 4 bytes past an 8-byte
	// boundary (the first, SEQ's, does); and the whole record, moved by 4
	// bytes, puts every other one there.
	for (std::size_t shift : {0u, 4u, 12u}) {
		SCOPED_TRACE(shift);
		std::vector<std::byte> buffer(shift + expected.record.size());
		std::memcpy(buffer.data() + shift, expected.record.data(), expected.record.size());
		Snapshot snapshot = decode_snapshot({buffer.data() + shift, expected.record.size()},
						    context);
		EXPECT_EQ(snapshot, expected);
	}
}

TEST(DecodeSnapshot, ReadsTheRecordOfASnapshotGetReply)
{
	const Snapshot expected = sample_snapshot();
	GenlMessage reply = reply_carrying(expected.record);
	Snapshot snapshot = decode_snapshot(reply.attributes(), context);
	EXPECT_EQ(snapshot, expected);
	// The bytes kept are the record's, without the message's headers.
	EXPECT_EQ(snapshot.record, expected.record);
}

TEST(DecodeSnapshot, KeepsWhatTheTriggerKnew)
{
	Snapshot expected = sample_snapshot();
	expected.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	expected.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	expected.header.trigger_reason = 0x5;
	expected.header.trigger_symbol = "nvme_timeout";
	expected.header.finding_seq = 0x1'0000'0003;
	expected.record = record_of(expected).bytes();
	expected.header.record_size = static_cast<std::uint32_t>(expected.record.size());
	EXPECT_EQ(decode_snapshot(stream_of(expected.record), context), expected);
}

TEST(DecodeSnapshot, TakesARecordCutShortAfterItsHeader)
{
	// What a record too small for its body holds: the header, TRUNCATED.
	Snapshot cut = sample_snapshot();
	cut.kernel_release.reset();
	cut.hook_mode.reset();
	cut.mappings.clear();
	cut.mappings_left_out = 0;
	cut.unmaps.clear();
	cut.skipped.clear();
	cut.record = record_of(cut).bytes();
	cut.header.record_size = static_cast<std::uint32_t>(cut.record.size());
	Snapshot snapshot = decode_snapshot(stream_of(cut.record), context);
	EXPECT_EQ(snapshot, cut);
	EXPECT_TRUE(snapshot.truncated);
	EXPECT_FALSE(snapshot.kernel_release);
}

TEST(DecodeSnapshot, AWholeRecordIsNotTruncated)
{
	RecordBuilder whole = changed_record([](Snapshot &snapshot) { snapshot.truncated = false; });
	EXPECT_FALSE(decode(whole).truncated);
}

TEST(DecodeSnapshot, SkipsAttributesAndPartsItDoesNotKnow)
{
	// A newer module's additions: a top-level value, a repeated nest of a
	// kind this library does not read, and a value inside each item.
	Snapshot expected = sample_snapshot();
	RecordBuilder record;
	put_header(record, expected.header);
	record.string(EDGEDMA_A_SNAPSHOT_KERNEL_RELEASE, *expected.kernel_release)
		.u32(EDGEDMA_A_SNAPSHOT_HOOK_MODE, *expected.hook_mode)
		.u64(EDGEDMA_A_SNAPSHOT_MAX + 1, 42)
		.nest(EDGEDMA_A_SNAPSHOT_MAX + 2, RecordBuilder().u64(2, 1).u32(3, 4))
		.nest(EDGEDMA_A_SNAPSHOT_MAX + 2, RecordBuilder().u64(2, 2));
	for (const Mapping &mapping : expected.mappings)
		record.nest(EDGEDMA_A_SNAPSHOT_MAPPING,
			    RecordBuilder(mapping_nest(mapping))
				    .u64(EDGEDMA_A_MAPPING_MAX + 1, 7)
				    .string(EDGEDMA_A_MAPPING_DEVICE, "another device"));
	record.u64(EDGEDMA_A_SNAPSHOT_MAPPINGS_LEFT_OUT, expected.mappings_left_out);
	for (const RecentUnmap &unmap : expected.unmaps)
		record.nest(EDGEDMA_A_SNAPSHOT_UNMAPPED,
			    RecordBuilder(unmap_nest(unmap)).u32(EDGEDMA_A_UNMAPPED_MAX + 1, 1));
	for (const SkippedPart &skipped : expected.skipped)
		record.nest(EDGEDMA_A_SNAPSHOT_SKIPPED,
			    RecordBuilder(skipped_nest(skipped)).u32(EDGEDMA_A_SKIP_MAX + 1, 1));
	record.u32(EDGEDMA_A_SNAPSHOT_TRUNCATED, 1);

	Snapshot snapshot = decode(record);
	expected.record = record.bytes();
	expected.header.record_size = static_cast<std::uint32_t>(record.size());
	EXPECT_EQ(snapshot, expected);
}

TEST(DecodeSnapshot, TakesARecordSizeAttributeAsNoPartOfTheRecord)
{
	// Only the dump and the notification carry RECORD_SIZE; the record's
	// size is its own length whatever it says.
	RecordBuilder record = record_of(sample_snapshot());
	record.u32(EDGEDMA_A_SNAPSHOT_RECORD_SIZE, 1);
	EXPECT_EQ(decode(record).header.record_size, record.size());
}

TEST(DecodeSnapshot, NamesEachMissingHeaderAttribute)
{
#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
	constexpr std::array required{
		NAMED(EDGEDMA_A_SNAPSHOT_SEQ),     NAMED(EDGEDMA_A_SNAPSHOT_TIME_NS),
		NAMED(EDGEDMA_A_SNAPSHOT_REAL_TIME_NS), NAMED(EDGEDMA_A_SNAPSHOT_CPU),
		NAMED(EDGEDMA_A_SNAPSHOT_TRIGGER), NAMED(EDGEDMA_A_SNAPSHOT_DEVICE),
		NAMED(EDGEDMA_A_SNAPSHOT_DRIVER),
	};
#undef NAMED
	for (const auto &attribute : required) {
		SCOPED_TRACE(attribute.name);
		RecordBuilder record;
		put_header(record, sample_snapshot().header, LeaveOut{attribute.type});
		EXPECT_EQ(decode_error(record), std::string("missing ") + attribute.name);
	}
}

TEST(DecodeSnapshot, RefusesAnEmptyRecord)
{
	EXPECT_EQ(decode_error(RecordBuilder()), "missing EDGEDMA_A_SNAPSHOT_SEQ");
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenMapping)
{
	const Snapshot snapshot = sample_snapshot();
	RecordBuilder record;
	put_header(record, snapshot.header);
	record.nest(EDGEDMA_A_SNAPSHOT_MAPPING, mapping_nest(snapshot.mappings[0]))
		.nest(EDGEDMA_A_SNAPSHOT_MAPPING,
		      mapping_nest(snapshot.mappings[1], LeaveOut{EDGEDMA_A_MAPPING_CALL}));
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_MAPPING 2"),
		  "missing EDGEDMA_A_MAPPING_CALL");
}

TEST(DecodeSnapshot, RefusesASegmentIndexPastItsCount)
{
	RecordBuilder record = changed_record([](Snapshot &snapshot) {
		snapshot.mappings[1].sg_index = 2;
	});
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_MAPPING 2"),
		  "EDGEDMA_A_MAPPING_SG_INDEX 2 is not below EDGEDMA_A_MAPPING_SG_COUNT 2");
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenUnmap)
{
	const Snapshot snapshot = sample_snapshot();
	RecordBuilder broken = unmap_nest(snapshot.unmaps[0], LeaveOut{EDGEDMA_A_UNMAPPED_SIZE});
	broken.u32(EDGEDMA_A_UNMAPPED_SIZE, 4096);
	RecordBuilder record;
	put_header(record, snapshot.header);
	record.nest(EDGEDMA_A_SNAPSHOT_UNMAPPED, broken);
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_UNMAPPED 1"),
		  "EDGEDMA_A_UNMAPPED_SIZE has 4 bytes, expected 8 (u64)");
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenSkippedPart)
{
	RecordBuilder record;
	put_header(record, sample_snapshot().header);
	record.nest(EDGEDMA_A_SNAPSHOT_SKIPPED,
		    skipped_nest({EDGEDMA_SNAPSHOT_PART_MAPPINGS, EDGEDMA_SKIP_LOCK_BUSY}))
		.nest(EDGEDMA_A_SNAPSHOT_SKIPPED,
		      skipped_nest({EDGEDMA_SNAPSHOT_PART_UNMAPPED, EDGEDMA_SKIP_LOCK_BUSY},
				   LeaveOut{EDGEDMA_A_SKIP_REASON}));
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_SKIPPED 2"),
		  "missing EDGEDMA_A_SKIP_REASON");
}

TEST(DecodeSnapshot, RefusesASingleAttributeGivenTwice)
{
	RecordBuilder seq_twice = record_of(sample_snapshot());
	seq_twice.u64(EDGEDMA_A_SNAPSHOT_SEQ, 8);
	EXPECT_EQ(decode_error(seq_twice), "EDGEDMA_A_SNAPSHOT_SEQ appears more than once");
	RecordBuilder truncated_twice = record_of(sample_snapshot());
	truncated_twice.u32(EDGEDMA_A_SNAPSHOT_TRUNCATED, 1);
	EXPECT_EQ(decode_error(truncated_twice),
		  "EDGEDMA_A_SNAPSHOT_TRUNCATED appears more than once");
}

TEST(DecodeSnapshot, RefusesADeviceNameWithoutItsNul)
{
	RecordBuilder record;
	put_header(record, sample_snapshot().header, LeaveOut{EDGEDMA_A_SNAPSHOT_DEVICE});
	const std::string_view name = "0000:00:04.0";
	record.raw(EDGEDMA_A_SNAPSHOT_DEVICE, std::as_bytes(std::span(name.data(), name.size())));
	EXPECT_EQ(decode_error(record), "EDGEDMA_A_SNAPSHOT_DEVICE is not a NUL-terminated string");
}

TEST(DecodeSnapshot, RefusesARecordCutInsideAnAttribute)
{
	const std::vector<std::byte> &whole = sample_snapshot().record;
	// TRUNCATED's last 2 bytes gone: 6 bytes of it are left.
	RecordBuilder cut;
	cut.append(std::span(whole).first(whole.size() - 2));
	EXPECT_EQ(decode_error(cut), "6 bytes after the last attribute do not form an attribute");
}

TEST(DecodeSnapshot, RefusesANestLongerThanTheRecord)
{
	RecordBuilder record;
	put_header(record, sample_snapshot().header);
	// A MAPPING nest that says it is 0x100 bytes long, with 12 after it.
	const std::array<unsigned char, 16> overlong{0x00, 0x01, EDGEDMA_A_SNAPSHOT_MAPPING, 0x80,
						     0x08, 0x00, 0x02, 0x00, 1, 0, 0, 0,
						     0, 0, 0, 0};
	record.append(std::as_bytes(std::span(overlong)));
	EXPECT_EQ(decode_error(record), "16 bytes after the last attribute do not form an attribute");
}

TEST(DecodeSnapshot, EveryCutOfARecordDecodesOrIsRefusedWithAnError)
{
	// A record read back from a damaged crash region or a cut file: each
	// prefix either holds whole attributes and the header, and decodes, or
	// is refused with an Error; nothing else happens.
	for (const Snapshot &sample : {sample_snapshot(), sample_snapshot_with_views()}) {
	const std::vector<std::byte> &whole = sample.record;
	std::size_t decoded = 0;
	for (std::size_t length = 0; length < whole.size(); length++) {
		std::vector<std::byte> prefix(whole.begin(),
					      whole.begin() + static_cast<std::ptrdiff_t>(length));
		try {
			Snapshot snapshot = decode_snapshot(stream_of(prefix), context);
			EXPECT_EQ(snapshot.record, prefix);
			decoded++;
		} catch (const Error &error) {
			EXPECT_FALSE(error.message().empty());
		}
	}
	// The cuts between the attributes after the header.
	EXPECT_GT(decoded, 5u);
	}
}

TEST(DecodeSnapshot, DamagedBytesAreDecodedOrRefusedWithAnError)
{
	for (const Snapshot &sample : {sample_snapshot(), sample_snapshot_with_views()}) {
	const std::vector<std::byte> &whole = sample.record;
	std::mt19937 random(20261204);
	std::uniform_int_distribution<std::size_t> position(0, whole.size() - 1);
	std::uniform_int_distribution<int> value(0, 255);
	std::size_t refused = 0;
	for (int round = 0; round < 4000; round++) {
		std::vector<std::byte> damaged = whole;
		for (int flips = 1 + round % 4; flips > 0; flips--)
			damaged[position(random)] = static_cast<std::byte>(value(random));
		try {
			decode_snapshot(stream_of(damaged), context);
		} catch (const Error &) {
			refused++;
		}
	}
	EXPECT_GT(refused, 0u);
	}
}

// ---- pages, line sharers, registers ----------------------------------------

static_assert(EDGEDMA_A_SNAPSHOT_CACHE_LINE == 22 && EDGEDMA_A_SNAPSHOT_COHERENT == 23 &&
	      EDGEDMA_A_SNAPSHOT_PAGE == 24 && EDGEDMA_A_SNAPSHOT_LINE_SHARER == 25 &&
	      EDGEDMA_A_SNAPSHOT_PROFILE == 26 && EDGEDMA_A_SNAPSHOT_REGISTER == 27);
static_assert(EDGEDMA_A_PAGE_DMA_ADDR == 2 && EDGEDMA_A_PAGE_IOMMU_DOMAIN == 4 &&
	      EDGEDMA_A_PAGE_IOMMU_UNMAPPED == 6 && EDGEDMA_A_PAGE_PHYS == 7 &&
	      EDGEDMA_A_PAGE_PFN_VALID == 16 && EDGEDMA_A_PAGE_FLAGS == 17);
static_assert(EDGEDMA_A_REGISTER_NAME == 2 && EDGEDMA_A_REGISTER_WINDOW == 3 &&
	      EDGEDMA_A_REGISTER_OFFSET == 4 && EDGEDMA_A_REGISTER_WIDTH == 5 &&
	      EDGEDMA_A_REGISTER_FLAGS == 6 && EDGEDMA_A_REGISTER_FIELD == 7 &&
	      EDGEDMA_A_REGISTER_VALUE == 8 && EDGEDMA_A_REGISTER_SKIPPED == 9);
static_assert(EDGEDMA_A_FIELD_NAME == 2 && EDGEDMA_A_FIELD_SHIFT == 3 &&
	      EDGEDMA_A_FIELD_BITS == 4);
static_assert(EDGEDMA_A_MAPPING_DEVICE == 2 && EDGEDMA_A_MAPPING_DRIVER == 3 &&
	      EDGEDMA_A_MAPPING_CALL == 4 && EDGEDMA_A_MAPPING_DMA_ADDR == 5 &&
	      EDGEDMA_A_MAPPING_SIZE == 6 && EDGEDMA_A_MAPPING_DIR == 7 &&
	      EDGEDMA_A_MAPPING_ATTRS == 8 && EDGEDMA_A_MAPPING_CALLER == 11 &&
	      EDGEDMA_A_MAPPING_TIME_NS == 12);
static_assert(EDGEDMA_REGISTER_READ_CLEARS == 1 && EDGEDMA_SKIP_READ_CLEARS == 9 &&
	      EDGEDMA_IOMMU_DOMAIN_NONE == 1 && EDGEDMA_PAGE_SLAB == 1 &&
	      EDGEDMA_PAGE_HEAD == 0x10);

// The header of the hand-laid record above (SEQ to DRIVER), then what a
// newer module adds, byte for byte: the profile "p" with a register read
// (one field) and one not read (read-clears), a page, the cache line, the
// coherency and one line sharer. u64 payloads unpadded.
constexpr auto hand_laid_views = std::to_array<unsigned char>({
	0x06, 0x00, 0x1a, 0x00, 'p', 0, 0, 0,                       // PROFILE "p"
	0x4c, 0x00, 0x1b, 0x80,                                     // REGISTER, nested:
	0x06, 0x00, 0x02, 0x00, 'R', 0, 0, 0,                       //   NAME "R"
	0x08, 0x00, 0x03, 0x00, 0x00, 0, 0, 0,                      //   WINDOW 0
	0x08, 0x00, 0x04, 0x00, 0x10, 0, 0, 0,                      //   OFFSET 0x10
	0x08, 0x00, 0x05, 0x00, 0x04, 0, 0, 0,                      //   WIDTH 4
	0x1c, 0x00, 0x07, 0x80,                                     //   FIELD, nested:
	0x06, 0x00, 0x02, 0x00, 'F', 0, 0, 0,                       //     NAME "F"
	0x08, 0x00, 0x03, 0x00, 0x04, 0, 0, 0,                      //     SHIFT 4
	0x08, 0x00, 0x04, 0x00, 0x04, 0, 0, 0,                      //     BITS 4
	0x0c, 0x00, 0x08, 0x00, 0x34, 0x12, 0, 0, 0, 0, 0, 0,       //   VALUE 0x1234
	0x34, 0x00, 0x1b, 0x80,                                     // REGISTER, nested:
	0x06, 0x00, 0x02, 0x00, 'S', 0, 0, 0,                       //   NAME "S"
	0x08, 0x00, 0x03, 0x00, 0x01, 0, 0, 0,                      //   WINDOW 1
	0x08, 0x00, 0x04, 0x00, 0x00, 0, 0, 0,                      //   OFFSET 0
	0x08, 0x00, 0x05, 0x00, 0x01, 0, 0, 0,                      //   WIDTH 1
	0x08, 0x00, 0x06, 0x00, 0x01, 0, 0, 0,                      //   FLAGS read-clears
	0x08, 0x00, 0x09, 0x00, 0x09, 0, 0, 0,                      //   SKIPPED read-clears
	0x3c, 0x00, 0x18, 0x80,                                     // PAGE, nested:
	0x0c, 0x00, 0x02, 0x00, 0, 0x10, 0, 0, 0, 0, 0, 0,          //   DMA_ADDR 0x1000
	0x08, 0x00, 0x04, 0x00, 0x01, 0, 0, 0,                      //   IOMMU_DOMAIN none
	0x08, 0x00, 0x06, 0x00, 0x01, 0, 0, 0,                      //   IOMMU_UNMAPPED
	0x0c, 0x00, 0x07, 0x00, 0, 0x20, 0, 0, 0, 0, 0, 0,          //   PHYS 0x2000
	0x08, 0x00, 0x10, 0x00, 0x01, 0, 0, 0,                      //   PFN_VALID
	0x08, 0x00, 0x11, 0x00, 0x11, 0, 0, 0,                      //   FLAGS slab|head
	0x08, 0x00, 0x16, 0x00, 0x40, 0, 0, 0,                      // CACHE_LINE 64
	0x08, 0x00, 0x17, 0x00, 0x00, 0, 0, 0,                      // COHERENT 0
	0x60, 0x00, 0x19, 0x80,                                     // LINE_SHARER, nested:
	0x06, 0x00, 0x02, 0x00, 'd', 0, 0, 0,                       //   DEVICE "d"
	0x05, 0x00, 0x03, 0x00, 0, 0, 0, 0,                         //   DRIVER ""
	0x08, 0x00, 0x04, 0x00, 0x01, 0, 0, 0,                      //   CALL dma_map_page
	0x0c, 0x00, 0x05, 0x00, 0, 0x30, 0, 0, 0, 0, 0, 0,          //   DMA_ADDR 0x3000
	0x0c, 0x00, 0x06, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0,          //   SIZE 64
	0x08, 0x00, 0x07, 0x00, 0x01, 0, 0, 0,                      //   DIR to-device
	0x0c, 0x00, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,             //   ATTRS 0
	0x0c, 0x00, 0x0b, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,             //   CALLER 0
	0x0c, 0x00, 0x0c, 0x00, 0x09, 0, 0, 0, 0, 0, 0, 0,          //   TIME_NS 9
});

// The hand-laid header: the record above up to its SKIPPED nest.
constexpr std::size_t hand_laid_header_size = 72;

std::vector<std::byte> hand_laid_views_bytes()
{
	std::vector<std::byte> bytes(hand_laid_header_size + hand_laid_views.size());
	std::memcpy(bytes.data(), hand_laid_record.data(), hand_laid_header_size);
	std::memcpy(bytes.data() + hand_laid_header_size, hand_laid_views.data(),
		    hand_laid_views.size());
	return bytes;
}

TEST(DecodeSnapshot, ReadsPagesSharersAndRegistersLaidOutByHand)
{
	if constexpr (std::endian::native != std::endian::little)
		GTEST_SKIP() << "the record is spelled out little-endian";
	const std::vector<std::byte> bytes = hand_laid_views_bytes();
	Snapshot snapshot = decode_snapshot(stream_of(bytes), context);

	EXPECT_EQ(snapshot.header.device, "dev0");
	EXPECT_EQ(snapshot.profile, "p");
	ASSERT_EQ(snapshot.registers.size(), 2u);
	EXPECT_EQ(snapshot.registers[0],
		  (Register{"R", 0, 0x10, 4, 0, {{"F", 4, 4}}, 0x1234, std::nullopt}));
	EXPECT_EQ(field_value(*snapshot.registers[0].value, snapshot.registers[0].fields[0]), 3u);
	EXPECT_EQ(snapshot.registers[1],
		  (Register{"S", 1, 0, 1, EDGEDMA_REGISTER_READ_CLEARS, {}, std::nullopt,
			    EDGEDMA_SKIP_READ_CLEARS}));
	ASSERT_EQ(snapshot.pages.size(), 1u);
	const PageView &page = snapshot.pages[0];
	EXPECT_EQ(page.dma_addr, 0x1000u);
	EXPECT_FALSE(page.expected_phys);
	EXPECT_EQ(page.iommu_domain, std::uint32_t{EDGEDMA_IOMMU_DOMAIN_NONE});
	EXPECT_FALSE(page.iommu_phys);
	EXPECT_TRUE(page.iommu_unmapped);
	EXPECT_EQ(page.phys, 0x2000u);
	EXPECT_EQ(page.pfn_valid, true);
	EXPECT_EQ(page.flags, std::uint32_t{EDGEDMA_PAGE_SLAB | EDGEDMA_PAGE_HEAD});
	EXPECT_FALSE(page.refcount);
	EXPECT_FALSE(page.swiotlb);
	EXPECT_FALSE(page.cpu_virt);
	EXPECT_FALSE(page.pte_present);
	EXPECT_EQ(snapshot.cache_line, 64u);
	EXPECT_EQ(snapshot.coherent, false);
	ASSERT_EQ(snapshot.line_sharers.size(), 1u);
	const Mapping &sharer = snapshot.line_sharers[0];
	EXPECT_EQ(sharer.device, "d");
	EXPECT_EQ(sharer.driver, "");
	EXPECT_EQ(sharer.call, std::uint32_t{EDGEDMA_CALL_MAP_PAGE});
	EXPECT_EQ(sharer.dma_addr, 0x3000u);
	EXPECT_EQ(sharer.size, 64u);
	EXPECT_EQ(sharer.dir, 1u);
	EXPECT_EQ(sharer.time_ns, 9u);
	EXPECT_FALSE(sharer.cpu_phys);
	EXPECT_TRUE(snapshot.mappings.empty());
	EXPECT_FALSE(snapshot.truncated);
	EXPECT_EQ(snapshot.record, bytes);
}

TEST(DecodeSnapshot, TheTestsBuildersLayOutPagesSharersAndRegistersAsTheModuleDoes)
{
	if constexpr (std::endian::native != std::endian::little)
		GTEST_SKIP() << "the record is spelled out little-endian";
	const std::vector<std::byte> header = hand_laid_bytes();
	RecordBuilder record;
	record.append(std::span(header).first(hand_laid_header_size));
	PageView page;
	page.dma_addr = 0x1000;
	page.iommu_domain = EDGEDMA_IOMMU_DOMAIN_NONE;
	page.iommu_unmapped = true;
	page.phys = 0x2000;
	page.pfn_valid = true;
	page.flags = EDGEDMA_PAGE_SLAB | EDGEDMA_PAGE_HEAD;
	Mapping sharer;
	sharer.device = "d";
	sharer.call = EDGEDMA_CALL_MAP_PAGE;
	sharer.dma_addr = 0x3000;
	sharer.size = 64;
	sharer.dir = 1;
	sharer.time_ns = 9;
	record.string(EDGEDMA_A_SNAPSHOT_PROFILE, "p")
		.nest(EDGEDMA_A_SNAPSHOT_REGISTER,
		      register_nest({"R", 0, 0x10, 4, 0, {{"F", 4, 4}}, 0x1234, std::nullopt}))
		.nest(EDGEDMA_A_SNAPSHOT_REGISTER,
		      register_nest({"S", 1, 0, 1, EDGEDMA_REGISTER_READ_CLEARS, {}, std::nullopt,
				     EDGEDMA_SKIP_READ_CLEARS}))
		.nest(EDGEDMA_A_SNAPSHOT_PAGE, page_nest(page))
		.u32(EDGEDMA_A_SNAPSHOT_CACHE_LINE, 64)
		.u32(EDGEDMA_A_SNAPSHOT_COHERENT, 0)
		.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER, sharer_nest(sharer));
	EXPECT_EQ(record.bytes(), hand_laid_views_bytes());
}

TEST(DecodeSnapshot, ReadsEveryPartANewerModuleAddsInItsOrder)
{
	const Snapshot expected = sample_snapshot_with_views();
	Snapshot snapshot = decode_snapshot(stream_of(expected.record), context);
	EXPECT_EQ(snapshot, expected);
	ASSERT_EQ(snapshot.pages.size(), 2u);
	EXPECT_EQ(snapshot.pages[0].pte_memtype, std::uint32_t{EDGEDMA_MEMTYPE_WRITE_BACK});
	EXPECT_EQ(snapshot.pages[0].pte_executable, false);
	EXPECT_TRUE(snapshot.pages[1].iommu_unmapped);
	ASSERT_EQ(snapshot.line_sharers.size(), 1u);
	// A sharer keeps its own device, not the header's.
	EXPECT_EQ(snapshot.line_sharers[0].device, "0000:00:05.0");
	EXPECT_EQ(snapshot.line_sharers[0].driver, "e1000e");
	EXPECT_EQ(snapshot.line_sharers[0].caller_name, "e1000_rx+0x10/0x200 [e1000e]");
	ASSERT_EQ(snapshot.registers.size(), 2u);
	EXPECT_EQ(snapshot.registers[0].fields.size(), 3u);
	EXPECT_EQ(snapshot.capture_ns, 41'000u);
	// The mappings still get the header's device.
	EXPECT_EQ(snapshot.mappings[0].device, "0000:00:04.0");
}

TEST(DecodeSnapshot, ReadsTheIommuInFrontOfTheDevice)
{
	Snapshot expected = sample_snapshot();
	expected.iommu = IommuRegisters{
		"9050000.smmuv3",
		"arm-smmu-v3",
		{Register{"evtq-prod", 0, 0x100a8, 4, 0, {{"overflow", 31, 1}}, 0x3, std::nullopt}}};
	expected.record = record_of(expected).bytes();
	expected.header.record_size = static_cast<std::uint32_t>(expected.record.size());
	EXPECT_EQ(decode_snapshot(stream_of(expected.record), context), expected);

	// An IOMMU without a profile: its name alone.
	expected.iommu = IommuRegisters{"9050000.smmuv3", std::nullopt, {}};
	expected.record = record_of(expected).bytes();
	expected.header.record_size = static_cast<std::uint32_t>(expected.record.size());
	EXPECT_EQ(decode_snapshot(stream_of(expected.record), context), expected);

	// The IOMMU's name is what the part is about: without it, malformed.
	RecordBuilder record;
	put_header(record, expected.header);
	record.nest(EDGEDMA_A_SNAPSHOT_IOMMU,
		    RecordBuilder().string(EDGEDMA_A_SNAP_IOMMU_PROFILE, "arm-smmu-v3"));
	EXPECT_EQ(error_message_of([&] { decode_snapshot(stream_of(record.bytes()), context); },
				   std::string(context) + ", EDGEDMA_A_SNAPSHOT_IOMMU"),
		  "missing EDGEDMA_A_SNAP_IOMMU_DEVICE");
}

TEST(DecodeSnapshot, ReadsTheNewerPartsWithUnpaddedU64sAtAnyFourByteOffset)
{
	const Snapshot expected = sample_snapshot_with_views();
	for (std::size_t shift : {0u, 4u, 12u}) {
		SCOPED_TRACE(shift);
		std::vector<std::byte> buffer(shift + expected.record.size());
		std::memcpy(buffer.data() + shift, expected.record.data(), expected.record.size());
		EXPECT_EQ(decode_snapshot({buffer.data() + shift, expected.record.size()}, context),
			  expected);
	}
	GenlMessage reply = reply_carrying(expected.record);
	EXPECT_EQ(decode_snapshot(reply.attributes(), context), expected);
}

TEST(DecodeSnapshot, AnOlderRecordHasNoneOfTheNewerParts)
{
	Snapshot snapshot = decode_snapshot(stream_of(sample_snapshot().record), context);
	EXPECT_FALSE(snapshot.profile);
	EXPECT_TRUE(snapshot.registers.empty());
	EXPECT_TRUE(snapshot.pages.empty());
	EXPECT_TRUE(snapshot.line_sharers.empty());
	EXPECT_FALSE(snapshot.cache_line);
	EXPECT_FALSE(snapshot.coherent);
	EXPECT_FALSE(snapshot.capture_ns);
}

TEST(DecodeSnapshot, TakesALineSharerTheModuleCouldNotName)
{
	// At panic the module leaves DEVICE and DRIVER out.
	Snapshot expected = sample_snapshot_with_views();
	expected.line_sharers[0].device.clear();
	expected.line_sharers[0].driver.clear();
	expected.record = record_of(expected).bytes();
	expected.header.record_size = static_cast<std::uint32_t>(expected.record.size());
	EXPECT_EQ(decode_snapshot(stream_of(expected.record), context), expected);
}

TEST(DecodeSnapshot, TakesACoherentDeviceAndAnyNonZeroAsYes)
{
	Snapshot snapshot = sample_snapshot_with_views();
	RecordBuilder record;
	put_header(record, snapshot.header);
	record.u32(EDGEDMA_A_SNAPSHOT_COHERENT, 2);
	EXPECT_EQ(decode(record).coherent, true);
}

TEST(DecodeSnapshot, SkipsAttributesItDoesNotKnowInsideTheNewerParts)
{
	const Snapshot expected = sample_snapshot_with_views();
	RecordBuilder record;
	put_header(record, expected.header);
	record.string(EDGEDMA_A_SNAPSHOT_PROFILE, *expected.profile);
	for (const Register &reg : expected.registers) {
		RecordBuilder nest;
		nest.u64(EDGEDMA_A_REGISTER_MAX + 1, 5);
		for (const RegisterField &field : reg.fields)
			nest.nest(EDGEDMA_A_REGISTER_FIELD,
				  RecordBuilder(field_nest(field)).u32(EDGEDMA_A_FIELD_MAX + 1, 1));
		// The register's own attributes after its fields: order is free.
		Register without_fields = reg;
		without_fields.fields.clear();
		nest.append(register_nest(without_fields).bytes());
		record.nest(EDGEDMA_A_SNAPSHOT_REGISTER, nest);
	}
	for (const PageView &page : expected.pages)
		record.nest(EDGEDMA_A_SNAPSHOT_PAGE,
			    RecordBuilder(page_nest(page)).u64(EDGEDMA_A_PAGE_MAX + 1, 3));
	record.u32(EDGEDMA_A_SNAPSHOT_CACHE_LINE, *expected.cache_line)
		.u32(EDGEDMA_A_SNAPSHOT_COHERENT, 0);
	for (const Mapping &sharer : expected.line_sharers)
		record.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER,
			    RecordBuilder(sharer_nest(sharer)).u32(EDGEDMA_A_MAPPING_MAX + 1, 1));

	Snapshot snapshot = decode(record);
	EXPECT_EQ(snapshot.profile, expected.profile);
	EXPECT_EQ(snapshot.registers, expected.registers);
	EXPECT_EQ(snapshot.pages, expected.pages);
	EXPECT_EQ(snapshot.cache_line, expected.cache_line);
	EXPECT_EQ(snapshot.coherent, expected.coherent);
	EXPECT_EQ(snapshot.line_sharers, expected.line_sharers);
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenPage)
{
	const Snapshot snapshot = sample_snapshot_with_views();
	RecordBuilder record;
	put_header(record, snapshot.header);
	record.nest(EDGEDMA_A_SNAPSHOT_PAGE, page_nest(snapshot.pages[0]))
		.nest(EDGEDMA_A_SNAPSHOT_PAGE,
		      page_nest(snapshot.pages[1], LeaveOut{EDGEDMA_A_PAGE_DMA_ADDR}));
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_PAGE 2"),
		  "missing EDGEDMA_A_PAGE_DMA_ADDR");

	RecordBuilder no_domain;
	put_header(no_domain, snapshot.header);
	no_domain.nest(EDGEDMA_A_SNAPSHOT_PAGE,
		       page_nest(snapshot.pages[0], LeaveOut{EDGEDMA_A_PAGE_IOMMU_DOMAIN}));
	EXPECT_EQ(decode_error(no_domain, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_PAGE 1"),
		  "missing EDGEDMA_A_PAGE_IOMMU_DOMAIN");

	RecordBuilder wide_flags;
	put_header(wide_flags, snapshot.header);
	wide_flags.nest(EDGEDMA_A_SNAPSHOT_PAGE,
			RecordBuilder(page_nest(snapshot.pages[0], LeaveOut{EDGEDMA_A_PAGE_FLAGS}))
				.u64(EDGEDMA_A_PAGE_FLAGS, 1));
	EXPECT_EQ(decode_error(wide_flags, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_PAGE 1"),
		  "EDGEDMA_A_PAGE_FLAGS has 8 bytes, expected 4 (u32)");

	RecordBuilder twice;
	put_header(twice, snapshot.header);
	twice.nest(EDGEDMA_A_SNAPSHOT_PAGE,
		   RecordBuilder(page_nest(snapshot.pages[0])).u64(EDGEDMA_A_PAGE_PTE, 0));
	EXPECT_EQ(decode_error(twice, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_PAGE 1"),
		  "EDGEDMA_A_PAGE_PTE appears more than once");
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenLineSharer)
{
	const Snapshot snapshot = sample_snapshot_with_views();
	RecordBuilder record;
	put_header(record, snapshot.header);
	record.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER,
		    sharer_nest(snapshot.line_sharers[0], LeaveOut{EDGEDMA_A_MAPPING_CALL}));
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_LINE_SHARER 1"),
		  "missing EDGEDMA_A_MAPPING_CALL");

	Mapping segment = snapshot.line_sharers[0];
	segment.call = EDGEDMA_CALL_MAP_SG;
	segment.sg_index = 3;
	segment.sg_count = 3;
	RecordBuilder bad_segment;
	put_header(bad_segment, snapshot.header);
	bad_segment.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER, sharer_nest(snapshot.line_sharers[0]))
		.nest(EDGEDMA_A_SNAPSHOT_LINE_SHARER, sharer_nest(segment));
	EXPECT_EQ(decode_error(bad_segment,
			       "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_LINE_SHARER 2"),
		  "EDGEDMA_A_MAPPING_SG_INDEX 3 is not below EDGEDMA_A_MAPPING_SG_COUNT 3");
}

TEST(DecodeSnapshot, NamesTheItemOfABrokenRegister)
{
	const Snapshot snapshot = sample_snapshot_with_views();
	const Register &read = snapshot.registers[0];
	auto error_of = [&](const RecordBuilder &nest, std::size_t nth = 1,
			    std::string_view where = "") {
		RecordBuilder record;
		put_header(record, snapshot.header);
		for (std::size_t i = 1; i < nth; i++)
			record.nest(EDGEDMA_A_SNAPSHOT_REGISTER, register_nest(read));
		record.nest(EDGEDMA_A_SNAPSHOT_REGISTER, nest);
		return decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_REGISTER " +
						    std::to_string(nth) + std::string(where));
	};
	EXPECT_EQ(error_of(register_nest(read, LeaveOut{EDGEDMA_A_REGISTER_NAME}), 2),
		  "missing EDGEDMA_A_REGISTER_NAME");
	EXPECT_EQ(error_of(register_nest(read, LeaveOut{EDGEDMA_A_REGISTER_WIDTH})),
		  "missing EDGEDMA_A_REGISTER_WIDTH");
	EXPECT_EQ(error_of(register_nest(read, LeaveOut{EDGEDMA_A_REGISTER_VALUE})),
		  "missing EDGEDMA_A_REGISTER_VALUE or EDGEDMA_A_REGISTER_SKIPPED");
	EXPECT_EQ(error_of(RecordBuilder(register_nest(read))
				   .u32(EDGEDMA_A_REGISTER_SKIPPED, EDGEDMA_SKIP_READ_CLEARS)),
		  "both EDGEDMA_A_REGISTER_VALUE and EDGEDMA_A_REGISTER_SKIPPED");
	EXPECT_EQ(error_of(RecordBuilder(register_nest(read, LeaveOut{EDGEDMA_A_REGISTER_VALUE}))
				   .u32(EDGEDMA_A_REGISTER_VALUE, 1)),
		  "EDGEDMA_A_REGISTER_VALUE has 4 bytes, expected 8 (u64)");

	// A field's errors name it inside its register.
	Register without_fields = read;
	without_fields.fields.clear();
	auto with_field = [&](const RecordBuilder &field) {
		return RecordBuilder(register_nest(without_fields))
			.nest(EDGEDMA_A_REGISTER_FIELD, field_nest(read.fields[0]))
			.nest(EDGEDMA_A_REGISTER_FIELD, field);
	};
	constexpr std::string_view second_field = ", EDGEDMA_A_REGISTER_FIELD 2";
	EXPECT_EQ(error_of(with_field(field_nest(read.fields[1], LeaveOut{EDGEDMA_A_FIELD_BITS})),
			   1, second_field),
		  "missing EDGEDMA_A_FIELD_BITS");
	EXPECT_EQ(error_of(with_field(field_nest({"WIDE", 0, 65})), 1, second_field),
		  "EDGEDMA_A_FIELD_BITS 65 is not from 1 to 64");
	EXPECT_EQ(error_of(with_field(field_nest({"NONE", 0, 0})), 1, second_field),
		  "EDGEDMA_A_FIELD_BITS 0 is not from 1 to 64");
	EXPECT_EQ(error_of(with_field(field_nest({"HIGH", 64, 1})), 1, second_field),
		  "EDGEDMA_A_FIELD_SHIFT 64 is past bit 63");
}

TEST(DecodeSnapshot, RefusesANewerSingleAttributeGivenTwice)
{
	RecordBuilder cache_line_twice = record_of(sample_snapshot_with_views());
	cache_line_twice.u32(EDGEDMA_A_SNAPSHOT_CACHE_LINE, 128);
	EXPECT_EQ(decode_error(cache_line_twice),
		  "EDGEDMA_A_SNAPSHOT_CACHE_LINE appears more than once");
	RecordBuilder profile_twice = record_of(sample_snapshot_with_views());
	profile_twice.string(EDGEDMA_A_SNAPSHOT_PROFILE, "other");
	EXPECT_EQ(decode_error(profile_twice), "EDGEDMA_A_SNAPSHOT_PROFILE appears more than once");
}

TEST(DecodeSnapshot, RefusesANestInsideARegisterLongerThanTheRegister)
{
	// A FIELD nest saying it is 0x40 bytes long inside a register that
	// holds 12 bytes of it.
	RecordBuilder record;
	put_header(record, sample_snapshot().header);
	const std::array<unsigned char, 12> overlong{0x40, 0x00, EDGEDMA_A_REGISTER_FIELD, 0x80,
						     0x08, 0x00, 0x03, 0x00, 1, 0, 0, 0};
	record.nest(EDGEDMA_A_SNAPSHOT_REGISTER,
		    RecordBuilder(register_nest({"R", 0, 0, 4, 0, {}, 1, std::nullopt}))
			    .append(std::as_bytes(std::span(overlong))));
	EXPECT_EQ(decode_error(record, "SNAPSHOT_GET reply, EDGEDMA_A_SNAPSHOT_REGISTER 1"),
		  "12 bytes after the last attribute do not form an attribute");
}

TEST(FieldValue, TakesTheFieldsBitsOfTheValue)
{
	EXPECT_EQ(field_value(0x4203, {"BUSY", 0, 1}), 1u);
	EXPECT_EQ(field_value(0x4203, {"ERROR", 1, 1}), 1u);
	EXPECT_EQ(field_value(0x4203, {"CODE", 8, 8}), 0x42u);
	EXPECT_EQ(field_value(~std::uint64_t{0}, {"ALL", 0, 64}), ~std::uint64_t{0});
	// Bits above 63 are not there.
	EXPECT_EQ(field_value(0x8000'0000'0000'0000, {"TOP", 63, 4}), 1u);
	EXPECT_EQ(field_value(~std::uint64_t{0}, {"PAST", 64, 1}), 0u);
}

// ---- the dump's and the notification's header ------------------------------

// A SNAPSHOT_GET dump message (and a SNAPSHOT notification): the record's
// header bytes, then RECORD_SIZE.
GenlMessage listing_message(const Snapshot &snapshot, bool with_size = true)
{
	RecordBuilder header;
	put_header(header, snapshot.header);
	GenlMessage message = reply_carrying(header.bytes());
	if (with_size)
		message.put_u32(EDGEDMA_A_SNAPSHOT_RECORD_SIZE, snapshot.header.record_size);
	return message;
}

constexpr std::string_view dump_context = "SNAPSHOT_GET reply";

TEST(DecodeSnapshotHeader, ReadsADumpMessage)
{
	const Snapshot snapshot = sample_snapshot();
	SnapshotHeader header =
		decode_snapshot_header(listing_message(snapshot).attributes(), dump_context);
	EXPECT_EQ(header, snapshot.header);
	EXPECT_EQ(header.record_size, snapshot.record.size());
}

TEST(DecodeSnapshotHeader, KeepsWhatTheTriggerKnew)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_FINDING;
	snapshot.header.trigger_addr.reset();
	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	snapshot.header.trigger_reason = 17;
	snapshot.header.trigger_symbol = "edu_irq_error";
	snapshot.header.finding_seq = 12;
	EXPECT_EQ(decode_snapshot_header(listing_message(snapshot).attributes(), dump_context),
		  snapshot.header);
}

TEST(DecodeSnapshotHeader, RequiresTheRecordSize)
{
	GenlMessage message = listing_message(sample_snapshot(), false);
	EXPECT_EQ(error_message_of(
			  [&] { decode_snapshot_header(message.attributes(), dump_context); },
			  dump_context),
		  "missing EDGEDMA_A_SNAPSHOT_RECORD_SIZE");
}

TEST(DecodeSnapshotHeader, SkipsTheBodyOfAWholeRecord)
{
	// A notification of a newer module may carry more than the header.
	const Snapshot snapshot = sample_snapshot();
	GenlMessage message = reply_carrying(snapshot.record);
	message.put_u32(EDGEDMA_A_SNAPSHOT_RECORD_SIZE, snapshot.header.record_size);
	EXPECT_EQ(decode_snapshot_header(message.attributes(), dump_context), snapshot.header);
}

// ---- SNAPSHOT_TAKE ---------------------------------------------------------

constexpr std::string_view take_context = "SNAPSHOT_TAKE reply";

TEST(DecodeSnapshotTaken, ReadsTheSeqPaddedAsTheKernelSendsIt)
{
	GenlMessage reply(EDGEDMA_CMD_SNAPSHOT_TAKE);
	reply.put_u64_padded(EDGEDMA_A_SNAPSHOT_SEQ, 0x1'0000'002a, EDGEDMA_A_SNAPSHOT_PAD);
	EXPECT_EQ(decode_snapshot_taken(reply.attributes(), take_context), 0x1'0000'002au);
}

TEST(DecodeSnapshotTaken, RequiresTheSeq)
{
	GenlMessage reply(EDGEDMA_CMD_SNAPSHOT_TAKE);
	EXPECT_EQ(error_message_of([&] { decode_snapshot_taken(reply.attributes(), take_context); },
				   take_context),
		  "missing EDGEDMA_A_SNAPSHOT_SEQ");
}

// Where the snapshot's address was: the first mapping when it holds it,
// else the first unmap when it lies in the address's page (the module
// lists the latest unmap in that page first), else nowhere.
TEST(SnapshotAddressOwner, LiveUnmappedInThePageOrNowhere)
{
	Snapshot snapshot = sample_snapshot_with_views();
	SnapshotAddressOwner owner = snapshot_address_owner(snapshot);
	ASSERT_EQ(owner.kind, SnapshotAddressOwner::Kind::live);
	EXPECT_EQ(owner.mapping, &snapshot.mappings.front());

	// A use after unmap: no live mapping; VT-d reports the page alone, the
	// unmap was of 256 bytes further in it.
	snapshot.mappings.clear();
	snapshot.header.trigger_addr = 0xfffff000;
	snapshot.unmaps.front().dma_addr = 0xfffff800;
	snapshot.unmaps.front().size = 256;
	owner = snapshot_address_owner(snapshot);
	ASSERT_EQ(owner.kind, SnapshotAddressOwner::Kind::unmapped);
	EXPECT_EQ(owner.unmap, &snapshot.unmaps.front());

	// In the next page: the record holds nothing about the address.
	snapshot.unmaps.front().dma_addr = 0x1'0000'0000;
	EXPECT_EQ(snapshot_address_owner(snapshot).kind, SnapshotAddressOwner::Kind::nowhere);
	// Unless pages are larger (a 16K-page kernel says so).
	snapshot.page_size = 16384;
	snapshot.header.trigger_addr = 0xffffc000;
	EXPECT_EQ(snapshot_address_owner(snapshot).kind, SnapshotAddressOwner::Kind::nowhere);
	snapshot.unmaps.front().dma_addr = 0xffffe000;
	EXPECT_EQ(snapshot_address_owner(snapshot).kind, SnapshotAddressOwner::Kind::unmapped);

	snapshot.header.trigger_addr.reset();
	EXPECT_EQ(snapshot_address_owner(snapshot).kind, SnapshotAddressOwner::Kind::no_address);
}

TEST(DecodeSnapshot, PageSizeMustBeAPowerOfTwo)
{
	Snapshot snapshot = sample_snapshot();
	snapshot.page_size = 12288;
	EXPECT_THROW(decode_snapshot(stream_of(record_of(snapshot).bytes()), "test"), Error);
	snapshot.page_size = 16384;
	EXPECT_EQ(decode_snapshot(stream_of(record_of(snapshot).bytes()), "test").page_size, 16384u);
}

} // namespace decode_snapshot_test
} // namespace edgedma::test
