// SPDX-License-Identifier: GPL-2.0
/*
 * --status: where the profile's image would be, and what its header says
 * of it (the same page the kernel reads first on a resume), found as
 * hibernate --resume finds it; the key files and their modes.  And,
 * without the module, how to load it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "check/anchor.h"
#include "check/hint.h"
#include "check/imghdr.h"
#include "conf/conf.h"
#include "cycle/module.h"
#include "cycle/status.h"
#include "keys/keyfile.h"
#include "lib/cfs.h"
#include "lib/sysinfo.h"

static bool file_writer(const struct profile *p)
{
	const char *w = p->v[K_WRITER].value;

	return !strcmp(w, "swapfile") || !strcmp(w, "file");
}

/*
 * The anchor's "DEVICE:PAGE": resume_location, else what the module
 * worked out when the profile was written, else the target's first page
 * (of the device, or of the file's first block).  0, else -errno.
 */
static int image_location(const struct cfs *c, const struct profile *p,
			  char *loc, size_t len)
{
	const char *target = p->v[K_TARGET].value;
	char rel[160], path[PATH_MAX];
	struct stat st;
	int ret;

	if (p->v[K_RESUME_LOCATION].value)
		return hint_resolve_location(p->v[K_RESUME_LOCATION].value,
					     loc, len);
	snprintf(rel, sizeof(rel), "profiles/%s/resume_location", p->name);
	if (!cfs_read(c, rel, loc, len) && *loc)
		return 0;
	if (!target)
		return -ENOENT;
	if (hint_target_location(target, loc, len))
		return 0;
	ret = sys_resolve_target(target, path, sizeof(path));
	if (ret)
		return ret;
	if (stat(path, &st))
		return -errno;
	if (S_ISREG(st.st_mode) && file_writer(p))
		return sys_file_location(path, loc, len);
	snprintf(loc, len, "%s:0", path);
	return 0;
}

void status_image(const struct cfs *c, const struct profile *p,
		  struct status_image *img)
{
	uint8_t buf[IMGHDR_PAGE];
	struct utsname u;
	int ret;

	memset(img, 0, sizeof(*img));
	if (!p)
		return;
	img->looked = true;
	snprintf(img->profile, sizeof(img->profile), "%s", p->name);
	snprintf(img->target, sizeof(img->target), "%s",
		 p->v[K_TARGET].value ? p->v[K_TARGET].value : "");
	if (!uname(&u))
		snprintf(img->running, sizeof(img->running), "%s", u.release);
	ret = image_location(c, p, img->loc, sizeof(img->loc));
	if (ret) {
		img->where_err = -ret;
		img->loc[0] = '\0';
		return;
	}
	/* A page past the end (an empty file) holds no image either. */
	img->found = anchor_state(img->loc);
	if (img->found == -ENODATA)
		img->found = 0;
	if (img->found > 0)
		img->found = imghdr_read(img->loc, buf);
	if (img->found > 0)
		img->hdr_err = imghdr_parse(buf, sizeof(buf), &img->h);
}

void status_next(const struct cfs *c, const struct profile *p, char *out,
		 size_t len)
{
	const char *spec = p ? p->v[K_MODULE].value : MODULE_NAME;
	const char *argv[4];

	if (!cfs_is_default(c)) {
		snprintf(out, len,
			 "name the configfs directory of a loaded suspend2 with --configfs, or leave it out for %s",
			 CFS_DEFAULT_ROOT);
		return;
	}
	module_command(spec ? spec : MODULE_NAME, argv, 4);
	snprintf(out, len,
		 "load the module: %s %s %s (as hibernate itself does; resume= keeps it from resuming an image as it loads)%s; a cycle (hibernate, hibernate --test) loads it by itself",
		 argv[0], argv[1], argv[2],
		 configfs_mounted(CFS_MOUNT_POINT) ? "" :
		 ", then mount configfs: mount -t configfs none " CFS_MOUNT_POINT);
}

/* Profile P's keys (NULL: none), and the key files' modes. */
void status_keys(const struct profile *p, struct status_keys *k)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	struct stat st;
	DIR *d;

	memset(k, 0, sizeof(*k));
	if (p) {
		k->have_profile = true;
		snprintf(k->profile, sizeof(k->profile), "%s", p->name);
		snprintf(k->encryption, sizeof(k->encryption), "%s",
			 p->v[K_ENCRYPTION].value);
		snprintf(k->key, sizeof(k->key), "%s",
			 p->v[K_KEY].value ? p->v[K_KEY].value : "");
	}
	keyfile_dir(k->dir, sizeof(k->dir));
	d = opendir(k->dir);
	if (!d) {
		k->dir_err = errno;
		return;
	}
	if (!fstat(dirfd(d), &st))
		k->dir_mode = st.st_mode & 07777;
	while ((e = readdir(d)) && k->nfiles < STATUS_MAX_KEYFILES) {
		size_t n = strlen(e->d_name);

		if (n <= 4 || n >= sizeof(k->files[0].name) ||
		    (strcmp(e->d_name + n - 4, ".sec") &&
		     strcmp(e->d_name + n - 4, ".pub") &&
		     (n <= 5 || strcmp(e->d_name + n - 5, ".auth"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", k->dir, e->d_name);
		if (lstat(path, &st))
			continue;
		memcpy(k->files[k->nfiles].name, e->d_name, n + 1);
		k->files[k->nfiles++].mode = st.st_mode & 07777;
	}
	closedir(d);
}
