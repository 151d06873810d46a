#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The KTAP reader is what makes a guest run pass or fail: its own tests."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ktap  # noqa: E402


def counts(text):
    c = ktap.count(text, "t: ")
    return c.passed, c.failed, c.skipped, c.failures


class KtapCount(unittest.TestCase):
    def test_flat_results_under_a_matching_plan(self):
        text = "KTAP version 1\n1..3\nok 1 a\nnot ok 2 b # boom\nok 3 c # SKIP why\n"
        self.assertEqual(counts(text), (1, 1, 1, ["t: b # boom"]))

    def test_a_failure_keeps_its_reason_and_a_bare_one_its_name(self):
        text = ("1..2\nnot ok 1 reload-under-loop # 4 mappings of 0000:00:04.0 still tracked\n"
                "not ok 2 bare\n")
        self.assertEqual(counts(text)[3], [
            "t: reload-under-loop # 4 mappings of 0000:00:04.0 still tracked", "t: bare"])

    def test_each_skip_keeps_its_name_and_reason(self):
        text = ("1..3\nok 1 a # SKIP no device\nok 2 # SKIP b (hook x): no mode\n"
                "ok 3 c\n")
        c = ktap.count(text, "t: ")
        self.assertEqual(c.skips, [("t: a", "no device"), ("t: ", "b (hook x): no mode")])

    def test_a_result_short_of_the_plan_fails(self):
        passed, failed, _, failures = counts("1..3\nok 1 a\nok 2 b\n")
        self.assertEqual((passed, failed), (2, 1))
        self.assertIn("plan 1..3", failures[0])

    def test_a_result_beyond_the_plan_fails(self):
        _, failed, _, failures = counts("1..1\nok 1 a\nok 2 b\n")
        self.assertEqual(failed, 1)
        self.assertIn("but 2 results", failures[0])

    def test_nested_subtests_count_as_leaves(self):
        text = ("1..2\n"
                "  1..2\n  ok 1 x.one\n  ok 2 x.two\nok 1 x\n"
                "  1..1\n  ok 1 y.one # SKIP no device\nok 2 y\n")
        self.assertEqual(counts(text), (2, 0, 1, []))

    def test_a_missing_subtest_fails_although_its_parent_passed(self):
        text = "1..1\n  1..3\n  ok 1 x.one\n  ok 2 x.two\nok 1 x\n"
        passed, failed, _, failures = counts(text)
        self.assertEqual((passed, failed), (2, 1))
        self.assertIn("indent 2", failures[0])

    def test_a_failing_parent_of_passing_subtests_fails_once(self):
        text = "1..1\n  1..1\n  ok 1 x.one\nnot ok 1 x # exit status 1\n"
        self.assertEqual(counts(text), (1, 1, 0, ["t: x # exit status 1"]))

    def test_comment_lines_are_neither_plans_nor_results(self):
        text = "1..1\n#   1..5\n# ok 3 quoted\nok 1 a\n"
        self.assertEqual(counts(text), (1, 0, 0, []))

    def test_an_empty_plan_with_no_results_passes(self):
        self.assertEqual(counts("1..0 # SKIP nothing here\n"), (0, 0, 0, []))


if __name__ == "__main__":
    unittest.main()
