// SPDX-License-Identifier: GPL-2.0
//
// Each cross-view rule on hand-built snapshots: the disagreement it exists
// for gives its verdict with the sentence's facts and the evidence; the
// same snapshot with the views agreeing gives none, and then `consistent`.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <linux/edgedma.h>

#include <edgedma/cross_view.hpp>
#include <edgedma/names.hpp>

namespace edgedma::test {
namespace cross_view_test {

// Says what the text was when it lacks the part.
::testing::AssertionResult contains(const std::string &text, std::string_view part)
{
	if (text.find(part) != std::string::npos)
		return ::testing::AssertionSuccess();
	return ::testing::AssertionFailure() << "\"" << text << "\" lacks \"" << part << "\"";
}

constexpr std::uint64_t ms = 1000000;

// A snapshot of edu at 1 s, with one live to-device mapping of 4 KiB at
// IOVA 0xffffe000 (phys 0x4000000, mapped by edu_probe).
Snapshot edu_snapshot()
{
	Snapshot snapshot;
	snapshot.header.seq = 7;
	snapshot.header.time_ns = 1000 * ms;
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_MANUAL;
	snapshot.header.device = "0000:00:03.0";
	snapshot.header.driver = "edgedma_test_edu";
	snapshot.page_size = 4096;
	snapshot.coherent = true;
	snapshot.cache_line = 64;
	Mapping live;
	live.device = snapshot.header.device;
	live.driver = snapshot.header.driver;
	live.call = EDGEDMA_CALL_MAP_PAGE;
	live.dma_addr = 0xffffe000;
	live.size = 4096;
	live.dir = dma_direction::to_device;
	live.cpu_phys = 0x4000000;
	live.caller = 0xffffffffc0001000;
	live.caller_name = "edu_probe+0x40/0x100 [edgedma_test_edu]";
	live.time_ns = 900 * ms;
	snapshot.mappings.push_back(live);
	return snapshot;
}

// The unmap of 128 bytes at 0xfffff040, 212 us before the snapshot.
RecentUnmap edu_unmap()
{
	RecentUnmap unmap;
	unmap.call = EDGEDMA_CALL_MAP_PAGE;
	unmap.dma_addr = 0xfffff040;
	unmap.size = 128;
	unmap.dir = dma_direction::to_device;
	unmap.cpu_phys = 0x5000040;
	unmap.map_time_ns = 990 * ms;
	unmap.unmap_time_ns = 1000 * ms - 212000;
	unmap.map_caller = 0xffffffffc0002000;
	unmap.map_caller_name = "edu_use_after_unmap+0x20/0x90 [edgedma_test_edu]";
	unmap.unmap_caller = 0xffffffffc000205c;
	unmap.unmap_caller_name = "edu_use_after_unmap+0x5c/0x90 [edgedma_test_edu]";
	return unmap;
}

Register address_register(std::string name, std::uint64_t value)
{
	Register reg;
	reg.name = std::move(name);
	reg.offset = 0x80;
	reg.width = 8;
	reg.value = value;
	return reg;
}

// A page of the live mapping on which every view agrees.
PageView agreeing_page()
{
	PageView page;
	page.dma_addr = 0xffffe000;
	page.expected_phys = 0x4000000;
	page.iommu_domain = EDGEDMA_IOMMU_DOMAIN_DMA;
	page.iommu_phys = 0x4000000;
	page.phys = 0x4000000;
	page.cpu_virt = 0xffff888004000000;
	page.pte = 0x8000000004000163;
	page.pte_size = 4096;
	page.pte_present = true;
	page.pte_writable = true;
	page.pte_executable = false;
	page.pte_pfn = 0x4000;
	page.pte_memtype = EDGEDMA_MEMTYPE_WRITE_BACK;
	page.pfn_valid = true;
	page.swiotlb = false;
	return page;
}

// A ring of one descriptor holding one buffer.
DescriptorChain ring_with(DescriptorBuffer buffer, std::optional<std::uint32_t> owner)
{
	DescriptorChain chain;
	chain.name = "rx0";
	chain.kind = EDGEDMA_CHAIN_RING;
	chain.desc_size = 16;
	Descriptor descriptor;
	descriptor.index = 3;
	descriptor.dma_addr = 0xffffe000;
	descriptor.state = EDGEDMA_DESC_READ;
	descriptor.owner = owner;
	descriptor.buffers.push_back(buffer);
	chain.descriptors.push_back(descriptor);
	return chain;
}

std::vector<Verdict> compare(const Snapshot &snapshot)
{
	return compare_views(snapshot, Symbolizer());
}

std::vector<std::string> rules_of(const std::vector<Verdict> &verdicts)
{
	std::vector<std::string> rules;
	for (const Verdict &verdict : verdicts)
		rules.push_back(verdict.rule);
	return rules;
}

// The one verdict of @rule (a copy: @verdicts is often a temporary).
Verdict only(const std::vector<Verdict> &verdicts, std::string_view rule)
{
	auto it = std::ranges::find(verdicts, rule, &Verdict::rule);
	EXPECT_NE(it, verdicts.end()) << "no " << rule;
	EXPECT_EQ(std::ranges::count(verdicts, rule, &Verdict::rule), 1) << rule;
	return it == verdicts.end() ? Verdict{} : *it;
}

bool has_evidence(const Verdict &verdict, std::string_view view, std::string_view subject)
{
	return std::ranges::any_of(verdict.evidence, [&](const Evidence &evidence) {
		return evidence.view == view && evidence.subject.find(subject) != std::string::npos;
	});
}

// A buffer a descriptor gives the device inside edu_snapshot()'s live
// mapping (0xffffe000, 4 KiB).
DescriptorBuffer in_edu_mapping(std::uint64_t addr, std::uint32_t length)
{
	DescriptorBuffer buffer;
	buffer.addr = addr;
	buffer.length = length;
	buffer.state = EDGEDMA_BUFFER_LIVE;
	buffer.mapping_addr = 0xffffe000;
	buffer.mapping_size = 4096;
	return buffer;
}

TEST(CrossView, RulesAndViewsAreListedInOrder)
{
	const auto rules = cross_view_rules();
	ASSERT_EQ(rules.size(), 12u);
	EXPECT_EQ(rules.front(), "device-after-unmap");
	EXPECT_EQ(rules.back(), "consistent");
	EXPECT_NE(std::ranges::find(rules, "misaligned-for-controller"), rules.end());
	EXPECT_EQ(cross_view_names().front(), "device");
	EXPECT_EQ(severity_name(Severity::error), "error");
	EXPECT_EQ(severity_name(Severity::warning), "warning");
	EXPECT_EQ(severity_name(Severity::note), "note");
}

TEST(CrossView, AgreeingSnapshotIsConsistentAndSaysWhatWasCompared)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger_addr = 0xffffe010;
	snapshot.pages.push_back(agreeing_page());
	snapshot.registers.push_back(address_register("DMA_SRC", 0xffffe010));
	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), std::vector<std::string>{"consistent"});
	EXPECT_EQ(verdicts[0].severity, Severity::note);
	EXPECT_TRUE(contains(verdicts[0].sentence, "agree"));
	EXPECT_TRUE(contains(verdicts[0].sentence, "1 register and"));
	EXPECT_TRUE(contains(verdicts[0].sentence, "1 page in the IOMMU"));
	EXPECT_EQ(headline(verdicts), &verdicts[0]);
}

