# SPDX-License-Identifier: GPL-2.0
#
# Sourced by tools/install-deps, tools/vm/fetch-kernels and
# tools/vm/build-kernel: where the guest kernels are kept, and the manifest
# of each (the files a guest boot and a module build read first, with their
# SHA-256), written when the kernel is complete and checked before it is
# used again, so that a damaged or half-deleted cache entry is fetched or
# built again instead of failing a boot later.

# The guest kernels (downloaded and built: ~2 GB, and the debug kernel's ten
# minutes of building) live in a cache outside the build folder, shared by
# every clone and build folder on this machine: EDGEDMA_CACHE, by default
# ${XDG_CACHE_HOME:-~/.cache}/edgedma. BUILD/kernels links to its kernels
# folder. EDGEDMA_CACHE=none keeps the kernels in BUILD/kernels itself; a
# BUILD/kernels folder that is already there is used as it is. Prints what
# it did; fails with a message when it cannot.
kernel_cache_link() {
	local build=$1 root=${EDGEDMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/edgedma}
	if [ ! -e "$build/kernels" ] && [ ! -L "$build/kernels" ] && [ "$root" != none ]; then
		root=$(realpath -m "$root")
		mkdir -p "$root/kernels" || {
			echo "cannot make the kernel cache $root/kernels (set EDGEDMA_CACHE, or EDGEDMA_CACHE=none)" >&2
			return 1
		}
		ln -s "$root/kernels" "$build/kernels" || return 1
		echo "guest kernels cached in $root/kernels (EDGEDMA_CACHE)"
	fi
	# The cache removed under an existing link: start it again where it was.
	if [ -L "$build/kernels" ] && [ ! -e "$build/kernels" ]; then
		mkdir -p "$(realpath -m "$build/kernels")" || {
			echo "cannot make $(realpath -m "$build/kernels") again, which $build/kernels links to" >&2
			return 1
		}
		echo "the kernel cache $(realpath -m "$build/kernels") was gone; started again"
	fi
	return 0
}

# The files of DIR (a cache entry laid out as fetch-kernels describes) that
# the manifest covers, relative to DIR.
kernel_manifest_files() {
	local dir=$1 release
	release=$(cat "$dir/release")
	printf '%s\n' release packages "$(readlink "$dir/vmlinuz")" kdir/Makefile kdir/.config \
		kdir/Module.symvers "root/lib/modules/$release/modules.dep"
}

# Writes DIR/manifest; fails when a file it must cover is missing.
kernel_manifest_write() {
	local dir=$1
	(cd "$dir" && kernel_manifest_files . | xargs -d '\n' sha256sum) > "$dir/manifest.new" &&
		mv "$dir/manifest.new" "$dir/manifest"
}

# True when DIR is complete and its files match its manifest.
kernel_manifest_ok() {
	local dir=$1
	[ -f "$dir/.complete" ] && [ -f "$dir/manifest" ] &&
		(cd "$dir" && sha256sum --quiet --strict -c manifest) >/dev/null 2>&1
}
