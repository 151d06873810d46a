#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest-kernel cache outside the clone (tools/vm/kernel-cache.sh): where
BUILD/kernels leads, and the manifest that decides whether a cached kernel is
used again or fetched/built again. Also that fetch-kernels leaves a kernel
that matches its manifest alone, and that edgedma-vm hands guests the real
folder behind the link."""
import importlib.machinery
import importlib.util
import os
import subprocess
import tempfile
import types
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE_SH = REPO / "tools/vm/kernel-cache.sh"
FETCH = REPO / "tools/vm/fetch-kernels"


def bash(script, *args, env=None):
    """Runs script with kernel-cache.sh sourced; returns the process."""
    return subprocess.run(["bash", "-c", f'. "{CACHE_SH}"; {script}', "bash", *args],
                          capture_output=True, text=True, env=env)


def fake_kernel(dir_, release="6.12.0-test-amd64"):
    """A cache entry laid out as fetch-kernels leaves one, made complete."""
    root = dir_ / "root"
    (root / "boot").mkdir(parents=True)
    (root / "boot" / f"vmlinuz-{release}").write_bytes(b"\x4d\x5a kernel image")
    headers = root / "usr/src" / f"linux-headers-{release}"
    headers.mkdir(parents=True)
    (headers / "Makefile").write_text("include /somewhere/Makefile\n")
    (headers / ".config").write_text("CONFIG_KPROBES=y\n")
    (headers / "Module.symvers").write_text("0x0\tprintk\tvmlinux\tEXPORT_SYMBOL\n")
    modules = root / "lib/modules" / release
    modules.mkdir(parents=True)
    (modules / "modules.dep").write_text("kernel/nvme.ko:\n")
    (dir_ / "release").write_text(release + "\n")
    (dir_ / "packages").write_text("linux-image-test 1.0\n")
    (dir_ / "vmlinuz").symlink_to(f"root/boot/vmlinuz-{release}")
    (dir_ / "kdir").symlink_to(f"root/usr/src/linux-headers-{release}")
    r = bash('kernel_manifest_write "$1" && touch "$1/.complete"', str(dir_))
    assert r.returncode == 0, r.stderr


class Manifest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.kernel = Path(self.tmp.name) / "x86_64-6.12"
        self.kernel.mkdir()
        fake_kernel(self.kernel)

    def tearDown(self):
        self.tmp.cleanup()

    def ok(self):
        return bash('kernel_manifest_ok "$1"', str(self.kernel)).returncode == 0

    def test_a_complete_kernel_matches_its_manifest(self):
        self.assertTrue(self.ok())
        listed = (self.kernel / "manifest").read_text()
        for name in ["root/boot/vmlinuz-6.12.0-test-amd64", "kdir/Module.symvers",
                     "kdir/.config", "kdir/Makefile", "release", "packages",
                     "root/lib/modules/6.12.0-test-amd64/modules.dep"]:
            self.assertIn(name, listed)

    def test_a_changed_image_does_not_match(self):
        (self.kernel / "vmlinuz").resolve().write_bytes(b"truncated")
        self.assertFalse(self.ok())

    def test_a_missing_file_does_not_match(self):
        (self.kernel / "kdir" / "Module.symvers").unlink()
        self.assertFalse(self.ok())

    def test_an_entry_without_manifest_or_completion_does_not_match(self):
        (self.kernel / ".complete").unlink()
        self.assertFalse(self.ok())
        (self.kernel / ".complete").touch()
        (self.kernel / "manifest").unlink()
        self.assertFalse(self.ok())

    def test_fetch_kernels_leaves_a_matching_kernel_alone(self):
        # A matching target needs no apt at all: nothing to print, nothing
        # unpacked again (the image keeps its inode).
        inode = (self.kernel / "vmlinuz").resolve().stat().st_ino
        r = subprocess.run([str(FETCH), str(self.kernel.parent), "x86_64-6.12"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout + r.stderr, "")
        self.assertEqual((self.kernel / "vmlinuz").resolve().stat().st_ino, inode)


class Link(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = Path(self.tmp.name) / "build"
        self.build.mkdir()
        self.cache = Path(self.tmp.name) / "cache"

    def tearDown(self):
        self.tmp.cleanup()

    def link(self, cache):
        env = dict(os.environ, EDGEDMA_CACHE=cache)
        return bash('kernel_cache_link "$1"', str(self.build), env=env)

    def test_kernels_link_to_the_cache(self):
        r = self.link(str(self.cache))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(str(self.cache / "kernels"), r.stdout)
        self.assertTrue((self.build / "kernels").is_symlink())
        self.assertEqual((self.build / "kernels").resolve(), (self.cache / "kernels").resolve())
        # A second run changes nothing and says nothing.
        r = self.link(str(self.cache))
        self.assertEqual((r.returncode, r.stdout), (0, ""))

    def test_the_default_cache_is_under_xdg_cache_home(self):
        env = dict(os.environ, XDG_CACHE_HOME=str(self.cache))
        env.pop("EDGEDMA_CACHE", None)
        r = bash('kernel_cache_link "$1"', str(self.build), env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual((self.build / "kernels").resolve(),
                         (self.cache / "edgedma/kernels").resolve())

    def test_none_keeps_the_kernels_in_the_build_folder(self):
        r = self.link("none")
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        self.assertFalse((self.build / "kernels").exists())
        self.assertFalse(self.cache.exists())

    def test_a_kernels_folder_already_there_is_used_as_it_is(self):
        (self.build / "kernels").mkdir()
        r = self.link(str(self.cache))
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        self.assertFalse((self.build / "kernels").is_symlink())
        self.assertFalse(self.cache.exists())

    def test_a_removed_cache_is_started_again(self):
        self.assertEqual(self.link(str(self.cache)).returncode, 0)
        (self.cache / "kernels").rmdir()
        r = self.link(str(self.cache))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("started again", r.stdout)
        self.assertTrue((self.cache / "kernels").is_dir())

    def test_a_cache_that_cannot_be_made_fails_with_a_reason(self):
        blocker = Path(self.tmp.name) / "file"
        blocker.write_text("")
        r = self.link(str(blocker / "cache"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cannot make the kernel cache", r.stderr)
        self.assertFalse((self.build / "kernels").exists())


class GuestPaths(unittest.TestCase):
    """A guest sees the host under /host: a link to an absolute path would
    lead into its own root, so edgedma-vm gives it the folder behind it."""

    def test_kernel_dir_is_the_folder_behind_the_link(self):
        with tempfile.TemporaryDirectory() as tmp:
            build, cache = Path(tmp) / "build", Path(tmp) / "cache"
            build.mkdir()
            (cache / "kernels/arm64-6.12").mkdir(parents=True)
            (cache / "kernels/arm64-6.12/.complete").touch()
            (build / "kernels").symlink_to(cache / "kernels")
            os.environ["EDGEDMA_BUILD"] = str(build)
            try:
                tool = REPO / "tools/edgedma-vm"
                loader = importlib.machinery.SourceFileLoader("edgedma_vm_cache", str(tool))
                module = importlib.util.module_from_spec(
                    importlib.util.spec_from_loader("edgedma_vm_cache", loader))
                loader.exec_module(module)
            finally:
                del os.environ["EDGEDMA_BUILD"]
            args = types.SimpleNamespace(kernel_dir=None, arch="arm64", kernel="6.12")
            self.assertEqual(module.kernel_dir(args), (cache / "kernels/arm64-6.12").resolve())


if __name__ == "__main__":
    unittest.main()
