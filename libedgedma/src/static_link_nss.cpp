// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Built only for fully static links (EDGEDMA_STATIC).
//
// libnl-3 has helpers that turn host and protocol names into numbers through
// glibc's NSS. libedgedma never calls them, but they share archive members
// with functions it does call, so a static link drags in glibc's NSS lookups
// and ld warns that they need glibc's shared objects at run time, which a
// guest's initramfs does not have. The static link wraps those symbols
// (-Wl,--wrap, see ../CMakeLists.txt), so libnl's references land here and
// fail the way the real lookups would fail in such a guest.
#include <cerrno>

#include <netdb.h>

extern "C" {

int __wrap_getaddrinfo(const char *, const char *, const addrinfo *, addrinfo **result)
{
	*result = nullptr;
	errno = ENOSYS;
	return EAI_SYSTEM;
}

protoent *__wrap_getprotobyname(const char *)
{
	return nullptr;
}

protoent *__wrap_getprotobynumber(int)
{
	return nullptr;
}

} // extern "C"
