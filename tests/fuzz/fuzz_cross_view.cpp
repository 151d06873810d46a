// SPDX-License-Identifier: GPL-2.0
//
// libFuzzer target: whatever bytes a saved snapshot record holds (a
// devcoredump, a file `edgedma snapshot save` wrote, a recording's
// snapshot), decode_snapshot_record() returns a snapshot or throws
// edgedma::Error, and the cross-view comparison of any snapshot it returns
// keeps its promises: at least one verdict, every rule one of its rules,
// a headline, and a side-by-side row per page with a cell per column. Any
// other exception, a crash or a sanitizer report is a finding.
//
// Seeds: the snapshot records the real module wrote (tests/data/snapshots),
// copied by tests/fuzz/run.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

#include <nlohmann/json.hpp>

#include <edgedma/cross_view.hpp>
#include <edgedma/error.hpp>
#include <edgedma/snapshot.hpp>

namespace {

[[noreturn]] void finding(const char *what)
{
	std::fprintf(stderr, "fuzz_cross_view: %s\n", what);
	std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	// A heap copy of exactly size bytes: ASan catches a read past the end.
	std::unique_ptr<std::byte[]> copy(new std::byte[size]);
	if (size)
		std::memcpy(copy.get(), data, size);
	edgedma::Snapshot snapshot;
	try {
		snapshot = edgedma::decode_snapshot_record({copy.get(), size});
	} catch (const edgedma::Error &) {
		return 0; // bad input, said so: what the decoder promises
	}
	const edgedma::Symbolizer no_symbols;
	const auto verdicts = edgedma::compare_views(snapshot, no_symbols);
	if (verdicts.empty())
		finding("no verdict at all (not even consistent)");
	const auto rules = edgedma::cross_view_rules();
	for (const auto &verdict : verdicts) {
		if (std::ranges::find(rules, verdict.rule) == rules.end())
			finding("a verdict of a rule not in cross_view_rules()");
		if (verdict.sentence.empty())
			finding("a verdict without a sentence");
	}
	if (!edgedma::headline(verdicts))
		finding("no headline");
	const auto columns = edgedma::side_by_side_columns().size();
	const auto rows = edgedma::side_by_side(snapshot, verdicts);
	if (rows.size() != snapshot.pages.size())
		finding("the side-by-side view lost or made up a page");
	for (const auto &row : rows)
		if (row.cells.size() != columns || row.marked.size() != columns)
			finding("a side-by-side row without a cell per column");
	// The JSON shape the tool prints.
	for (const auto &verdict : verdicts)
		(void)edgedma::verdict_to_json<nlohmann::json>(verdict).dump(
			-1, ' ', false, nlohmann::json::error_handler_t::replace);
	return 0;
}