TEST(CrossView, EmptySnapshotSaysNothingWasCompared)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.mappings.clear();
	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), std::vector<std::string>{"consistent"});
	EXPECT_TRUE(contains(verdicts[0].sentence, "nothing to compare"));
}

TEST(CrossView, FaultAfterUnmapNamesTheUnmapperAndTheRegister)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_addr = 0xfffff000; // VT-d reports the page
	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	snapshot.unmaps.push_back(edu_unmap());
	snapshot.registers.push_back(address_register("DMA_SRC", 0xfffff040));
	PageView page;
	page.dma_addr = 0xfffff000;
	page.iommu_domain = EDGEDMA_IOMMU_DOMAIN_DMA;
	page.iommu_unmapped = true;
	snapshot.pages.push_back(page);

	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), std::vector<std::string>{"device-after-unmap"});
	const Verdict &verdict = verdicts[0];
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_EQ(verdict.sentence,
		  "edgedma_test_edu 0000:00:03.0 read IOVA 0xfffff000 after "
		  "edu_use_after_unmap+0x5c/0x90 [edgedma_test_edu] unmapped it 212.0 us "
		  "earlier (128 bytes, to-device); the DMA_SRC register still held it");
	EXPECT_TRUE(has_evidence(verdict, "device", "IOMMU fault"));
	EXPECT_TRUE(has_evidence(verdict, "registers", "DMA_SRC"));
	EXPECT_TRUE(has_evidence(verdict, "history", "0xfffff040"));
	EXPECT_TRUE(has_evidence(verdict, "mappings", "0xfffff000"));
	EXPECT_TRUE(has_evidence(verdict, "iommu", "0xfffff000"));
	EXPECT_EQ(headline(verdicts), &verdict);
}

