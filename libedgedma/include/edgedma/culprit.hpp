// SPDX-License-Identifier: LGPL-2.1-or-later
#pragma once

// Which code to blame for a finding. The module names the caller of the
// DMA API, but the caller is often a helper layer of the kernel that maps
// on behalf of a driver (scsi_dma_map() for a SCSI host driver, the USB
// core for a USB driver): the code to fix is further out, in the call
// chain the module sends with the finding (Finding::call_chain).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <edgedma/export.hpp>
#include <edgedma/records.hpp>
#include <edgedma/symbolizer.hpp>

namespace edgedma {

// The frame of a finding's call chain to blame.
struct Culprit {
	// Index into Finding::call_chain; 0 is the caller (also for a
	// finding without a chain).
	std::size_t frame = 0;
	// The return address into it: Finding::caller for the caller.
	std::uint64_t address = 0;
	// As the module named it ("megasas_build_io+0x1a4/0x300
	// [megaraid_sas]"); for the caller Finding::caller_name. Nothing where
	// the module had no name for it.
	std::optional<std::string> name;

	// The caller itself is to blame: no frame further out is.
	bool is_caller() const { return frame == 0; }
	bool operator==(const Culprit &) const = default;
};

// Picks the frame to blame, from the frames' names (Finding::call_chain_names;
// a frame without one, or named "?", is never picked):
//  1. where the driver is a module (Finding::driver_module not empty), the
//     first frame in it: named "... [DRIVER_MODULE]";
//  2. otherwise (a built-in driver, a module whose frames the chain does
//     not reach, or a module that predates driver_module), the first frame
//     that is not in a helper layer (in_helper_layer());
//  3. otherwise (helpers all the way) the outermost named frame;
//  4. otherwise the caller.
// A frame inside the driver's module is never taken for a helper, whatever
// its function is called. The caller, frame 0, wins every tie: a finding
// without a chain, or whose caller is the driver's own code, blames it.
EDGEDMA_API Culprit find_culprit(const Finding &finding);

// A helper layer of the kernel: code that calls the DMA API on behalf of
// the driver that asked it to (the DMA API's own wrappers, IOMMU and
// swiotlb, scatterlist helpers, and the SCSI, libata, block, USB,
// networking, virtio ring, MMC, SPI and I2C cores), told by the prefix of
// its functions and the module it is when built as one ("" where it is
// always built in). culprit.cpp says why each is there.
struct HelperLayer {
	std::string_view function_prefix;	// "scsi_", "__scsi_", "usb_", ...
	std::string_view module;		// "scsi_mod", ...; "" built in
};
EDGEDMA_API std::span<const HelperLayer> helper_layer_prefixes();

// Whether a frame, named as the module names frames
// ("usb_hcd_map_urb_for_dma+0x1c/0x80", with or without " [module]"), is a
// helper layer's: its function starts with a layer's prefix, and it is
// built in or in that layer's module ("usb_stor_bulk_transfer_buf+0x4c/0xd0
// [usb_storage]" is not the USB core's). False for "?" and "".
EDGEDMA_API bool in_helper_layer(std::string_view frame_name);

// The function of a frame's name: "scsi_dma_map" of
// "scsi_dma_map+0x40/0x60 [scsi_mod]".
EDGEDMA_API std::string_view frame_function(std::string_view frame_name);

// The module of a frame's name: "scsi_mod" of
// "scsi_dma_map+0x40/0x60 [scsi_mod]"; "" for a built-in frame.
EDGEDMA_API std::string_view frame_module(std::string_view frame_name);

// "megasas_build_io+0x1a4/0x300 [megaraid_sas] (via scsi_dma_map+0x40/0x60
// [scsi_mod])": the culprit and the caller it called the DMA API through
// (named as describe_caller() names it), when the culprit is not the
// caller; nothing when it is.
EDGEDMA_API std::optional<std::string> describe_culprit(const Finding &finding,
							const Symbolizer &symbols);

} // namespace edgedma
