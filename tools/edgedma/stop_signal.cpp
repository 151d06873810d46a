// SPDX-License-Identifier: GPL-2.0
#include "stop_signal.hpp"

#include <csignal>

namespace edgedma::cli {
namespace {

volatile std::sig_atomic_t stop_signalled = 0;

void request_stop(int)
{
	stop_signalled = 1;
}

} // namespace

void catch_stop_signals()
{
	struct sigaction action{};
	action.sa_handler = request_stop;
	sigemptyset(&action.sa_mask);
	struct sigaction inherited{};
	if (sigaction(SIGINT, nullptr, &inherited) == 0 && inherited.sa_handler != SIG_IGN)
		sigaction(SIGINT, &action, nullptr);
	sigaction(SIGTERM, &action, nullptr);
}

bool stop_requested()
{
	return stop_signalled != 0;
}

} // namespace edgedma::cli
