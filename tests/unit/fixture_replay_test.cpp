// SPDX-License-Identifier: GPL-2.0
//
// Recordings the real module made in the test guests
// (tests/data/recordings/, made by its regenerate script) replay to the
// findings the test driver's bug modes caused: exactly the kinds the
// module's findings log held for that time (FIXTURE.expected), no more.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <edgedma/analysis.hpp>
#include <edgedma/culprit.hpp>
#include <edgedma/names.hpp>
#include <edgedma/recording.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma::test {
namespace fixture_replay_test {

const std::filesystem::path fixtures = EDGEDMA_FIXTURE_DIR;

std::vector<std::filesystem::path> recordings()
{
	std::vector<std::filesystem::path> files;
	for (const auto &entry : std::filesystem::directory_iterator(fixtures))
		if (entry.path().extension() == ".edr")
			files.push_back(entry.path());
	std::ranges::sort(files);
	return files;
}

std::multiset<std::string> expected_kinds(const std::filesystem::path &recording)
{
	std::ifstream list(std::filesystem::path(recording).replace_extension(".expected"));
	std::multiset<std::string> kinds;
	for (std::string line; std::getline(list, line);)
		if (!line.empty())
			kinds.insert(line);
	return kinds;
}

TEST(FixtureReplay, FixturesArePresent)
{
	EXPECT_GE(recordings().size(), 2u) << "in " << fixtures;
}

TEST(FixtureReplay, ReplayGivesWhatTheModuleLogged)
{
	for (const auto &file : recordings()) {
		SCOPED_TRACE(file.filename().string());
		auto expected = expected_kinds(file);
		ASSERT_GE(expected.size(), 5u) << "no .expected beside it, or too few findings";

		RecordingReader reader(file);
		Summary summary = analyze_recording(reader, file.filename().string());
		EXPECT_TRUE(summary.recording_complete);
		EXPECT_EQ(summary.records_skipped, 0u);
		EXPECT_EQ(summary.findings_lost, 0u);
		EXPECT_EQ(summary.map_events_lost, 0u);
		ASSERT_TRUE(summary.info);

		std::multiset<std::string> found;
		for (const auto &finding : summary.findings) {
			found.insert(std::string(finding_kind_label(finding.kind)));
			EXPECT_EQ(finding.driver, "edgedma_test_edu");
			EXPECT_FALSE(finding.detail.empty());
		}
		EXPECT_EQ(found, expected);
		EXPECT_EQ(summary.findings_total, expected.size());

		// The driver's DMA traffic is there, and the recording names its
		// callers although the driver was unloaded before it ended.
		EXPECT_GT(summary.map_events_total, expected.size());
		Symbolizer symbols = Symbolizer::parse(summary.kallsyms);
		std::size_t in_driver = 0;
		for (const auto &finding : summary.findings) {
			if (!finding.caller)
				continue;
			std::string where = symbols.describe(finding.caller);
			EXPECT_NE(where.rfind("0x", 0), 0u) << where;
			in_driver += where.find("[edgedma_test_edu]") != std::string::npos;
		}
		EXPECT_GE(in_driver, 1u);
	}
}

TEST(FixtureReplay, RecordingsFromBeforeCallChainsBlameTheCaller)
{
	// Made by a module that sent no call chain, no driver module and no
	// FINDING_REPEATS: they read as ever, and the caller is the culprit.
	for (const auto &file : recordings()) {
		SCOPED_TRACE(file.filename().string());
		RecordingReader reader(file);
		Summary summary = analyze_recording(reader, file.filename().string());
		EXPECT_EQ(summary.records_skipped, 0u);
		ASSERT_FALSE(summary.findings.empty());
		for (const auto &finding : summary.findings) {
			EXPECT_TRUE(finding.call_chain.empty());
			EXPECT_TRUE(finding.call_chain_names.empty());
			EXPECT_FALSE(finding.driver_module);
			EXPECT_TRUE(find_culprit(finding).is_caller());
		}
	}
}

} // namespace fixture_replay_test
} // namespace edgedma::test
