# SPDX-License-Identifier: GPL-2.0
#
# Cross-build edgedma's userspace for arm64 guests with Debian's
# aarch64-linux-gnu gcc:
#
#   tools/vm/fetch-sysroot build/sysroot-arm64
#   cmake -S . -B build/guest-arm64 \
#         --toolchain cmake/aarch64-linux-gnu.cmake -DEDGEDMA_STATIC=ON
#
# The compiler keeps its own default sysroot (/usr/aarch64-linux-gnu: libc
# and libstdc++, static archives included), so CMAKE_SYSROOT stays unset.
# Everything else comes from EDGEDMA_SYSROOT, the arm64 packages that
# fetch-sysroot unpacked: it is the only find root, and pkg-config reads only
# its .pc files. Nothing from the host's /usr/include or /usr/lib gets in.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT EDGEDMA_SYSROOT)
  set(EDGEDMA_SYSROOT "${CMAKE_CURRENT_LIST_DIR}/../build/sysroot-arm64")
endif()
get_filename_component(EDGEDMA_SYSROOT "${EDGEDMA_SYSROOT}" ABSOLUTE)
# try_compile projects read this file again and need the same folder.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EDGEDMA_SYSROOT)

if(NOT EXISTS "${EDGEDMA_SYSROOT}/usr/include/libnl3/netlink/genl/genl.h")
  message(FATAL_ERROR
    "No arm64 libraries in ${EDGEDMA_SYSROOT}.\n"
    "Run: tools/vm/fetch-sysroot ${EDGEDMA_SYSROOT}\n"
    "(or pass -DEDGEDMA_SYSROOT=<folder it filled>)")
endif()

set(CMAKE_FIND_ROOT_PATH "${EDGEDMA_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # build tools run on the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config: only the sysroot's .pc files, with their paths moved into it.
# Debian's libnl puts its libraries under lib/aarch64-linux-gnu while the .pc
# files say usr/lib/...; CMake's search of <root>/lib/<arch> finds them.
set(ENV{PKG_CONFIG_LIBDIR}
  "${EDGEDMA_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${EDGEDMA_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${EDGEDMA_SYSROOT}")
unset(ENV{PKG_CONFIG_PATH})
