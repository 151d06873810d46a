// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Everything a libedgedma user needs.
#include <edgedma/client.hpp>
#include <edgedma/crash.hpp>
#include <edgedma/cross_view.hpp>
#include <edgedma/culprit.hpp>
#include <edgedma/error.hpp>
#include <edgedma/event_stream.hpp>
#include <edgedma/info.hpp>
#include <edgedma/names.hpp>
#include <edgedma/records.hpp>
#include <edgedma/snapshot.hpp>
#include <edgedma/symbolizer.hpp>
