// SPDX-License-Identifier: GPL-2.0
/*
 * A module that WARNs when it loads, and nothing else.
 *
 * The guest test bed must fail any run whose kernel log shows a WARN; this
 * module is how tests/run-check proves it does, on every run.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init bed_warn_on_load_init(void)
{
	WARN(1, "bed_warn_on_load: deliberate warning, the test bed must fail this run\n");
	return 0;
}

static void __exit bed_warn_on_load_exit(void)
{
}

module_init(bed_warn_on_load_init);
module_exit(bed_warn_on_load_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("edgedma test bed: a deliberate WARN at load");
