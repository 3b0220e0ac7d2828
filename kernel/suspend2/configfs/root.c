// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/config/suspend2: the subsystem and its top-level attributes.
 * The layout is documented in docs/configfs.md, the contract user space
 * codes against.
 */
#include <linux/capability.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "../compress/compress.h"
#include "../tpm/tpm.h"
#include "../writers/writer.h"
#include "../core/stale.h"
#include "configfs.h"

/* The profile the next action uses; pinned so rmdir cannot remove it. */
static struct s2_profile *s2_selected;

static ssize_t s2_version_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "suspend2 %s image-format %d\n", S2_VERSION,
			  S2_FORMAT_VERSION);
}
CONFIGFS_ATTR_RO(s2_, version);

static ssize_t s2_capabilities_show(struct config_item *item, char *page)
{
	const char *name, *no_tpm;
	ssize_t len;
	bool tpm_ok;
	int i;

	len = sysfs_emit(page, "compressors:");
	for (i = 0; s2_compressor_names[i]; i++)
		if (s2_compressor_available(s2_compressor_names[i]))
			len += sysfs_emit_at(page, len, " %s",
					     s2_compressor_names[i]);
	/* Those of them that take a level here (compressor = zstd:1). */
	len += sysfs_emit_at(page, len, "\nlevels:");
	for (i = 0; s2_compressor_names[i]; i++)
		if (s2_compressor_level_available(s2_compressor_names[i]))
			len += sysfs_emit_at(page, len, " %s",
					     s2_compressor_names[i]);
	len += sysfs_emit_at(page, len, "\nwriters:");
	for (i = 0; (name = s2_writer_name(i)); i++)
		len += sysfs_emit_at(page, len, " %s", name);
	len += sysfs_emit_at(page, len, "\nchecksums:");
	for (i = 0; i < ARRAY_SIZE(s2_checksum_names); i++)
		len += sysfs_emit_at(page, len, " %s", s2_checksum_names[i]);
	len += sysfs_emit_at(page, len, "\nencryption:");
	for (i = 0; i < S2_NR_ENC; i++)
		if (s2_aead_available(i))
			len += sysfs_emit_at(page, len, " %s",
					     s2_encryption_names[i]);
	tpm_ok = s2_tpm_usable(&no_tpm);
	len += sysfs_emit_at(page, len, "\nkeys: keyring%s", tpm_ok ? " tpm" : "");
	/* The kernel's own reason, so that user space need not guess it. */
	if (!tpm_ok)
		len += sysfs_emit_at(page, len, "\ntpm-refused: %s", no_tpm);
	len += sysfs_emit_at(page, len, "\ntpm: %s", s2_tpm_version());
	len += sysfs_emit_at(page, len, "\npowerdown:");
	for (i = 0; i < S2_NR_POWERDOWN; i++)
		if (s2_word_offered(s2_powerdown_names, i))
			len += sysfs_emit_at(page, len, " %s",
					     s2_powerdown_names[i]);
	len += sysfs_emit_at(page, len, "\nactions:");
	for (i = 0; i < S2_NR_ACTIONS; i++)
		len += sysfs_emit_at(page, len, " %s", s2_action_names[i]);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}
CONFIGFS_ATTR_RO(s2_, capabilities);

static ssize_t s2_state_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%s\n", s2_state_names[s2_state_get()]);
}
CONFIGFS_ATTR_RO(s2_, state);

static ssize_t s2_profile_show(struct config_item *item, char *page)
{
	guard(mutex)(&s2_cfg_mutex);
	return sysfs_emit(page, "%s\n", s2_selected ?
			  config_item_name(&s2_selected->group.cg_item) : "");
}

static ssize_t s2_profile_store(struct config_item *item, const char *buf,
				size_t count)
{
	char name[S2_NAME_MAX];
	struct s2_profile *new = NULL, *old;
	int error;

	error = s2_copy_word(name, sizeof(name), buf, count);
	if (error)
		return error == -ENAMETOOLONG ? -ENOENT : error;

	scoped_guard(mutex, &s2_cfg_mutex) {
		if (s2_cfg_busy())
			return -EBUSY;
		if (name[0]) {
			new = s2_profile_lookup(name);
			if (!new)
				return -ENOENT;
		}
		old = s2_selected;
		if (new && new != old) {
			error = configfs_depend_item_unlocked(&s2_subsys,
							      &new->group.cg_item);
			if (error)
				return error;
		}
		s2_selected = new;
	}
	if (old && old != new)
		configfs_undepend_item_unlocked(&old->group.cg_item);
	return count;
}
CONFIGFS_ATTR(s2_, profile);

