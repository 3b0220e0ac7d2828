// SPDX-License-Identifier: GPL-2.0
/*
 * Text in, typed values out: the words and numbers of configfs writes,
 * with nothing of configfs itself, so tests/configfs_kunit.c builds it.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "configfs.h"

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

/*
 * configfs ends @buf with a NUL at @count, so one before it would cut the
 * word short: refuse it rather than match what precedes it.
 */
int s2_match_word(const char * const *names, size_t n, const char *buf,
		  size_t count)
{
	if (strnlen(buf, count) != count)
		return -EINVAL;
	return __sysfs_match_string(names, n, buf);
}

/*
 * A number as the contract has it: plain decimal digits without sign,
 * space or leading zero, at most a trailing newline and nothing else (not
 * even a NUL), so that what is stored reads back exactly as written.
 * configfs ends @buf with a NUL at @count.
 */
int s2_parse_u64(const char *buf, size_t count, u64 min, u64 max, u64 *out)
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

int s2_parse_u32(const char *buf, size_t count, u64 min, u64 max, u32 *out)
{
	u64 value;
	int error = s2_parse_u64(buf, count, min, max, &value);

	if (!error)
		*out = value;
	return error;
}

bool s2_keyspec_valid(const char *spec)
{
	size_t len;

	if (!str_has_prefix(spec, S2_KEYRING_PREFIX))
		return false;
	spec += strlen(S2_KEYRING_PREFIX);
	len = strspn(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
	/* A letter or digit first, as hibernate(8) names key files. */
	return len && len <= S2_KEYNAME_MAX && !spec[len] && isalnum(spec[0]);
}
