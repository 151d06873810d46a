// SPDX-License-Identifier: GPL-2.0
#include <array>
#include <optional>

#include <linux/edgedma.h>

#include "test_support.hpp"

namespace edgedma::test {
namespace decode_info_test {

using detail::decode_info;

const Info sample_info{
	.module_version = "0.1.0",
	.kernel_release = "6.12.118+deb12-arm64",
	.arch = "aarch64",
	.record_format = EDGEDMA_RECORD_FORMAT_VERSION,
	.hook_modes = EDGEDMA_HOOK_MODE_TRACEPOINT | EDGEDMA_HOOK_MODE_KPROBE,
	.page_size = 16384,
	.cache_line = 64,
	.dma_alignment = 128,
	.hook_mode = EDGEDMA_HOOK_MODE_KPROBE,
	.iommu_fault_hooks = "arm_smmu_handle_evt,_dev_info",
	.dt_node = std::nullopt,
	.dt_policies = std::nullopt,
	.dt_refused = std::nullopt,
	.dt_profiles = std::nullopt,
	.hooks_skipped = {},
	.hook_kretprobes = std::nullopt,
	.hook_ftrace_entries = std::nullopt,
	.hook_kprobe_entries = std::nullopt,
};

#define NAMED(type) EDGEDMA_NAMED_ATTRIBUTE(type)
constexpr std::array info_attributes{
	NAMED(EDGEDMA_A_INFO_MODULE_VERSION), NAMED(EDGEDMA_A_INFO_KERNEL_RELEASE),
	NAMED(EDGEDMA_A_INFO_ARCH),           NAMED(EDGEDMA_A_INFO_RECORD_FORMAT),
	NAMED(EDGEDMA_A_INFO_HOOK_MODES),     NAMED(EDGEDMA_A_INFO_PAGE_SIZE),
	NAMED(EDGEDMA_A_INFO_CACHE_LINE),     NAMED(EDGEDMA_A_INFO_DMA_ALIGNMENT),
	NAMED(EDGEDMA_A_INFO_HOOK_MODE),
};
#undef NAMED

// A GET_INFO reply carrying info, leaving out one attribute if asked to.
GenlMessage info_reply(const Info &info, std::optional<int> left_out = std::nullopt)
{
	GenlMessage reply(EDGEDMA_CMD_GET_INFO);
	auto wanted = [&](int type) { return type != left_out; };
	if (wanted(EDGEDMA_A_INFO_MODULE_VERSION))
		reply.put_string(EDGEDMA_A_INFO_MODULE_VERSION, info.module_version);
	if (wanted(EDGEDMA_A_INFO_KERNEL_RELEASE))
		reply.put_string(EDGEDMA_A_INFO_KERNEL_RELEASE, info.kernel_release);
	if (wanted(EDGEDMA_A_INFO_ARCH))
		reply.put_string(EDGEDMA_A_INFO_ARCH, info.arch);
	if (wanted(EDGEDMA_A_INFO_RECORD_FORMAT))
		reply.put_u32(EDGEDMA_A_INFO_RECORD_FORMAT, info.record_format);
	if (wanted(EDGEDMA_A_INFO_HOOK_MODES))
		reply.put_u32(EDGEDMA_A_INFO_HOOK_MODES, info.hook_modes);
	if (wanted(EDGEDMA_A_INFO_PAGE_SIZE))
		reply.put_u32(EDGEDMA_A_INFO_PAGE_SIZE, info.page_size);
	if (wanted(EDGEDMA_A_INFO_CACHE_LINE))
		reply.put_u32(EDGEDMA_A_INFO_CACHE_LINE, info.cache_line);
	if (wanted(EDGEDMA_A_INFO_DMA_ALIGNMENT))
		reply.put_u32(EDGEDMA_A_INFO_DMA_ALIGNMENT, info.dma_alignment);
	if (wanted(EDGEDMA_A_INFO_HOOK_MODE))
		reply.put_u32(EDGEDMA_A_INFO_HOOK_MODE, info.hook_mode);
	if (info.iommu_fault_hooks && wanted(EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS))
		reply.put_string(EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS, *info.iommu_fault_hooks);
	if (info.dt_node)
		reply.put_string(EDGEDMA_A_INFO_DT_NODE, *info.dt_node);
	if (info.dt_policies)
		reply.put_u32(EDGEDMA_A_INFO_DT_POLICIES, *info.dt_policies);
	if (info.dt_refused)
		reply.put_u32(EDGEDMA_A_INFO_DT_REFUSED, *info.dt_refused);
	if (info.dt_profiles)
		reply.put_u32(EDGEDMA_A_INFO_DT_PROFILES, *info.dt_profiles);
	if (!info.hooks_skipped.empty()) {
		std::string lines;
		for (const std::string &line : info.hooks_skipped)
			lines += (lines.empty() ? "" : "\n") + line;
		reply.put_string(EDGEDMA_A_INFO_HOOK_SKIPPED, lines);
	}
	if (info.hook_kretprobes)
		reply.put_u32(EDGEDMA_A_INFO_HOOK_KRETPROBES, *info.hook_kretprobes);
	if (info.hook_ftrace_entries)
		reply.put_u32(EDGEDMA_A_INFO_HOOK_FTRACE_ENTRIES, *info.hook_ftrace_entries);
	if (info.hook_kprobe_entries)
		reply.put_u32(EDGEDMA_A_INFO_HOOK_KPROBE_ENTRIES, *info.hook_kprobe_entries);
	return reply;
}

// The message of the Error that decoding throws, or a test failure.
std::string decode_error(detail::AttributeStream attributes)
{
	try {
		Info info = decode_info(attributes);
		ADD_FAILURE() << "decoded without error, module_version '"
			      << info.module_version << "'";
	} catch (const Error &error) {
		EXPECT_EQ(error.context(), "GET_INFO reply");
		return error.message();
	}
	return {};
}

TEST(DecodeInfo, RoundTripsEveryAttribute)
{
	EXPECT_EQ(decode_info(info_reply(sample_info).attributes()), sample_info);
}

TEST(DecodeInfo, SkipsAttributesItDoesNotKnow)
{
	constexpr int from_a_newer_module = EDGEDMA_A_INFO_MAX + 1;
	GenlMessage reply(EDGEDMA_CMD_GET_INFO);
	reply.put_u64(from_a_newer_module, 0xdeadbeefcafe)
		.put_string(EDGEDMA_A_INFO_MODULE_VERSION, sample_info.module_version)
		.put_string(EDGEDMA_A_INFO_KERNEL_RELEASE, sample_info.kernel_release)
		.put_string(from_a_newer_module + 1, "something new")
		.put_string(EDGEDMA_A_INFO_ARCH, sample_info.arch)
		.put_u32(EDGEDMA_A_INFO_RECORD_FORMAT, sample_info.record_format)
		.put_u32(EDGEDMA_A_INFO_HOOK_MODES, sample_info.hook_modes)
		.put_u32(EDGEDMA_A_INFO_PAGE_SIZE, sample_info.page_size)
		.put_u32(EDGEDMA_A_INFO_CACHE_LINE, sample_info.cache_line)
		.put_u32(from_a_newer_module + 2, 7)
		.put_u32(EDGEDMA_A_INFO_DMA_ALIGNMENT, sample_info.dma_alignment)
		.put_u32(EDGEDMA_A_INFO_HOOK_MODE, sample_info.hook_mode)
		.put_string(EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS, *sample_info.iommu_fault_hooks);
	EXPECT_EQ(decode_info(reply.attributes()), sample_info);
}

TEST(DecodeInfo, ReadsTheDeviceTreeNodeThatConfiguredTheModule)
{
	Info configured = sample_info;
	configured.dt_node = "/edgedma";
	configured.dt_policies = 2;
	configured.dt_refused = 1;
	configured.dt_profiles = 1;
	EXPECT_EQ(decode_info(info_reply(configured).attributes()), configured);
}

TEST(DecodeInfo, ReadsTheHooksLeftOutOneLineEach)
{
	Info on_510 = sample_info;
	on_510.hooks_skipped = {"dma_map_sgtable: nothing unseen: an inline wrapper",
				"dma_alloc_pages: dma_alloc_pages() calls"};
	EXPECT_EQ(decode_info(info_reply(on_510).attributes()), on_510);
	// Absent: none left out.
	EXPECT_TRUE(decode_info(info_reply(sample_info).attributes()).hooks_skipped.empty());
}

// Kprobe mode says how it attached; tracepoint mode and older modules say
// nothing, which stays unknown rather than 0.
TEST(DecodeInfo, ReadsHowKprobeModeAttached)
{
	Info kprobe_mode = sample_info;
	kprobe_mode.hook_kretprobes = 6;
	kprobe_mode.hook_ftrace_entries = 9;
	kprobe_mode.hook_kprobe_entries = 0;
	EXPECT_EQ(decode_info(info_reply(kprobe_mode).attributes()), kprobe_mode);
	Info other = decode_info(info_reply(sample_info).attributes());
	EXPECT_FALSE(other.hook_kretprobes);
	EXPECT_FALSE(other.hook_ftrace_entries);
	EXPECT_FALSE(other.hook_kprobe_entries);
}

TEST(DecodeInfo, TakesAModuleWithoutIommuFaultHooks)
{
	Info older = sample_info;
	older.iommu_fault_hooks.reset();
	EXPECT_EQ(decode_info(info_reply(older).attributes()), older);
	// Caught nowhere: "", which is not absent.
	Info nowhere = sample_info;
	nowhere.iommu_fault_hooks = "";
	EXPECT_EQ(decode_info(info_reply(nowhere).attributes()), nowhere);
}

TEST(DecodeInfo, RejectsIommuFaultHooksWithoutTerminatingNul)
{
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS);
	reply.put_text_without_nul(EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS, "dmar_fault");
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_INFO_IOMMU_FAULT_HOOKS is not a NUL-terminated string");
}

TEST(DecodeInfo, NamesEachMissingRequiredAttribute)
{
	for (const auto &attribute : info_attributes) {
		SCOPED_TRACE(attribute.name);
		auto reply = info_reply(sample_info, attribute.type);
		EXPECT_EQ(decode_error(reply.attributes()),
			  std::string("missing ") + attribute.name);
	}
}

TEST(DecodeInfo, RejectsU32ShorterThanFourBytes)
{
	const std::array<std::byte, 2> two_bytes{};
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_PAGE_SIZE);
	reply.put_bytes(EDGEDMA_A_INFO_PAGE_SIZE, two_bytes);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_INFO_PAGE_SIZE has 2 bytes, expected 4 (u32)");
}

