// SPDX-License-Identifier: GPL-2.0
/*
 * profiles/NAME/: one attribute per tunable.  Every store parses and
 * checks first and changes the profile only when the value is good, so a
 * bad write leaves the old value in place.
 */
#include <linux/blkdev.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "../compress/compress.h"
#include "../writers/writer.h"
#include "configfs.h"

/* Protects s2_profiles, every profile's settings and the selection. */
DEFINE_MUTEX(s2_cfg_mutex);
static LIST_HEAD(s2_profiles);
/* An action took its settings and runs; set and cleared under the lock. */
static bool s2_cfg_action_running;

/*
 * Busy is decided under s2_cfg_mutex, where an action also claims it:
 * a check before taking the lock could pass just before an action starts.
 * The cycle's own mutex covers resume= at module load.
 */
bool s2_cfg_busy(void)
{
	lockdep_assert_held(&s2_cfg_mutex);
	return s2_cfg_action_running || s2_busy();
}

void s2_cfg_set_running(bool running)
{
	lockdep_assert_held(&s2_cfg_mutex);
	s2_cfg_action_running = running;
}

struct s2_profile *s2_profile_lookup(const char *name)
{
	struct s2_profile *p;

	lockdep_assert_held(&s2_cfg_mutex);
	list_for_each_entry(p, &s2_profiles, node)
		if (!strcmp(config_item_name(&p->group.cg_item), name))
			return p;
	return NULL;
}

/*
 * Every store parses into a local first, so a bad value leaves the old one
 * in place, then assigns under s2_cfg_mutex unless a cycle runs: the cycle
 * works on a copy, but a change then would be a surprise to whoever
 * started it.  The stores of text tunables, each with its own check, are
 * written out; the rest are generated from names.h's table, as are the
 * shows, by how the tunable is kept (its store column).
 */
#define S2_SHOW_text(name)	"%s\n", p->set.name
#define S2_SHOW_index(name)	"%s\n", s2_##name##_names[p->set.name]
#define S2_SHOW_aead		S2_SHOW_index
#define S2_SHOW_u32(name)	"%u\n", p->set.name
#define S2_SHOW_u64(name)	"%llu\n", p->set.name

#define S2_STORE_text(...)
#define S2_STORE_aead(...)
#define S2_STORE_u32(name, type, min, max)				\
static ssize_t s2_profile_##name##_store(struct config_item *item,	\
					 const char *buf, size_t count)	\
{									\
	type value;							\
	int error = s2_parse_##type(buf, count, min, max, &value);	\
									\
	if (error)							\
		return error;						\
	guard(mutex)(&s2_cfg_mutex);					\
	if (s2_cfg_busy())						\
		return -EBUSY;						\
	to_s2_profile(item)->set.name = value;				\
	return count;							\
}

#define S2_STORE_u64		S2_STORE_u32

