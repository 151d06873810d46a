// SPDX-License-Identifier: GPL-2.0
//
// The whole receive path of the event stream: generic netlink FINDING
// messages built as the module builds them, through io_uring (both modes),
// decoded by the same decoder as dumps and put in sequence. Over a socket
// pair, and over real netlink multicast whose receive buffer overflows.
#include <chrono>
#include <map>

#include <linux/edgedma.h>
#include <linux/genetlink.h>
#include <linux/sock_diag.h>

#include <edgedma/error.hpp>

#include "finding_receiver.hpp"
#include "record_messages.hpp"
#include "socket_support.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace finding_receiver_test {

using detail::FindingReceiver;
using detail::ReceiverSetup;
using namespace std::chrono_literals;

constexpr std::uint16_t family_id = GenlMessage::any_family_id;

struct FakeLog {
	std::map<std::uint64_t, Finding> held;
	int reads = 0;

	detail::FindingSequencer::LogReader reader()
	{
		return [this](std::uint64_t from_seq) {
			reads++;
			std::vector<Finding> findings;
			for (auto it = held.lower_bound(from_seq); it != held.end(); ++it)
				findings.push_back(it->second);
			return findings;
		};
	}
};

std::vector<std::uint64_t> seqs_of(const std::vector<StreamEvent> &events)
{
	std::vector<std::uint64_t> seqs;
	for (const auto &event : events)
		if (const auto *finding = std::get_if<Finding>(&event))
			seqs.push_back(finding->seq);
	return seqs;
}

class FindingReceiverTest : public ::testing::TestWithParam<ReceiveMode> {
protected:
	std::unique_ptr<FindingReceiver> make_receiver(int fd, std::uint64_t first_seq = 1,
						       bool catch_up = false)
	{
		ReceiverSetup setup;
		setup.fd = fd;
		setup.family_id = family_id;
		setup.first_seq = first_seq;
		setup.catch_up = catch_up;
		setup.read_log = log.reader();
		setup.drops = [fd]() -> std::optional<std::uint64_t> {
			std::uint32_t meminfo[SK_MEMINFO_VARS] = {};
			socklen_t length = sizeof meminfo;
			if (::getsockopt(fd, SOL_SOCKET, SO_MEMINFO, meminfo, &length) < 0)
				return std::nullopt;
			return meminfo[SK_MEMINFO_DROPS];
		};
		setup.ring.mode = GetParam();
		try {
			return std::make_unique<FindingReceiver>(std::move(setup));
		} catch (const Error &error) {
			skip_reason = error.what();
			return nullptr;
		}
	}

	// Polls until nothing comes for a while.
	std::vector<StreamEvent> drain(FindingReceiver &receiver)
	{
		std::vector<StreamEvent> all;
		for (;;) {
			auto events = receiver.poll(200ms);
			if (events.empty())
				return all;
			all.insert(all.end(), std::make_move_iterator(events.begin()),
				   std::make_move_iterator(events.end()));
		}
	}

	FakeLog log;
	std::string skip_reason;
};

#define RECEIVER_OR_SKIP(receiver, ...)          \
	auto receiver = make_receiver(__VA_ARGS__); \
	if (!receiver)                              \
		GTEST_SKIP() << skip_reason

TEST_P(FindingReceiverTest, DeliversNotificationsDecodedLikeDumps)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	for (std::uint64_t seq = 1; seq <= 3; seq++)
		pair.send(finding_message(sample_finding(seq)).bytes());
	auto events = drain(*receiver);
	ASSERT_EQ(seqs_of(events), (std::vector<std::uint64_t>{1, 2, 3}));
	EXPECT_EQ(std::get<Finding>(events[1]), sample_finding(2));
	EXPECT_EQ(receiver->counters(), (StreamCounters{.received = 3}));
	EXPECT_EQ(receiver->mode(), GetParam());
}

TEST_P(FindingReceiverTest, FillsAGapFromTheLogAndReportsWhatItLacks)
{
	DatagramPair pair;
	log.held[3] = sample_finding(3); // 2 is gone from the log too
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	for (std::uint64_t seq : {std::uint64_t{1}, std::uint64_t{4}})
		pair.send(finding_message(sample_finding(seq)).bytes());
	auto events = drain(*receiver);
	ASSERT_EQ(events.size(), 4u);
	EXPECT_EQ(std::get<Finding>(events[0]).seq, 1u);
	EXPECT_EQ(std::get<Loss>(events[1]), (Loss{2, 2, Loss::Cause::gap}));
	EXPECT_EQ(std::get<Finding>(events[2]).seq, 3u);
	EXPECT_EQ(std::get<Finding>(events[3]).seq, 4u);
	EXPECT_EQ(receiver->counters(),
		  (StreamCounters{.received = 2, .recovered_from_log = 1, .lost = 1}));
}