TEST(DecodeInfo, RejectsU32SentAsU64)
{
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_CACHE_LINE);
	reply.put_u64(EDGEDMA_A_INFO_CACHE_LINE, 64);
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_INFO_CACHE_LINE has 8 bytes, expected 4 (u32)");
}

TEST(DecodeInfo, RejectsStringWithoutTerminatingNul)
{
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_ARCH);
	reply.put_text_without_nul(EDGEDMA_A_INFO_ARCH, "x86_64");
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_INFO_ARCH is not a NUL-terminated string");
}

TEST(DecodeInfo, RejectsIntegerWhereStringBelongs)
{
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_MODULE_VERSION);
	reply.put_u32(EDGEDMA_A_INFO_MODULE_VERSION, 0x01020304);
	EXPECT_TRUE(contains(decode_error(reply.attributes()),
			     "EDGEDMA_A_INFO_MODULE_VERSION is not a NUL-terminated string"));
}

TEST(DecodeInfo, TakesStringUpToFirstNulOfFixedSizeBuffer)
{
	// A module may send utsname()->release whole: 65 bytes, NUL padded.
	std::array<char, 65> release{};
	sample_info.kernel_release.copy(release.data(), release.size() - 1);
	auto reply = info_reply(sample_info, EDGEDMA_A_INFO_KERNEL_RELEASE);
	reply.put_bytes(EDGEDMA_A_INFO_KERNEL_RELEASE, std::as_bytes(std::span(release)));
	EXPECT_EQ(decode_info(reply.attributes()).kernel_release,
		  sample_info.kernel_release);
}

