// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma findings` and `edgedma watch` show findings, losses and
// repeats (a finding's JSON is the library's: render_finding_json()).

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <edgedma/event_stream.hpp>
#include <edgedma/records.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma::cli {

// Two lines: "#SEQ KIND DEVICE (DRIVER) CALL by CALLER", then the detail
// sentence indented by four spaces. CALLER is the module's name for it when
// the finding has one, else what symbols say (describe_caller()). A finding
// the module folded repeats into ends its first line with how often and when
// last (describe_occurrences()): " (x4103, last 2.100 s later)". Where the
// caller is a helper layer and another frame of the call chain is to blame
// (describe_culprit()), a line "    culprit: CULPRIT (via CALLER)" comes
// between the two.
std::string finding_text(const Finding &finding, const Symbolizer &symbols);

// {"lost": N, "first_seq": A, "last_seq": B, "cause": "gap"|"overflow"}
nlohmann::ordered_json loss_json(const Loss &loss);

// One line: describe(repeats, now_ns) (event_stream.hpp), "finding 12
// addr-misaligned on 0000:00:05.0 (edu): x4103 so far, last 0.120 s ago".
std::string repeats_text(const FindingRepeats &repeats, std::optional<std::uint64_t> now_ns);

// {"repeats": {"seq": S, "kind": K, "device": D, "driver": R,
// "occurrences": N, "last_time_ns": T}}
nlohmann::ordered_json repeats_json(const FindingRepeats &repeats);

} // namespace edgedma::cli