TEST(CrossView, RegisterIntoUnmapWithoutFault)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.unmaps.push_back(edu_unmap());
	snapshot.registers.push_back(address_register("DMA_DST", 0xfffff080));
	// A count that happens to be small is no address.
	Register count = address_register("DMA_CNT", 0x80);
	count.width = 4;
	snapshot.registers.push_back(count);
	const auto verdicts = compare(snapshot);
	const Verdict verdict = only(verdicts, "device-after-unmap");
	EXPECT_TRUE(contains(verdict.sentence, "DMA_DST register points at IOVA 0xfffff080"));
	EXPECT_TRUE(contains(verdict.sentence, "edu_use_after_unmap+0x5c"));
	EXPECT_FALSE(has_evidence(verdict, "registers", "DMA_CNT"));
}

// A PL330 channel's program (chain kind pl330-program) in one 32-byte
// block at 0xffffe800: DMAMOV SAR @sar, DMAMOV DAR @dar, DMAEND.
DescriptorChain pl330_chain(std::uint32_t sar, std::uint32_t dar)
{
	DescriptorChain chain;
	chain.name = "ch0-program";
	chain.kind = EDGEDMA_CHAIN_PL330_PROGRAM;
	chain.desc_size = 32;
	chain.start = 0xffffe80c;
	Descriptor block;
	block.dma_addr = 0xffffe800;
	block.state = EDGEDMA_DESC_READ;
	block.bytes.resize(32);
	auto put = [&](std::size_t at, std::uint32_t rd, std::uint32_t value) {
		block.bytes[at] = std::byte{0xbc};
		block.bytes[at + 1] = static_cast<std::byte>(rd);
		for (int i = 0; i < 4; i++)
			block.bytes[at + 2 + static_cast<std::size_t>(i)] =
				static_cast<std::byte>(value >> (8 * i));
	};
	put(0, 0, sar);
	put(6, 2, dar);
	block.bytes[12] = std::byte{0x00}; // DMAEND
	chain.descriptors.push_back(block);
	return chain;
}

