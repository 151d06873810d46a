// SPDX-License-Identifier: GPL-2.0
//
// The stream's sequence-number bookkeeping, fed made-up sequences: gaps,
// duplicates, overflows and what the module's log still holds.
#include <map>
#include <random>
#include <set>

#include <edgedma/error.hpp>

#include "record_messages.hpp"
#include "sequencer.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace sequencer_test {

using detail::FindingSequencer;

// The module's findings log: what it still holds, and how often it is read.
struct FakeLog {
	std::map<std::uint64_t, Finding> held;
	int reads = 0;

	void hold(std::initializer_list<std::uint64_t> seqs)
	{
		for (std::uint64_t seq : seqs)
			held[seq] = sample_finding(seq);
	}

	FindingSequencer::LogReader reader()
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

// The events as a compact trace: "5" for a finding, "lost 2..3 gap",
// "repeats 5 x9".
std::vector<std::string> trace(const std::vector<StreamEvent> &events)
{
	std::vector<std::string> lines;
	for (const auto &event : events) {
		if (const auto *finding = std::get_if<Finding>(&event))
			lines.push_back(std::to_string(finding->seq));
		else if (const auto *repeats = std::get_if<FindingRepeats>(&event))
			lines.push_back("repeats " + std::to_string(repeats->seq) + " x" +
					std::to_string(repeats->occurrences));
		else {
			const auto &loss = std::get<Loss>(event);
			lines.push_back("lost " + std::to_string(loss.first_seq) + ".." +
					std::to_string(loss.last_seq) + " " +
					std::string(loss_cause_name(loss.cause)));
		}
	}
	return lines;
}

using Trace = std::vector<std::string>;

// Feeds notifications as one batch.
std::vector<StreamEvent> notify(FindingSequencer &sequencer,
				std::initializer_list<std::uint64_t> seqs)
{
	std::vector<StreamEvent> events;
	for (std::uint64_t seq : seqs)
		sequencer.notified(sample_finding(seq), events);
	sequencer.end_batch();
	return events;
}

TEST(Sequencer, DeliversConsecutiveNotifications)
{
	FakeLog log;
	FindingSequencer sequencer(log.reader(), 5);
	EXPECT_EQ(trace(notify(sequencer, {5, 6, 7})), (Trace{"5", "6", "7"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 3}));
	EXPECT_EQ(sequencer.next_seq(), 8u);
	EXPECT_EQ(log.reads, 0);
}

TEST(Sequencer, DeliversRepeatsWithoutTouchingTheSequence)
{
	FakeLog log;
	log.hold({3, 4});
	FindingSequencer sequencer(log.reader(), 5);
	std::vector<StreamEvent> events;
	sequencer.notified(sample_finding(5), events);
	// Of a finding delivered, of one from before the stream, and of one
	// not due yet (its notification lost): none is a gap, a duplicate or a
	// reason to read the log.
	sequencer.repeated(sample_repeats(5, 9, 1), events);
	sequencer.repeated(sample_repeats(3, 2, 1), events);
	sequencer.repeated(sample_repeats(7, 4, 1), events);
	sequencer.end_batch();
	EXPECT_EQ(trace(events), (Trace{"5", "repeats 5 x9", "repeats 3 x2", "repeats 7 x4"}));
	EXPECT_EQ(sequencer.next_seq(), 6u);
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 1, .repeats = 3}));
	EXPECT_EQ(log.reads, 0);
	// And the sequence goes on as if they never came.
	EXPECT_EQ(trace(notify(sequencer, {6, 7})), (Trace{"6", "7"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 3, .repeats = 3}));
}

TEST(Sequencer, DropsAndCountsDuplicates)
{
	FakeLog log;
	FindingSequencer sequencer(log.reader(), 5);
	EXPECT_EQ(trace(notify(sequencer, {5, 6, 6, 5, 7})), (Trace{"5", "6", "7"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 3, .duplicates = 2}));
}

TEST(Sequencer, IgnoresNotificationsFromBeforeItsStart)
{
	FakeLog log;
	FindingSequencer sequencer(log.reader(), 10);
	EXPECT_EQ(trace(notify(sequencer, {8, 9, 10})), (Trace{"10"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 1}));
}