#define S2_STORE_index(name, ...)					\
static ssize_t s2_profile_##name##_store(struct config_item *item,	\
					 const char *buf, size_t count)	\
{									\
	int i = s2_match_word(s2_##name##_names,			\
			      ARRAY_SIZE(s2_##name##_names), buf, count); \
									\
	if (i < 0)							\
		return i;						\
	if (!s2_word_offered(s2_##name##_names, i))			\
		return -EOPNOTSUPP;					\
	guard(mutex)(&s2_cfg_mutex);					\
	if (s2_cfg_busy())						\
		return -EBUSY;						\
	to_s2_profile(item)->set.name = i;				\
	return count;							\
}

#define S2_PROFILE_ATTR(name, store, def, min, max, ...)		\
static ssize_t s2_profile_##name##_show(struct config_item *item,	\
					char *page)			\
{									\
	struct s2_profile *p = to_s2_profile(item);			\
									\
	guard(mutex)(&s2_cfg_mutex);					\
	return sysfs_emit(page, S2_SHOW_##store(name));			\
}									\
S2_STORE_##store(name, store, min, max)					\
CONFIGFS_ATTR(s2_profile_, name);

static ssize_t s2_profile_writer_store(struct config_item *item,
				       const char *buf, size_t count)
{
	char value[S2_WRITER_MAX];
	int error = s2_copy_word(value, sizeof(value), buf, count);

	if (error)
		return error == -ENAMETOOLONG ? -EINVAL : error;
	if (!s2_writer_find(value))
		return -EINVAL;
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	strscpy(to_s2_profile(item)->set.writer, value);
	return count;
}

static ssize_t s2_profile_target_store(struct config_item *item,
				       const char *buf, size_t count)
{
	char *value __free(kfree) = kmalloc(S2_TARGET_MAX, GFP_KERNEL);
	struct s2_profile *p = to_s2_profile(item);
	const struct s2_writer_ops *ops;
	int error;

	if (!value)
		return -ENOMEM;
	error = s2_copy_word(value, S2_TARGET_MAX, buf, count);
	if (!error && value[0] && value[0] != '/')
		error = -EINVAL;
	/* An empty target is allowed: it clears the setting. */
	if (!error && value[0]) {
		scoped_guard(mutex, &s2_cfg_mutex)
			ops = s2_writer_find(p->set.writer);
		error = ops ? s2_writer_validate(ops, value) : -EINVAL;
	}
	if (error)
		return error;
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	strscpy(p->set.target, value);
	return count;
}

/*
 * NAME or NAME:LEVEL, of a compressor this kernel offers; a level only
 * where the library is there to take it (compress/compress.c).
 */
static ssize_t s2_profile_compressor_store(struct config_item *item,
					   const char *buf, size_t count)
{
	char value[S2_ALGO_LEN];
	int error = s2_copy_word(value, sizeof(value), buf, count);
	int i, level;

	if (!error)
		error = s2_compressor_parse(value, &i, &level);
	if (error)
		return error == -ERANGE ? error : -EINVAL;
	if (level == S2_NO_LEVEL ?
	    !s2_compressor_available(s2_compressor_names[i]) :
	    !s2_compressor_level_available(s2_compressor_names[i]))
		return -EINVAL;
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	strscpy(to_s2_profile(item)->set.compressor, value);
	return count;
}

/* Only an AEAD this kernel offers, as for the compressor. */
static ssize_t s2_profile_encryption_store(struct config_item *item,
					   const char *buf, size_t count)
{
	int i = s2_match_word(s2_encryption_names,
			      ARRAY_SIZE(s2_encryption_names), buf, count);

	if (i < 0 || !s2_aead_available(i))
		return -EINVAL;
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	to_s2_profile(item)->set.encryption = i;
	return count;
}

/*
 * "keyring:NAME": the public key the image key is wrapped for is the
 * user key "suspend2:NAME" (docs/image-encryption.md).  Empty clears it;
 * "tpm" is reserved for a key sealed to the TPM.
 */
static ssize_t s2_profile_key_store(struct config_item *item,
				    const char *buf, size_t count)
{
	char value[S2_KEYSPEC_MAX];
	int error = s2_copy_word(value, sizeof(value), buf, count);

	if (error)
		return error == -ENAMETOOLONG ? -EINVAL : error;
	/* Whether a TPM is there is checked when hibernating: it may bind later. */
	if (value[0] && strcmp(value, S2_KEY_TPM_SPEC) &&
	    !s2_keyspec_valid(value))
		return -EINVAL;
	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	strscpy(to_s2_profile(item)->set.key, value);
	return count;
}

S2_TUNABLES(S2_PROFILE_ATTR)

/*
 * Where resume finds an image written with this profile, "DEVICE:PAGE",
 * resolved from the target each time it is read (a swap file or plain file
 * that is recreated moves).  Reading fails with the writer's errno when
 * the target cannot be resolved now.
 */
static ssize_t s2_profile_resume_location_show(struct config_item *item,
					       char *page)
{
	struct s2_profile *p = to_s2_profile(item);
	const struct s2_writer_ops *ops;
	char *target, *dev;
	ssize_t ret;
	u64 where;

	target = kmalloc(S2_TARGET_MAX, GFP_KERNEL);
	dev = kmalloc(S2_TARGET_MAX, GFP_KERNEL);
	if (!target || !dev) {
		ret = -ENOMEM;
		goto out;
	}
	scoped_guard(mutex, &s2_cfg_mutex) {
		strscpy(target, p->set.target, S2_TARGET_MAX);
		ops = s2_writer_find(p->set.writer);
	}
	if (!target[0])
		ret = sysfs_emit(page, "\n");
	else
		ret = s2_writer_locate(ops, target, dev, S2_TARGET_MAX, &where) ?:
		      sysfs_emit(page, "%s:%llu\n", dev, where);
out:
	kfree(dev);
	kfree(target);
	return ret;
}
CONFIGFS_ATTR_RO(s2_profile_, resume_location);

#define S2_PROFILE_ATTR_PTR(name, ...)					\
	&s2_profile_attr_##name,
static struct configfs_attribute *s2_profile_attrs[] = {
	S2_TUNABLES(S2_PROFILE_ATTR_PTR)
	&s2_profile_attr_resume_location,
	NULL,
};

static void s2_profile_release(struct config_item *item)
{
	kfree(to_s2_profile(item));
}

static struct configfs_item_operations s2_profile_item_ops = {
	.release = s2_profile_release,
};

static const struct config_item_type s2_profile_type = {
	.ct_item_ops = &s2_profile_item_ops,
	.ct_attrs = s2_profile_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_group *s2_profile_make(struct config_group *group,
					    const char *name)
{
	struct s2_profile *p;

	if (strlen(name) >= S2_NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	s2_settings_default(&p->set);
	config_group_init_type_name(&p->group, name, &s2_profile_type);
	scoped_guard(mutex, &s2_cfg_mutex)
		list_add_tail(&p->node, &s2_profiles);
	return &p->group;
}

static void s2_profile_drop(struct config_group *group,
			    struct config_item *item)
{
	struct s2_profile *p = to_s2_profile(item);

	scoped_guard(mutex, &s2_cfg_mutex)
		list_del(&p->node);
	config_item_put(item);
}

static struct configfs_group_operations s2_profiles_group_ops = {
	.make_group = s2_profile_make,
	.drop_item = s2_profile_drop,
};

const struct config_item_type s2_profiles_type = {
	.ct_group_ops = &s2_profiles_group_ops,
	.ct_owner = THIS_MODULE,
};
