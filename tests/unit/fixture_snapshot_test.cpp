// SPDX-License-Identifier: GPL-2.0
//
// Snapshot records the real module wrote in the test guests
// (tests/data/snapshots/, made by its regenerate script) give the verdicts
// the guest expected from the driver's own account of its mistake
// (FIXTURE.expected): "headline RULE [TEXT]" and "verdict RULE [TEXT]".
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <edgedma/cross_view.hpp>
#include <edgedma/snapshot.hpp>

namespace edgedma::test {
namespace fixture_snapshot_test {

const std::filesystem::path fixtures = EDGEDMA_SNAPSHOT_FIXTURE_DIR;

std::vector<std::filesystem::path> snapshot_files()
{
	std::vector<std::filesystem::path> files;
	for (const auto &entry : std::filesystem::directory_iterator(fixtures))
		if (entry.path().extension() == ".snap")
			files.push_back(entry.path());
	std::ranges::sort(files);
	return files;
}

std::vector<std::byte> read_bytes(const std::filesystem::path &path)
{
	std::ifstream in(path, std::ios::binary);
	std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	std::vector<std::byte> bytes(text.size());
	std::ranges::transform(text, bytes.begin(), [](char c) { return std::byte(c); });
	return bytes;
}

struct Expectation {
	bool headline = false; // else any verdict
	std::string rule;
	std::string text; // the sentence holds it; may be empty
};

std::vector<Expectation> expectations(const std::filesystem::path &snap)
{
	std::ifstream list(std::filesystem::path(snap).replace_extension(".expected"));
	std::vector<Expectation> found;
	for (std::string line; std::getline(list, line);) {
		std::istringstream words(line);
		std::string kind;
		Expectation expected;
		if (!(words >> kind >> expected.rule))
			continue;
		expected.headline = kind == "headline";
		std::getline(words >> std::ws, expected.text);
		found.push_back(std::move(expected));
	}
	return found;
}

std::string listed(const std::vector<Verdict> &verdicts)
{
	std::string text;
	for (const Verdict &verdict : verdicts)
		text += "\n  " + verdict.rule + ": " + verdict.sentence;
	return text;
}

TEST(FixtureSnapshots, FixturesArePresent)
{
	EXPECT_GE(snapshot_files().size(), 5u) << "in " << fixtures;
}

TEST(FixtureSnapshots, EachGivesTheVerdictsItsGuestExpected)
{
	const Symbolizer no_symbols;
	for (const auto &file : snapshot_files()) {
		SCOPED_TRACE(file.filename().string());
		const auto expected = expectations(file);
		ASSERT_FALSE(expected.empty()) << "no .expected beside it";
		const std::vector<std::byte> bytes = read_bytes(file);
		const Snapshot snapshot = decode_snapshot_record(bytes);
		EXPECT_EQ(snapshot.record, bytes);
		const std::vector<Verdict> verdicts = compare_views(snapshot, no_symbols);
		const Verdict *lead = headline(verdicts);
		ASSERT_NE(lead, nullptr);
		for (const Expectation &want : expected) {
			SCOPED_TRACE((want.headline ? "headline " : "verdict ") + want.rule + " " +
				     want.text);
			if (want.headline) {
				EXPECT_EQ(lead->rule, want.rule) << listed(verdicts);
				EXPECT_NE(lead->sentence.find(want.text), std::string::npos)
					<< listed(verdicts);
				continue;
			}
			EXPECT_TRUE(std::ranges::any_of(verdicts, [&](const Verdict &verdict) {
				return verdict.rule == want.rule &&
				       verdict.sentence.find(want.text) != std::string::npos;
			})) << listed(verdicts);
		}
	}
}

// The rules the issue names fixtures for, each met on at least one record
// the real module wrote.
TEST(FixtureSnapshots, CoverTheRulesTheIssueNames)
{
	std::vector<std::string> met;
	const Symbolizer no_symbols;
	for (const auto &file : snapshot_files())
		for (const Verdict &verdict :
		     compare_views(decode_snapshot_record(read_bytes(file)), no_symbols))
			met.push_back(verdict.rule);
	for (const char *rule : {"device-after-unmap", "desc-unmapped", "cacheline-neighbour",
				 "consistent", "misaligned-for-controller"})
		EXPECT_NE(std::ranges::find(met, rule), met.end()) << rule;
}

} // namespace fixture_snapshot_test
} // namespace edgedma::test