TEST(DecodeInfo, RejectsRepeatedAttribute)
{
	auto reply = info_reply(sample_info);
	reply.put_string(EDGEDMA_A_INFO_ARCH, "riscv64");
	EXPECT_EQ(decode_error(reply.attributes()),
		  "EDGEDMA_A_INFO_ARCH appears more than once");
}

TEST(DecodeInfo, RejectsStreamCutInsideAnAttribute)
{
	// Ending with a u32 (HOOK_MODE), as a module before
	// IOMMU_FAULT_HOOKS sent it: a string's NUL padding may be cut away
	// harmlessly.
	Info older = sample_info;
	older.iommu_fault_hooks.reset();
	auto reply = info_reply(older);
	auto attributes = reply.attributes();
	auto cut = attributes.first(attributes.size() - 2);
	EXPECT_EQ(decode_error(cut),
		  "6 bytes after the last attribute do not form an attribute");
}

TEST(DecodeInfo, RejectsRecordFormatItDoesNotUnderstand)
{
	Info from_the_future = sample_info;
	from_the_future.record_format = EDGEDMA_RECORD_FORMAT_VERSION + 1;
	std::string message = decode_error(info_reply(from_the_future).attributes());
	EXPECT_TRUE(contains(message, "the module uses record format " +
				      std::to_string(EDGEDMA_RECORD_FORMAT_VERSION + 1)));
	EXPECT_TRUE(contains(message, "understands format " +
				      std::to_string(EDGEDMA_RECORD_FORMAT_VERSION)));
}

