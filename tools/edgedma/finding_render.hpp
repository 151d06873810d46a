// SPDX-License-Identifier: GPL-2.0
#pragma once

// How `edgedma findings` and `edgedma watch` show findings and losses
// (a finding's JSON is the library's: render_finding_json()).

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
// last (describe_occurrences()): " (x4103, last 2.100 s later)".
std::string finding_text(const Finding &finding, const Symbolizer &symbols);

// {"lost": N, "first_seq": A, "last_seq": B, "cause": "gap"|"overflow"}
nlohmann::ordered_json loss_json(const Loss &loss);

} // namespace edgedma::cli
