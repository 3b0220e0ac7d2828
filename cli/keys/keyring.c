// SPDX-License-Identifier: GPL-2.0
/* add_key(2) and keyctl(KEYCTL_INVALIDATE) on the process keyring. */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "keys/keyring.h"

/* From <linux/keyctl.h>, which not every libc's headers carry. */
#define HIB_KEY_SPEC_PROCESS_KEYRING	-2
#define HIB_KEYCTL_INVALIDATE		21

int32_t kr_add(const char *type, const char *desc, const void *buf,
	       size_t len)
{
	long id = syscall(SYS_add_key, type, desc, buf, len,
			  HIB_KEY_SPEC_PROCESS_KEYRING);

	return id < 0 ? -errno : (int32_t)id;
}

int kr_invalidate(int32_t id)
{
	return syscall(SYS_keyctl, HIB_KEYCTL_INVALIDATE, id) < 0 ? -errno : 0;
}
