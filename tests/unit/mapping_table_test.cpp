// SPDX-License-Identifier: GPL-2.0
//
// Client::mapping_table()'s reading loop, driven by reads made up here: the
// module marks a dump during which the table changed (NLM_F_DUMP_INTR), and
// the loop reads again.
#include <vector>

#include "mapping_table.hpp"
#include "record_messages.hpp"

namespace edgedma::test {
namespace mapping_table_test {

using detail::read_mapping_table;

Mapping mapping_at(std::uint64_t dma_addr)
{
	Mapping mapping = sample_mapping();
	mapping.dma_addr = dma_addr;
	return mapping;
}

// A table that gives the reads planned: each read puts its mappings and
// says whether the module marked it interrupted.
struct PlannedRead {
	std::vector<Mapping> mappings;
	bool interrupted;
};

class PlannedTable {
public:
	explicit PlannedTable(std::vector<PlannedRead> reads) : reads_(std::move(reads)) {}

	detail::MappingTableDump dump()
	{
		return [this](std::vector<Mapping> &mappings) {
			// Each read is handed an empty list: nothing of an earlier read
			// may leak into this one.
			EXPECT_TRUE(mappings.empty()) << "read " << made_ + 1;
			if (made_ >= reads_.size()) {
				ADD_FAILURE() << "read " << made_ + 1 << " was not planned";
				return false;
			}
			const PlannedRead &read = reads_[made_++];
			mappings.insert(mappings.end(), read.mappings.begin(), read.mappings.end());
			return read.interrupted;
		};
	}
	std::size_t made() const { return made_; }

private:
	std::vector<PlannedRead> reads_;
	std::size_t made_ = 0;
};

TEST(ReadMappingTable, StopsAtTheFirstRead)
{
	PlannedTable table({{{mapping_at(0x1000), mapping_at(0x2000)}, false}});
	MappingTable read = read_mapping_table(4, table.dump());
	EXPECT_TRUE(read.consistent);
	EXPECT_EQ(read.attempts, 1);
	EXPECT_EQ(read.mappings, (std::vector{mapping_at(0x1000), mapping_at(0x2000)}));
	EXPECT_EQ(table.made(), 1u);
}

TEST(ReadMappingTable, ReadsAgainUntilAReadIsNotInterrupted)
{
	PlannedTable table({
		{{mapping_at(0x1000), mapping_at(0x1000)}, true}, // repeated an entry
		{{mapping_at(0x2000)}, true},                     // missed one
		{{mapping_at(0x1000), mapping_at(0x3000)}, false},
		{{mapping_at(0x4000)}, false}, // never read
	});
	MappingTable read = read_mapping_table(4, table.dump());
	EXPECT_TRUE(read.consistent);
	EXPECT_EQ(read.attempts, 3);
	// Only the clean read: nothing of the interrupted ones is merged in.
	EXPECT_EQ(read.mappings, (std::vector{mapping_at(0x1000), mapping_at(0x3000)}));
	EXPECT_EQ(table.made(), 3u);
}

TEST(ReadMappingTable, GivesUpAfterMaxAttemptsWithTheLastRead)
{
	PlannedTable table({
		{{mapping_at(0x1000)}, true},
		{{mapping_at(0x2000), mapping_at(0x2000)}, true},
		{{mapping_at(0x3000)}, true},
	});
	MappingTable read = read_mapping_table(3, table.dump());
	EXPECT_FALSE(read.consistent);
	EXPECT_EQ(read.attempts, 3);
	EXPECT_EQ(read.mappings, std::vector{mapping_at(0x3000)});
	EXPECT_EQ(table.made(), 3u);
}

TEST(ReadMappingTable, CleanLastAttemptIsConsistent)
{
	PlannedTable table({{{mapping_at(0x1000)}, true}, {{mapping_at(0x2000)}, false}});
	MappingTable read = read_mapping_table(2, table.dump());
	EXPECT_TRUE(read.consistent);
	EXPECT_EQ(read.attempts, 2);
	EXPECT_EQ(read.mappings, std::vector{mapping_at(0x2000)});
}

TEST(ReadMappingTable, MakesOneReadWhateverMaxAttemptsSays)
{
	for (int max_attempts : {1, 0, -3}) {
		SCOPED_TRACE(max_attempts);
		PlannedTable interrupted({{{mapping_at(0x1000)}, true}});
		MappingTable read = read_mapping_table(max_attempts, interrupted.dump());
		EXPECT_FALSE(read.consistent);
		EXPECT_EQ(read.attempts, 1);
		EXPECT_EQ(read.mappings, std::vector{mapping_at(0x1000)});
		EXPECT_EQ(interrupted.made(), 1u);

		PlannedTable clean({{{}, false}});
		read = read_mapping_table(max_attempts, clean.dump());
		EXPECT_TRUE(read.consistent);
		EXPECT_EQ(read.attempts, 1);
		EXPECT_TRUE(read.mappings.empty());
	}
}

TEST(ReadMappingTable, AnEmptyInterruptedReadIsStillRetried)
{
	PlannedTable table({{{}, true}, {{mapping_at(0x1000)}, false}});
	MappingTable read = read_mapping_table(4, table.dump());
	EXPECT_TRUE(read.consistent);
	EXPECT_EQ(read.attempts, 2);
	EXPECT_EQ(read.mappings, std::vector{mapping_at(0x1000)});
}

TEST(ReadMappingTable, AFailedReadIsThrownAndNotRetried)
{
	int reads = 0;
	auto failing = [&](std::vector<Mapping> &) -> bool {
		reads++;
		throw Error("MAPPINGS_GET", "refused", 1);
	};
	EXPECT_THROW(read_mapping_table(4, failing), Error);
	EXPECT_EQ(reads, 1);
}

} // namespace mapping_table_test
} // namespace edgedma::test