/*
 * The settings are copied, checked and the action claimed in one critical
 * section, so neither a profile change nor a second action can slip in
 * between; the cycle itself runs without the lock, on the copy.
 */
static int s2_action_claim(int action, struct s2_settings *set, char *profile)
{
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	if (!s2_selected) {
		pr_err("suspend2: %s: no profile selected\n",
		       s2_action_names[action]);
		return -ENOENT;
	}
	strscpy(profile, config_item_name(&s2_selected->group.cg_item),
		S2_NAME_MAX);
	if (!s2_selected->set.target[0]) {
		pr_err("suspend2: %s: profile %s has no target\n",
		       s2_action_names[action], profile);
		return -EINVAL;
	}
	if (s2_selected->set.encryption != S2_ENC_NONE &&
	    !s2_selected->set.key[0] && action != S2_ACT_RESUME &&
	    action != S2_ACT_INVALIDATE) {
		pr_err("suspend2: %s: profile %s: encryption %s needs key = keyring:NAME\n",
		       s2_action_names[action], profile,
		       s2_encryption_names[s2_selected->set.encryption]);
		return -EINVAL;
	}
	*set = s2_selected->set;
	s2_cfg_set_running(true);
	return 0;
}

/*
 * Read on every read of /sys/power/state, which anyone may do: holders
 * of s2_cfg_mutex keep it short and never across a freeze (the cycle
 * runs on a copy, without it), so such a reader never waits long.
 */
bool s2_selected_is_sealed(void)
{
	guard(mutex)(&s2_cfg_mutex);
	return s2_selected && s2_selected->set.target[0] &&
	       s2_selected->set.encryption != S2_ENC_NONE &&
	       s2_key_is_tpm(&s2_selected->set);
}

int s2_run_selected(enum s2_action action)
{
	struct s2_settings *set __free(kfree) = NULL;
	char profile[S2_NAME_MAX];
	int error;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return -ENOMEM;

	/* A retry of a refused image's anchor is no reason to fail busy. */
	s2_stale_hold();
	error = s2_action_claim(action, set, profile);
	if (error) {
		s2_stale_release(action, set, error);
		return error;
	}
	error = s2_action_run(action, set, profile);
	scoped_guard(mutex, &s2_cfg_mutex)
		s2_cfg_set_running(false);
	s2_stale_release(action, set, error);
	return error;
}

static ssize_t s2_action_store(struct config_item *item, const char *buf,
			       size_t count)
{
	int action = s2_match_word(s2_action_names, S2_NR_ACTIONS, buf, count);
	int error;

	if (action < 0)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	error = s2_run_selected(action);
	return error ? error : count;
}
CONFIGFS_ATTR_WO(s2_, action);

static struct configfs_attribute *s2_root_attrs[] = {
	&s2_attr_version,
	&s2_attr_capabilities,
	&s2_attr_state,
	&s2_attr_profile,
	&s2_attr_action,
	NULL,
};

static const struct config_item_type s2_root_type = {
	.ct_attrs = s2_root_attrs,
	.ct_owner = THIS_MODULE,
};

struct configfs_subsystem s2_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "suspend2",
			.ci_type = &s2_root_type,
		},
	},
};

static struct config_group s2_profiles_group;
static struct config_group s2_results_group;

int s2_configfs_init(void)
{
	config_group_init(&s2_subsys.su_group);
	mutex_init(&s2_subsys.su_mutex);
	config_group_init_type_name(&s2_profiles_group, "profiles",
				    &s2_profiles_type);
	configfs_add_default_group(&s2_profiles_group, &s2_subsys.su_group);
	config_group_init_type_name(&s2_results_group, "results",
				    &s2_results_type);
	configfs_add_default_group(&s2_results_group, &s2_subsys.su_group);
	return configfs_register_subsystem(&s2_subsys);
}

void s2_configfs_exit(void)
{
	configfs_unregister_subsystem(&s2_subsys);
}
