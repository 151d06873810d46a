// SPDX-License-Identifier: GPL-2.0
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "device_render.hpp"
#include "record_messages.hpp"
#include "test_support.hpp"

namespace edgedma::test {
namespace render_device_test {

using cli::device_json;
using cli::devices_text;
using cli::sorted_devices;

TEST(DeviceJson, ParsesBackWithEveryField)
{
	auto parsed = nlohmann::json::parse(device_json(sample_device()).dump());
	std::set<std::string> keys;
	for (const auto &item : parsed.items())
		keys.insert(item.key());
	EXPECT_EQ(keys, (std::set<std::string>{"device", "driver", "calls", "mappings_live",
					       "findings", "complete", "sync_kept"}));
	EXPECT_EQ(parsed["device"], "0000:00:04.0");
	EXPECT_EQ(parsed["driver"], "edgedma_test_edu");
	EXPECT_EQ(parsed["calls"], 0x1'0000'0007u);
	EXPECT_EQ(parsed["mappings_live"], 3);
	EXPECT_EQ(parsed["findings"], 2);
	EXPECT_EQ(parsed["complete"], true);
	EXPECT_EQ(parsed["sync_kept"], true);
}

TEST(DevicesText, AlignsColumnsAndSaysWhatIsUnknownOrUnbound)
{
	Device unbound = sample_device();
	unbound.name = "0000:00:02.0";
	unbound.driver.clear();
	unbound.calls = 12;
	unbound.mappings_live = 0;
	unbound.findings = 0;
	unbound.complete = false;
	unbound.sync_kept = false;
	std::string text = devices_text(sorted_devices({sample_device(), unbound}));
	EXPECT_EQ(text,
		  "DEVICE        DRIVER                 CALLS  LIVE MAPPINGS  FINDINGS  COMPLETE  SYNCS\n"
		  "0000:00:02.0  -                         12              0         0  no        -\n"
		  "0000:00:04.0  edgedma_test_edu  4294967303              3         2  yes       kept\n");
}

TEST(DevicesText, IsOnlyTheHeaderWithoutDevices)
{
	EXPECT_EQ(devices_text({}),
		  "DEVICE  DRIVER  CALLS  LIVE MAPPINGS  FINDINGS  COMPLETE  SYNCS\n");
}

} // namespace render_device_test
} // namespace edgedma::test