TEST(DecodeInfo, RecordFormatCheckAcceptsOnlyTheHeadersVersion)
{
	EXPECT_TRUE(detail::record_format_supported(EDGEDMA_RECORD_FORMAT_VERSION));
	EXPECT_FALSE(detail::record_format_supported(0));
	EXPECT_FALSE(detail::record_format_supported(EDGEDMA_RECORD_FORMAT_VERSION + 1));
}

TEST(GenlAttributes, RejectsMessageTooShortForGenlHeader)
{
	detail::MessageHandle bare(nlmsg_alloc_simple(0x20, 0));
	ASSERT_TRUE(bare);
	try {
		detail::genl_attributes(*nlmsg_hdr(bare.get()), "GET_INFO reply");
		FAIL() << "a 16-byte message was accepted";
	} catch (const Error &error) {
		EXPECT_EQ(std::string(error.what()),
			  "GET_INFO reply: message of 16 bytes cannot hold a generic "
			  "netlink header");
	}
}

TEST(GenlAttributes, StartsRightAfterGenlHeader)
{
	GenlMessage reply(EDGEDMA_CMD_GET_INFO);
	reply.put_u32(EDGEDMA_A_INFO_PAGE_SIZE, 4096);
	auto attributes = reply.attributes();
	ASSERT_EQ(attributes.size(), sizeof(nlattr) + sizeof(std::uint32_t));
	const auto *attribute = reinterpret_cast<const nlattr *>(attributes.data());
	EXPECT_EQ(nla_type(attribute), EDGEDMA_A_INFO_PAGE_SIZE);
	EXPECT_EQ(nla_get_u32(attribute), 4096u);
}

} // namespace decode_info_test
} // namespace edgedma::test
