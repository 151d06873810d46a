# SPDX-License-Identifier: GPL-2.0
"""A small KTAP/TAP reader: counts the leaf results of nested test output.

Subtests print before their parent's result line, one indent level deeper,
so a result line is a parent exactly when the result line just before it is
deeper. Parents are not counted themselves, except a failing parent whose
subtests all passed (a program that crashed after its last test, say).
A plan ("1..N") that its level's results do not match is a failure too: a
test that printed no result must not pass by being absent.
"""
import re
from dataclasses import dataclass, field

RESULT = re.compile(
    r"^(?P<indent>\s*)(?P<status>ok|not ok)\s+\d+\s*(?:-\s*)?(?P<name>[^#]*?)"
    r"\s*(?:#\s*(?P<directive>[A-Za-z]+)?(?P<reason>.*))?$")
PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<count>\d+)\s*(?:#.*)?$")


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list = field(default_factory=list)
    skips: list = field(default_factory=list)   # (name, reason) of each skip

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures += other.failures
        self.skips += other.skips

    def fail(self, name):
        self.failed += 1
        self.failures.append(name)


def failure_name(name, result):
    """A failed test's name with the reason its line gave ("not ok 2 b #
    why"), so that a summary of failures says why, not only which."""
    why = ((result.group("directive") or "") + (result.group("reason") or "")).strip()
    return f"{name} # {why}" if why else name


def count(text, prefix=""):
    """Counts of the leaf results in KTAP text; prefix names failures."""
    c = Counts()
    # Results not yet claimed by a parent: (indent, failed in its subtree).
    pending = []
    # Open plans: indent -> [results declared, results seen].
    plans = {}

    def close_plan(indent):
        declared, seen = plans.pop(indent)
        if declared != seen:
            c.fail(f"{prefix}plan 1..{declared} (indent {indent}) "
                   f"but {seen} results")

    for line in text.splitlines():
        line = line.expandtabs(8)
        p = PLAN.match(line)
        if p:
            indent = len(p.group("indent"))
            if indent in plans:
                close_plan(indent)
            plans[indent] = [int(p.group("count")), 0]
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group("indent"))
        for deeper in [d for d in plans if d > indent]:
            close_plan(deeper)
        if indent in plans:
            plans[indent][1] += 1
        ok = m.group("status") == "ok"
        skip = (m.group("directive") or "").upper() == "SKIP"
        name = prefix + m.group("name").strip()
        children = [f for d, f in pending if d > indent]
        pending = [(d, f) for d, f in pending if d <= indent]
        if children:
            child_failed = any(children)
            if not ok and not child_failed:
                c.fail(failure_name(name, m))
            pending.append((indent, not ok or child_failed))
            continue
        if skip:
            c.skipped += 1
            c.skips.append((name, (m.group("reason") or "").strip()))
        elif ok:
            c.passed += 1
        else:
            c.fail(failure_name(name, m))
        pending.append((indent, not ok and not skip))
    for indent in sorted(plans):
        close_plan(indent)
    return c