TEST_P(FindingReceiverTest, ReadsSeveralMessagesOfOneDatagram)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	std::vector<std::byte> datagram;
	for (std::uint64_t seq = 1; seq <= 3; seq++) {
		auto message = finding_message(sample_finding(seq));
		datagram.insert(datagram.end(), message.bytes().begin(), message.bytes().end());
	}
	pair.send(datagram);
	EXPECT_EQ(seqs_of(drain(*receiver)), (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST_P(FindingReceiverTest, SkipsMessagesThatAreNotFindings)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	pair.send(GenlMessage(EDGEDMA_CMD_MAX + 1).bytes()); // a newer module's
	pair.send(finding_message(sample_finding(1), std::nullopt, EDGEDMA_CMD_FINDING,
				  family_id + 1).bytes()); // another family's
	GenlMessage other_family(CTRL_CMD_NEWFAMILY, GENL_ID_CTRL);
	other_family.put_u32(CTRL_ATTR_FAMILY_ID, family_id + 1); // not ours
	pair.send(other_family.bytes());
	pair.send(finding_message(sample_finding(1)).bytes());
	EXPECT_EQ(seqs_of(drain(*receiver)), (std::vector<std::uint64_t>{1}));
}

TEST_P(FindingReceiverTest, DeliversRepeatsAfterTheFindingsWithoutCountingThem)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	pair.send(finding_message(folded_finding(1, 1, 0)).bytes());
	pair.send(repeats_message(sample_repeats(1, 4103, 99)).bytes());
	pair.send(finding_message(sample_finding(2)).bytes());
	auto events = drain(*receiver);
	EXPECT_EQ(seqs_of(events), (std::vector<std::uint64_t>{1, 2}));
	ASSERT_EQ(events.size(), 3u);
	// A repeat names a finding numbered before, which came first.
	const auto *repeats = std::get_if<FindingRepeats>(&events.back());
	ASSERT_NE(repeats, nullptr);
	EXPECT_EQ(*repeats, sample_repeats(1, 4103, 99));
	EXPECT_EQ(receiver->counters(), (StreamCounters{.received = 2, .repeats = 1}));
	EXPECT_EQ(log.reads, 0);
}

TEST_P(FindingReceiverTest, RepeatsOfAFindingNotYetSeenAreNoGap)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get(), 5);
	// Of seq 3 (before the stream) and 9 (its notification still to come,
	// or lost): neither moves the sequence, reads the log or loses a thing.
	pair.send(repeats_message(sample_repeats(3, 2, 1)).bytes());
	pair.send(repeats_message(sample_repeats(9, 2, 1)).bytes());
	auto events = drain(*receiver);
	ASSERT_EQ(events.size(), 2u);
	EXPECT_EQ(std::get<FindingRepeats>(events[0]).seq, 3u);
	EXPECT_EQ(std::get<FindingRepeats>(events[1]).seq, 9u);
	EXPECT_EQ(receiver->counters(), (StreamCounters{.repeats = 2}));
	EXPECT_EQ(log.reads, 0);
	// The next finding is still the one due.
	pair.send(finding_message(sample_finding(5)).bytes());
	EXPECT_EQ(seqs_of(drain(*receiver)), (std::vector<std::uint64_t>{5}));
	EXPECT_EQ(receiver->counters(), (StreamCounters{.received = 1, .repeats = 2}));
}

TEST_P(FindingReceiverTest, AMalformedRepeatsIsAnErrorNamingTheAttribute)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	pair.send(repeats_message(sample_repeats(1, 2, 3), EDGEDMA_A_FINDING_OCCURRENCES).bytes());
	try {
		receiver->poll(1s);
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_STREQ(error.what(),
			     "FINDING_REPEATS notification: missing EDGEDMA_A_FINDING_OCCURRENCES");
	}
}

TEST_P(FindingReceiverTest, ACutMessageMeansResyncFromTheLog)
{
	DatagramPair pair;
	log.held[1] = sample_finding(1);
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	auto message = finding_message(sample_finding(1));
	pair.send(message.bytes().first(message.bytes().size() - 8));
	auto events = drain(*receiver);
	EXPECT_EQ(seqs_of(events), (std::vector<std::uint64_t>{1}));
	EXPECT_EQ(receiver->counters(), (StreamCounters{.recovered_from_log = 1, .overflows = 1}));
}

