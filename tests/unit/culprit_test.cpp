// SPDX-License-Identifier: GPL-2.0
//
// The frame of a finding's call chain to blame: the driver's module first,
// then the first frame no helper layer owns, then the outermost named frame,
// then the caller.
#include <string>
#include <vector>

#include <edgedma/culprit.hpp>

#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace culprit_test {

// A finding with this chain (addresses made up, one per frame, the first
// the caller's) and driver module.
Finding chained(std::vector<std::string> names, std::optional<std::string> driver_module,
		std::size_t frames = 0)
{
	Finding finding = sample_finding(1);
	frames = std::max(frames, names.size());
	finding.call_chain.clear();
	for (std::size_t frame = 0; frame < frames; frame++)
		finding.call_chain.push_back(0xffffffff81000000 + 0x100 * frame);
	finding.caller = finding.call_chain.empty() ? 0xffffffff81000000 : finding.call_chain[0];
	if (!names.empty() && names[0] != "?")
		finding.caller_name = names[0];
	finding.call_chain_names = std::move(names);
	finding.driver_module = std::move(driver_module);
	return finding;
}

TEST(Culprit, IsTheDriversFrameFurtherOutThanScsiDmaMap)
{
	Finding finding = scsi_finding(1);
	Culprit culprit = find_culprit(finding);
	EXPECT_EQ(culprit.frame, 2u);
	EXPECT_FALSE(culprit.is_caller());
	EXPECT_EQ(culprit.address, 0xffffffffc0a011a4u);
	EXPECT_EQ(culprit.name,
		  std::optional<std::string>("megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"));
}

TEST(Culprit, DriversModuleWinsOverAnEarlierFrameOfNoHelper)
{
	// sd_setup_read_write_cmnd is no helper by name, but the driver's own
	// frame further out is the one to blame.
	Finding finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]",
				   "sd_setup_read_write_cmnd+0x90/0x600 [sd_mod]",
				   "megasas_queue_command+0x10/0x200 [megaraid_sas]"},
				  "megaraid_sas");
	EXPECT_EQ(find_culprit(finding).frame, 2u);
}

TEST(Culprit, ABuiltInDriverIsFoundPastTheUsbHelpers)
{
	Finding finding = chained({"usb_hcd_map_urb_for_dma+0x2c0/0x500",
				   "usb_hcd_submit_urb+0x94/0xb40", "usb_submit_urb+0x288/0x620",
				   "usb_stor_msg_common+0xa8/0x190", "usb_stor_bulk_transfer_buf+0x4c/0xd0"},
				  "");
	// usb_stor_* starts with "usb_": a built-in driver whose functions look
	// like a helper's is skipped with the helpers. Here the storage
	// driver's frames do: helpers all the way, so the outermost frame.
	EXPECT_EQ(find_culprit(finding).frame, 4u);

	finding = chained({"usb_hcd_map_urb_for_dma+0x2c0/0x500", "usb_hcd_submit_urb+0x94/0xb40",
			   "usb_submit_urb+0x288/0x620", "btusb_send_frame+0x1b0/0x3a0",
			   "hci_send_frame+0x80/0x100"},
			  "");
	Culprit culprit = find_culprit(finding);
	EXPECT_EQ(culprit.frame, 3u);
	EXPECT_EQ(culprit.address, finding.call_chain[3]);
	EXPECT_EQ(culprit.name, std::optional<std::string>("btusb_send_frame+0x1b0/0x3a0"));
}