TEST(CrossView, ProgramLoadingAnUnmappedAddress)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.unmaps.push_back(edu_unmap());
	snapshot.chains.push_back(pl330_chain(0xffffe000, 0xfffff040));
	const Verdict verdict = only(compare(snapshot), "device-after-unmap");
	EXPECT_TRUE(contains(verdict.sentence,
			     "program (ch0-program: DMAMOV DAR at 0xffffe806) points at IOVA "
			     "0xfffff040, which edu_use_after_unmap+0x5c"))
		<< verdict.sentence;
	EXPECT_TRUE(has_evidence(verdict, "descriptors", "ch0-program: DMAMOV DAR"));
	// SAR's buffer is live: not part of the verdict.
	EXPECT_FALSE(has_evidence(verdict, "descriptors", "DMAMOV SAR"));

	// Both in live memory: nothing to say.
	snapshot.chains.front() = pl330_chain(0xffffe000, 0xffffe100);
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, FaultWithTheProgramStillLoadingIt)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_addr = 0xfffff040;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	snapshot.unmaps.push_back(edu_unmap());
	snapshot.chains.push_back(pl330_chain(0xffffe000, 0xfffff040));
	const Verdict verdict = only(compare(snapshot), "device-after-unmap");
	EXPECT_TRUE(contains(verdict.sentence,
			     "; the program's ch0-program: DMAMOV DAR at 0xffffe806 still loads it"))
		<< verdict.sentence;
}

TEST(CrossView, RegisterInLiveMappingIsNotAfterUnmap)
{
	Snapshot snapshot = edu_snapshot();
	RecentUnmap old = edu_unmap();
	old.dma_addr = 0xffffe000; // unmapped once, mapped again since
	snapshot.unmaps.push_back(old);
	snapshot.registers.push_back(address_register("DMA_SRC", 0xffffe040));
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, FaultNowhereIsOutsideMappings)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_addr = 0xdead000;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	const Verdict verdict = only(compare(snapshot), "fault-outside-mappings");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence, "wrote IOVA 0xdead000"));
}

TEST(CrossView, DescriptorPointingNowhere)
{
	Snapshot snapshot = edu_snapshot();
	DescriptorBuffer buffer;
	buffer.addr = 0xbad000;
	buffer.length = 2048;
	buffer.state = EDGEDMA_BUFFER_UNKNOWN;
	snapshot.chains.push_back(ring_with(buffer, EDGEDMA_OWNER_DEVICE));
	const Verdict verdict = only(compare(snapshot), "desc-unmapped");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence, "descriptor rx0[3] (device's) points at IOVA 0xbad000"));
	EXPECT_TRUE(has_evidence(verdict, "descriptors", "rx0[3]"));

	// The driver's slots are not the device's to follow.
	snapshot.chains[0].descriptors[0].owner = EDGEDMA_OWNER_DRIVER;
	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), std::vector<std::string>{"consistent"});
	EXPECT_TRUE(contains(verdicts[0].sentence, "1 driver's not compared"));
}

TEST(CrossView, DescriptorIntoUnmapIsAfterUnmap)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.unmaps.push_back(edu_unmap());
	DescriptorBuffer buffer;
	buffer.addr = 0xfffff040;
	buffer.state = EDGEDMA_BUFFER_UNMAPPED;
	snapshot.chains.push_back(ring_with(buffer, std::nullopt));
	const Verdict verdict = only(compare(snapshot), "device-after-unmap");
	EXPECT_TRUE(contains(verdict.sentence, "descriptor rx0[3] points at IOVA 0xfffff040"));
}

TEST(CrossView, DescriptorOverrun)
{
	Snapshot snapshot = edu_snapshot();
	DescriptorBuffer buffer;
	buffer.addr = 0xffffef00;
	buffer.length = 512;
	buffer.state = EDGEDMA_BUFFER_OVERRUN;
	buffer.mapping_addr = 0xffffe000;
	buffer.mapping_size = 4096;
	snapshot.chains.push_back(ring_with(buffer, EDGEDMA_OWNER_DEVICE));
	const Verdict verdict = only(compare(snapshot), "desc-overrun");
	EXPECT_TRUE(contains(verdict.sentence, "gives the device 512 bytes at IOVA 0xffffef00, "
						"256 bytes past the end of the mapping at 0xffffe000"));
	EXPECT_TRUE(contains(verdict.sentence, "edu_probe+0x40"));

	snapshot.chains[0].descriptors[0].buffers[0].state = EDGEDMA_BUFFER_LIVE;
	snapshot.chains[0].descriptors[0].buffers[0].length = 256;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, DeviceWroteToDeviceMapping)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_IOMMU_FAULT;
	snapshot.header.trigger_addr = 0xffffe100;
	snapshot.header.trigger_access = EDGEDMA_ACCESS_WRITE;
	const Verdict verdict = only(compare(snapshot), "direction-conflict");
	EXPECT_TRUE(contains(verdict.sentence, "wrote IOVA 0xffffe100 inside a to-device mapping"));

	snapshot.header.trigger_access = EDGEDMA_ACCESS_READ;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
	snapshot.mappings[0].dir = dma_direction::from_device;
	EXPECT_TRUE(contains(only(compare(snapshot), "direction-conflict").sentence, "read IOVA 0xffffe100 inside a from-device mapping"));
}

