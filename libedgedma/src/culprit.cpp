// SPDX-License-Identifier: LGPL-2.1-or-later
//
// The frame of a finding's call chain to blame (culprit.hpp).
#include <edgedma/culprit.hpp>

#include <algorithm>
#include <array>
#include <vector>

namespace edgedma {
namespace {

using namespace std::string_view_literals;

// The kernel's helper layers: code that calls the DMA API for a driver, on
// memory the driver handed it. A finding whose caller is one of these is
// the driver's doing (or its caller's), not the helper's: scsi_dma_map()
// maps the scatterlist a SCSI host driver built, the USB core maps the
// buffer of the URB a USB driver submitted. A layer is told by its
// functions' prefix and by the module it is when built as one ("" where it
// is always built in): usb-storage's usb_stor_*() start like the USB
// core's, but are the code to blame. The list is small on purpose: a
// prefix here makes every function it starts skipped for drivers that are
// built in (for a driver module, its own frames are found first and never
// skipped), so only prefixes that name a kernel core, not a driver family,
// belong here ("virtio_" would skip virtio_blk's virtio_queue_rq(), so
// only the ring's own "vring_" and "virtqueue_" are).
constexpr std::array helper_layers{
	// The DMA API's own wrappers (dma_map_sgtable(), dma_pool_alloc(),
	// dmam_alloc_attrs()), should the hook see a call from inside it,
	// and what lies beneath it.
	HelperLayer{"dma_"sv, ""sv}, HelperLayer{"__dma_"sv, ""sv},
	HelperLayer{"dmam_"sv, ""sv}, HelperLayer{"iommu_"sv, ""sv},
	HelperLayer{"swiotlb_"sv, ""sv},
	// Scatterlist helpers that build and walk the lists being mapped.
	HelperLayer{"sg_"sv, ""sv}, HelperLayer{"__sg_"sv, ""sv},
	// Storage: the SCSI midlayer (scsi_dma_map()), libata (ata_sg_setup(),
	// ata_qc_issue()), the block layer's dispatch, which calls a driver's
	// queue_rq() and so lies further out than the driver's frames.
	HelperLayer{"scsi_"sv, "scsi_mod"sv}, HelperLayer{"__scsi_"sv, "scsi_mod"sv},
	HelperLayer{"ata_"sv, "libata"sv}, HelperLayer{"__ata_"sv, "libata"sv},
	HelperLayer{"blk_"sv, ""sv}, HelperLayer{"__blk_"sv, ""sv},
	// USB: the core and the HCD glue (usb_hcd_map_urb_for_dma(),
	// usb_submit_urb(), hcd_buffer_alloc()): the class driver that
	// submitted the URB is to blame, not the host controller's.
	HelperLayer{"usb_"sv, "usbcore"sv}, HelperLayer{"__usb_"sv, "usbcore"sv},
	HelperLayer{"hcd_"sv, "usbcore"sv},
	// Networking: skb helpers, NAPI and the device layer, the page pool
	// (page_pool_dma_map()).
	HelperLayer{"skb_"sv, ""sv}, HelperLayer{"__skb_"sv, ""sv},
	HelperLayer{"napi_"sv, ""sv}, HelperLayer{"__napi_"sv, ""sv},
	HelperLayer{"netif_"sv, ""sv}, HelperLayer{"__netif_"sv, ""sv},
	HelperLayer{"page_pool_"sv, ""sv}, HelperLayer{"__page_pool_"sv, ""sv},
	// The virtio ring maps for every virtio driver (vring_map_one_sg()).
	HelperLayer{"vring_"sv, "virtio_ring"sv}, HelperLayer{"virtqueue_"sv, "virtio_ring"sv},
	// The MMC, SPI (spi_map_buf(); always built in) and I2C cores.
	HelperLayer{"mmc_"sv, "mmc_core"sv}, HelperLayer{"__mmc_"sv, "mmc_core"sv},
	HelperLayer{"spi_"sv, ""sv}, HelperLayer{"__spi_"sv, ""sv},
	HelperLayer{"i2c_"sv, "i2c_core"sv}, HelperLayer{"__i2c_"sv, "i2c_core"sv},
};

bool named(const std::vector<std::string> &names, std::size_t frame)
{
	return frame < names.size() && !names[frame].empty() && names[frame] != "?";
}

bool in_module(std::string_view frame_name, std::string_view module)
{
	return !module.empty() && frame_module(frame_name) == module;
}

Culprit frame_culprit(const Finding &finding, std::size_t frame)
{
	if (frame == 0)
		return Culprit{0, finding.caller, finding.caller_name};
	return Culprit{frame, finding.call_chain[frame], finding.call_chain_names[frame]};
}

} // namespace

std::span<const HelperLayer> helper_layer_prefixes()
{
	return helper_layers;
}

std::string_view frame_function(std::string_view frame_name)
{
	std::size_t end = frame_name.find('+');
	if (end == std::string_view::npos)
		end = frame_name.find(' ');
	return frame_name.substr(0, end);
}

std::string_view frame_module(std::string_view frame_name)
{
	if (!frame_name.ends_with(']'))
		return {};
	const std::size_t open = frame_name.rfind(" [");
	if (open == std::string_view::npos)
		return {};
	return frame_name.substr(open + 2, frame_name.size() - open - 3);
}

bool in_helper_layer(std::string_view frame_name)
{
	const std::string_view function = frame_function(frame_name);
	const std::string_view module = frame_module(frame_name);
	for (const HelperLayer &layer : helper_layers)
		if (function.starts_with(layer.function_prefix) &&
		    (module.empty() || module == layer.module))
			return true;
	return false;
}

Culprit find_culprit(const Finding &finding)
{
	const auto &names = finding.call_chain_names;
	// decode_finding() holds names to no more than frames; a Finding made
	// otherwise is held to it here.
	const std::size_t frames = std::min(names.size(), finding.call_chain.size());
	const std::string_view module =
		finding.driver_module ? std::string_view(*finding.driver_module) : std::string_view();
	if (!module.empty())
		for (std::size_t frame = 0; frame < frames; frame++)
			if (named(names, frame) && in_module(names[frame], module))
				return frame_culprit(finding, frame);
	// No frame of the driver's module (above, a helper name would not
	// have hidden one): the first that is no helper's.
	for (std::size_t frame = 0; frame < frames; frame++)
		if (named(names, frame) && !in_helper_layer(names[frame]))
			return frame_culprit(finding, frame);
	// Helpers all the way out (the USB core reading a descriptor for the
	// hub driver, or a chain cut short): the outermost named frame is the
	// nearest to whoever handed the memory over.
	for (std::size_t frame = frames; frame-- > 1;)
		if (named(names, frame))
			return frame_culprit(finding, frame);
	return frame_culprit(finding, 0);
}

std::optional<std::string> describe_culprit(const Finding &finding, const Symbolizer &symbols)
{
	const Culprit culprit = find_culprit(finding);
	if (culprit.is_caller() || !culprit.name)
		return std::nullopt;
	return *culprit.name + " (via " +
	       describe_caller(finding.caller, finding.caller_name, symbols).value_or("unknown") +
	       ")";
}

} // namespace edgedma