TEST(Sequencer, FillsAGapFromTheLog)
{
	FakeLog log;
	log.hold({1, 2, 3, 4});
	FindingSequencer sequencer(log.reader(), 1);
	EXPECT_EQ(trace(notify(sequencer, {1, 4})), (Trace{"1", "2", "3", "4"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 2, .recovered_from_log = 2}));
}

TEST(Sequencer, CountsWhatTheLogNoLongerHoldsAsLost)
{
	FakeLog log;
	log.hold({3, 4, 5, 7, 8}); // 2 and 6 were overwritten
	FindingSequencer sequencer(log.reader(), 1);
	EXPECT_EQ(trace(notify(sequencer, {1, 8})),
		  (Trace{"1", "lost 2..2 gap", "3", "4", "5", "lost 6..6 gap", "7", "8"}));
	EXPECT_EQ(sequencer.counters(),
		  (StreamCounters{.received = 2, .recovered_from_log = 4, .lost = 2}));
}

TEST(Sequencer, AGapTheLogLostEntirelyIsOneLoss)
{
	FakeLog log;
	log.hold({9}); // newer than the gap: no help
	FindingSequencer sequencer(log.reader(), 1);
	EXPECT_EQ(trace(notify(sequencer, {1, 5, 6})), (Trace{"1", "lost 2..4 gap", "5", "6"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 3, .lost = 3}));
}

TEST(Sequencer, OneLogReadServesEveryGapOfABatch)
{
	FakeLog log;
	log.hold({1, 2, 3, 4, 5, 6, 7});
	FindingSequencer sequencer(log.reader(), 1);
	EXPECT_EQ(trace(notify(sequencer, {1, 3, 5, 7})),
		  (Trace{"1", "2", "3", "4", "5", "6", "7"}));
	EXPECT_EQ(log.reads, 1);
	// The next batch looks at the log again.
	log.hold({8, 9, 10});
	EXPECT_EQ(trace(notify(sequencer, {10})), (Trace{"8", "9", "10"}));
	EXPECT_EQ(log.reads, 2);
}

TEST(Sequencer, ReadsAgainWhenABatchsReadIsTooOld)
{
	FakeLog log;
	log.hold({1, 2});
	FindingSequencer sequencer(log.reader(), 1);
	std::vector<StreamEvent> events;
	sequencer.notified(sample_finding(3), events); // reads 1..2
	log.hold({4, 5});
	sequencer.notified(sample_finding(6), events); // 4..5 came later
	EXPECT_EQ(trace(events), (Trace{"1", "2", "3", "4", "5", "6"}));
	EXPECT_EQ(log.reads, 2);
}

TEST(Sequencer, OverflowDeliversEverythingTheLogHasFromTheNextSeq)
{
	FakeLog log;
	log.hold({4, 5, 6}); // 2 and 3 overwritten before the resync
	FindingSequencer sequencer(log.reader(), 1);
	std::vector<StreamEvent> events = notify(sequencer, {1});
	sequencer.overflowed(events);
	sequencer.end_batch();
	EXPECT_EQ(trace(events), (Trace{"1", "lost 2..3 overflow", "4", "5", "6"}));
	// Notifications still queued in the socket are duplicates now.
	EXPECT_EQ(trace(notify(sequencer, {5, 6, 7})), (Trace{"7"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 2,
							.recovered_from_log = 3,
							.lost = 2,
							.duplicates = 2,
							.overflows = 1}));
}

TEST(Sequencer, OverflowWithNothingNewDeliversNothing)
{
	FakeLog log;
	log.hold({1, 2});
	FindingSequencer sequencer(log.reader(), 1);
	std::vector<StreamEvent> events = notify(sequencer, {1, 2});
	sequencer.overflowed(events);
	EXPECT_EQ(trace(events), (Trace{"1", "2"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.received = 2, .overflows = 1}));
}