TEST(Culprit, AClassDriverModuleIsNoHelperForItsName)
{
	// ehci: the PCI device's driver is ehci_pci, which has no frame here;
	// usb-storage's usb_stor_*() start like the USB core's, but its module
	// is not usbcore.
	Finding finding = chained({"usb_hcd_map_urb_for_dma+0x1d0/0x478 [usbcore]",
				   "usb_hcd_submit_urb+0x398/0xb28 [usbcore]",
				   "usb_submit_urb+0x290/0x5c8 [usbcore]",
				   "usb_sg_wait+0x9c/0x260 [usbcore]",
				   "usb_stor_bulk_transfer_sglist+0xa8/0x208 [usb_storage]",
				   "usb_stor_Bulk_transport+0x124/0x398 [usb_storage]"},
				  "ehci_pci");
	Culprit culprit = find_culprit(finding);
	EXPECT_EQ(culprit.frame, 4u);
	EXPECT_EQ(culprit.name, std::optional<std::string>(
					"usb_stor_bulk_transfer_sglist+0xa8/0x208 [usb_storage]"));
}

TEST(Culprit, HelpersAllTheWayBlameTheOutermostNamedFrame)
{
	// The USB core enumerating a device for the hub driver: its own
	// descriptor buffer, mapped through itself. The caller would name
	// the mapping helper; usb_get_descriptor() owns the buffer.
	Finding finding = chained({"usb_hcd_map_urb_for_dma+0x364/0x478 [usbcore]",
				   "usb_hcd_submit_urb+0x398/0xb28 [usbcore]",
				   "usb_submit_urb+0x290/0x5c8 [usbcore]",
				   "usb_start_wait_urb+0x80/0x1d8 [usbcore]",
				   "usb_control_msg+0xd0/0x158 [usbcore]",
				   "usb_get_descriptor+0xa0/0x108 [usbcore]"},
				  "ehci_pci");
	EXPECT_EQ(find_culprit(finding).frame, 5u);
	// Unnamed outer frames are passed over for the last named one.
	finding = chained({"usb_hcd_map_urb_for_dma+0x364/0x478 [usbcore]",
			   "usb_submit_urb+0x290/0x5c8 [usbcore]", "?"},
			  "ehci_pci");
	EXPECT_EQ(find_culprit(finding).frame, 1u);
}

TEST(Culprit, AModuleWithoutAFrameInTheChainFallsBackToTheHelpers)
{
	// virtio: the DMA device is the PCI device virtio_pci drives, while
	// the ring maps for the virtio driver further out.
	Finding finding = chained({"vring_map_one_sg+0x30/0x80", "virtqueue_add_split+0x1c4/0x600",
				   "virtqueue_add_sgs+0x90/0xd0",
				   "virtio_queue_rq+0x1f8/0x560 [virtio_blk]",
				   "blk_mq_dispatch_rq_list+0x160/0x8a0"},
				  "virtio_pci");
	Culprit culprit = find_culprit(finding);
	EXPECT_EQ(culprit.frame, 3u);
	EXPECT_EQ(culprit.name,
		  std::optional<std::string>("virtio_queue_rq+0x1f8/0x560 [virtio_blk]"));
}

TEST(Culprit, WithoutAChainIsTheCaller)
{
	Finding finding = sample_finding(1);
	finding.caller_name = "edu_run_mode+0x234/0x800 [edgedma_test_edu]";
	Culprit culprit = find_culprit(finding);
	EXPECT_TRUE(culprit.is_caller());
	EXPECT_EQ(culprit, (Culprit{0, finding.caller, finding.caller_name}));

	// A driver module alone changes nothing.
	finding.driver_module = "edgedma_test_edu";
	EXPECT_TRUE(find_culprit(finding).is_caller());
	// Nor a chain without names.
	finding.call_chain = {finding.caller, 0xffffffffc0a00010};
	EXPECT_TRUE(find_culprit(finding).is_caller());
}

TEST(Culprit, SkipsFramesNoSymbolCovers)
{
	Finding finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]", "?", "?",
				   "mydrv_queue+0x10/0x80"},
				  "");
	EXPECT_EQ(find_culprit(finding).frame, 3u);
	// Nothing named past the helpers: the caller.
	finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]", "?", "?", "?"}, "");
	EXPECT_TRUE(find_culprit(finding).is_caller());
	// An unnamed caller is not skipped for being unnamed: it is no
	// better than the frames the rule skips, and is what is left.
	finding = chained({"?", "?"}, "mydrv");
	EXPECT_TRUE(find_culprit(finding).is_caller());
	EXPECT_FALSE(find_culprit(finding).name);
}

