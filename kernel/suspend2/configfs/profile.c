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

int s2_copy_word(char *dst, size_t size, const char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		count--;
	if (count >= size)
		return -ENAMETOOLONG;
	if (memchr(buf, '\0', count) || memchr(buf, '\n', count))
		return -EINVAL;
	memcpy(dst, buf, count);
	dst[count] = '\0';
	return 0;
}

int s2_match_word(const char * const *names, size_t n, const char *buf,
		  size_t count)
{
	char word[32];

	if (s2_copy_word(word, sizeof(word), buf, count))
		return -EINVAL;
	return match_string(names, n, word);
}

/*
 * Runs @apply on the profile under the settings lock, refusing while a
 * cycle runs: the cycle works on a copy, but a change then would be a
 * surprise to whoever started it.
 */
static ssize_t s2_profile_update(struct config_item *item, size_t count,
				 void (*apply)(struct s2_settings *set,
					       const void *value),
				 const void *value)
{
	struct s2_profile *p = to_s2_profile(item);

	guard(mutex)(&s2_cfg_mutex);
	if (s2_cfg_busy())
		return -EBUSY;
	apply(&p->set, value);
	return count;
}

static ssize_t s2_profile_show(struct config_item *item, char *page,
			       ssize_t (*show)(const struct s2_settings *set,
					       char *page))
{
	struct s2_profile *p = to_s2_profile(item);
	ssize_t ret;

	mutex_lock(&s2_cfg_mutex);
	ret = show(&p->set, page);
	mutex_unlock(&s2_cfg_mutex);
	return ret;
}

/*
 * A number as the contract has it: plain decimal digits without sign,
 * space or leading zero, at most a trailing newline and nothing else (not
 * even a NUL), so that what is stored reads back exactly as written.
 * configfs ends @buf with a NUL at @count.
 */
static int s2_parse_u64(const char *buf, size_t count, u64 min, u64 max,
			u64 *out)
{
	size_t len = count && buf[count - 1] == '\n' ? count - 1 : count;
	int error;

	if (!len || (buf[0] == '0' && len > 1) ||
	    strspn(buf, "0123456789") != len)
		return -EINVAL;
	error = kstrtou64(buf, 10, out);
	if (error)
		return error;
	return *out < min || *out > max ? -ERANGE : 0;
}

static int s2_parse_u32(const char *buf, size_t count, u32 min, u32 max,
			u32 *out)
{
	u64 value;
	int error = s2_parse_u64(buf, count, min, max, &value);

	if (!error)
		*out = value;
	return error;
}

