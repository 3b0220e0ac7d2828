/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel keyring, through which the module gets the public key and
 * the owner authentication key an image is encrypted for (logon key
 * "suspend2:NAME", the two 32-byte keys in a row) and, at resume, the
 * unwrapped image key (logon key "suspend2:img:<image id>").  Always the
 * process keyring: the keys die with this process.  Raw system calls, so
 * the static binary needs no libkeyutils.
 */
#ifndef HIB_KEYRING_H
#define HIB_KEYRING_H

#include <stddef.h>
#include <stdint.h>

/* The key's serial number (> 0), or -errno. */
int32_t kr_add(const char *type, const char *desc, const void *buf,
	       size_t len);
/* 0 or -errno. */
int kr_invalidate(int32_t id);

#endif
