/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may make hibernate change the system, and which files it trusts:
 * the root check, and the owner and mode rules for the files whose
 * contents root ends up running (the configuration with hooks, the
 * programs the hooks name) or that hold secrets (key files).
 */
#ifndef HIB_PERM_H
#define HIB_PERM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PERM_ROOT_MSG \
	"must be run as root (it freezes every process and writes the memory image)"

bool perm_is_root(void);
int perm_need_root(void);
int perm_owner_mode(const char *file, uid_t uid, mode_t mode, char *why,
		    size_t len);
int perm_secret(const char *file, uid_t uid, mode_t mode, char *why,
		size_t len);
int perm_hook_command(const char *cmd, char *why, size_t len);
/*
 * PATH and every directory above it root's alone (a sticky directory of
 * root's passes), no component a symbolic link of another user's: 0, or
 * -EPERM or -errno with why.
 */
int perm_path_trusted(const char *path, char *why, size_t len);
/* The same along PATH as written and along the path it resolves to. */
int perm_program_trusted(const char *path, char *why, size_t len);
/*
 * As perm_program_trusted(), but a sticky directory others may write
 * (/tmp) fails too, as OpenSSH judges the directories above
 * authorized_keys: for what holds keys.
 */
int perm_path_strict(const char *path, char *why, size_t len);
/* "a FIFO", "a directory", ... for a file that should be a regular one. */
const char *perm_file_type(mode_t mode);
/*
 * PATH opened to read when it is a regular file, never waiting on a FIFO
 * or opening a device: the fd, or -errno with why (-EINVAL: "not a
 * regular file (a FIFO)").
 */
int perm_open_regular(const char *path, char *why, size_t len);

#endif
