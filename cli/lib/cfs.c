// SPDX-License-Identifier: GPL-2.0
/*
 * configfs access.  Functions return 0 or -errno so callers can print the
 * kernel's own reason.  Values are written in one write(2) (configfs
 * takes one store per write) and read back without the trailing newline.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cfs.h"
#include "lib/plan.h"
#include "lib/strutil.h"

/* Appends "/NAME" (N bytes) to OUT, which holds USED bytes. */
static int add_name(char *out, size_t len, size_t *used, const char *name,
		    size_t n)
{
	if (*used + 1 + n + 1 > len)
		return -ENAMETOOLONG;
	out[(*used)++] = '/';
	memcpy(out + *used, name, n);
	*used += n;
	out[*used] = '\0';
	return 0;
}

/*
 * PATH made absolute and canonical in OUT: "." and empty names dropped,
 * each name that exists resolved with realpath() (a symbolic link, and
 * ".." after one, as the kernel would follow them), ".." after a name
 * that does not exist taken off it.  So /sys/kernel/config/./suspend2, a
 * link to /sys/kernel/config and a relative path all compare as the
 * tree they name, whether it exists yet or not.
 */
static int canonical_path(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX], *real;
	const char *p = path, *end;
	size_t used, n;
	bool exists = true;

	if (path[0] == '/') {
		out[0] = '\0';
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		if (strlen(cwd) >= len)
			return -ENAMETOOLONG;
		strcpy(out, strcmp(cwd, "/") ? cwd : "");
	}
	used = strlen(out);
	for (; *p; p = end) {
		p += strspn(p, "/");
		end = p + strcspn(p, "/");
		n = end - p;
		if (!n || (n == 1 && p[0] == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.' && !exists) {
			while (used && out[used - 1] != '/')
				used--;
			if (used)
				used--;
			out[used] = '\0';
			continue;
		}
		if (add_name(out, len, &used, p, n))
			return -ENAMETOOLONG;
		if (!exists)
			continue;
		real = realpath(out, NULL);
		if (!real) {
			/* Not there (yet): the rest is taken as written. */
			exists = false;
			if (n == 2 && p[0] == '.' && p[1] == '.') {
				used -= 3;
				while (used && out[used - 1] != '/')
					used--;
				if (used)
					used--;
				out[used] = '\0';
			}
			continue;
		}
		if (strlen(real) >= len) {
			free(real);
			return -ENAMETOOLONG;
		}
		strcpy(out, strcmp(real, "/") ? real : "");
		used = strlen(out);
		free(real);
	}
	if (!used)
		strcpy(out, "/");
	return 0;
}

int cfs_init(struct cfs *c, const char *root, bool dry_run, FILE *plan)
{
	char canon[PATH_MAX];
	size_t n;

	if (!root)
		root = CFS_DEFAULT_ROOT;
	if (!*root || canonical_path(root, canon, sizeof(canon)))
		return -ENAMETOOLONG;
	n = strlen(canon);
	if (n + 64 >= sizeof(c->root))
		return -ENAMETOOLONG;
	memcpy(c->root, canon, n + 1);
	c->dry_run = dry_run;
	c->plan = plan ? plan : stdout;
	c->framed = false;
	return 0;
}

bool cfs_is_default(const struct cfs *c)
{
	return !strcmp(c->root, CFS_DEFAULT_ROOT);
}

const char *cfs_path(const struct cfs *c, const char *rel, char *buf,
		     size_t len)
{
	if (rel && *rel)
		snprintf(buf, len, "%s/%s", c->root, rel);
	else
		snprintf(buf, len, "%s", c->root);
	return buf;
}

bool cfs_exists(const struct cfs *c, const char *rel)
{
	char path[PATH_MAX + 64];

	return !access(cfs_path(c, rel, path, sizeof(path)), F_OK);
}

int cfs_read(const struct cfs *c, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	size_t used = 0;
	ssize_t r;
	int fd, ret = 0;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	fd = open(cfs_path(c, rel, path, sizeof(path)), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (used + 1 < len) {
		r = read(fd, buf + used, len - 1 - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (!r)
			break;
		used += r;
	}
	close(fd);
	buf[used] = '\0';
	str_chomp(buf);
	return ret;
}

int cfs_write(const struct cfs *c, const char *rel, const char *val)
{
	char path[PATH_MAX + 64], data[4096];
	ssize_t r;
	size_t n;
	int fd, ret = 0;

	cfs_path(c, rel, path, sizeof(path));
	if (c->dry_run) {
		plan_put(c->plan, c->framed, PLAN_WRITE, path, val);
		return 0;
	}
	n = snprintf(data, sizeof(data), "%s\n", val);
	if (n >= sizeof(data))
		return -E2BIG;
	/* No O_CREAT: a missing attribute is an error, not a new file. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		r = write(fd, data, n);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		ret = -errno;
	else if ((size_t)r != n)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int cfs_mkdir(const struct cfs *c, const char *rel)
{
	char path[PATH_MAX + 64];

	cfs_path(c, rel, path, sizeof(path));
	if (c->dry_run) {
		plan_put(c->plan, c->framed, PLAN_MKDIR, path, NULL);
		return 0;
	}
	return mkdir(path, 0755) ? -errno : 0;
}

int cfs_rmdir(const struct cfs *c, const char *rel)
{
	char path[PATH_MAX + 64];

	cfs_path(c, rel, path, sizeof(path));
	if (c->dry_run) {
		plan_put(c->plan, c->framed, PLAN_RMDIR, path, NULL);
		return 0;
	}
	return rmdir(path) ? -errno : 0;
}

/*
 * The profile directories other than NAME, as "a b c" in BUF; false when
 * there are none (or profiles/ cannot be read).
 */
bool cfs_other_profiles(const struct cfs *c, const char *name, char *buf,
			size_t len)
{
	char path[PATH_MAX + 64];
	struct dirent *de;
	size_t used = 0;
	DIR *d;

	buf[0] = '\0';
	d = opendir(cfs_path(c, "profiles", path, sizeof(path)));
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, name))
			continue;
		if (used + strlen(de->d_name) + 2 > len)
			break;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? " " : "", de->d_name);
	}
	closedir(d);
	return used > 0;
}
