// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// libedgedma is built with hidden visibility; EDGEDMA_API marks its public
// ABI. Exception classes need it too, or a caller outside the library could
// not catch them by type.
#define EDGEDMA_API __attribute__((visibility("default")))