TEST(Culprit, IsTheCallerWhenTheCallerIsTheDriversOwnCode)
{
	Finding finding = chained({"edu_run_mode+0x234/0x800 [edgedma_test_edu]",
				   "edu_store_run+0x40/0x90 [edgedma_test_edu]", "kernfs_fop_write_iter+0x128/0x1c0"},
				  "edgedma_test_edu");
	EXPECT_TRUE(find_culprit(finding).is_caller());
	// Built in: the caller is no helper either.
	finding.driver_module = "";
	EXPECT_TRUE(find_culprit(finding).is_caller());
	// From a module that predates driver_module: the same.
	finding.driver_module.reset();
	EXPECT_TRUE(find_culprit(finding).is_caller());
}

TEST(Culprit, NeverSkipsAFrameOfTheDriversModuleForItsName)
{
	// A driver module whose functions start like a helper's.
	Finding finding = chained({"spi_map_buf+0x100/0x1a0", "spi_imx_dma_transfer+0x60/0x300 [spi_imx]"},
				  "spi_imx");
	EXPECT_EQ(find_culprit(finding).frame, 1u);
	// The caller itself, in the driver's module, with a helper's name.
	finding = chained({"dma_buf_map_attachment+0x10/0x80 [mydrv]", "mydrv_probe+0x1/0x2 [mydrv]"},
			  "mydrv");
	EXPECT_TRUE(find_culprit(finding).is_caller());
}

TEST(Culprit, MatchesTheWholeModuleName)
{
	// "sas" is not "megaraid_sas", nor is "megaraid_sas" "sas".
	Finding finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]",
				   "megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"},
				  "sas");
	// No frame of a module "sas": the helper rule finds megasas anyway.
	EXPECT_EQ(find_culprit(finding).frame, 1u);
	finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]", "sas_queue+0x1/0x2 [sas]",
			   "other+0x1/0x2 [megaraid_sas]"},
			  "megaraid_sas");
	EXPECT_EQ(find_culprit(finding).frame, 2u);
	// A bare name, without " [", is no module's.
	finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]", "x[mydrv]", "y+0x1/0x2 [mydrv]"},
			  "mydrv");
	EXPECT_EQ(find_culprit(finding).frame, 2u);
}

TEST(Culprit, LooksOnlyAtFramesThatHaveNames)
{
	// Five frames, two names: the three unnamed ones are never picked,
	// and nothing indexes past the names (helpers all the way: the
	// outermost named one).
	Finding finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]", "scsi_queue_rq+0x1/0x2 [scsi_mod]"},
				  "megaraid_sas", 5);
	EXPECT_EQ(find_culprit(finding).frame, 1u);
	// More names than frames (a Finding not made by the decoder): the
	// extra names are ignored.
	finding = chained({"scsi_dma_map+0x40/0x60 [scsi_mod]"}, "mydrv");
	finding.call_chain_names.push_back("mydrv_io+0x1/0x2 [mydrv]");
	EXPECT_TRUE(find_culprit(finding).is_caller());
}

TEST(Culprit, DescribedWithTheCallerWhenItIsNotTheCaller)
{
	const Symbolizer none;
	EXPECT_EQ(describe_culprit(scsi_finding(1), none),
		  std::optional<std::string>("megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas] "
					     "(via scsi_dma_map+0x40/0x60 [scsi_mod])"));
	EXPECT_FALSE(describe_culprit(sample_finding(1), none));
	// The caller without the module's name: as the symbols name it.
	Finding finding = scsi_finding(1);
	finding.caller_name.reset();
	EXPECT_EQ(describe_culprit(finding, none),
		  std::optional<std::string>("megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas] "
					     "(via 0xffffffffc0300040)"));
}