TEST(CrossView, ReceiveDescriptorIntoToDeviceMapping)
{
	Snapshot snapshot = edu_snapshot(); // its mapping at 0xffffe000 is to-device
	snapshot.chains.push_back(ring_with(in_edu_mapping(0xffffe040, 64), EDGEDMA_OWNER_DEVICE));
	// The profile gives no direction: nothing to compare.
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});

	snapshot.chains[0].direction = dma_direction::from_device;
	const Verdict verdict = only(compare(snapshot), "direction-conflict");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence, "'s from-device descriptor rx0[3] (device's) gives "
					       "the device IOVA 0xffffe040 to write, inside a "
					       "to-device mapping ("));
	EXPECT_TRUE(contains(verdict.sentence, "which the device may only read"));
	EXPECT_TRUE(has_evidence(verdict, "descriptors", "rx0[3] (device's)"));
	EXPECT_TRUE(has_evidence(verdict, "mappings", "map_page 0xffffe000"));

	// The same ring the other way: a transmit ring reading a to-device buffer.
	snapshot.chains[0].direction = dma_direction::to_device;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
	// A transmit ring reading a buffer mapped for the device to write.
	snapshot.mappings[0].dir = dma_direction::from_device;
	EXPECT_TRUE(contains(only(compare(snapshot), "direction-conflict").sentence,
			     "gives the device IOVA 0xffffe040 to read, inside a from-device mapping"));
	// Bidirectional suits both; the driver's slots are the driver's business.
	snapshot.mappings[0].dir = dma_direction::bidirectional;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
	snapshot.mappings[0].dir = dma_direction::from_device;
	snapshot.chains[0].descriptors[0].owner = EDGEDMA_OWNER_DRIVER;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, IommuTranslatesElsewhereOrNowhere)
{
	Snapshot snapshot = edu_snapshot();
	PageView page = agreeing_page();
	page.iommu_phys = 0x7000000;
	snapshot.pages.push_back(page);
	const Verdict verdict = only(compare(snapshot), "iommu-cpu-mismatch");
	EXPECT_TRUE(contains(verdict.sentence, "to 0x7000000, not to 0x4000000"));
	EXPECT_TRUE(has_evidence(verdict, "iommu", "0xffffe000"));

	snapshot.pages[0].iommu_phys.reset();
	snapshot.pages[0].iommu_unmapped = true;
	EXPECT_TRUE(contains(only(compare(snapshot), "iommu-cpu-mismatch").sentence, "to nothing"));
}

TEST(CrossView, DirectMappingElsewhereIsABounce)
{
	Snapshot snapshot = edu_snapshot();
	PageView page = agreeing_page();
	page.iommu_domain = EDGEDMA_IOMMU_DOMAIN_NONE;
	page.iommu_phys = 0x9f000000;
	snapshot.pages.push_back(page);
	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), std::vector<std::string>{"bounced"});
	EXPECT_EQ(verdicts[0].severity, Severity::warning);
	EXPECT_TRUE(contains(verdicts[0].sentence, "bounced through swiotlb"));
	EXPECT_TRUE(contains(verdicts[0].sentence, "every transfer copies 4.0 KiB at map and at each sync for the device"));
	// No error: the headline is the warning.
	EXPECT_EQ(headline(verdicts), &verdicts[0]);
}

