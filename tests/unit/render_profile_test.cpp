// SPDX-License-Identifier: GPL-2.0
#include <linux/edgedma.h>
#include <nlohmann/json.hpp>

#include <edgedma/profile.hpp>

#include "profile_render.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_profile_test {

LoadedProfile loaded_ring_profile()
{
	Profile profile;
	profile.name = "nic";
	profile.pci_id = 0x808610d3;
	profile.registers = {
		{"tdbal0", 0, 0x3800, 4, 0, {}, std::nullopt, std::nullopt},
		{"tdlen0", 0, 0x3808, 4, 0, {}, std::nullopt, std::nullopt},
		{"ctrl", 1, 0x10, 4, 0, {{"reset", 26, 1}, {"speed", 8, 2}},
		 std::nullopt, std::nullopt},
		{"icr", 0, 0xc0, 4, EDGEDMA_REGISTER_READ_CLEARS, {}, std::nullopt, std::nullopt},
	};
	DescriptorChain tx;
	tx.name = "tx0";
	tx.kind = EDGEDMA_CHAIN_RING;
	tx.start_reg = "tdbal0";
	tx.length_reg = "tdlen0";
	tx.flags = EDGEDMA_CHAIN_LENGTH_IN_BYTES;
	tx.desc_size = 16;
	tx.max_descs = 8;
	tx.fields = {{"buffer-addr", 0, 8, 0, std::nullopt, EDGEDMA_DESC_ROLE_ADDRESS},
		     {"dd", 12, 1, 0, 1, EDGEDMA_DESC_ROLE_STATUS}};
	profile.chains = {tx};
	LoadedProfile loaded;
	loaded.profile = profile;
	loaded.bound = 2;
	loaded.bound_devices = {"0000:00:02.0", "0000:00:03.0"};
	loaded.register_count = 4;
	loaded.chain_count = 1;
	return loaded;
}

TEST(RenderProfile, LoadLineNamesTheMatchCountsAndDevicesBound)
{
	LoadedProfile loaded = loaded_ring_profile();
	EXPECT_EQ(cli::profile_loaded_text(loaded),
		  "profile nic (pci 8086:10d3): 4 registers, 1 chain; bound to 2 devices: "
		  "0000:00:02.0, 0000:00:03.0\n");
	loaded.bound = 0;
	loaded.bound_devices.clear();
	EXPECT_EQ(cli::profile_loaded_text(loaded),
		  "profile nic (pci 8086:10d3): 4 registers, 1 chain; no device present "
		  "matches it\n");
	loaded.profile.pci_id.reset();
	loaded.profile.compatible = "arm,pl330";
	EXPECT_EQ(cli::profile_checked_text(loaded.profile),
		  "profile nic (compatible arm,pl330): 4 registers, 1 chain; valid\n");
}

TEST(RenderProfile, ListIsATable)
{
	LoadedProfile loaded = loaded_ring_profile();
	loaded.profile.registers.clear();
	loaded.profile.chains.clear();
	EXPECT_EQ(cli::profile_list_text({loaded}),
		  "NAME  MATCH          BOUND  REGISTERS  CHAINS\n"
		  "nic   pci 8086:10d3      2          4       1\n");
	nlohmann::ordered_json json = cli::profile_summary_json(loaded);
	EXPECT_EQ(json.dump(), R"({"name":"nic","match":{"pci_id":"8086:10d3"},"bound":2,)"
			       R"("register_count":4,"chain_count":1})");
}

TEST(RenderProfile, ShowHasRegistersWithBitRangesAndChainLayouts)
{
	std::string text = cli::profile_text(loaded_ring_profile());
	EXPECT_TRUE(contains(text, "  match: pci 8086:10d3\n"));
	EXPECT_TRUE(contains(text, "  bound: 2 devices: 0000:00:02.0, 0000:00:03.0\n"));
	EXPECT_TRUE(contains(text, "registers (4):\n"));
	EXPECT_TRUE(contains(text, "reset[26] speed[9:8]"));
	EXPECT_TRUE(contains(text, "read-clears"));
	EXPECT_TRUE(contains(text, "  tx0: ring of 16-byte descriptors at tdbal0, tdlen0 bytes "
				   "long, at most 8 walked\n"));
	EXPECT_TRUE(contains(text, "buffer-addr       0  8 bytes  all   address"));
	EXPECT_TRUE(contains(text, "dd               12   1 byte  [0]   status"));
}

TEST(RenderProfile, ShowJsonCarriesTheWholeDefinition)
{
	nlohmann::ordered_json json = cli::profile_json(loaded_ring_profile());
	EXPECT_EQ(json["match"]["pci_id"], "8086:10d3");
	EXPECT_EQ(json["bound_devices"].size(), 2u);
	EXPECT_EQ(json["registers"][2]["fields"][1].dump(),
		  R"({"name":"speed","shift":8,"bits":2})");
	EXPECT_EQ(json["registers"][3]["flags"][0], "read-clears");
	EXPECT_EQ(json["registers"][0]["offset"], "0x3800");
	const auto &chain = json["chains"][0];
	EXPECT_EQ(chain["kind"], "ring");
	EXPECT_EQ(chain["start_hi_reg"], nullptr);
	EXPECT_EQ(chain["length_in_bytes"], true);
	EXPECT_EQ(chain["max_descs"], 8);
	EXPECT_EQ(chain["fields"][1]["bits"], 1);
	EXPECT_EQ(chain["fields"][1]["role"], "status");
}

} // namespace render_profile_test
} // namespace edgedma::test