TEST_P(FindingReceiverTest, AMalformedFindingIsAnErrorNamingTheAttribute)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	pair.send(finding_message(sample_finding(1), EDGEDMA_A_FINDING_KIND).bytes());
	try {
		receiver->poll(1s);
		FAIL() << "no error";
	} catch (const Error &error) {
		EXPECT_STREQ(error.what(), "FINDING notification: missing EDGEDMA_A_FINDING_KIND");
	}
}

TEST_P(FindingReceiverTest, CatchesUpFromTheLogFirst)
{
	DatagramPair pair;
	log.held[2] = sample_finding(2);
	log.held[3] = sample_finding(3);
	RECEIVER_OR_SKIP(receiver, pair.receiver.get(), 1, true);
	pair.send(finding_message(sample_finding(3)).bytes()); // also notified
	pair.send(finding_message(sample_finding(4)).bytes());
	auto events = drain(*receiver);
	ASSERT_EQ(events.size(), 4u);
	EXPECT_EQ(std::get<Loss>(events[0]), (Loss{1, 1, Loss::Cause::gap}));
	EXPECT_EQ(seqs_of(events), (std::vector<std::uint64_t>{2, 3, 4}));
	EXPECT_EQ(receiver->counters(), (StreamCounters{.received = 1,
							.recovered_from_log = 2,
							.lost = 1,
							.duplicates = 1}));
}

TEST_P(FindingReceiverTest, EndsWhenTheFamilyIsRemoved)
{
	DatagramPair pair;
	RECEIVER_OR_SKIP(receiver, pair.receiver.get());
	pair.send(finding_message(sample_finding(1)).bytes());
	GenlMessage removed(CTRL_CMD_DELFAMILY, GENL_ID_CTRL);
	removed.put_bytes(CTRL_ATTR_FAMILY_ID,
			  std::as_bytes(std::span(&family_id, 1)));
	pair.send(removed.bytes());
	// What came before the removal is still delivered, then the stream ends.
	std::vector<std::uint64_t> seqs;
	try {
		for (int i = 0; i < 10; i++) {
			auto more = seqs_of(receiver->poll(1s));
			seqs.insert(seqs.end(), more.begin(), more.end());
		}
		FAIL() << "the stream did not end";
	} catch (const Error &error) {
		EXPECT_STREQ(error.what(), "event stream: the edgedma module was unloaded");
	}
	EXPECT_EQ(seqs, (std::vector<std::uint64_t>{1}));
}

// Real netlink multicast, real overflow: the receive buffer is too small
// for the burst, the socket reports ENOBUFS, and the stream resyncs from the
// log. Every finding is delivered or counted lost, none twice, in order.
TEST_P(FindingReceiverTest, RecoversFromARealSocketOverflow)
{
	std::unique_ptr<UsersockMulticast> multicast;
	try {
		multicast = std::make_unique<UsersockMulticast>(4096);
	} catch (const std::exception &error) {
		GTEST_SKIP() << "no NETLINK_USERSOCK multicast here: " << error.what();
	}
	constexpr std::uint64_t burst = 300;
	// The log lost the oldest 20 by the time the stream resyncs.
	for (std::uint64_t seq = 21; seq <= burst; seq++)
		log.held[seq] = sample_finding(seq);
	RECEIVER_OR_SKIP(receiver, multicast->receiver.get());

	for (std::uint64_t seq = 1; seq <= burst; seq++)
		multicast->broadcast(finding_message(sample_finding(seq)).bytes());
	auto events = drain(*receiver);

	std::uint64_t expected = 1;
	for (const auto &event : events) {
		if (const auto *finding = std::get_if<Finding>(&event)) {
			ASSERT_EQ(finding->seq, expected);
			expected++;
		} else {
			const auto &loss = std::get<Loss>(event);
			ASSERT_EQ(loss.first_seq, expected);
			ASSERT_LE(loss.last_seq, 20u) << "lost what the log held";
			expected = loss.last_seq + 1;
		}
	}
	EXPECT_EQ(expected, burst + 1);
	const StreamCounters &counters = receiver->counters();
	EXPECT_GE(counters.overflows, 1u);
	EXPECT_GT(counters.recovered_from_log, 0u);
	EXPECT_EQ(counters.received + counters.recovered_from_log + counters.lost, burst);
}

INSTANTIATE_TEST_SUITE_P(Modes, FindingReceiverTest,
			 ::testing::Values(ReceiveMode::multishot, ReceiveMode::batched),
			 [](const ::testing::TestParamInfo<ReceiveMode> &mode) {
				 return std::string(receive_mode_name(mode.param));
			 });

} // namespace finding_receiver_test
} // namespace edgedma::test
