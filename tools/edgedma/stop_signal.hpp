// SPDX-License-Identifier: GPL-2.0
#pragma once

namespace edgedma::cli {

// SIGINT and SIGTERM end a long command (watch, record) the way its time
// limit does: with its summary and status 0. Installed without SA_RESTART,
// so that they also cut a wait short. A SIGINT the shell ignores for a
// background job stays ignored, as Ctrl-C at the terminal is not meant for
// it; SIGTERM stops it. Call before anything slow, so that none arrives
// unhandled.
void catch_stop_signals();

// Whether one of them came.
bool stop_requested();

} // namespace edgedma::cli
