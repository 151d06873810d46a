// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// The ways `edgedma report` shows a Summary.

#include <string>

#include <edgedma/analysis.hpp>
#include <edgedma/export.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma {

// Findings grouped by driver and kind, each with its sentence, then losses
// and the devices' activity; callers named with symbols.
EDGEDMA_API std::string render_report_text(const Summary &summary, const Symbolizer &symbols);

// The summary as one JSON document (see Documentation/report.rst).
EDGEDMA_API std::string render_report_json(const Summary &summary, const Symbolizer &symbols);

// One self-contained HTML page: no network, no external file. Findings
// table, per-device timeline, devices x time heatmap.
EDGEDMA_API std::string render_report_html(const Summary &summary, const Symbolizer &symbols);

// The timeline in the Chrome trace-event JSON format (Perfetto opens it):
// one track per device with counters per bucket and an instant event per
// finding kept.
EDGEDMA_API std::string render_report_trace(const Summary &summary, const Symbolizer &symbols);

} // namespace edgedma
