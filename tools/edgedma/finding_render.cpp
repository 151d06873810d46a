// SPDX-License-Identifier: GPL-2.0
#include "finding_render.hpp"

#include <edgedma/culprit.hpp>
#include <edgedma/names.hpp>

#include "format.hpp"

namespace edgedma::cli {

std::string finding_text(const Finding &finding, const Symbolizer &symbols)
{
	std::string driver = finding.driver.empty() ? "no driver" : finding.driver;
	// The module's name for the caller, made when it saw the call, before
	// the symbols read now (describe_caller() says why).
	std::string caller =
		describe_caller(finding.caller, finding.caller_name, symbols).value_or("unknown");
	std::string repeats;
	if (auto occurrences = describe_occurrences(finding))
		repeats = " (" + *occurrences + ")";
	std::string culprit;
	if (auto blamed = describe_culprit(finding, symbols))
		culprit = "    culprit: " + *blamed + "\n";
	return "#" + std::to_string(finding.seq) + " " + finding_kind_label(finding.kind) +
	       " " + finding.device + " (" + driver + ") " + call_kind_label(finding.call) +
	       " by " + caller + repeats + "\n" + culprit + "    " + finding.detail + "\n";
}

std::string repeats_text(const FindingRepeats &repeats, std::optional<std::uint64_t> now_ns)
{
	return describe(repeats, now_ns) + "\n";
}

nlohmann::ordered_json repeats_json(const FindingRepeats &repeats)
{
	return {
		{"repeats",
		 {
			 {"seq", repeats.seq},
			 {"kind", finding_kind_label(repeats.kind)},
			 {"device", repeats.device},
			 {"driver", repeats.driver},
			 {"occurrences", repeats.occurrences},
			 {"last_time_ns", repeats.last_time_ns},
		 }},
	};
}

nlohmann::ordered_json loss_json(const Loss &loss)
{
	return {
		{"lost", loss.count()},
		{"first_seq", loss.first_seq},
		{"last_seq", loss.last_seq},
		{"cause", loss_cause_name(loss.cause)},
	};
}

} // namespace edgedma::cli