TEST(HelperLayer, TellsHelpersByTheirFunctionsPrefix)
{
	EXPECT_TRUE(in_helper_layer("scsi_dma_map+0x40/0x60 [scsi_mod]"));
	EXPECT_TRUE(in_helper_layer("__scsi_queue_insert+0x1/0x2"));
	EXPECT_TRUE(in_helper_layer("usb_hcd_map_urb_for_dma+0x2c0/0x500"));
	EXPECT_TRUE(in_helper_layer("dma_map_sgtable+0x1/0x2"));
	EXPECT_TRUE(in_helper_layer("iommu_dma_map_page+0x1/0x2"));
	EXPECT_TRUE(in_helper_layer("page_pool_dma_map+0x1/0x2"));
	EXPECT_TRUE(in_helper_layer("napi_poll"));
	EXPECT_FALSE(in_helper_layer("megasas_build_io_fusion+0x1a4/0x300 [megaraid_sas]"));
	EXPECT_FALSE(in_helper_layer("virtio_queue_rq+0x1f8/0x560 [virtio_blk]"));
	EXPECT_FALSE(in_helper_layer("nvme_map_data+0x1/0x2 [nvme]"));
	// The prefix is the function's: not a module's, not a substring.
	EXPECT_FALSE(in_helper_layer("mydrv_io+0x1/0x2 [scsi_mod]"));
	EXPECT_FALSE(in_helper_layer("my_dma_xfer+0x1/0x2"));
	EXPECT_FALSE(in_helper_layer("?"));
	EXPECT_FALSE(in_helper_layer(""));
	for (const HelperLayer &layer : helper_layer_prefixes()) {
		const std::string function = std::string(layer.function_prefix) + "x+0x1/0x2";
		EXPECT_TRUE(layer.function_prefix.ends_with('_')) << layer.function_prefix;
		// Built in, or in the layer's own module.
		EXPECT_TRUE(in_helper_layer(function)) << layer.function_prefix;
		if (!layer.module.empty()) {
			EXPECT_TRUE(in_helper_layer(function + " [" + std::string(layer.module) + "]"))
				<< layer.function_prefix;
		}
		EXPECT_FALSE(in_helper_layer(function + " [mydrv]")) << layer.function_prefix;
	}
}

TEST(HelperLayer, IsTheLayersModuleOrBuiltIn)
{
	EXPECT_TRUE(in_helper_layer("usb_sg_wait+0x9c/0x260 [usbcore]"));
	EXPECT_FALSE(in_helper_layer("usb_stor_bulk_transfer_sglist+0xa8/0x208 [usb_storage]"));
	EXPECT_TRUE(in_helper_layer("usb_stor_bulk_transfer_sglist+0xa8/0x208"));
	EXPECT_FALSE(in_helper_layer("scsi_mydrv_cmd+0x1/0x2 [mydrv]"));
	// Layers that are always built in are no module's.
	EXPECT_FALSE(in_helper_layer("dma_mydrv_xfer+0x1/0x2 [mydrv]"));
	EXPECT_TRUE(in_helper_layer("vring_map_one_sg+0x30/0x80 [virtio_ring]"));
}

TEST(HelperLayer, FrameModuleIsTheBracketedName)
{
	EXPECT_EQ(frame_module("scsi_dma_map+0x40/0x60 [scsi_mod]"), "scsi_mod");
	EXPECT_EQ(frame_module("scsi_dma_map+0x40/0x60"), "");
	EXPECT_EQ(frame_module("?"), "");
	EXPECT_EQ(frame_module(""), "");
}

TEST(HelperLayer, FrameFunctionIsTheNameBeforeItsOffset)
{
	EXPECT_EQ(frame_function("scsi_dma_map+0x40/0x60 [scsi_mod]"), "scsi_dma_map");
	EXPECT_EQ(frame_function("scsi_dma_map [scsi_mod]"), "scsi_dma_map");
	EXPECT_EQ(frame_function("scsi_dma_map"), "scsi_dma_map");
	EXPECT_EQ(frame_function("?"), "?");
}

} // namespace culprit_test
} // namespace edgedma::test