TEST(CrossView, CpuPageTableDisagrees)
{
	Snapshot snapshot = edu_snapshot();
	PageView page = agreeing_page();
	page.pte_pfn = 0x4001;
	snapshot.pages.push_back(page);
	EXPECT_TRUE(contains(only(compare(snapshot), "pte-mismatch").sentence, "to 0x4001000, not to 0x4000000"));

	snapshot.pages[0] = agreeing_page();
	snapshot.pages[0].pte_executable = true;
	const Verdict executable = only(compare(snapshot), "pte-mismatch");
	EXPECT_EQ(executable.severity, Severity::warning);
	EXPECT_TRUE(has_evidence(executable, "cpu", "0xffff888004000000"));

	snapshot.pages[0] = agreeing_page();
	snapshot.pages[0].pte_present = false;
	EXPECT_TRUE(contains(only(compare(snapshot), "pte-mismatch").sentence, "no present entry"));
}

TEST(CrossView, CachedCoherentMemoryOfNonCoherentDevice)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.mappings[0].call = EDGEDMA_CALL_ALLOC_COHERENT;
	snapshot.mappings[0].dir = dma_direction::bidirectional;
	snapshot.pages.push_back(agreeing_page());
	// Coherent device: cached is right.
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
	snapshot.coherent = false;
	EXPECT_TRUE(contains(only(compare(snapshot), "pte-mismatch").sentence, "does not snoop the caches"));
	snapshot.pages[0].pte_memtype = EDGEDMA_MEMTYPE_WRITE_COMBINE;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, SharedLineOnNonCoherentDevice)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.mappings[0].dir = dma_direction::from_device;
	snapshot.mappings[0].size = 100;
	Mapping neighbour;
	neighbour.device = "0000:00:04.0";
	neighbour.driver = "zoo";
	neighbour.call = EDGEDMA_CALL_MAP_PAGE;
	neighbour.dma_addr = 0xaaaa0000;
	neighbour.size = 64;
	neighbour.dir = dma_direction::to_device;
	neighbour.cpu_phys = 0x4000080; // shares the line 0x4000040..0x400007f? no: 0x4000080
	neighbour.caller_name = "zoo_xmit+0x10/0x80 [zoo]";
	snapshot.line_sharers.push_back(neighbour);
	// A coherent device: sharing a line costs nothing.
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});

	snapshot.coherent = false;
	snapshot.line_sharers[0].cpu_phys = 0x4000060; // in 0x4000040's line
	const Verdict verdict = only(compare(snapshot), "cacheline-neighbour");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence, "zoo 0000:00:04.0's mapping at 0xaaaa0000"));
	EXPECT_TRUE(contains(verdict.sentence, "zoo_xmit+0x10"));
	EXPECT_TRUE(contains(verdict.sentence, "line 0x4000040"));
	EXPECT_TRUE(contains(verdict.sentence, "discards"));

	// Both to-device: cleaning loses nothing yet.
	snapshot.mappings[0].dir = dma_direction::to_device;
	EXPECT_EQ(only(compare(snapshot), "cacheline-neighbour").severity, Severity::warning);
}