TEST(Sequencer, OverflowReadsTheLogEvenAfterAReadInTheSameBatch)
{
	FakeLog log;
	log.hold({1, 2});
	FindingSequencer sequencer(log.reader(), 1);
	std::vector<StreamEvent> events;
	sequencer.notified(sample_finding(2), events); // reads the log
	log.hold({3});
	sequencer.overflowed(events); // must see 3
	EXPECT_EQ(trace(events), (Trace{"1", "2", "3"}));
	EXPECT_EQ(log.reads, 2);
}

TEST(Sequencer, CatchUpStartsInThePast)
{
	FakeLog log;
	log.hold({3, 4});
	FindingSequencer sequencer(log.reader(), 1);
	std::vector<StreamEvent> events;
	sequencer.catch_up(events);
	EXPECT_EQ(trace(events), (Trace{"lost 1..2 gap", "3", "4"}));
	EXPECT_EQ(sequencer.counters(), (StreamCounters{.recovered_from_log = 2, .lost = 2}));
}

TEST(Sequencer, AFailedLogReadLeavesTheStateAsItWas)
{
	FindingSequencer sequencer(
		[](std::uint64_t) -> std::vector<Finding> {
			throw Error("FINDINGS_GET", "this command needs CAP_SYS_ADMIN", 1);
		},
		1);
	std::vector<StreamEvent> events;
	EXPECT_THROW(sequencer.notified(sample_finding(3), events), Error);
	EXPECT_TRUE(events.empty());
	EXPECT_EQ(sequencer.next_seq(), 1u);
	EXPECT_EQ(sequencer.counters(), StreamCounters{});
}

// Many random streams: whatever arrives, duplicates and gaps included,
// every seq from the start to the newest is accounted for exactly once, in
// order, and the counters add up.
TEST(Sequencer, AccountsForEverySeqExactlyOnce)
{
	std::mt19937 random(20240601);
	for (int round = 0; round < 200; round++) {
		SCOPED_TRACE("round " + std::to_string(round));
		const std::uint64_t first = 1 + random() % 5;
		const std::uint64_t newest = first + 40 + random() % 40;
		const std::uint64_t log_size = 1 + random() % 30;

		FakeLog log;
		for (std::uint64_t seq = 1; seq <= newest; seq++)
			if (seq + log_size > newest) // the ring kept the newest only
				log.held[seq] = sample_finding(seq);
		FindingSequencer sequencer(log.reader(), first);

		std::vector<StreamEvent> events;
		std::uint64_t highest_notified = 0;
		for (std::uint64_t seq = 1; seq <= newest; seq++) {
			auto chance = random() % 10;
			if (chance < 3 && seq != newest)
				continue; // dropped on the way
			sequencer.notified(sample_finding(seq), events);
			highest_notified = seq;
			if (chance == 9 && seq > 2) // a late duplicate
				sequencer.notified(sample_finding(seq - random() % 3), events);
			if (random() % 7 == 0)
				sequencer.end_batch();
			if (random() % 23 == 0)
				sequencer.overflowed(events);
		}
		ASSERT_EQ(highest_notified, newest);

		std::uint64_t expected = first, delivered = 0, lost = 0;
		for (const auto &event : events) {
			if (const auto *finding = std::get_if<Finding>(&event)) {
				ASSERT_EQ(finding->seq, expected);
				expected++;
				delivered++;
			} else {
				const auto &loss = std::get<Loss>(event);
				ASSERT_EQ(loss.first_seq, expected);
				ASSERT_GE(loss.last_seq, loss.first_seq);
				// Nothing the log held may be called lost.
				for (std::uint64_t seq = loss.first_seq; seq <= loss.last_seq; seq++)
					ASSERT_FALSE(log.held.contains(seq)) << seq << " was in the log";
				expected = loss.last_seq + 1;
				lost += loss.count();
			}
		}
		EXPECT_EQ(expected, newest + 1);
		const auto &counters = sequencer.counters();
		EXPECT_EQ(counters.received + counters.recovered_from_log, delivered);
		EXPECT_EQ(counters.lost, lost);
		EXPECT_EQ(delivered + lost, newest - first + 1);
	}
}

} // namespace sequencer_test
} // namespace edgedma::test
