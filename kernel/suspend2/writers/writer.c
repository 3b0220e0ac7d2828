// SPDX-License-Identifier: GPL-2.0
/*
 * Registry of image writers.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include "writer.h"

const struct s2_writer_ops * const s2_writers[] = {
	&s2_swap_writer,
	NULL
};

const struct s2_writer_ops *s2_writer_find(const char *name)
{
	const struct s2_writer_ops * const *ops;

	for (ops = s2_writers; *ops; ops++)
		if (!strcmp((*ops)->name, name))
			return *ops;
	return NULL;
}

int s2_writer_open(struct s2_writer *w, const char *name, const char *target,
		   bool for_image)
{
	memset(w, 0, sizeof(*w));
	w->ops = s2_writer_find(name);
	if (!w->ops)
		return -EINVAL;
	return w->ops->open(w, target, for_image);
}

void s2_writer_close(struct s2_writer *w)
{
	if (w->ops)
		w->ops->close(w);
	w->ops = NULL;
}