/* Defines show/store for a u32 tunable with an inclusive range. */
#define S2_U32_ATTR(_name, _min, _max)					\
static ssize_t show_##_name(const struct s2_settings *set, char *page)	\
{									\
	return sysfs_emit(page, "%u\n", set->_name);			\
}									\
static void apply_##_name(struct s2_settings *set, const void *value)	\
{									\
	set->_name = *(const u32 *)value;				\
}									\
static ssize_t s2_profile_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return s2_profile_show(item, page, show_##_name);		\
}									\
static ssize_t s2_profile_##_name##_store(struct config_item *item,	\
					  const char *buf, size_t count)\
{									\
	u32 value;							\
	int error = s2_parse_u32(buf, count, _min, _max, &value);	\
									\
	if (error)							\
		return error;						\
	return s2_profile_update(item, count, apply_##_name, &value);	\
}									\
CONFIGFS_ATTR(s2_profile_, _name)

S2_U32_ATTR(compress_threads, 0, 64);
S2_U32_ATTR(freezer_timeout_ms, 100, 600000);
S2_U32_ATTR(io_depth, 1, 1024);
S2_U32_ATTR(force, 0, 1);

/* Defines show and the apply step for a string tunable. */
#define S2_STRING_ATTR(_name)						\
static ssize_t show_##_name(const struct s2_settings *set, char *page)	\
{									\
	return sysfs_emit(page, "%s\n", set->_name);			\
}									\
static void apply_##_name(struct s2_settings *set, const void *value)	\
{									\
	strscpy(set->_name, value, sizeof(set->_name));			\
}									\
static ssize_t s2_profile_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return s2_profile_show(item, page, show_##_name);		\
}

S2_STRING_ATTR(writer);

static ssize_t s2_profile_writer_store(struct config_item *item,
				       const char *buf, size_t count)
{
	char value[S2_WRITER_MAX];
	int error = s2_copy_word(value, sizeof(value), buf, count);

	if (error)
		return error == -ENAMETOOLONG ? -EINVAL : error;
	if (!s2_writer_find(value))
		return -EINVAL;
	return s2_profile_update(item, count, apply_writer, value);
}
CONFIGFS_ATTR(s2_profile_, writer);

S2_STRING_ATTR(target);

static ssize_t s2_profile_target_store(struct config_item *item,
				       const char *buf, size_t count)
{
	struct s2_profile *p = to_s2_profile(item);
	const struct s2_writer_ops *ops;
	char *value;
	ssize_t ret;

	value = kmalloc(S2_TARGET_MAX, GFP_KERNEL);
	if (!value)
		return -ENOMEM;
	ret = s2_copy_word(value, S2_TARGET_MAX, buf, count);
	if (!ret && value[0] && value[0] != '/')
		ret = -EINVAL;
	/* An empty target is allowed: it clears the setting. */
	if (!ret && value[0]) {
		mutex_lock(&s2_cfg_mutex);
		ops = s2_writer_find(p->set.writer);
		mutex_unlock(&s2_cfg_mutex);
		ret = ops ? s2_writer_validate(ops, value) : -EINVAL;
	}
	if (!ret)
		ret = s2_profile_update(item, count, apply_target, value);
	kfree(value);
	return ret;
}
CONFIGFS_ATTR(s2_profile_, target);

S2_STRING_ATTR(compressor);

static ssize_t s2_profile_compressor_store(struct config_item *item,
					   const char *buf, size_t count)
{
	int i = s2_match_word(s2_compressor_names, -1, buf, count);

	if (i < 0 || !s2_compressor_available(s2_compressor_names[i]))
		return -EINVAL;
	return s2_profile_update(item, count, apply_compressor,
				 s2_compressor_names[i]);
}
CONFIGFS_ATTR(s2_profile_, compressor);

/* Defines show/store for a tunable that is one word of a name table. */
#define S2_ENUM_ATTR(_name, _names)				\
static ssize_t show_##_name(const struct s2_settings *set, char *page)	\
{									\
	return sysfs_emit(page, "%s\n", _names[set->_name]);		\
}									\
static void apply_##_name(struct s2_settings *set, const void *value)	\
{									\
	set->_name = *(const int *)value;				\
}									\
static ssize_t s2_profile_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return s2_profile_show(item, page, show_##_name);		\
}									\
static ssize_t s2_profile_##_name##_store(struct config_item *item,	\
					  const char *buf, size_t count)\
{									\
	int i = s2_match_word(_names, ARRAY_SIZE(_names), buf, count);	\
									\
	if (i < 0)							\
		return -EINVAL;						\
	return s2_profile_update(item, count, apply_##_name, &i);	\
}									\
CONFIGFS_ATTR(s2_profile_, _name)

S2_ENUM_ATTR(checksum, s2_checksum_names);
S2_ENUM_ATTR(powerdown, s2_powerdown_names);

static ssize_t show_image_size_limit(const struct s2_settings *set,
				     char *page)
{
	return sysfs_emit(page, "%llu\n", set->image_size_limit);
}

static void apply_image_size_limit(struct s2_settings *set, const void *value)
{
	set->image_size_limit = *(const u64 *)value;
}

static ssize_t s2_profile_image_size_limit_show(struct config_item *item,
						char *page)
{
	return s2_profile_show(item, page, show_image_size_limit);
}

static ssize_t s2_profile_image_size_limit_store(struct config_item *item,
						 const char *buf, size_t count)
{
	u64 value;
	int error = s2_parse_u64(buf, count, 0, S64_MAX, &value);

	if (error)
		return error;
	return s2_profile_update(item, count, apply_image_size_limit, &value);
}
CONFIGFS_ATTR(s2_profile_, image_size_limit);

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
	mutex_lock(&s2_cfg_mutex);
	strscpy(target, p->set.target, S2_TARGET_MAX);
	ops = s2_writer_find(p->set.writer);
	mutex_unlock(&s2_cfg_mutex);
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

static struct configfs_attribute *s2_profile_attrs[] = {
	&s2_profile_attr_writer,
	&s2_profile_attr_target,
	&s2_profile_attr_compressor,
	&s2_profile_attr_compress_threads,
	&s2_profile_attr_checksum,
	&s2_profile_attr_image_size_limit,
	&s2_profile_attr_freezer_timeout_ms,
	&s2_profile_attr_io_depth,
	&s2_profile_attr_powerdown,
	&s2_profile_attr_force,
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
	mutex_lock(&s2_cfg_mutex);
	list_add_tail(&p->node, &s2_profiles);
	mutex_unlock(&s2_cfg_mutex);
	return &p->group;
}

static void s2_profile_drop(struct config_group *group,
			    struct config_item *item)
{
	struct s2_profile *p = to_s2_profile(item);

	mutex_lock(&s2_cfg_mutex);
	list_del(&p->node);
	mutex_unlock(&s2_cfg_mutex);
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
