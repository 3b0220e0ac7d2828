/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configfs tree: text in, typed values out.  Validation happens here;
 * decisions happen in the core.
 */
#ifndef _SUSPEND2_CONFIGFS_H
#define _SUSPEND2_CONFIGFS_H

#include <linux/configfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include "../internal.h"

struct s2_profile {
	struct config_group group;
	struct list_head node;
	struct s2_settings set;
};

static inline struct s2_profile *to_s2_profile(struct config_item *item)
{
	return container_of(to_config_group(item), struct s2_profile, group);
}

/* Protects the profile list, every profile's settings and the selection. */
extern struct mutex s2_cfg_mutex;
extern struct configfs_subsystem s2_subsys;

struct s2_profile *s2_profile_lookup(const char *name);
/* Under s2_cfg_mutex: a cycle runs, or an action is about to start one. */
bool s2_cfg_busy(void);
void s2_cfg_set_running(bool running);
extern const struct config_item_type s2_profiles_type;
extern const struct config_item_type s2_results_type;

/*
 * configfs/parse.c.  Copies @buf without its trailing newline;
 * -ENAMETOOLONG if it does not fit, -EINVAL if it holds a NUL or newline.
 */
int s2_copy_word(char *dst, size_t size, const char *buf, size_t count);
/*
 * Index of the whole word @buf (a trailing newline allowed, nothing else)
 * in @names, @n of them or up to a NULL when -1; -EINVAL if none.
 */
int s2_match_word(const char * const *names, size_t n, const char *buf,
		  size_t count);
/* A decimal number in [min, max]: -EINVAL if malformed, -ERANGE if out. */
int s2_parse_u64(const char *buf, size_t count, u64 min, u64 max, u64 *out);
int s2_parse_u32(const char *buf, size_t count, u64 min, u64 max, u32 *out);
/* "keyring:NAME", NAME 1 to 64 of A-Z a-z 0-9 . _ - */
bool s2_keyspec_valid(const char *spec);

#endif /* _SUSPEND2_CONFIGFS_H */
