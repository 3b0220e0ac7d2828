/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the key files of an encrypted image may be used: owned and
 * guarded so that no one but root could have chosen the key an image is
 * wrapped for, or read a secret; and in the initramfs that will have to
 * unlock the image.  Each returns 0, or an error with why (what is wrong,
 * what was expected, the fix) in why.
 */
#ifndef HIB_KEYTRUST_H
#define HIB_KEYTRUST_H

#include <stddef.h>

/*
 * The key directory, NAME.pub, NAME.sec and NAME.auth, those that exist
 * (a missing one is for its reader to report): owned by root, writable by
 * no one else, regular files; NAME.sec and NAME.auth open to root alone;
 * every directory above the key directory root's alone, sticky or not
 * (keyfile_parents_trusted()).  0 or -EPERM.
 */
int keytrust_files(const char *name, char *why, size_t len);
/*
 * The initramfs of the running kernel, when there is one, must be newer
 * than the last change (contents, owner, mode, name) of NAME.pub and
 * NAME.sec, or it has an older key (or none), or copies that resume
 * refuses, and an image written now could not be unlocked at resume.
 * 0 or -ESTALE.
 */
int keytrust_initramfs(const char *name, char *why, size_t len);

#endif