TEST(CrossView, BufferBreakingTheControllersAlignment)
{
	Snapshot snapshot = edu_snapshot();
	snapshot.chains.push_back(ring_with(in_edu_mapping(0xffffe020, 100), EDGEDMA_OWNER_DEVICE));
	// No rule in the profile: nothing to break.
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});

	snapshot.chains[0].align_log2 = 6;
	const Verdict verdict = only(compare(snapshot), "misaligned-for-controller");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence, "aligned to 64 bytes: its address 0xffffe020 lies "
					       "32 bytes past a boundary and its length 100 is "
					       "not a multiple"));
	EXPECT_TRUE(has_evidence(verdict, "descriptors", "rx0[3]"));

	snapshot.chains[0].descriptors[0].buffers[0].addr = 0xffffe040;
	snapshot.chains[0].descriptors[0].buffers[0].length = 128;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
	// The driver's slots are the driver's business.
	snapshot.chains[0].descriptors[0].buffers[0].addr = 0xffffe020;
	snapshot.chains[0].descriptors[0].owner = EDGEDMA_OWNER_DRIVER;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, BounceBehindAnIommuIsNoStaleTranslation)
{
	Snapshot snapshot = edu_snapshot();
	PageView page = agreeing_page();
	page.iommu_phys = 0x9f000000;
	page.iommu_swiotlb = true;
	snapshot.pages.push_back(page);
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"bounced"});
	// Said not to be a bounce slot: the translation is stale.
	snapshot.pages[0].iommu_swiotlb = false;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"iommu-cpu-mismatch"});
	// Without an IOMMU, a mismatch the record calls no bounce is no bounce.
	snapshot.pages[0].iommu_domain = EDGEDMA_IOMMU_DOMAIN_NONE;
	EXPECT_EQ(rules_of(compare(snapshot)), std::vector<std::string>{"consistent"});
}

TEST(CrossView, CpuWriteWhileTheDeviceOwnedTheBuffer)
{
	// Taken by the finding at the unmap: the mapping is the latest unmap.
	Snapshot snapshot = edu_snapshot();
	snapshot.header.trigger = EDGEDMA_SNAPSHOT_TRIGGER_FINDING;
	snapshot.header.finding_seq = 42;
	snapshot.header.finding_kind = EDGEDMA_FINDING_CPU_WRITE_WHILE_DEVICE_OWNED;
	snapshot.header.trigger_addr = 0xfffff040;
	snapshot.unmaps.push_back(edu_unmap());
	snapshot.coherent = false;
	const Verdict verdict = only(compare(snapshot), "cpu-write-while-device-owned");
	EXPECT_EQ(verdict.severity, Severity::error);
	EXPECT_TRUE(contains(verdict.sentence,
			     "the bytes of edgedma_test_edu 0000:00:03.0's to-device buffer at "
			     "IOVA 0xfffff040 (128 bytes, to-device, mapped by "
			     "edu_use_after_unmap+0x20/0x90 [edgedma_test_edu]) changed while the "
			     "device owned it, before edu_use_after_unmap+0x5c/0x90 "
			     "[edgedma_test_edu]'s unmap: the CPU wrote them, or the device wrote a "
			     "buffer it was given to read; the device does not snoop the caches"));
	EXPECT_TRUE(contains(verdict.sentence, "its 2 cache lines of 64 bytes"));
	EXPECT_TRUE(has_evidence(verdict, "cache", "coherency"));

	snapshot.coherent = true;
	EXPECT_TRUE(contains(only(compare(snapshot), "cpu-write-while-device-owned").sentence,
			     "the device may have read the old bytes"));
	// Another finding's snapshot says nothing of the kind.
	snapshot.header.finding_kind = EDGEDMA_FINDING_LEAK;
	EXPECT_EQ(std::ranges::count(compare(snapshot), std::string("cpu-write-while-device-owned"),
				     &Verdict::rule),
		  0);
}

TEST(CrossView, HeadlineIsTheFirstError)
{
	Snapshot snapshot = edu_snapshot();
	PageView bounce = agreeing_page();
	bounce.iommu_domain = EDGEDMA_IOMMU_DOMAIN_NONE;
	bounce.iommu_phys = 0x9f000000;
	snapshot.pages.push_back(bounce);
	DescriptorBuffer buffer;
	buffer.addr = 0xbad000;
	buffer.state = EDGEDMA_BUFFER_UNKNOWN;
	snapshot.chains.push_back(ring_with(buffer, EDGEDMA_OWNER_DEVICE));
	const auto verdicts = compare(snapshot);
	ASSERT_EQ(rules_of(verdicts), (std::vector<std::string>{"desc-unmapped", "bounced"}));
	EXPECT_EQ(headline(verdicts), &verdicts[0]);
	EXPECT_EQ(headline(std::span<const Verdict>()), nullptr);
}

} // namespace cross_view_test
} // namespace edgedma::test
