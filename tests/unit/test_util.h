/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the cmocka tests: temp trees and small files. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"

static inline void put_file(const char *dir, const char *rel, const char *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		abort();
	}
	fputs(s, f);
	fclose(f);
}

static inline char *get_file(const char *dir, const char *rel)
{
	static char buf[8192];
	char path[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* mkdir -p DIR/REL. */
static inline void mk(const char *dir, const char *rel)
{
	char path[4200], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static inline char *tmp_tree(void)
{
	char tmpl[] = "/tmp/hibernate-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	return d ? strdup(d) : NULL;
}

/* rm -rf a tree of tmp_tree(), and free its name. */
static inline void rm_tree(char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	free(dir);
}

/* C parsed from TEXT as file t.conf: what conf_parse_buffer() returns. */
static inline int parse_text(struct conf *c, const char *text)
{
	conf_init(c);
	return conf_parse_buffer(c, "t.conf", text, strlen(text));
}

#endif
